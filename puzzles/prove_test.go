package puzzles

import (
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/vectors"
	"github.com/banchess/banchess/rules"
)

// naiveMates is plain minimax through package rules: side forces mate
// within n plies when, at its turns, one action does and, at the other
// side's, every action does. It is slow, and the authority the prover is
// checked against.
func naiveMates(t testing.TB, g *rules.Game, side rules.Color, n int) bool {
	if o := g.Outcome(); o.Over() {
		return o.Status == rules.Checkmate && o.Winner == side
	}
	if n == 0 {
		return false
	}
	mine := g.Turn().Actor == side
	for _, a := range g.Legal() {
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
		win := naiveMates(t, g, side, n-1)
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if win == mine {
			return win
		}
	}
	return !mine
}

func game(t testing.TB, fen string, actions ...string) *rules.Game {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, fen, actions)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestProverCases checks the prover on positions where each rule of the
// game's end decides: a mate by the ban of the last way out, the same
// capture drawn by insufficient material, a stalemate by a ban, a ban of
// the four promotions of one pair, and a ban in force at the start.
func TestProverCases(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		actions []string
		side    rules.Color
		plies   int
		want    bool
	}{
		// Nxb6+ leaves Ka7 only: White's ban of it mates (a pawn on h2
		// keeps mating material on the board).
		{"mate by ban", "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2", nil, rules.White, 2, true},
		{"mate by ban, a ply short", "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2", nil, rules.White, 1, false},
		// Without the pawn, Nxb6 leaves king and knight against king:
		// drawn at once.
		{"drawn by material", "k7/2K5/1p6/3N4/8/8/8/8 w - - 0 1 2", nil, rules.White, 4, false},
		// The knight's check is banned: no mate.
		{"the mating move banned", "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2:d5b6", nil, rules.White, 2, false},
		// Black's king on h8, White's on f7 and queen on g5: Black's only
		// move is Kh7, and Black is not in check; White's ban, of that
		// one pair, stalemates.
		{"stalemate by ban", "7k/5K2/8/6Q1/8/8/8/8 b - - 0 1 3", nil, rules.White, 3, false},
		// b7-b5 checks the king on c4; c5xb6 en passant is its only move,
		// and Black bans it.
		{"mate by the ban of en passant", "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1", nil, rules.Black, 1, true},
		// White's e7 pawn promotes with mate by every piece unless Black
		// bans the pair e7e8, all four promotions.
		{"the ban of four promotions", "k7/4P3/1K6/8/8/8/8/8 w - - 0 1", nil, rules.White, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game(t, tt.fen, tt.actions...)
			var pr Prover
			got, err := pr.Mates(g, tt.side, tt.plies)
			if err != nil {
				t.Fatal(err)
			}
			if naive := naiveMates(t, g, tt.side, tt.plies); naive != tt.want {
				t.Fatalf("plain minimax says %v, the test %v: the test is wrong", naive, tt.want)
			}
			if got != tt.want {
				t.Errorf("Mates(%s, %d) = %v, want %v", tt.side.Name(), tt.plies, got, tt.want)
			}
		})
	}
}

// refGame is a reference game: its start and plies.
type refGame struct {
	Start string `json:"start"`
	Plies []struct {
		Play string `json:"play"`
	} `json:"plies"`
}

