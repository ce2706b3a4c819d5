// Package tournament runs tournaments: arenas (lichess's rules: players
// join and leave at will, and each whose game ended is paired again at
// once, scored with streaks and berserk) on the games service, with their
// state in a Store that many servers share, one of them pairing each
// tournament at a time (Service.Tick). A second format plugs in by its
// Kind and a Pairer.
package tournament

import (
	"context"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// Kind is a tournament's format.
type Kind string

// The formats: arenas (pairing players as they come free) and Swiss
// events (a fixed number of rounds, package swiss).
const (
	Arena Kind = "arena"
	Swiss Kind = "swiss"
)

// Status is where a tournament stands.
type Status string

// A tournament is created (waiting for its start), started, then
// finished once its time is up and every game it paired has ended.
const (
	Created  Status = "created"
	Started  Status = "started"
	Finished Status = "finished"
)

// The bounds of an arena's duration, in minutes.
const (
	MinMinutes = 20
	MaxMinutes = 180
)

// The bounds of a Swiss event's rounds, and of its interval between
// rounds in seconds.
const (
	MinRounds   = 3
	MaxRounds   = 15
	MaxInterval = 3600
)

// LastPairing is how long before its end an arena pairs no new game.
const LastPairing = 30 * time.Second

// Tournament is a tournament as the store keeps it: its settings, its
// players and every game it paired. A store saves it whole, over the
// revision it read (Store.UpdateTournament).
type Tournament struct {
	ID      string            `json:"id"`
	Kind    Kind              `json:"kind"`
	Name    string            `json:"name"`
	Variant string            `json:"variant"`
	Clock   games.TimeControl `json:"clock"`
	Minutes int               `json:"minutes"`
	Rated   bool              `json:"rated"`
	Starts  time.Time         `json:"starts"`
	Status  Status            `json:"status"`
	// Creator is the id of the player who created it; "" for the
	// server's schedule.
	Creator  string    `json:"creator,omitempty"`
	Players  []Player  `json:"players,omitempty"`
	Pairings []Pairing `json:"pairings,omitempty"`
	Revision int64     `json:"revision"`
	// A Swiss event's: its number of rounds, the longest wait in seconds
	// between a round's start and the next's (0: until its games ended),
	// the round paired last (0 before the first), when it started, and
	// each round's bye (Byes[r-1], "" for none).
	Rounds       int       `json:"rounds,omitempty"`
	Interval     int       `json:"interval,omitempty"`
	Round        int       `json:"round,omitempty"`
	RoundStarted time.Time `json:"roundStarted,omitzero"`
	Byes         []string  `json:"byes,omitempty"`
}

// Scheduled reports whether the server's schedule created t (Schedule),
// not a player: its stored Name is the schedule's English one.
func (t *Tournament) Scheduled() bool { return t.Creator == "" }

// Title is t's name as pages say it: a name a player typed as typed, the
// schedule's said in the reader's language (the stored Name stays the
// English one, which the JSON API sends).
func (t *Tournament) Title() i18n.Message { return title(t.Name, t.Scheduled()) }

// title is a tournament's name as pages say it: name, or, made by the
// server's schedule, the message that names the schedule's arenas.
func title(name string, scheduled bool) i18n.Message {
	if scheduled {
		return i18n.Msg("sched.arena")
	}
	return i18n.Verbatim(name)
}

// Ends is when the tournament's time is up.
func (t *Tournament) Ends() time.Time { return t.Starts.Add(time.Duration(t.Minutes) * time.Minute) }

// Open reports whether players may join t at now: an arena before its
// end, a Swiss event before its last round.
func (t *Tournament) Open(now time.Time) bool {
	if t.Kind == Swiss {
		return t.Status != Finished && t.Round < t.Rounds
	}
	return t.Status != Finished && now.Before(t.Ends())
}

// Over reports whether t's play is over at now, but for games running:
// an arena's time is up, a Swiss event's last round is paired.
func (t *Tournament) Over(now time.Time) bool {
	if t.Kind == Swiss {
		return t.Round >= t.Rounds
	}
	return !now.Before(t.Ends())
}

// Speed is the rating speed of the tournament's games.
func (t *Tournament) Speed() rating.Speed {
	return rating.SpeedOf(t.Clock.Initial, t.Clock.Increment)
}

// Player is one who joined a tournament.
type Player struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Rating int    `json:"rating"` // in the tournament's variant and speed when they joined
	// Paused says they withdrew: they are paired no more until they join
	// again. Their games count still.
	Paused bool      `json:"paused,omitempty"`
	Joined time.Time `json:"joined"`
	// Free is when their last game ended (or they joined).
	Free time.Time `json:"free"`
}

