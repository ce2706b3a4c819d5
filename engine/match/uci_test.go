package match

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestUCIPlayer plays banchess uci (the test binary serving it) against
// level 1, without a clock and on one: every action it sends back is legal
// (Play would fail otherwise), the clock's plies are timed, and the time
// beyond its search is recorded a ply. (Whether it keeps its time is
// measured over 20 games of 1+0: docs/engine.md.)
func TestUCIPlayer(t *testing.T) {
	t.Setenv(fakeUCI, "banchess")
	u, err := NewUCI("banchess uci", os.Args[0], nil, 20*time.Millisecond, "Threads=2")
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	e, err := NewEngine(1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Match{A: u, B: e, Games: 2, OpeningPlies: 2, Seed: 3}).Run(context.Background())
	if sc := res.Score; err != nil || sc.Games() != 2 {
		t.Fatalf("without a clock: %v, %v", sc, err)
	}
	m := &Match{A: u, B: e, Games: 2, OpeningPlies: 2, Seed: 4}
	m.Clock.Initial = 2 * time.Second
	res, err = m.Run(context.Background())
	sc, times := res.Score, res.Times
	if err != nil || sc.Games() != 2 || len(times.Plies) == 0 {
		t.Fatalf("on a clock: %v, %v, %v", sc, times, err)
	}
	if len(u.Outside) == 0 {
		t.Error("no time beyond the search was recorded")
	}
}
