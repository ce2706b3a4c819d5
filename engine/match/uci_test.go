package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestUCINodes: with Nodes set, a UCI player is asked for "go nodes N"
// instead of a time (banchess match -nodes).
func TestUCINodes(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv(fakeUCI, "1")
	t.Setenv(fakeUCILog, log)
	t.Setenv(fakeUCIReply, "bestmove e2e4")
	u, err := NewUCI("fake", os.Args[0], nil, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	u.Nodes = 1234
	g, err := Opening(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := u.Act(context.Background(), g); err != nil || a.Coords() != "e2e4" {
		t.Fatalf("act: %v, %v", a, err)
	}
	b, err := os.ReadFile(log) // the fake logs a line before it answers
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\ngo nodes 1234\n") {
		t.Errorf("sent:\n%s", b)
	}
}
