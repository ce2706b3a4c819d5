// Package errs is the one error type every service and front end shares:
// a refusal with a Code that decides how a front end answers it (an HTTP
// status, a message's tone), a finer Detail for programs, a sentence for
// people, and the cause for the logs only.
package errs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/banchess/banchess/rules"
)

// Code is the kind of a refusal: what a front end needs to decide how to
// answer (an HTTP status, a message's tone) without reading the message.
type Code string

// The codes a refusal has.
const (
	Invalid      Code = "invalid"      // the input cannot be read (a bad FEN, not an action)
	Illegal      Code = "illegal"      // a well-formed action the rules do not allow now
	Banned       Code = "banned"       // the move is the ban in force
	Conflict     Code = "conflict"     // the client saw another ply, or there is nothing to undo
	GameOver     Code = "game_over"    // the game has ended
	NotFound     Code = "not_found"    // no game has this id
	Unauthorized Code = "unauthorized" // no credential, or one nobody holds a seat with
	Forbidden    Code = "forbidden"    // the credential holds no seat that may do this now
	TooMany      Code = "too_many"     // over a limit on games, requests, streams or searches
	TooLarge     Code = "too_large"    // the request is larger than the server reads
	Timeout      Code = "timeout"      // the request did not arrive in time
	Unavailable  Code = "unavailable"  // the server cannot serve it now (busy, cancelled); the game is unchanged
	Internal     Code = "internal"     // the server failed; the game is unchanged
)

// Detail is a finer kind of refusal than its Code, for programs: BadFEN
// is an Invalid refusal. The API reports it in place of the code. It
// never changes how a refusal is answered: its Code decides that.
type Detail string

