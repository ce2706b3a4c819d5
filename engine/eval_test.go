package engine

import "testing"

// TestEvalTerms: the evaluation is the sum of its terms (EvalTerms) weighed
// by EvalWeights, for the side to move, and it is symmetric: the position
// mirrored with colours swapped scores the same.
func TestEvalTerms(t *testing.T) {
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"6k1/5ppp/8/3P4/8/8/5PPP/6K1 b - - 0 40",
	}
	mg, eg := EvalWeights()
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		terms, phase := p.EvalTerms()
		m, e := 0, 0
		for i, n := range terms {
			m += n * mg[i]
			e += n * eg[i]
		}
		want := (m*phase + e*(24-phase)) / 24
		if p.side == Black {
			want = -want
		}
		if got := p.evaluate(); got != want {
			t.Errorf("%s: evaluate %d, terms give %d", fen, got, want)
		}
		q, err := ParseFEN(mirror(fen))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := p.evaluate(), q.evaluate(); a != b {
			t.Errorf("%s: %d, mirrored %d", fen, a, b)
		}
	}
}

// mirror flips a FEN's board top to bottom and swaps the colours (castling
// and en passant dropped: the evaluation does not read them).
func mirror(fen string) string {
	var board, side string
	for i, r := range []byte(fen) {
		if r == ' ' {
			board, side = fen[:i], fen[i+1:i+2]
			break
		}
	}
	var ranks []string
	start := 0
	for i := 0; i <= len(board); i++ {
		if i == len(board) || board[i] == '/' {
			ranks = append([]string{board[start:i]}, ranks...)
			start = i + 1
		}
	}
	out := []byte{}
	for i, r := range ranks {
		if i > 0 {
			out = append(out, '/')
		}
		for _, c := range []byte(r) {
			switch {
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			}
			out = append(out, c)
		}
	}
	if side == "w" {
		side = "b"
	} else {
		side = "w"
	}
	return string(out) + " " + side + " - - 0 1"
}
