package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// enVariant is EN-Chess, asked for by its board as the engine asks.
func enVariant(tb testing.TB) rules.Variant {
	tb.Helper()
	for _, v := range rules.Variants() {
		if v.Board() == rules.ENBoard {
			return v
		}
	}
	tb.Fatal("no variant on EN-Chess's board")
	return nil
}

// enPositions returns EN-Chess positions to compare generators on: the
// start, seven of our own (x squares taken, several kings, a partial
// checkmate) and n reached by seeded random play from the start, 8 to 80
// plies long, each one that the game is not over at.
func enPositions(tb testing.TB, n int) []string {
	tb.Helper()
	v := enVariant(tb)
	fens := []string{
		rules.ENStartFEN,
		"r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 4 Aa",
		"r2Pk2r/2p5/8/3a4/8/8/2B2A2/R3K2R w KQkq - 0 1 Qn",
		"k7/8/8/rr6/3Q4/8/1P5K/K5A1 w - - 0 1 -a",
		"4k3/8/8/8/8/8/8/r2K2K1 w - - 0 1 A-",                                // two kings on the first rank, one checked along it
		"3Pk3/8/8/8/8/8/4P3/3pK3 b - - 0 1 Aa",                               // waiting pawns of both sides by the x squares
		"rnbqk2r/pppp1ppp/5n2/4p3/1b2P3/8/PPPPAPPP/RNBQK1NR w KQkq - 0 1 -a", // an Auror by its king
		"rr2k3/8/8/8/8/8/8/K6K w - - 0 1 --",                                 // partial checkmate: White passes, then a king is taken
	}
	rng := rand.New(rand.NewPCG(42, 2026))
	for own := len(fens); len(fens) < own+n; {
		g := rules.New(v)
		plies := 8 + rng.IntN(73)
		for range plies {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				tb.Fatal(err)
			}
		}
		if g.Outcome().Over() {
			continue
		}
		fens = append(fens, g.FEN())
	}
	return fens
}

// TestENPerft compares the engine's EN-Chess generator with package
// rules's (its Game, through Legal, Play and Undo) on 48 positions: the
// start, seven of our own and 40 reached by seeded random play, to depth 3
// (2 for the random ones past the first ten). Under the race detector it
// checks every fourth position to depth 2 (CI compares them all without
// it). The trees hold every kind of EN-Chess move (enKindsSeen).
func TestENPerft(t *testing.T) {
	v := enVariant(t)
	fens := enPositions(t, 40)
	if !race.Enabled {
		seen := map[string]int{}
		for i, fen := range fens {
			p, err := parseENFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			depth := 3
			if i >= 18 {
				depth = 2
			}
			enKindsSeen(p, depth, seen)
		}
		for _, kind := range []string{"double", "castle", "ep", "swap", "inplace", "pass", "through", "onto x", "king taken"} {
			if seen[kind] == 0 {
				t.Errorf("no %s in the trees compared (%v)", kind, seen)
			}
		}
		t.Logf("moves compared, by kind: %v", seen)
	}
	for i, fen := range fens {
		depth := 3
		if i >= 18 {
			depth = 2
		}
		if race.Enabled {
			if i%4 != 0 {
				continue
			}
			depth = 2
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			g, err := rules.FromFEN(fen, v)
			if err != nil {
				t.Fatalf("%s: %v", fen, err)
			}
			p, err := parseENFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.fen(); got != g.FEN() {
				t.Fatalf("read %s, wrote %s", g.FEN(), got)
			}
			for d := 1; d <= depth; d++ {
				want := rulesPerft(t, g, d)
				if got := p.perft(d); got != want {
					t.Errorf("%s depth %d: engine %d, rules %d", fen, d, got, want)
					enDivide(t, p, g, d)
					return
				}
			}
			if p.hash != p.computeHash() {
				t.Error("hash differs from a recomputed one after perft")
			}
		})
	}
}