// The details the games layer gives.
const (
	BadVariant         Detail = "bad_variant"         // Invalid: no such variant
	BadFEN             Detail = "bad_fen"             // Invalid: the FEN cannot be read
	BadPGN             Detail = "bad_pgn"             // Invalid: the PGN cannot be read
	FENTooLong         Detail = "fen_too_long"        // Invalid: over Limits.MaxFENBytes
	PGNTooLong         Detail = "pgn_too_long"        // Invalid: a link's PGN over Limits.MaxLinkPGNBytes
	TooManyPlies       Detail = "too_many_plies"      // Invalid: over Limits.MaxPlies
	TooManyTags        Detail = "too_many_tags"       // Invalid: a PGN game over its tags
	TagTooLong         Detail = "tag_too_long"        // Invalid: a PGN tag's name or value too long
	CommentsTooLong    Detail = "comments_too_long"   // Invalid: a PGN game's comments too long in all
	TooManyVariations  Detail = "too_many_variations" // Invalid: a game over Limits.MaxVariations or MaxVariationDepth
	BadLink            Detail = "bad_link"            // Invalid: a share link that does not replay
	BadPly             Detail = "bad_ply"             // Invalid: no such ply in the game
	NotBCN             Detail = "not_bcn"             // Invalid: not an action
	PromotionNeeded    Detail = "promotion_needed"    // Invalid: a promotion without its piece
	NothingToUndo      Detail = "nothing_to_undo"     // Conflict: the game is at its start
	BadClock           Detail = "bad_clock"           // Invalid: not a time control
	BadInvite          Detail = "bad_invite"          // Forbidden: not the game's invite code
	SeatTaken          Detail = "seat_taken"          // Conflict: both seats are taken
	AlreadySeated      Detail = "already_seated"      // Conflict: joining a game with a credential that holds a seat in it
	BadOffer           Detail = "bad_offer"           // Invalid: not an offer
	NotInvite          Detail = "not_invite"          // Invalid: offers at a game not between two players
	BadPremove         Detail = "bad_premove"         // Invalid: a premove that is not a move (then a ban) of the player's own piece
	BadForecast        Detail = "bad_forecast"        // Invalid: forecasts not allowed now (not correspondence, the player's turn), or a line not legal
	NoOffer            Detail = "no_offer"            // Conflict: no such offer to answer
	TooLateToAbort     Detail = "too_late_to_abort"   // Conflict: both sides have acted: the game can no longer be aborted
	TooEarly           Detail = "too_early"           // Conflict: a side has yet to act: the game can be aborted, not resigned or drawn
	BadLevel           Detail = "bad_level"           // Invalid: not a level of the engine
	BadBudget          Detail = "bad_budget"          // Invalid: an analysis's time out of bounds
	BadDepth           Detail = "bad_depth"           // Invalid: an analysis's depth out of bounds
	UnsupportedVariant Detail = "unsupported_variant" // Invalid: the engine does not play this variant
	EngineBusy         Detail = "engine_busy"         // TooMany: every analyst busy, the queue full or the wait too long
	AnalysisRunning    Detail = "analysis_running"    // TooMany: the client has an analysis running or waiting already
	AnalysisRate       Detail = "analysis_rate"       // TooMany: the client has used its share of the engine's time
	AnalysisLocked     Detail = "analysis_locked"     // Forbidden: a game between two players, until it ends
	NoReview           Detail = "no_review"           // NotFound: the game as it stands has no review
	NoVariation        Detail = "no_variation"        // Invalid: no such variation or position of one
	NothingToReview    Detail = "nothing_to_review"   // Conflict: a review of a game with no ply
	ReviewQueueFull    Detail = "review_queue_full"   // TooMany: the server's reviews are queued to the limit
	TooManyReviews     Detail = "too_many_reviews"    // TooMany: the player or address has its reviews queued to the limit
	NoCookie           Detail = "no_cookie"           // Unauthorized: a form needs the player cookie its page set, and came without it
	Cancelled          Detail = "cancelled"           // Unavailable: the request was cancelled before it was served
	Busy               Detail = "busy"                // Unavailable: the store could not serve the game in time
	StoreDown          Detail = "store_down"          // Unavailable: the store does not answer (see ErrUnavailable)
	Unreadable         Detail = "unreadable"          // Internal: the game's stored record cannot be read
	BadColor           Detail = "bad_color"           // Invalid: not a colour to play
	BadName            Detail = "bad_name"            // Invalid: a name against the rules (CheckName)
	BadPassword        Detail = "bad_password"        // Invalid: a password too short or too long
	NameTaken          Detail = "name_taken"          // Conflict: another player has the name, in any case
	NameLookAlike      Detail = "name_look_alike"     // Conflict: the name looks like another player's (players.Skeleton)
	Named              Detail = "named"               // Conflict: the player has a name already
	BadLogin           Detail = "bad_login"           // Unauthorized: the name or the password is wrong
	TooManyLogins      Detail = "too_many_logins"     // TooMany: failed logins over the limit (RetryAfter)
	TooManySignups     Detail = "too_many_signups"    // TooMany: sign-ups from the address over the limit (RetryAfter)
	NoPlayer           Detail = "no_player"           // NotFound: no player has this name or id
	NameNeeded         Detail = "name_needed"         // Forbidden: rated play without a name
	OwnSeek            Detail = "own_seek"            // Conflict: accepting one's own seek
	SeekGone           Detail = "seek_gone"           // NotFound: the seek was accepted, cancelled or expired
	TooManySeeks       Detail = "too_many_seeks"      // Conflict: over MaxCustomSeeks
	SeeksFromAddress   Detail = "seeks_from_address"  // TooMany: the client address has MaxAddressSeeks open
	BadPage            Detail = "bad_page"            // Invalid: a page number that is not a whole number from 1
	BadPool            Detail = "bad_pool"            // Invalid: not a quick-pairing pool
	BadScope           Detail = "bad_scope"           // Invalid: not a token's scope
	MissingScope       Detail = "missing_scope"       // Forbidden: the token is limited to scopes without the one needed
	NotYourTurn        Detail = "not_your_turn"       // Invalid: lichess's API: a player of the game, out of turn
	BotNotAllowed      Detail = "bot_not_allowed"     // Forbidden: a bot account where bots may not go (the pools), or an account that cannot become one
	BadRoom            Detail = "bad_room"            // Invalid: not a chat room (player, spectator)
	NoChat             Detail = "no_chat"             // Invalid: a game without chat (not between two players)
	ChatRoom           Detail = "chat_room"           // Invalid: a chat room not the viewer's (players write in the players' room, others in the spectators')
	ChatEmpty          Detail = "chat_empty"          // Invalid: an empty chat line (or not text)
	ChatTooLong        Detail = "chat_too_long"       // Invalid: a chat line over chat.MaxRunes
	ChatRepeated       Detail = "chat_repeated"       // Invalid: the same as the author's previous line in the room
	ChatOff            Detail = "chat_off"            // Invalid: the player turned chat off
	ChatClosed         Detail = "chat_closed"         // Invalid: the game is over: its chat is read-only
	ChatAnonymous      Detail = "chat_anonymous"      // Invalid: an anonymous player at a game between two named players
	ChatRate           Detail = "chat_rate"           // TooMany: chat lines over the player's rate (RetryAfter)
	SelfRelation       Detail = "self_relation"       // Invalid: following, blocking or reporting oneself
	TooManyRelations   Detail = "too_many_relations"  // Conflict: over relations.MaxFollows or MaxBlocks
	Blocked            Detail = "blocked"             // Forbidden: one of the two players blocks the other (a seek, a challenge)
	BadRecovery        Detail = "bad_recovery"        // Unauthorized: the name or the recovery code is wrong, or the code was used
	AccountClosed      Detail = "account_closed"      // Forbidden: the account was closed by a moderator
	BadReason          Detail = "bad_reason"          // Invalid: a report's reason is not abuse, cheating or other; a challenge's decline not one of lichess's reasons
	BadReportText      Detail = "bad_report_text"     // Invalid: a report's text, or a moderator's why, missing or over moderation.MaxText
	TooManyReports     Detail = "too_many_reports"    // TooMany: the reporter has moderation.MaxOpenReports open
	NoLine             Detail = "no_line"             // NotFound: no such chat line in the reporter's room
	NoReport           Detail = "no_report"           // NotFound: no such report
	NotModerator       Detail = "not_moderator"       // NotFound: a moderator's page or action asked by someone else (answered as an unknown page)
	BadMute            Detail = "bad_mute"            // Invalid: a mute's length is not one of moderation.Mutes
	ChatMuted          Detail = "chat_muted"          // Forbidden: a moderator muted the writer's chat for a while
	RecoveryCodesRate  Detail = "recovery_codes_rate" // TooMany: recovery codes made players.RecoveryCodeSets times in the hour (RetryAfter)
)

