package training_test

import (
	"context"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
)

// BenchmarkAttemptWrong judges a wrong first action at a mate puzzle and
// explains it without the engine (the proof over the rules, the costlier
// reason), by nobody: what a failed attempt costs the server besides the
// engine's search and the store.
func BenchmarkAttemptWrong(b *testing.B) {
	svc, _, set := newService(b)
	p := find(b, set, func(p puzzles.Puzzle) bool { return p.Kind() == puzzles.MateIn2 })
	wrong := []rules.Action{wrongFirst(b, p)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Attempt(ctx, "", p.ID, wrong); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTryStep judges an answer at the lesson step whose goal costs
// most: the promotion lesson's first, a material search three plies deep
// (worked out once, then remembered).
func BenchmarkTryStep(b *testing.B) {
	svc, _, _ := newService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.TryStep(ctx, "", "promotion", 0, games.Input{Text: "b:e7d8"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNext chooses the next puzzle for a player who has solved the
// easier half of the shipped puzzles: their attempts listed, the nearest
// puzzle they have not tried found, its solver and rating read.
func BenchmarkNext(b *testing.B) {
	svc, _, set := newService(b)
	ctx := context.Background()
	all := set.All()
	for _, p := range all[:len(all)/2] {
		if _, err := svc.Attempt(ctx, "ann", p.ID, solverActions(p)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Next(ctx, "ann", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunPuzzles draws a storm run's 150 puzzles from its seed, as
// every request on a run does (a run keeps its seed, not its puzzles).
func BenchmarkRunPuzzles(b *testing.B) {
	svc, _, _ := newService(b)
	rs := svc.Runs()
	r, err := rs.Start(context.Background(), "ann", training.StormRun)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(rs.Puzzles(r)) != training.StormLength {
			b.Fatal("short")
		}
	}
}
