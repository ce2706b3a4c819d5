package review

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// DefaultLimits is the budget each position of a review is searched with:
// bound by nodes, so a review costs about the same on any machine and
// searches the same positions alike (given the same transposition table).
// A 60-ply game's review takes well under a minute on one worker of a
// 2-core machine (BenchmarkReview).
var DefaultLimits = engine.Limits{Nodes: 100_000}

// Position is what a review knows of one moment of the game: the engine's
// evaluation and best line, and the mates that playing every move through
// the rules proves.
type Position struct {
	Eval Eval     `json:"eval"`
	Best string   `json:"best,omitempty"` // BCN; "" when the game is over here
	Line []string `json:"line,omitempty"` // BCN, Best first
	// Mates, at a move ply, are the mover's moves that checkmate at once.
	Mates []string `json:"mates,omitempty"`
	// BanMates, at a move ply, are the mover's moves that mate by its own
	// next ban: each leaves the opponent in check with a single legal
	// pair. At a ban ply they are the moves of the side about to move
	// that would, whatever the banner bans (the ban removes one pair).
	BanMates []string `json:"banMates,omitempty"`
}

// Search searches the moment game g stands at, as engine.Pool's Analyse
// does; g is the review's and is not to be kept after the call.
type Search func(ctx context.Context, g *rules.Game) (engine.Result, error)

// Run evaluates the positions of game g that done does not hold yet —
// done[i] is the position before ply i (counted from g's start) and
// done[len(plies)] the one after the last — and returns them all. After
// each it calls saved, when not nil, with those evaluated so far; an error
// from saved stops the run. g is not changed; a resignation, agreed draw
// or loss on time is no ply, so the last position is searched like any
// other.
func Run(ctx context.Context, g *rules.Game, search Search, done []Position, saved func([]Position) error) ([]Position, error) {
	actions := g.Actions()
	if len(done) > len(actions)+1 {
		return nil, fmt.Errorf("review: %d positions evaluated of a game of %d plies", len(done), len(actions))
	}
	w, err := rules.Replay(g.Variant(), g.StartFEN(), nil)
	if err != nil {
		return nil, fmt.Errorf("review: copying the game: %w", err)
	}
	out := append([]Position(nil), done...)
	for i, a := range actions {
		if i >= len(done) {
			if out, err = evaluateNext(ctx, w, search, out, saved); err != nil {
				return nil, err
			}
		}
		if err := w.Play(a); err != nil {
			return nil, fmt.Errorf("review: replaying ply %d (%s): %w", g.StartPly()+i, a, err)
		}
	}
	if len(done) <= len(actions) {
		if out, err = evaluateNext(ctx, w, search, out, saved); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// evaluateNext evaluates w's moment, appends it to out and reports it.
func evaluateNext(ctx context.Context, w *rules.Game, search Search, out []Position, saved func([]Position) error) ([]Position, error) {
	p, err := Evaluate(ctx, w, search)
	if err != nil {
		return nil, err
	}
	out = append(out, p)
	if saved != nil {
		if err := saved(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Evaluate returns what a review knows of the moment g stands at (g is
// left as it was): a game over on the board has its result; otherwise the
// engine's search, and the mates found by playing every move through the
// rules. Where those prove a mate shorter than the search found (one ply:
// a mating move; two: a move whose ban mates), they are the evaluation
// and the best action.
func Evaluate(ctx context.Context, g *rules.Game, search Search) (Position, error) {
	if o := g.Outcome(); o.Over() {
		return Position{Eval: Eval{Result: o.Result()}}, nil
	}
	t := g.Turn()
	var p Position
	var err error
	if t.Phase == rules.PhaseMove {
		p.Mates, p.BanMates, err = movesMating(g, nil)
	} else {
		p.BanMates, err = threats(g)
	}
	if err != nil {
		return Position{}, err
	}
	res, err := search(ctx, g)
	if err != nil {
		return Position{}, fmt.Errorf("review: searching ply %d: %w", g.Ply(), err)
	}
	p.Eval, p.Best = evalOf(res, t.Actor), res.Best.String()
	for _, a := range res.PV {
		p.Line = append(p.Line, a.String())
	}
	if t.Phase != rules.PhaseMove {
		return p, nil
	}
	for plies, proven := range [][]string{p.Mates, p.BanMates} {
		plies++
		if len(proven) > 0 && (res.Mate <= 0 || res.Mate > plies) {
			sign := 1
			if t.Actor == rules.Black {
				sign = -1
			}
			p.Eval, p.Best, p.Line = Eval{Mate: sign * plies}, proven[0], proven[:1:1]
			break
		}
	}
	return p, nil
}
