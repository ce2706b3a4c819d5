package games

import (
	"context"
	"fmt"
	"slices"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Forecast is one line a player of a correspondence game stored while
// the opponent was to act: the plies it expects from Ply on, in BCN,
// alternating the opponent's expected actions and the player's replies
// (in Ban Chess the opponent's move and ban, then the player's move and
// ban, …). While the game's plies follow it, the server plays the
// player's next actions the moment their turn comes; a line the game
// leaves, or played to its end, is dropped.
type Forecast struct {
	Ply     int      `json:"ply"`
	Actions []string `json:"actions"`
}

// Forecasts are both sides' lines; each is seen only by its side.
type Forecasts struct {
	White []Forecast `json:"white,omitempty"`
	Black []Forecast `json:"black,omitempty"`
}

// The bounds of a player's forecasts.
const (
	MaxForecastLines   = 10
	MaxForecastActions = 40
)

// Of returns side's lines (none when f is nil).
func (f *Forecasts) Of(side rules.Color) []Forecast {
	if f == nil {
		return nil
	}
	return *f.of(side)
}

func (f *Forecasts) of(side rules.Color) *[]Forecast {
	if side == rules.Black {
		return &f.Black
	}
	return &f.White
}

// clone returns a copy of f that shares nothing.
func (f *Forecasts) clone() *Forecasts {
	if f == nil {
		return nil
	}
	c := func(list []Forecast) []Forecast {
		if list == nil {
			return nil
		}
		out := make([]Forecast, len(list))
		for i, l := range list {
			out[i] = Forecast{Ply: l.Ply, Actions: slices.Clone(l.Actions)}
		}
		return out
	}
	return &Forecasts{White: c(f.White), Black: c(f.Black)}
}

// equal reports whether f and o hold the same lines.
func (f *Forecasts) equal(o *Forecasts) bool {
	if f == nil || o == nil {
		return f == o
	}
	eq := func(a, b []Forecast) bool {
		return slices.EqualFunc(a, b, func(x, y Forecast) bool { return x.Ply == y.Ply && slices.Equal(x.Actions, y.Actions) })
	}
	return eq(f.White, o.White) && eq(f.Black, o.Black)
}

// ForecastBook stores the players' forecasts at correspondence games.
type ForecastBook struct{ s *Service }

// ForecastsOf returns the forecasts of s's games.
func ForecastsOf(s *Service) ForecastBook { return ForecastBook{s} }

// Get returns the lines the holder of cred stored at game id.
func (b ForecastBook) Get(ctx context.Context, id string, cred players.Credential) ([]Forecast, error) {
	var out []Forecast
	var refusal error
	err := b.s.View(ctx, id, cred, func(rec *Record, seats Seats) {
		side, err := rec.tableSide(seats, "forecast")
		if err != nil {
			refusal = refuse(cred, err)
			return
		}
		out = rec.Forecasts.Of(side)
	})
	if err == nil {
		err = refusal
	}
	return out, err
}

// Set stores lines (each a list of BCN plies from the position now, the
// opponent's first) as the forecasts of the holder of cred at game id, in
// place of theirs, and returns them as stored. Only a player of a
// correspondence game in play may, while the opponent is to act; a line
// that is not legal from the position now, or has no reply of the
// player's, is refused (bad_forecast) and nothing changes. No lines clear
// them.
func (b ForecastBook) Set(ctx context.Context, id string, cred players.Credential, lines [][]string) ([]Forecast, error) {
	var out []Forecast
	var side rules.Color
	after := func(rec *Record, _ Seats) { out = rec.Forecasts.Of(side) }
	err := b.s.update(ctx, id, cred, after, func(rec *Record, seats Seats) error {
		var err error
		if side, err = rec.mayForecast(seats); err != nil {
			return refuse(cred, err)
		}
		read, err := readForecasts(rec.Game, side, lines)
		if err != nil {
			return err
		}
		rec.setForecasts(side, read)
		return nil
	})
	return out, err
}

// setForecasts stores lines as side's forecasts; a record without any
// keeps none (nil).
func (t *Table) setForecasts(side rules.Color, lines []Forecast) {
	if t.Forecasts == nil {
		t.Forecasts = &Forecasts{}
	}
	*t.Forecasts.of(side) = lines
	if len(t.Forecasts.White) == 0 && len(t.Forecasts.Black) == 0 {
		t.Forecasts = nil
	}
}

// mayForecast decides storing forecasts: a player of a correspondence
// game in play, while the opponent is to act. It returns the player's
// side.
func (r *Record) mayForecast(seats Seats) (rules.Color, error) {
	side, err := r.tableSide(seats, "forecast")
	if err != nil {
		return 0, err
	}
	if err := notOver(r.Game); err != nil {
		return 0, err
	}
	if r.Clock == nil || !r.Clock.Control.Correspondence() {
		return 0, badForecast("forecasts are for correspondence games (days a move)")
	}
	if r.Game.Turn().Actor == side {
		return 0, badForecast("it is your turn: play your move, then forecast while your opponent is to act")
	}
	return side, nil
}

func badForecast(format string, a ...any) error {
	return (&errs.Error{Code: errs.Invalid, Msg: errs.Sentence(fmt.Sprintf(format, a...))}).WithDetail(errs.BadForecast)
}

// readForecasts reads lines as side's forecasts at g, the opponent to
// act: each legal from the position now, with a reply of side's.
func readForecasts(g *rules.Game, side rules.Color, lines [][]string) ([]Forecast, error) {
	if len(lines) > MaxForecastLines {
		return nil, badForecast("at most %d lines may be stored: %d given", MaxForecastLines, len(lines))
	}
	var out []Forecast
	for i, line := range lines {
		if len(line) == 0 {
			continue
		}
		if len(line) > MaxForecastActions {
			return nil, badForecast("line %d has %d actions: at most %d", i+1, len(line), MaxForecastActions)
		}
		cp := g.Clone()
		f := Forecast{Ply: g.Ply()}
		replies := false
		for _, text := range line {
			if cp.Outcome().Over() {
				return nil, badForecast("line %d goes on after the game would end", i+1)
			}
			a, err := cp.Notation().ParseInput(text)
			if err == nil {
				replies = replies || cp.Turn().Actor == side
				err = cp.Play(a)
			}
			if err != nil {
				return nil, badForecast("line %d: %q is not legal there: %v", i+1, rules.Clip(text), errs.Of(err).Msg)
			}
			f.Actions = append(f.Actions, a.String())
		}
		if !replies {
			return nil, badForecast("line %d holds none of your replies: give the opponent's expected actions, then yours", i+1)
		}
		out = append(out, f)
	}
	return out, nil
}

// playForecasts drops the lines the game has left, of both sides, and
// plays the side to act's forecast reply, one action at a time, for as
// long as a line that the game followed has one due: after each, settled
// is told (the record as it was before it). The first line stored wins
// where two differ. A reply no longer legal drops its line.
func playForecasts(rec *Record, settled func(before recordState)) {
	for g := rec.Game; rec.Forecasts != nil; {
		next := ""
		for _, side := range []rules.Color{rules.White, rules.Black} {
			lines := rec.Forecasts.Of(side)
			if len(lines) == 0 {
				continue
			}
			var keep []Forecast
			for _, l := range lines {
				due, ok := l.due(g)
				if !ok {
					continue
				}
				keep = append(keep, l)
				if side == g.Turn().Actor && next == "" {
					next = due
				}
			}
			rec.setForecasts(side, keep)
		}
		if next == "" || g.Outcome().Over() {
			return
		}
		before := rec.state()
		a, err := rules.ParseAction(next)
		if err == nil {
			err = g.Play(a)
		}
		if err != nil { // not seen: a line is checked when stored
			side := g.Turn().Actor
			rec.setForecasts(side, slices.DeleteFunc(rec.Forecasts.Of(side), func(l Forecast) bool { d, _ := l.due(g); return d == next }))
			continue
		}
		settled(before)
	}
}

// due returns the action l has due at g, and whether l still holds: the
// game, over or not, has played l's actions so far and l has one left.
func (l Forecast) due(g *rules.Game) (string, bool) {
	n := g.Ply() - l.Ply
	if n < 0 || n >= len(l.Actions) || g.Outcome().Over() || l.Ply < g.StartPly() {
		return "", false
	}
	acts := g.Actions()[l.Ply-g.StartPly():]
	for i, a := range acts {
		if a.String() != l.Actions[i] {
			return "", false
		}
	}
	return l.Actions[n], true
}
