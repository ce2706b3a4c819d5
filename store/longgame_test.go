package store

import (
	"math/rand/v2"
	"testing"

	"github.com/banchess/banchess/rules"
)

// longGame plays a Ban Chess game of exactly plies plies that has not
// ended, as a long imported game is: random actions that leave the game
// open, quiet moves preferred (so material lasts) and pawn moves when the
// fifty-move rule nears. It backtracks when every action would end it.
func longGame(tb testing.TB, plies int, seed uint64) *rules.Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 2000))
	g := rules.New(rules.BanChess{})
	tags := []rules.Tag{{Name: "Event", Value: "A long game"}, {Name: "Site", Value: "Somewhere"}, {Name: "White", Value: "Ann"}, {Name: "Black", Value: "Bob"}}
	for steps := 0; g.Ply()-g.StartPly() < plies; steps++ {
		if steps > 50*plies {
			tb.Fatalf("no %d-ply game from seed %d", plies, seed)
		}
		legal := g.Legal()
		pos := g.Position()
		rank := func(a rules.Action) int {
			r := rng.IntN(100)
			if a.Phase == rules.PhaseMove {
				if pos.Board[a.To] != 0 {
					r -= 60 // a capture: keep material
				}
				if pos.Board[a.From].Kind() == rules.Pawn && pos.HalfmoveClock > 60 {
					r += 200
				}
			}
			return r
		}
		best, bestRank := -1, -1<<30
		order := rng.Perm(len(legal))
		played := false
		for range 3 {
			for _, i := range order {
				if r := rank(legal[i]); r > bestRank {
					best, bestRank = i, r
				}
			}
			if err := g.Play(legal[best]); err != nil {
				tb.Fatal(err)
			}
			if !g.Outcome().Over() {
				played = true
				break
			}
			if err := g.Undo(); err != nil {
				tb.Fatal(err)
			}
			order = rng.Perm(len(legal))
			bestRank = -1 << 30
		}
		if !played {
			for range 1 + rng.IntN(6) {
				if g.Ply() > g.StartPly() {
					g.Undo()
				}
			}
		}
	}
	imported, err := rules.FromPGN(g.Record().PGN(tags...), rules.PGNOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return imported
}