// Error is a refused request. Msg is a sentence for a person; Detail, when
// set, is a finer machine word than Code. RetryAfter, when set, is how
// long the client should wait before it tries again. Err is the cause, for
// logs only: it is never shown.
type Error struct {
	Code       Code
	Detail     Detail
	Msg        string
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil && (e.Code == Internal || e.Code == Unavailable) {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of code with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// WithDetail sets e's Detail and returns e.
func (e *Error) WithDetail(detail Detail) *Error {
	e.Detail = detail
	return e
}

// internalMsg is all a user learns of a server failure.
const internalMsg = "Something went wrong on the server; the game is unchanged. Please try again."

// Internalf wraps a server-side failure: its text goes to the logs, never
// to the user. A store that did not answer (ErrUnavailable) is no failure
// but Unavailable.
func Internalf(err error, format string, args ...any) *Error {
	wrapped := fmt.Errorf(format+": %w", append(args, err)...)
	if errors.Is(err, ErrUnavailable) {
		return Down(wrapped) // not a failure: the store did not answer
	}
	if errors.Is(err, ErrBusy) {
		return StoreBusy(wrapped) // not a failure: the store did not answer in time
	}
	return &Error{Code: Internal, Msg: internalMsg, Err: wrapped}
}

// Of returns err as an *Error: itself when it is one, a refusal from
// the rules under its kind, a cancelled request as Unavailable, and
// anything else (a store's failure) as Internal, its text kept for the
// log only. A nil err gives nil.
func Of(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if re := rulesError(err); re != nil {
		return re
	}
	if errors.Is(err, ErrUnavailable) {
		return Down(err)
	}
	if errors.Is(err, ErrBusy) || errors.Is(err, context.DeadlineExceeded) {
		return StoreBusy(err)
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: Unavailable, Detail: Cancelled, Msg: "The request was cancelled before it was served; the game is unchanged.", Err: err}
	}
	return &Error{Code: Internal, Msg: internalMsg, Err: err}
}

// ErrUnavailable marks a Store's failure as the database not answering (a
// connection refused or lost, a server shutting down): a refusal to try
// again shortly (Unavailable, detail StoreDown, 503 with Retry-After), not
// the server's failure.
var ErrUnavailable = errors.New("the game store does not answer")

// ErrBusy marks a Store's failure as the database too busy to serve in
// time: a lock or statement timeout, no connection free within the wait,
// a deadline passed while waiting for the database or a game's lock, a
// change whose save failed so that a request waiting for the game must
// read it afresh. A refusal to try again shortly (Unavailable, detail
// Busy, 503 with Retry-After), not the server's failure, and never a
// game that cannot be read.
var ErrBusy = errors.New("the game store is too busy to answer in time")

// ErrUnreadable marks a Store's failure as a stored record that cannot be
// decoded (or does not replay): the one failure that says a game is
// unreadable (detail Unreadable) rather than the store busy or down.
var ErrUnreadable = errors.New("the stored record cannot be read")

// StoreBusy refuses a request the store was too busy to serve in time
// (see ErrBusy).
func StoreBusy(err error) *Error {
	return &Error{Code: Unavailable, Detail: Busy, RetryAfter: storeDownWait, Err: err,
		Msg: "The server is too busy to serve this just now, so nothing changed. Please try again in a few seconds."}
}

// storeDownWait is how long a client is asked to wait while the store
// does not answer.
const storeDownWait = 5 * time.Second

// Down refuses a request the store could not serve: it did not answer.
func Down(err error) *Error {
	return &Error{Code: Unavailable, Detail: StoreDown, RetryAfter: storeDownWait, Err: err,
		Msg: "The server cannot reach its game store just now, so nothing changed. Please try again in a few seconds."}
}

// FromStore is an error from a Store's Update or View: a refusal the
// function run on the record made (an *Error), or else the store's own
// failure, such as a record that does not replay: Internal (or
// Unavailable when the store is down or busy, or the request cancelled), never a refusal from the rules, whose message would tell
// the user of the store's insides as if the input were wrong.
func FromStore(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, ErrBusy) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Of(err)
	}
	return &Error{Code: Internal, Msg: internalMsg, Err: err}
}

