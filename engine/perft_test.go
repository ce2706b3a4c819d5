package engine

import (
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// perftCases are the standard positions of the chessprogramming wiki's
// "Perft Results" page with their published counts, depth 1 to 5.
var perftCases = []struct {
	name, fen string
	counts    []uint64
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		[]uint64{20, 400, 8902, 197281, 4865609}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624}},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292}},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}},
}

// TestPerft checks the move generator against the published counts: to
// depth 5 (half a billion leaves: about 5 s), to depth 4 with -short and
// under the race detector (depth 5 took 35–90 s there; CI runs it whole
// without).
func TestPerft(t *testing.T) {
	maxDepth := 5
	if testing.Short() || race.Enabled {
		maxDepth = 4
	}
	for _, c := range perftCases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := p.FEN()
			for d := 1; d <= maxDepth && d <= len(c.counts); d++ {
				if got := p.Perft(d); got != c.counts[d-1] {
					t.Errorf("perft(%d) = %d, want %d", d, got, c.counts[d-1])
				}
			}
			if after := p.FEN(); after != before {
				t.Errorf("make/unmake changed the position: %s, was %s", after, before)
			}
			if p.hash != p.computeHash() {
				t.Error("hash differs from a recomputed one after perft")
			}
		})
	}
}

// BenchmarkPerft compares this generator with notnil/chess's (through
// package rules, Classic variant so every ply is a move) on the same trees.
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		name, fen string
		depth     int
	}{{"start", perftCases[0].fen, 3}, {"kiwipete", perftCases[1].fen, 2}} {
		b.Run(c.name+"/engine", func(b *testing.B) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				p.Perft(c.depth)
			}
		})
		b.Run(c.name+"/rules", func(b *testing.B) {
			g, err := rules.FromFEN(c.fen, rules.Classic{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				rulesPerft(b, g, c.depth)
			}
		})
	}
}

// rulesPerft is perft through package rules: Legal, Play and Undo.
func rulesPerft(b testing.TB, g *rules.Game, depth int) uint64 {
	legal := g.Legal()
	if depth == 1 {
		return uint64(len(legal))
	}
	var n uint64
	for _, a := range legal {
		if err := g.Play(a); err != nil {
			b.Fatal(err)
		}
		n += rulesPerft(b, g, depth-1)
		if err := g.Undo(); err != nil {
			b.Fatal(err)
		}
	}
	return n
}
