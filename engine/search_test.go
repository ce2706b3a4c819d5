package engine

import (
	"context"
	"errors"
	"fmt"
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
	g := rules.New(rulestest.NoFifty{})
	if _, err := FromGame(g); !errors.Is(err, ErrVariant) {
		t.Errorf("%s: %v, want ErrVariant", g.Variant().Name(), err)
	}
}

// TestSupports: the engine plays chess with or without bans and EN-Chess,
// under chess's draw rules, nothing else.
func TestSupports(t *testing.T) {
	for _, tc := range []struct {
		v    rules.Variant
		want bool
	}{
		{rules.BanChess{}, true},
		{rules.Classic{}, true},
		{rules.ENChess{}, true},
		{enWithBans{}, false},        // the EN search has no ban turns
		{rulestest.NoFifty{}, false}, // its search would draw where the game goes on
	} {
		if got := Supports(tc.v); got != tc.want {
			t.Errorf("Supports(%s) = %v", tc.v.Name(), got)
		}
	}
}

// enWithBans is EN-Chess with Ban Chess's bans, which the engine does not
// play.
type enWithBans struct{ rules.ENChess }

func (enWithBans) HasBans() bool { return true }

// scholar is the Scholar's mate position at Black's ban of White's fourth
// move: the ban of f3–f7 stops Qxf7#, but not Bxf7+, whose one escape,
// Ke7, White then bans.
const scholar = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4 13"

// TestMultiPV checks the lines of a ban root and a move root: the best ban
// puts the mate off, any other lets Qxf7 mate; the move lines are distinct
// and best first.
func TestMultiPV(t *testing.T) {
	res, err := NewSearcher(4).Search(context.Background(), stateOf(t, scholar, rules.BanChess{}), Limits{Depth: 2, MultiPV: 3})
	if err != nil || len(res.Lines) != 3 {
		t.Fatalf("ban root: %+v, %v; want 3 lines", res, err)
	}
	if res.Best.String() != "b:f3f7" || res.Lines[0].Mate != -3 {
		t.Errorf("ban root: best %s mate %d, want b:f3f7, mated in 3 plies", res.Best, res.Lines[0].Mate)
	}
	for _, l := range res.Lines[1:] {
		if l.Mate != -2 || l.PV[0] == res.Best || len(l.PV) < 2 || l.PV[1].String() != "m:f3f7" {
			t.Errorf("ban root: line %v mate %d; want another ban, then Qxf7 mating (mate -2)", l.PV, l.Mate)
		}
	}
	if res.Lines[1].PV[0] == res.Lines[2].PV[0] {
		t.Errorf("ban root: lines 2 and 3 both start %s", res.Lines[1].PV[0])
	}

	res, err = NewSearcher(4).Search(context.Background(), stateOf(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", rules.Classic{}), Limits{Depth: 4, MultiPV: 4})
	if err != nil || len(res.Lines) != 4 {
		t.Fatalf("move root: %+v, %v; want 4 lines", res, err)
	}
	seen := map[rules.Action]bool{}
	for i, l := range res.Lines {
		if seen[l.PV[0]] {
			t.Errorf("move root: %s twice", l.PV[0])
		}
		seen[l.PV[0]] = true
		if i > 0 && l.Mate == 0 && res.Lines[i-1].Mate == 0 && l.Score > res.Lines[i-1].Score {
			t.Errorf("move root: line %d (%d cp) is better than line %d (%d cp)", i+1, l.Score, i, res.Lines[i-1].Score)
		}
	}
}

// TestSearchMoves restricts the root: a banner that may not ban f3–f7 is
// mated at once; a mover may be held to one move, or to the mate.
func TestSearchMoves(t *testing.T) {
	act := func(s string) rules.Action {
		a, err := rules.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		fen, only, best string
		mate            int
	}{
		{scholar, "b:g1e2", "b:g1e2", -2},
		{scholar, "b:f3f7", "b:f3f7", -3},
		{scholar[:len(scholar)-2] + "14:g1e2", "m:b1c3", "m:b1c3", 0},
		{scholar[:len(scholar)-2] + "14:g1e2", "m:f3f7", "m:f3f7", 1},
	}
	for _, tt := range tests {
		res, err := NewSearcher(4).Run(context.Background(), stateOf(t, tt.fen, rules.BanChess{}), Request{Limits: Limits{Depth: 2}, SearchMoves: []rules.Action{act(tt.only)}})
		if err != nil || res.Best.String() != tt.best || res.Mate != tt.mate {
			t.Errorf("%s only %s: best %s mate %d (%v); want %s mate %d", tt.fen, tt.only, res.Best, res.Mate, err, tt.best, tt.mate)
		}
	}
	_, err := NewSearcher(4).Run(context.Background(), stateOf(t, scholar, rules.BanChess{}), Request{Limits: Limits{Depth: 2}, SearchMoves: []rules.Action{act("m:f3f7")}})
	if err == nil {
		t.Error("a move to search at a ban ply: no error")
	}
}

// TestThreads searches with two threads sharing the table (run it with
// -race): the result is legal and as deep as asked, and the nodes count
// both threads'.
func TestThreads(t *testing.T) {
	for _, fen := range []string{rules.StartFEN + " 1", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 2:e1d1"} {
		g, err := rules.FromFEN(fen, rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := FromGame(g)
		if err != nil {
			t.Fatal(err)
		}
		e := NewSearcher(8)
		var reports int
		res, err := e.Run(context.Background(), s, Request{Limits: Limits{Depth: 5, Threads: 2}, Report: func(Result) { reports++ }})
		if err != nil || res.Depth != 5 || reports != 5 {
			t.Fatalf("%s: depth %d after %d reports, %v; want 5", fen, res.Depth, reports, err)
		}
		if err := g.Play(res.Best); err != nil {
			t.Errorf("%s: best %s: %v", fen, res.Best, err)
		}
		one, err := NewSearcher(8).Search(context.Background(), s, Limits{Nodes: 20_000, Threads: 2})
		if err != nil || one.Nodes < 20_000 || one.Nodes > 20_000+3*1024 {
			t.Errorf("%s: 20,000 nodes on two threads searched %d, %v", fen, one.Nodes, err)
		}
	}
}

// BenchmarkThreads measures the time to reach a depth with one and two
// threads (Lazy SMP), from four positions, a fresh table each time; and
// the main thread's nodes, which measure the time to the depth when each
// thread has a core of its own (a shared machine may not give them).
func BenchmarkThreads(b *testing.B) {
	fens := []string{
		rules.StartFEN + " 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 2:e1d1",
		"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3 11",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10 38:c3d5",
	}
	depth := 6
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			var nodes, main int64
			for b.Loop() {
				for _, fen := range fens {
					s := stateOf(b, fen, rules.BanChess{})
					e := NewSearcher(16)
					res, err := e.Search(context.Background(), s, Limits{Depth: depth, Threads: threads})
					if err != nil || res.Depth != depth {
						b.Fatalf("%s: depth %d, %v", fen, res.Depth, err)
					}
					nodes += res.Nodes
					main += e.mainNodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(main)/float64(b.N), "main-nodes/op")
		})
	}
}

// BenchmarkClear measures forgetting a 16 MiB table between games (self-play
// and UCI's ucinewgame do it every game).
func BenchmarkClear(b *testing.B) {
	s := NewSearcher(16)
	for b.Loop() {
		s.Clear()
	}
}
