// Package match plays games between engine levels, or against Stockfish
// playing Ban Chess by a simple rule, to measure the levels' strength. It
// is a benchmark tool (banchess match), not part of the server.
package match

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// Player chooses the action to play in a game.
type Player interface {
	Name() string
	Act(ctx context.Context, g *rules.Game) (rules.Action, error)
}

// Engine is the engine playing at fixed limits.
type Engine struct {
	Label  string
	Limits engine.Limits
	s      *engine.Searcher
}

// NewEngine returns an engine player with its own transposition table.
func NewEngine(label string, lim engine.Limits) *Engine {
	return &Engine{Label: label, Limits: lim, s: engine.NewSearcher(32)}
}

// Name implements Player.
func (e *Engine) Name() string { return e.Label }

// Act implements Player.
func (e *Engine) Act(ctx context.Context, g *rules.Game) (rules.Action, error) {
	st, err := engine.FromGame(g)
	if err != nil {
		return rules.Action{}, err
	}
	res, err := e.s.Search(ctx, st, e.Limits)
	return res.Best, err
}

// maxPlies ends a game as a draw when it gets this long.
const maxPlies = 400

// Score is a match's result for player A.
type Score struct {
	Wins, Draws, Losses int
}

// Points returns A's points: a win 1, a draw ½.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Games returns the number of games played.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// add counts a game that ended in o for the player of side.
func (s *Score) add(o rules.Outcome, side rules.Color) {
	switch o.Winner {
	case side:
		s.Wins++
	case 0:
		s.Draws++
	default:
		s.Losses++
	}
}

// String returns "+w =d −l (p%)".
func (s Score) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f%%)", s.Wins, s.Draws, s.Losses, 100*s.Points()/float64(max(s.Games(), 1)))
}

// Run plays games between a and b from varied openings: each opening
// (openingPlies random actions from the start, seeded by seed and the
// pair's number) is played twice, each side taking White once. It logs
// each game to log and returns A's score.
func Run(ctx context.Context, a, b Player, games, openingPlies int, seed uint64, log io.Writer) (Score, error) {
	var sc Score
	for i := 0; i < games; i++ {
		g, err := opening(openingPlies, seed+uint64(i/2))
		if err != nil {
			return sc, err
		}
		white, black := a, b
		if i%2 == 1 {
			white, black = b, a
		}
		o, err := Play(ctx, g, white, black)
		if err != nil {
			return sc, fmt.Errorf("game %d: %w", i+1, err)
		}
		aColor := rules.White
		if i%2 == 1 {
			aColor = rules.Black
		}
		sc.add(o, aColor)
		fmt.Fprintf(log, "game %d: %s (white) – %s (black): %s %s after %d plies; %s %s\n",
			i+1, white.Name(), black.Name(), o.Result(), o, g.Ply()-1, a.Name(), sc)
	}
	return sc, nil
}

// opening plays n random legal actions from the start.
func opening(n int, seed uint64) (*rules.Game, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	for {
		g := rules.New(rules.BanChess{})
		for range n {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
				return nil, err
			}
		}
		if !g.Outcome().Over() {
			return g, nil
		}
	}
}

// Play plays g to its end (or maxPlies, a draw) and returns the outcome.
func Play(ctx context.Context, g *rules.Game, white, black Player) (rules.Outcome, error) {
	for !g.Outcome().Over() {
		if g.Ply() > maxPlies {
			return rules.Outcome{Status: rules.Draw}, nil
		}
		p := white
		if g.Turn().Actor == rules.Black {
			p = black
		}
		a, err := p.Act(ctx, g)
		if err != nil {
			return rules.Outcome{}, fmt.Errorf("%s at ply %d (%s): %w", p.Name(), g.Ply(), g.FEN(), err)
		}
		if err := g.Play(a); err != nil {
			return rules.Outcome{}, fmt.Errorf("%s at ply %d (%s) played %s: %w", p.Name(), g.Ply(), g.FEN(), a, err)
		}
	}
	return g.Outcome(), nil
}