// rulesError maps a refusal from the rules, or nil when err is not one.
func rulesError(err error) *Error {
	msg := Sentence(err.Error())
	var ae *rules.ActionError
	if errors.As(err, &ae) && ae.Action != "" && strings.HasPrefix(err.Error(), strings.TrimSuffix(rules.Clip(ae.Action), "…")) {
		msg = stop(err.Error()) // it starts with what was typed: keep it as typed
	}
	var fe *rules.FENError
	var pe *rules.PGNError
	switch {
	case errors.Is(err, rules.ErrGameOver):
		return &Error{Code: GameOver, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrBanned):
		return &Error{Code: Banned, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrSyntax):
		return &Error{Code: Invalid, Detail: NotBCN, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrIllegal):
		return &Error{Code: Illegal, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrNothingToUndo):
		return &Error{Code: Conflict, Detail: NothingToUndo, Msg: "There is nothing to undo: the game is at its start.", Err: err}
	case errors.Is(err, rules.ErrTooManyPlies):
		return &Error{Code: Invalid, Detail: TooManyPlies, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrTooManyTags):
		return &Error{Code: Invalid, Detail: TooManyTags, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrTagTooLong):
		return &Error{Code: Invalid, Detail: TagTooLong, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrCommentsTooLong):
		return &Error{Code: Invalid, Detail: CommentsTooLong, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrTooManyVariations):
		return &Error{Code: Invalid, Detail: TooManyVariations, Msg: msg, Err: err}
	case errors.Is(err, rules.ErrNoVariation):
		return &Error{Code: Invalid, Detail: NoVariation, Msg: msg, Err: err}
	case errors.As(err, &fe):
		return &Error{Code: Invalid, Detail: BadFEN, Msg: msg, Err: err}
	case errors.As(err, &pe):
		return &Error{Code: Invalid, Detail: BadPGN, Msg: msg, Err: err}
	}
	return nil
}