// TestProverMatchesMinimax compares the prover with plain minimax through
// package rules, for both sides and every horizon up to 3 plies, on the
// positions 1 to 5 plies before the end of the reference games that end
// in checkmate (the first 200 or so with -short or the race detector).
func TestProverMatchesMinimax(t *testing.T) {
	refs := vectors.Load[refGame](t, "../"+vectors.File)
	var pr Prover
	compared, mates := 0, 0
	for gi, ref := range refs {
		if _, err := rules.FromFEN(ref.Start, rules.BanChess{}); err != nil {
			continue // the one start docs/rules.md rejects
		}
		acts := make([]string, len(ref.Plies))
		for i, p := range ref.Plies {
			acts[i] = p.Play
		}
		end := game(t, ref.Start, acts...)
		if end.Outcome().Status != rules.Checkmate {
			continue
		}
		for back := 1; back <= 5 && back <= len(acts); back++ {
			g := game(t, ref.Start, acts[:len(acts)-back]...)
			if pos := g.Position(); pos.HalfmoveClock > 90 {
				continue
			}
			for _, side := range []rules.Color{rules.White, rules.Black} {
				for n := 0; n <= 3; n++ {
					if n == 3 && len(g.Legal()) > 12 {
						continue // plain minimax takes too long
					}
					got, err := pr.Mates(g, side, n)
					if err != nil {
						t.Fatal(err)
					}
					if want := naiveMates(t, g, side, n); got != want {
						t.Errorf("game %d, %d plies before its end (%s): Mates(%s, %d) = %v, plain minimax %v", gi, back, g.FEN(), side.Name(), n, got, want)
					}
					compared++
					if got {
						mates++
					}
				}
			}
		}
		if (testing.Short() || race.Enabled) && compared > 200 { // CI compares them all without the race detector
			break
		}
	}
	if compared < 100 || mates < 20 {
		t.Fatalf("compared %d cases, %d of them mates: too few to tell", compared, mates)
	}
	t.Logf("%d cases, %d mates", compared, mates)
}

// TestProverBudget checks that a proof over its budget says so.
func TestProverBudget(t *testing.T) {
	pr := Prover{Budget: 100}
	kiwipete := game(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	_, err := pr.Mates(kiwipete, rules.White, 5)
	if err != ErrBudget {
		t.Fatalf("error %v, want ErrBudget", err)
	}
	if pr.Nodes <= 100 {
		t.Errorf("counted %d nodes", pr.Nodes)
	}
}

// TestProverTotal checks that the positions of all calls are bounded
// together: a call past the total says so (the search unwinds, visiting
// a few more), and one after it may visit a single position.
func TestProverTotal(t *testing.T) {
	kiwipete := game(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	pr := Prover{Total: 100}
	if _, err := pr.Mates(kiwipete, rules.White, 1); err != nil {
		t.Fatalf("a proof of one ply: %v", err)
	}
	first := pr.Nodes
	if _, err := pr.Mates(kiwipete, rules.White, 5); err != ErrBudget {
		t.Fatalf("error %v, want ErrBudget", err)
	}
	if pr.Nodes <= 100 || pr.Nodes > 200 {
		t.Errorf("counted %d nodes (%d in the first call), want a few past the total", pr.Nodes, first)
	}
	if _, err := pr.Mates(kiwipete, rules.White, 5); err != ErrBudget {
		t.Errorf("past the total: error %v, want ErrBudget", err)
	}
}

// BenchmarkProveMateIn4 proves the shipped mates in four again, as the
// generator proved them: the shortest mate (six or eight plies), then
// that no other first action mates within MaxPlies. An op is one puzzle;
// it reports the prover's positions a puzzle.
func BenchmarkProveMateIn4(b *testing.B) {
	s, err := Shipped()
	if err != nil {
		b.Fatal(err)
	}
	ps := s.WithTheme(MateIn4)
	if len(ps) == 0 {
		b.Skip("no mate in four shipped")
	}
	var pr Prover
	b.ResetTimer()
	for i := range b.N {
		p := ps[i%len(ps)]
		g, err := p.Start()
		if err != nil {
			b.Fatal(err)
		}
		solver := g.Turn().Actor
		if n, found, err := pr.Distance(g, solver, len(p.Solution)); err != nil || !found || n != len(p.Solution) {
			b.Fatalf("puzzle %s: mate in %d plies (%v, %v)", p.ID, n, found, err)
		}
		line, err := p.Line()
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range g.Legal() {
			if a == line[0] {
				continue
			}
			if err := g.Play(a); err != nil {
				b.Fatal(err)
			}
			if mates, err := pr.Mates(g, solver, min(len(p.Solution)+3, MaxPlies)-1); err != nil || mates {
				b.Fatalf("puzzle %s: %s mates too (%v)", p.ID, a, err)
			}
			if err := g.Undo(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(pr.Nodes)/float64(b.N), "positions/puzzle")
}
