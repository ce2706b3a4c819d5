package rules

import "testing"

// TestENPerft compares the engine's move counts with the slow generator's,
// from the start to depth 3 and from three positions of our own.
func TestENPerft(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		depth int
	}{
		{"start", ENStartFEN, 3},
		{"open game, both Aurors home, castling", "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 4 Aa", 3},
		{"x squares taken, a waiting pawn", "r2Pk2r/2p5/8/3a4/8/8/2B2A2/R3K2R w KQkq - 0 1 Qn", 3},
		{"two white kings, one in check", "k7/8/8/rr6/3Q4/8/1P5K/K5A1 w - - 0 1 -a", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() || raceEnabled && tt.fen != ENStartFEN {
				tt.depth = 2
			}
			g, err := FromFEN(tt.fen, ENChess{})
			if err != nil {
				t.Fatal(err)
			}
			p := slowParse(t, tt.fen)
			// Through Game (Play and Undo) to depth 2; the mover alone deeper.
			for d := 1; d <= tt.depth; d++ {
				want := slowPerft(p, d)
				got := enPerft(g.Position(), d)
				if d <= 2 {
					got = perft(t, g, d)
				}
				if got != want {
					t.Errorf("depth %d: engine %d, slow generator %d", d, got, want)
				}
				t.Logf("depth %d: %d", d, got)
			}
		})
	}
}

// enPerft counts the leaf nodes of the mover's legal moves from p to depth.
func enPerft(p Position, depth int) int {
	if depth == 0 {
		return 1
	}
	if p.Board.Find(NewPiece(p.ToMove, King)) == NoSquare {
		return 0
	}
	moves, _, _ := enLegal(&p, nil)
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, e := range moves {
		next := p
		applyEN(&next, e)
		n += enPerft(next, depth-1)
	}
	return n
}
