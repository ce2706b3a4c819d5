package engine

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// enTactics are EN-Chess positions the side to move wins by force, each
// by what EN-Chess adds to chess. Their mates are proved by brute force
// through package rules (enWins) in the test itself.
var enTactics = []struct {
	name, fen string
	plies     int // moves to mate, both sides' counted
}{
	// The Auror steps next to the queen: penetrating, it checks h8 through
	// the pawn on g7, and no second piece can come between.
	{"auror lends penetration", "6rk/6pp/8/8/8/8/8/Q1A3K1 w - - 0 1 --", 1},
	// The white Auror by d5 stunts the black rook, which cannot come back
	// to d8: the back rank is mated.
	{"auror stunts the defender", "6k1/5ppp/8/3r4/4A3/8/8/R6K w - - 0 1 --", 1},
	// The rook on e8 checks both black kings at once: no move leaves
	// fewer in check.
	{"both kings in check", "k6k/pp4pp/8/8/8/8/8/4R1K1 w - - 0 1 --", 1},
	// A pawn waiting on its last rank promotes where it stands.
	{"promotion in place", "P6k/6pp/8/8/8/8/8/6K1 w - - 0 1 --", 1},
	// The pawn takes the bishop on x9 and promotes: from x9 a queen's or
	// a bishop's line bends through e8 to h5, the pawns wall the king in.
	{"capture onto x9", "4P3/8/7p/6pk/6pp/8/8/K7 w - - 0 1 -b", 1},
	// Rd8 checks the king on a8 alone (the bishop shields h8): a partial
	// checkmate, so Black passes, and Rxf8 checks both kings.
	{"partial checkmate, then both kings", "k4b1k/pp4pp/8/8/8/8/8/3R2K1 w - - 0 1 --", 3},
}

// enWins reports whether the side to move in g wins within plies (odd)
// whatever the other side does, by mate or by taking its last king.
func enWins(t *testing.T, g *rules.Game, plies int) bool {
	t.Helper()
	me := g.ToMove()
	for _, a := range g.Legal() {
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
		won := enWon(g, me) || plies >= 3 && enAllLose(t, g, plies-1)
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if won {
			return true
		}
	}
	return false
}

// enAllLose reports whether every move of the side to move in g loses
// within plies (even, its own counted).
func enAllLose(t *testing.T, g *rules.Game, plies int) bool {
	t.Helper()
	legal := g.Legal()
	if len(legal) == 0 {
		return false // over, and not won by the other side
	}
	for _, r := range legal {
		if err := g.Play(r); err != nil {
			t.Fatal(err)
		}
		lost := !g.Outcome().Over() && enWins(t, g, plies-1)
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if !lost {
			return false
		}
	}
	return true
}

func enWon(g *rules.Game, side rules.Color) bool {
	o := g.Outcome()
	return o.Status == rules.Checkmate && o.Winner == side
}