// enKindsSeen counts the moves of p's tree to depth by kind, with those
// that pass through an enemy piece, capture onto an x square or take a
// king.
func enKindsSeen(p *enPos, depth int, seen map[string]int) {
	if p.kingless() {
		return
	}
	moves, _ := p.legal(nil)
	for _, m := range moves {
		seen[[...]string{"plain", "double", "castle", "ep", "swap", "inplace", "pass"}[m.kind()]]++
		if m.over() != enNoOver {
			seen["through"]++
		}
		if m.to() >= enX0 && m.kind() == enPlain && p.board[m.to()] != 0 {
			seen["onto x"]++
		}
		if pc := p.board[m.to()]; m.kind() == enPlain && pc != 0 && enKind(pc) == King {
			seen["king taken"]++
		}
		if depth > 1 {
			p.make(m)
			enKindsSeen(p, depth-1, seen)
			p.unmake()
		}
	}
}

// enDivide logs the first move whose subtree the generators count apart.
func enDivide(t *testing.T, p *enPos, g *rules.Game, depth int) {
	t.Helper()
	moves, _ := p.legal(nil)
	engine := map[string]uint64{}
	for _, m := range moves {
		p.make(m)
		engine[m.String()] = 1
		if depth > 1 {
			engine[m.String()] = p.perftAt(depth-1, perftBufs(depth), false)
		}
		p.unmake()
	}
	for _, a := range g.Legal() {
		key := a.String()[2:]
		want := uint64(1)
		if depth > 1 {
			if err := g.Play(a); err != nil {
				t.Fatal(err)
			}
			want = rulesPerft(t, g, depth-1)
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := engine[key]
		delete(engine, key)
		if !ok || got != want {
			t.Errorf("after %s: engine %d (listed %v), rules %d", a, got, ok, want)
		}
	}
	for m, n := range engine {
		t.Errorf("the engine's %s (%d) is not legal in rules", m, n)
	}
}

func perftBufs(depth int) [][]enMove {
	bufs := make([][]enMove, depth)
	for i := range bufs {
		bufs[i] = make([]enMove, 0, 256)
	}
	return bufs
}

// BenchmarkENPerft measures the EN-Chess generator beside the Ban Chess
// one (BenchmarkPerft) and package rules's EN generator on the same trees.
func BenchmarkENPerft(b *testing.B) {
	v := enVariant(b)
	for _, c := range []struct {
		name, fen string
		depth     int
	}{{"start", rules.ENStartFEN, 3}, {"middlegame", "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 4 Aa", 3}} {
		b.Run(c.name+"/engine", func(b *testing.B) {
			p, err := parseENFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			var n uint64
			for b.Loop() {
				n += p.perft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		})
		b.Run(c.name+"/rules", func(b *testing.B) {
			g, err := rules.FromFEN(c.fen, v)
			if err != nil {
				b.Fatal(err)
			}
			var n uint64
			for b.Loop() {
				n += rulesPerft(b, g, c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// TestENLegalCaptures checks the quiescence search's generator: in every
// position of the trees TestENPerft compares (to depth 3 for the first
// eighteen positions, 2 for the others and under the race detector, where
// it takes every fourth position), where no king of
// the side to move is in check, its moves are the legal moves that capture
// or promote to a queen, in the same order.
func TestENLegalCaptures(t *testing.T) {
	positions := 0
	var walk func(p *enPos, depth int)
	walk = func(p *enPos, depth int) {
		if p.kingless() {
			return
		}
		legal, checked := p.legal(nil)
		if checked == 0 {
			var want []enMove
			for _, m := range legal {
				if p.captures(m) || m.promo() == Queen+1 {
					want = append(want, m)
				}
			}
			if got := p.legalCaptures(nil); !slices.Equal(got, want) {
				t.Fatalf("%s: captures %v, want %v", p.fen(), got, want)
			}
			positions++
		}
		if depth > 1 {
			for _, m := range legal {
				p.make(m)
				walk(p, depth-1)
				p.unmake()
			}
		}
	}
	for i, fen := range enPositions(t, 40) {
		if race.Enabled && i%4 != 0 {
			continue
		}
		p, err := parseENFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		depth := 3
		if i >= 18 || race.Enabled {
			depth = 2
		}
		walk(p, depth)
	}
	t.Logf("%d positions compared", positions)
}
