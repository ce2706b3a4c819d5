package games

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// Entrant is a side's player as a game records them when it starts: their
// name and their rating in its variant and speed (zero for an anonymous
// player, or a game without a clock).
type Entrant struct {
	Name        string `json:"name,omitempty"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
}

// Named reports whether the entrant has a name to show.
func (e Entrant) Named() bool { return e.Name != "" }

// RatingText writes the entrant's rating as players read it: "1500?"
// while provisional, "" for none.
func (e Entrant) RatingText() string {
	if e.Rating == 0 {
		return ""
	}
	s := strconv.Itoa(e.Rating)
	if e.Provisional {
		s += "?"
	}
	return s
}

// Tags are the PGN tags the record adds to its game's: the time control,
// and at a game between two players the players' names and ratings when
// it began and whether it is rated.
func (r *Record) Tags() []rules.Tag {
	var tags []rules.Tag
	if r.Clock != nil {
		tags = append(tags, rules.Tag{Name: "TimeControl", Value: r.Clock.Control.PGN()})
	}
	if r.Mode != Invite {
		return tags
	}
	for _, side := range []rules.Color{rules.White, rules.Black} {
		e := r.Entrant(side)
		if e.Named() {
			tags = append(tags, rules.Tag{Name: side.Name(), Value: e.Name})
		}
		if e.Rating != 0 {
			tags = append(tags, rules.Tag{Name: side.Name() + "Elo", Value: strconv.Itoa(e.Rating)})
		}
	}
	rated := "false"
	if r.Rated {
		rated = "true"
	}
	return append(tags, rules.Tag{Name: "Rated", Value: rated})
}

// NewEntrant describes player p, whose rating in the game's variant and
// speed is r (nil: none to show).
func NewEntrant(p players.Player, r *rating.Rating) Entrant {
	e := Entrant{Name: p.Name}
	if r != nil && p.Named() {
		e.Rating, e.Provisional = int(math.Round(r.Rating)), r.Provisional()
	}
	return e
}

// Result is what a finished game between two players records, in the
// same transaction as the save that finished it: an entry in each
// player's list of games, their wins, losses or draws, and for a rated
// game their new ratings.
type Result struct {
	Game    string
	Variant string
	// Speed is the class of the game's clock; "" for a game without one.
	Speed rating.Speed
	Rated bool
	Ended time.Time
	// Result is "1-0", "0-1" or "1/2-1/2"; Ending says how it ended.
	Result, Ending string
	// FEN is the final position.
	FEN          string
	White, Black ResultSide
}

// ResultSide is one side of a Result.
type ResultSide struct {
	Player string
	Name   string // as the game recorded it
	Score  rating.Score
	// Before and After are the player's rating before and after a rated
	// game; zero for another.
	Before, After rating.Rating
}

// Side returns the side of the result of color.
func (r *Result) Side(color rules.Color) *ResultSide {
	if color == rules.Black {
		return &r.Black
	}
	return &r.White
}

// ResultOf returns what rec records now, and whether it records anything:
// only a finished game between two players, each holding one seat; an
// aborted game records nothing (no result, no rating).
func ResultOf(rec *Record) (Result, bool) {
	g := rec.Game
	out := g.Outcome()
	if rec.Mode != Invite || !out.Over() || out.Status == rules.Aborted || rec.White == "" || rec.Black == "" || rec.White == rec.Black {
		return Result{}, false
	}
	r := Result{
		Game:    rec.ID,
		Variant: g.Variant().ID(),
		Rated:   rec.Rated,
		Ended:   rec.Updated,
		Result:  out.Result(),
		Ending:  out.String(),
		FEN:     g.FEN(),
		White:   ResultSide{Player: rec.White, Name: rec.WhitePlayer.Name, Score: rating.Draw},
		Black:   ResultSide{Player: rec.Black, Name: rec.BlackPlayer.Name, Score: rating.Draw},
	}
	if rec.Clock != nil {
		r.Speed = rec.Clock.Control.Speed()
	}
	switch out.Winner {
	case rules.White:
		r.White.Score, r.Black.Score = rating.Win, rating.Loss
	case rules.Black:
		r.White.Score, r.Black.Score = rating.Loss, rating.Win
	}
	if r.Speed == "" || !opened(g) {
		// Never: a rated game has a clock, and ends with a result only
		// once each side has made its first action (before, it is
		// aborted).
		r.Rated = false
	}
	return r, true
}

// Rate sets a rated result's ratings from the players' standings in its
// variant and speed, and returns their standings after it: each a rating
// period of its own (rating.Game), against the other's rating as it stood
// at the end, deviations grown with the players' idle time first.
func (r *Result) Rate(white, black players.Standing) (players.Standing, players.Standing, error) {
	r.White.Before, r.Black.Before = white.At(r.Ended), black.At(r.Ended)
	w, b, err := rating.Game(r.White.Before, r.Black.Before, r.White.Score)
	if err != nil {
		return white, black, err
	}
	r.White.After, r.Black.After = w, b
	white.Rating, white.Games, white.Last = w, white.Games+1, r.Ended
	black.Rating, black.Games, black.Last = b, black.Games+1, r.Ended
	return white, black, nil
}

// PGN writes rec's game as PGN with notes added (see rules.PGNNotes), the
// record's tags (Tags: the time control, the players) after own, and the
// clock's time left after each ply ([%clk …], after the notes' comment).
// A game imported with tags and no clock keeps its tags as they were.
func (r *Record) PGN(notes rules.PGNNotes, own ...rules.Tag) string {
	g := r.Game
	tags := slices.Concat(own, r.Tags())
	if r.Clock == nil {
		if len(g.Record().Tags()) > 0 {
			return g.Record().AnnotatedPGN(notes)
		}
		return g.Record().AnnotatedPGN(notes, tags...)
	}
	notes.Comment = joinNotes(notes.Comment, r.Clock.ClkComment)
	return g.Record().AnnotatedPGN(notes, tags...)
}

// joinNotes gives each ply both notes' comment commands, in one comment
// ("[%eval 0.17] [%clk 0:04:59]"); a nil note gives none.
func joinNotes(a, b func(int) string) func(int) string {
	if a == nil {
		return b
	}
	return func(n int) string {
		return strings.TrimSpace(a(n) + " " + b(n))
	}
}
