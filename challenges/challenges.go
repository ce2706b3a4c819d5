// Package challenges is one player asking another by name for a game: a
// challenge (variant, clock or none, colour, rated) that its receiver
// accepts, which starts the game with both seats taken (through the games
// service, as the lobby's pairings do), or declines, and its challenger
// cancels; an open challenge expires after Lifetime. It is lichess's
// challenge, served in its shape by handlers/lichess and on the pages.
package challenges

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// How long challenges live, and how many a player has open.
const (
	// Lifetime is how long a challenge stays open unanswered: then it
	// expires (it is no longer listed, nor accepted).
	Lifetime = 10 * time.Minute
	// MaxOpen bounds the open challenges one player has made.
	MaxOpen = 10
	// Memory is how long a challenge is kept once made: the stream of
	// events and the lists read those changed since it opened.
	Memory = 24 * time.Hour
	// listed bounds the challenges a list reads.
	listed = 100
)

// Status is where a challenge stands.
type Status string

// A challenge's statuses, lichess's names.
const (
	Created  Status = "created" // open: waiting for its receiver
	Accepted Status = "accepted"
	Declined Status = "declined"
	Canceled Status = "canceled"
	Expired  Status = "offline" // lichess's status of a challenge no longer open unanswered
)

// Reasons are lichess's reasons to decline a challenge, by key.
func Reasons() []string {
	return []string{"generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "standard", "variant", "noBot", "onlyBot"}
}

// Side is a player as a challenge shows them, as they were when it was
// made.
type Side struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	Bot         bool   `json:"bot,omitempty"`
}

// Challenge is one player's challenge to another.
type Challenge struct {
	ID         string
	Challenger Side
	Dest       Side
	Variant    string
	// Clock is the game's time control; none (the zero TimeControl) is a
	// game without a clock.
	Clock games.TimeControl
	// Color is the challenger's side; no Color is random.
	Color rules.Color
	Rated bool
	// FEN is the position the game starts from; "" is the variant's start.
	FEN    string
	Status Status
	// Reason is a declined challenge's reason (one of Reasons).
	Reason string
	// Game is the game an accepted challenge started.
	Game string
	// Anyone says c is an open challenge (lichess's): to no one in
	// particular, accepted by anyone with its link (its Dest is none
	// until then, and then its acceptor); Name is its creator's words
	// for it ("" for none).
	Anyone           bool
	Name             string
	Created, Updated time.Time
}

// Timed reports whether the challenge's game has a clock.
func (c Challenge) Timed() bool { return c.Clock != games.TimeControl{} }

// Speed is the class of the challenge's clock (Classical without one,
// for the ratings shown: a game without a clock is never rated).
func (c Challenge) Speed() rating.Speed {
	if !c.Timed() {
		return rating.Classical
	}
	return c.Clock.Speed() // correspondence for days a move
}

// Open reports whether the challenge waits for an answer at now.
func (c Challenge) Open(now time.Time) bool {
	return c.Status == Created && !c.Created.Before(now.Add(-Lifetime))
}

// StatusAt is the challenge's status at now: Expired once an open one
// has lived Lifetime.
func (c Challenge) StatusAt(now time.Time) Status {
	if c.Status == Created && !c.Open(now) {
		return Expired
	}
	return c.Status
}

// Store keeps the challenges.
type Store interface {
	// AddChallenge stores c, unless its challenger has limit challenges
	// open (made since openSince and unanswered): TooMany, detail
	// "too_many_challenges". It forgets the challenges not updated since
	// c.Created less Memory.
	AddChallenge(ctx context.Context, c Challenge, openSince time.Time, limit int) error
	// Challenge returns challenge id (NotFound, "challenge_gone", when
	// there is none).
	Challenge(ctx context.Context, id string) (Challenge, error)
	// ChallengesOf returns the challenges player made or received that
	// changed at since or later, the latest first, at most limit.
	ChallengesOf(ctx context.Context, player string, since time.Time, limit int) ([]Challenge, error)
	// AcceptChallenge accepts challenge req.ID, in one transaction (see
	// AcceptRequest).
	AcceptChallenge(ctx context.Context, req AcceptRequest) (*games.Record, Challenge, error)
	// EndChallenge gives open challenge id (made since openSince) status
	// (Declined, with reason, by its receiver player; Canceled by its
	// challenger player) at at, and returns it (NotFound,
	// "challenge_gone", when player has no such open challenge).
	EndChallenge(ctx context.Context, id, player string, status Status, reason string, openSince, at time.Time) (Challenge, error)
}

// AcceptRequest asks a store to accept challenge ID for its receiver
// Dest at At, if open (made since OpenSince): Game builds the game from
// the challenge and both players (its refusal changes nothing), which the
// store creates, and the challenge records it.
//
// An open challenge (Challenge.Anyone) is accepted by any player Dest
// but its challenger, and records Dest as its receiver.
type AcceptRequest struct {
	ID, Dest      string
	OpenSince, At time.Time
	Game          func(c Challenge, challenger, dest games.Seated) (*games.Record, error)
}

// Games are what challenges need of the games service: the games they
// start, and the FEN they may start from.
type Games interface {
	PairedGame(variant string, tc games.TimeControl, rated bool, side rules.Color, maker, taker games.Seated, now time.Time) (*games.Record, error)
	Started(rec *games.Record, now time.Time)
}

// Loader reads variants and positions (games.Loader).
type Loader interface {
	Variant(id string) (rules.Variant, error)
	FromFEN(fen, variant string) (*rules.Game, error)
}

// Players are what challenges need to know of players.
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Named(ctx context.Context, name string) (players.Player, error)
	Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error)
}

// Blocker says whether dest refuses challenger's challenges (a block
// list). Service.WithBlocker sets it; without one, no one is blocked.
type Blocker interface {
	Blocks(ctx context.Context, challenger, dest string) (bool, error)
}

// newID returns a fresh challenge id (8 letters and digits, as lichess's).
func newID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [8]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}
