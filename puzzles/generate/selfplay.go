package generate

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// DefaultMaxLevel is the strongest level of the self-play games.
const DefaultMaxLevel = 4

// Self-play: each game opens with a few random legal actions and is then
// played by the engine at two levels drawn from 1 to the strongest (levels
// 1–7 are bound by depth and nodes, so the games replay the same
// anywhere). The weaker levels blunder, which is what makes puzzles.
const (
	minOpening     = 4 // random plies at least …
	openingSpread  = 9 // … and up to this many more
	maxSelfPlayPly = 300
)

// selfPlay plays self-play game n of a seed and returns it with the
// number of its opening's plies (where the examination starts); nodes
// adds up the positions its searches visited.
func selfPlay(ctx context.Context, seed uint64, n, maxLevel int, nodes *int64) (Played, int, error) {
	if maxLevel <= 0 {
		maxLevel = DefaultMaxLevel
	}
	if maxLevel >= engine.Levels {
		return Played{}, 0, fmt.Errorf("generate: self-play level %d: choose 1 to %d (level %d thinks for a time)", maxLevel, engine.Levels-1, engine.Levels)
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	levels := [2]int{1 + r.IntN(maxLevel), 1 + r.IntN(maxLevel)}
	plies := minOpening + r.IntN(openingSpread)
	var g *rules.Game
	for g == nil || g.Outcome().Over() {
		g = rules.New(puzzles.Variant())
		for range plies {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
				return Played{}, 0, err
			}
		}
	}
	if err := playOut(ctx, g, levels, maxSelfPlayPly, nodes); err != nil {
		return Played{}, 0, fmt.Errorf("generate: self-play %d: %w", n, err)
	}
	name := fmt.Sprintf("self-play %d (seed %d, levels %d–%d)", n, seed, levels[0], levels[1])
	return Played{Name: name, Start: g.StartFEN(), Actions: g.BCN()}, plies, nil
}

// playOut plays g on with the engine, White at levels[0] and Black at
// levels[1], to its end or maxPly; nodes adds up what its searches visit.
func playOut(ctx context.Context, g *rules.Game, levels [2]int, maxPly int, nodes *int64) error {
	searchers := [2]*engine.Searcher{engine.NewSearcher(ttMB), engine.NewSearcher(ttMB)}
	for !g.Outcome().Over() && g.Ply() <= maxPly {
		side := 0
		if g.Turn().Actor == rules.Black {
			side = 1
		}
		lim, err := engine.Level(levels[side], 0)
		if err != nil {
			return err
		}
		st, err := engine.FromGame(g)
		if err != nil {
			return err
		}
		res, err := searchers[side].Search(ctx, st, lim)
		*nodes += res.Nodes
		if err != nil {
			return err
		}
		if err := g.Play(res.Best); err != nil {
			return fmt.Errorf("at %s: %w", g.FEN(), err)
		}
	}
	return nil
}
