package review

import (
	"context"
	"testing"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// selfPlay plays plies of Ban Chess from the start between levels 4 (White)
// and 3 (Black): a game of mistakes, checks and material won, as people
// play, the same every time.
func selfPlay(tb testing.TB, plies int) *rules.Game {
	tb.Helper()
	g := rules.New(rules.BanChess{})
	s := engine.NewSearcher(16)
	for g.Ply()-g.StartPly() < plies {
		if g.Outcome().Over() {
			tb.Fatalf("the game ended at ply %d: %s", g.Ply(), g.Outcome())
		}
		level := 3
		if g.Turn().Actor == rules.White {
			level = 4
		}
		lim, err := engine.Level(level, 0)
		if err != nil {
			tb.Fatal(err)
		}
		st, err := engine.FromGame(g)
		if err != nil {
			tb.Fatal(err)
		}
		res, err := s.Search(context.Background(), st, lim)
		if err != nil {
			tb.Fatal(err)
		}
		if err := g.Play(res.Best); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// BenchmarkReview reviews a 60-ply game (61 positions) on a pool of one
// worker at DefaultLimits, as the server does: the issue asks for under a
// minute on the 2-core machine.
func BenchmarkReview(b *testing.B) {
	g := selfPlay(b, 60)
	var nodes int64
	for b.Loop() {
		pool := engine.NewPool(1, 4, 32)
		search := func(ctx context.Context, g *rules.Game) (engine.Result, error) {
			res, err := pool.Analyse(ctx, g, DefaultLimits)
			nodes += res.Nodes
			return res, err
		}
		if _, err := Run(context.Background(), g, search, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/review")
}
