package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
)

func stateOf(t testing.TB, fen string, v rules.Variant) *State {
	t.Helper()
	g, err := rules.FromFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromGame(g)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSearchLimits checks that depth, node and time limits hold and that
// a cancelled context stops a search at once.
func TestSearchLimits(t *testing.T) {
	s := stateOf(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", rules.BanChess{})
	e := NewSearcher(8)
	res, err := e.Search(context.Background(), s, Limits{Depth: 2})
	if err != nil || res.Depth != 2 || len(res.PV) == 0 {
		t.Errorf("depth 2: %+v, %v", res, err)
	}
	res, err = e.Search(context.Background(), s, Limits{Nodes: 5000})
	if err != nil || res.Nodes > 5000+1024 {
		t.Errorf("5000 nodes: searched %d, %v", res.Nodes, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	res, err = e.Search(ctx, s, Limits{})
	if err == nil || res.Best == (rules.Action{}) {
		t.Errorf("cancelled: %+v, %v; want the best so far and the context's error", res, err)
	}
	if res.Time > time.Second {
		t.Errorf("a cancelled search took %v", res.Time)
	}
	if _, err := e.Search(context.Background(), stateOf(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 4", rules.BanChess{}), Limits{Depth: 1}); err != ErrNoAction {
		t.Errorf("search of a stalemate: %v, want ErrNoAction", err)
	}
}

// BenchmarkSearch reports the search's speed in nodes a second, from the
// start and from Kiwipete, at 300,000 nodes.
func BenchmarkSearch(b *testing.B) {
	for _, fen := range []string{rules.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"} {
		s := stateOf(b, fen, rules.BanChess{})
		b.Run(fen[:8], func(b *testing.B) {
			var nodes int64
			var elapsed time.Duration
			for b.Loop() {
				res, err := NewSearcher(16).Search(context.Background(), s, Limits{Nodes: 300_000})
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Nodes
				elapsed += res.Time
			}
			b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
		})
	}
}

// TestClassic checks the search without bans: the best move is the mate.
func TestClassic(t *testing.T) {
	s := stateOf(t, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", rules.Classic{})
	res, err := NewSearcher(1).Search(context.Background(), s, Limits{Depth: 3})
	if err != nil || res.Best.String() != "m:f3f7" || res.Mate != 1 {
		t.Errorf("Scholar's mate: %+v, %v; want m:f3f7 mating in 1", res, err)
	}
}

// TestOtherVariant checks that a variant the engine does not play is
// refused, not searched.
func TestOtherVariant(t *testing.T) {
	g := rules.New(rules.ENChess{})
	if _, err := FromGame(g); !errors.Is(err, ErrVariant) {
		t.Errorf("EN-Chess: %v, want ErrVariant", err)
	}
}

// TestSupports: the engine plays chess with or without bans under chess's
// draw rules, nothing else.
func TestSupports(t *testing.T) {
	for _, tc := range []struct {
		v    rules.Variant
		want bool
	}{
		{rules.BanChess{}, true},
		{rules.Classic{}, true},
		{rules.ENChess{}, false},
		{rulestest.NoFifty{}, false}, // its search would draw where the game goes on
	} {
		if got := Supports(tc.v); got != tc.want {
			t.Errorf("Supports(%s) = %v", tc.v.Name(), got)
		}
	}
}