// TestENTactics checks, for each EN-Chess tactic, that brute force through
// package rules finds the win in exactly its plies, and that the engine
// finds it too at levels 5 and 8 (and 1 for mates in one): a mate in the
// same plies, its first move one that wins.
func TestENTactics(t *testing.T) {
	v := enVariant(t)
	for _, tc := range enTactics {
		t.Run(tc.name, func(t *testing.T) {
			g, err := rules.FromFEN(tc.fen, v)
			if err != nil {
				t.Fatal(err)
			}
			if !enWins(t, g, tc.plies) {
				t.Fatalf("%s: no forced win in %d plies", tc.fen, tc.plies)
			}
			if tc.plies > 1 && enWins(t, g, tc.plies-2) {
				t.Fatalf("%s: a forced win in %d plies already", tc.fen, tc.plies-2)
			}
			levels := []int{5, 8}
			if tc.plies == 1 {
				levels = append(levels, 1)
			}
			for _, level := range levels {
				lim, err := Level(level, 5*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				s, err := FromGame(g)
				if err != nil {
					t.Fatal(err)
				}
				res, err := NewSearcher(4).Search(context.Background(), s, lim)
				if err != nil {
					t.Fatal(err)
				}
				if res.Mate != tc.plies {
					t.Errorf("level %d: mate %d (score %d, line %v), want mate in %d plies", level, res.Mate, res.Score, res.PV, tc.plies)
					continue
				}
				if err := g.Play(res.Best); err != nil {
					t.Fatal(err)
				}
				if !enWon(g, g.Position().ToMove.Other()) && (tc.plies == 1 || !enAllLose(t, g, tc.plies-1)) {
					t.Errorf("level %d: %v does not win in %d plies", level, res.Best, tc.plies)
				}
				if err := g.Undo(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestENPlays plays EN-Chess from the start, level 3 against level 4, to
// the end or 60 plies: every action the engine finds, and every line it
// expects, package rules accepts. Along the way it asks for three lines
// (MultiPV, distinct, best first) and for the search of two moves only
// (SearchMoves), with two threads.
func TestENPlays(t *testing.T) {
	v := enVariant(t)
	g := rules.New(v)
	searchers := [2]*Searcher{NewSearcher(4), NewSearcher(4)}
	for ply := 0; ply < 60 && !g.Outcome().Over(); ply++ {
		s, err := FromGame(g)
		if err != nil {
			t.Fatal(err)
		}
		lim, err := Level(3+ply%2, 0)
		if err != nil {
			t.Fatal(err)
		}
		req := Request{Limits: lim}
		switch ply {
		case 10:
			req.MultiPV, req.Threads = 3, 2
		case 11:
			req.SearchMoves = g.Legal()[:2]
		}
		res, err := searchers[ply%2].Run(context.Background(), s, req)
		if err != nil {
			t.Fatalf("ply %d (%s): %v", ply, g.FEN(), err)
		}
		switch ply {
		case 10:
			if len(res.Lines) != 3 || res.Lines[0].PV[0] == res.Lines[1].PV[0] || res.Lines[1].PV[0] == res.Lines[2].PV[0] || res.Lines[0].PV[0] == res.Lines[2].PV[0] {
				t.Errorf("MultiPV 3: %+v", res.Lines)
			}
		case 11:
			if res.Best != req.SearchMoves[0] && res.Best != req.SearchMoves[1] {
				t.Errorf("searching %v, played %v", req.SearchMoves, res.Best)
			}
		}
		line, err := rules.FromFEN(g.FEN(), v)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range res.PV {
			if err := line.Play(a); err != nil {
				t.Fatalf("ply %d (%s): the line %v: its action %d: %v", ply, g.FEN(), res.PV, i, err)
			}
		}
		if err := g.Play(res.Best); err != nil {
			t.Fatalf("ply %d (%s): %v: %v", ply, g.FEN(), res.Best, err)
		}
	}
	t.Logf("%d plies: %s", len(g.Actions()), g.Outcome())
}

// enMinimax is plain minimax over the EN generator, the search's rules of
// the game without its pruning: the value for the side to move.
func enMinimax(p *enPos, depth, ply int) int {
	if p.kingless() {
		return -(mateVal - ply)
	}
	if ply > 0 && (p.half >= 100 || p.insufficient()) {
		return 0
	}
	moves, checked := p.legal(nil)
	switch {
	case len(moves) == 0 && checked > 0:
		return -(mateVal - ply)
	case len(moves) == 0:
		return 0
	case depth == 0:
		return p.evaluate()
	}
	best := -infinity
	for _, m := range moves {
		p.make(m)
		best = max(best, -enMinimax(p, depth-1, ply+1))
		p.unmake()
	}
	return best
}

// TestENSearchIsMinimax checks that the EN search without what makes it
// inexact (reductions, table cutoffs, quiescence) finds minimax's value to
// depth 3 on the positions TestENPerft compares (depth 2 past the first
// eighteen, every fourth under the race detector).
func TestENSearchIsMinimax(t *testing.T) {
	for i, fen := range enPositions(t, 40) {
		if race.Enabled && i%4 != 0 {
			continue
		}
		depth := 3
		if i >= 18 || race.Enabled {
			depth = 2
		}
		p, err := parseENFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		want := enMinimax(p, depth, 0)
		legal, _ := p.legal(nil)
		w := &enSearch{enThread: newENThread(), tt: newTable(1), shared: &shared{}, ctx: context.Background(), pos: p, root: legal, rootAll: true, legal: len(legal), exact: true}
		for d := 1; d <= depth; d++ {
			w.rootSearch(d) // as deepening does: the table orders the next depth
		}
		if got, _ := w.rootSearch(depth); got != want {
			t.Errorf("%s depth %d: search %d, minimax %d", fen, depth, got, want)
		}
	}
}

// BenchmarkENSearch reports the EN search's speed in nodes a second, from
// the start and from an open middlegame, at 300,000 nodes, as
// BenchmarkSearch does for Ban Chess.
func BenchmarkENSearch(b *testing.B) {
	v := enVariant(b)
	for _, c := range []struct{ name, fen string }{
		{"start", rules.ENStartFEN},
		{"middlegame", "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 4 Aa"},
	} {
		s := stateOf(b, c.fen, v)
		b.Run(c.name, func(b *testing.B) {
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
