// Package moderation keeps the place civil: players report a player or a
// chat line (abuse, cheating, other; a short text), and moderators —
// granted by the server's operator (banchess admin grant-mod NAME) —
// read the open reports, newest first, with the reported lines in
// context, and act: mute a player's chat for a while, close an account
// (its games stay; it cannot sign in and its credentials stop working),
// reopen it, or dismiss a report. Every action is written to the
// moderation log: who, when, why.
package moderation

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// Reason is why a player is reported.
type Reason string

// The reasons of a report.
const (
	Abuse    Reason = "abuse"
	Cheating Reason = "cheating"
	Other    Reason = "other"
)

// Reasons are the reasons a report may give, in the order forms list
// them.
func Reasons() []Reason { return []Reason{Abuse, Cheating, Other} }

// ParseReason reads a reason's name.
func ParseReason(s string) (Reason, error) {
	switch r := Reason(s); r {
	case Abuse, Cheating, Other:
		return r, nil
	}
	return "", errs.Errorf(errs.Invalid, "Say why you report: abuse, cheating or other.").WithDetail(errs.BadReason)
}

// The limits on reports.
const (
	// MaxText bounds a report's text, and an action's why, in characters.
	MaxText = 500
	// MaxOpenReports bounds the open reports one player has made.
	MaxOpenReports = 20
	// OpenReportsShown is how many open reports /mod lists at most.
	OpenReportsShown = 100
	// LogShown is how many of the log's latest entries /mod/log shows.
	LogShown = 200
	// ContextLines is how many lines before and after a reported line
	// the moderators see.
	ContextLines = 5
)

// Mutes are the lengths a moderator mutes a player's chat for.
func Mutes() []time.Duration { return []time.Duration{15 * time.Minute, time.Hour, 24 * time.Hour} }

// Report is a player's report of another player, or of a chat line.
type Report struct {
	ID string
	// Reporter and Reported are the players' ids, with their names then.
	Reporter, ReporterName string
	Reported, ReportedName string
	Reason                 Reason
	Text                   string
	// Game, Room and Seq name the chat line reported ("", "", 0 for a
	// report of a player).
	Game string
	Room chat.Room
	Seq  int64
	At   time.Time
	// Closed is when a moderator acted on it or dismissed it (zero while
	// open), and Outcome what they did.
	Closed  time.Time
	Outcome string
}

// Action is a moderator's action, as the log names it.
type Action string

// The actions.
const (
	Mute    Action = "mute"
	Close   Action = "close"
	Reopen  Action = "reopen"
	Dismiss Action = "dismiss"
	Grant   Action = "grant-mod"
	Revoke  Action = "revoke-mod"
	// Reset is the issue of a one-time reset link (IssueResetLink).
	Reset Action = "reset-link"
)

// Entry is a line of the moderation log.
type Entry struct {
	ID string
	At time.Time
	// Moderator and ModeratorName say who acted ("" and "the server" for
	// the operator's command).
	Moderator, ModeratorName string
	Action                   Action
	// Player and PlayerName say on whom; Report, which report it closed
	// ("" for none).
	Player, PlayerName string
	Report             string
	// Until is the end of a mute.
	Until time.Time
	Why   string
}

// Store keeps moderators, reports, mutes and the log.
type Store interface {
	// SetModerator makes the player a moderator, or no longer one.
	SetModerator(ctx context.Context, player string, mod bool, at time.Time) error
	// Moderator reports whether the player is a moderator.
	Moderator(ctx context.Context, player string) (bool, error)
	// AddReport keeps r.
	AddReport(ctx context.Context, r Report) error
	// OpenReports returns up to limit open reports, the newest first.
	OpenReports(ctx context.Context, limit int) ([]Report, error)
	// OpenReportsBy counts the open reports reporter made.
	OpenReportsBy(ctx context.Context, reporter string) (int, error)
	// Report returns report id (NotFound, no_report, for none).
	Report(ctx context.Context, id string) (Report, error)
	// CloseReport closes report id with outcome at at; false when it was
	// closed already (or there is none).
	CloseReport(ctx context.Context, id, outcome string, at time.Time) (bool, error)
	// SetMute mutes the player's chat until until (a time past: not
	// muted).
	SetMute(ctx context.Context, player string, until time.Time) error
	// MutedUntil returns when the player's mute ends (zero: never muted).
	MutedUntil(ctx context.Context, player string) (time.Time, error)
	// AddEntry writes e to the log.
	AddEntry(ctx context.Context, e Entry) error
	// Entries returns up to limit of the log's entries, the newest first.
	Entries(ctx context.Context, limit int) ([]Entry, error)
}

// newID returns a fresh id (96 random bits, URL-safe).
func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// MuteList answers whose chat is muted, for the chat (chat.WithMutes).
// It reads only the store, so that the chat can be given it before the
// Service is made.
type MuteList struct {
	store Store
	now   func() time.Time
}

// NewMuteList returns the mutes store keeps, as of now (nil: time.Now).
func NewMuteList(store Store, now func() time.Time) MuteList {
	if now == nil {
		now = time.Now
	}
	return MuteList{store: store, now: now}
}

// MutedUntil returns when the player's mute ends, the zero time when
// they are not muted now.
func (m MuteList) MutedUntil(ctx context.Context, player string) (time.Time, error) {
	if player == "" {
		return time.Time{}, nil
	}
	until, err := m.store.MutedUntil(ctx, player)
	if err != nil {
		return time.Time{}, errs.FromStore(err)
	}
	if !until.After(m.now()) {
		return time.Time{}, nil
	}
	return until, nil
}

// Players are what moderation needs of players: who is asking, players by
// name and id, and closing accounts (players.Service).
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Named(ctx context.Context, name string) (players.Player, error)
	Player(ctx context.Context, id string) (players.Player, error)
	SetClosed(ctx context.Context, id string, closed bool) error
	Closed(ctx context.Context, id string) (bool, error)
	NewResetLink(ctx context.Context, id string) (string, time.Time, error)
}

// Chat reads a game's chat lines as a reader may (chat.Service): a
// player reports a line they read.
type Chat interface {
	Lines(ctx context.Context, id string, cred players.Credential, room chat.Room, after int64) ([]chat.Line, int64, error)
}

// ChatLines reads a room's lines whoever asks, for the moderators: the
// lines around a reported one (chat.Store).
type ChatLines interface {
	ChatLines(ctx context.Context, game string, room chat.Room, after int64, limit int) ([]chat.Line, int64, error)
}