// Sentence capitalises msg's first letter and ends it with a full stop.
func Sentence(msg string) string {
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	// Leave a quoted or lower-case-led token ("e4 is banned") as typed:
	// only a word of two letters or more is capitalised.
	if unicode.IsLower(r) && len(msg) > n && unicode.IsLetter(rune(msg[n])) {
		msg = string(unicode.ToUpper(r)) + msg[n:]
	}
	return stop(msg)
}

// stop ends msg with a full stop unless it ends a sentence already.
func stop(msg string) string {
	if msg == "" {
		return msg
	}
	if last := msg[len(msg)-1]; last != '.' && last != '?' && last != '!' {
		msg += "."
	}
	return msg
}

// The kinds of refusal only HTTP has.
const (
	MethodNotAllowed Code = "method_not_allowed" // a known address, another method
	UnsupportedMedia Code = "unsupported_media_type"
	Misdirected      Code = "misdirected" // a Host the server is not reached at (its base URL names another)
)

// The details the front ends give.
const (
	BadRequest     Detail = "bad_request"      // Invalid: the body could not be read
	BadJSON        Detail = "bad_json"         // Invalid: not one JSON object of the request's members
	UnknownField   Detail = "unknown_field"    // Invalid: a member the request does not take
	NotJSON        Detail = "not_json"         // UnsupportedMedia: a body not sent as JSON
	BadFields      Detail = "bad_fields"       // Invalid: ?fields= names no member of the game object
	BadMode        Detail = "bad_mode"         // Invalid: not a way to play, or members of another
	BadBot         Detail = "bad_bot"          // Invalid: not the computer's colour, or no "bot"
	FENAndPGN      Detail = "fen_and_pgn"      // Invalid: a FEN and a PGN both
	RateLimited    Detail = "rate_limited"     // TooMany: over the POST rate
	TooManyGames   Detail = "too_many_games"   // TooMany: over the games a minute
	TooManyStreams Detail = "too_many_streams" // TooMany: over the streams open
	BadRated       Detail = "bad_rated"        // Invalid: rated is not yes or no
	TooManyImages  Detail = "too_many_images"  // TooMany: over the images a client may ask for
	TooManyReads   Detail = "too_many_reads"   // TooMany: over the reads of games not in memory
	ImagesBusy     Detail = "images_busy"      // Unavailable: as many images wait to be drawn as may
	BadStatus      Detail = "bad_status"       // Invalid: not a status of games to list (ongoing)
)

// The details tournaments give (package tournament).
const (
	NoTournament      Detail = "no_tournament"       // NotFound: no tournament has this id
	NotTournamentGame Detail = "not_tournament"      // Invalid: berserk at a game not paired in a tournament
	BerserkLate       Detail = "berserk_late"        // Conflict: berserk after the player's first action, or twice
	TournamentOver    Detail = "tournament_over"     // Conflict: joining or withdrawing once the tournament has ended
	BadDuration       Detail = "bad_duration"        // Invalid: an arena's minutes outside 20–180
	BadStart          Detail = "bad_start"           // Invalid: a start time not RFC 3339, in the past or over a week ahead
	BadTournamentName Detail = "bad_tournament_name" // Invalid: a name empty or over 40 characters
	BadKind           Detail = "bad_kind"            // Invalid: not a kind of tournament this server runs
	BadRounds         Detail = "bad_rounds"          // Invalid: a Swiss tournament's rounds outside 3–15
	BadInterval       Detail = "bad_interval"        // Invalid: a Swiss tournament's interval between rounds outside 0–3600 s
)

// The details challenges give.
const (
	ChallengeGone     Detail = "challenge_gone"      // NotFound: no such open challenge (accepted, declined, cancelled or expired)
	OwnChallenge      Detail = "own_challenge"       // Invalid: challenging oneself
	TooManyChallenges Detail = "too_many_challenges" // TooMany: the challenger has challenges.MaxOpen open
)

// The details of reset links and deleted accounts.
const (
	BadResetLink  Detail = "bad_reset_link" // NotFound: a reset link unknown, used already or expired
	WrongPassword Detail = "wrong_password" // Forbidden: deleting an account with a password that is not its own
)

// The details notifications give (package notify).
const (
	BadNotification Detail = "bad_notification" // Invalid: not a kind of notification, or ids not a list of at most 100
)

// The details of the language picker.
const (
	BadLanguage Detail = "bad_language" // Invalid: not a language the site speaks
)