// Pairing is a game a tournament paired, and once it ended, its result.
type Pairing struct {
	Game         string      `json:"game"`
	White        string      `json:"white"` // player ids
	Black        string      `json:"black"`
	WhiteRating  int         `json:"whiteRating,omitempty"`
	BlackRating  int         `json:"blackRating,omitempty"`
	Started      time.Time   `json:"started"`
	Round        int         `json:"round,omitempty"` // a Swiss event's round, from 1
	Done         bool        `json:"done,omitempty"`
	Aborted      bool        `json:"aborted,omitempty"` // ended before both played: it counts for no one
	Idle         rules.Color `json:"idle,omitempty"`    // at an aborted game, the side that let its first action pass
	Winner       rules.Color `json:"winner,omitempty"`
	Moves        int         `json:"moves,omitempty"` // full moves played (bans not counted)
	WhiteBerserk bool        `json:"whiteBerserk,omitempty"`
	BlackBerserk bool        `json:"blackBerserk,omitempty"`
}

// Player returns the tournament's player of id, nil if none.
func (t *Tournament) Player(id string) *Player {
	for i := range t.Players {
		if t.Players[i].ID == id {
			return &t.Players[i]
		}
	}
	return nil
}

// Playing returns the pairing id is playing now, nil if none.
func (t *Tournament) Playing(id string) *Pairing {
	for i := len(t.Pairings) - 1; i >= 0; i-- {
		p := &t.Pairings[i]
		if !p.Done && (p.White == id || p.Black == id) {
			return p
		}
	}
	return nil
}

// Running counts the pairings whose games have not ended.
func (t *Tournament) Running() int {
	n := 0
	for _, p := range t.Pairings {
		if !p.Done {
			n++
		}
	}
	return n
}

// Result is a player's place in a finished tournament, for their
// profile.
type Result struct {
	Tournament string `json:"tournament"`
	Kind       Kind   `json:"kind"` // Score is in half-points for a Swiss event
	Name       string `json:"name"` // the tournament's
	// Scheduled says the server's schedule made the tournament
	// (Tournament.Scheduled): its name is said in the reader's language.
	Scheduled bool      `json:"scheduled,omitempty"`
	Player    string    `json:"player"`
	Rank      int       `json:"rank"`
	Score     int       `json:"score"`
	Players   int       `json:"players"`
	Ended     time.Time `json:"ended"`
}

// Title is the tournament's name as pages say it (Tournament.Title).
func (r Result) Title() i18n.Message { return title(r.Name, r.Scheduled) }

// Store keeps tournaments, for many servers at once. An unknown id is an
// *errs.Error of code NotFound.
type Store interface {
	// CreateTournament stores t under t.ID (a new id when ""); an id
	// taken already is an *errs.Error of code Conflict.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Tournament returns the tournament of id.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// UpdateTournament runs fn on the tournament of id as stored and
	// saves what fn changed over the revision it read, adding one, again
	// from a fresh read while another save came between; fn's error
	// leaves it unchanged. The save that finishes it records each
	// player's Result.
	UpdateTournament(ctx context.Context, id string, fn func(*Tournament) error) error
	// Tournaments returns up to limit tournaments of status: the created
	// and started soonest first, the finished latest first.
	Tournaments(ctx context.Context, status Status, limit int) ([]*Tournament, error)
	// ClaimTournaments returns the ids of the tournaments not finished
	// that start by now and that no other owner holds at now, and holds
	// them for owner until until.
	ClaimTournaments(ctx context.Context, owner string, now, until time.Time) ([]string, error)
	// TournamentResults returns player's latest limit results.
	TournamentResults(ctx context.Context, player string, limit int) ([]Result, error)
}

// GameStore is where the tournament's games are created and read.
type GameStore interface {
	Create(ctx context.Context, rec *games.Record) error
	View(ctx context.Context, id string, fn func(*games.Record) error) error
}

// Games start the games a pairing makes (games.Service).
type Games interface {
	PairedGame(variant string, tc games.TimeControl, rated bool, side rules.Color, maker, taker games.Seated, now time.Time) (*games.Record, error)
	Started(rec *games.Record, now time.Time)
}

// Players are who join (players.Service).
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Player(ctx context.Context, id string) (players.Player, error)
	Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error)
}

// Variants are the variants tournaments may play (games.Loader).
type Variants interface {
	Variants() []rules.Variant
	Variant(id string) (rules.Variant, error)
}
