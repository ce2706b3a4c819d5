package rules

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func enGame(t *testing.T, fen string) *Game {
	t.Helper()
	g, err := FromFEN(fen, ENChess{})
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return g
}

// legalFrom returns the legal moves of g in BCN without the prefix, of the
// piece on from ("" for all).
func legalFrom(g *Game, from string) []string {
	var out []string
	for _, a := range g.Legal() {
		if c := a.Coords(); from == "" || strings.HasPrefix(c, from) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// TestENLegalMoves: for each rule of docs/en-chess.md, a position and the
// exact set of legal moves of one piece (or of the side).
func TestENLegalMoves(t *testing.T) {
	tests := []struct {
		rule, fen, from string
		want            string // space-separated coordinates
	}{
		{"§1 a bishop crosses x0 and changes colour", "4k3/8/8/8/8/8/2B5/7K w - - 0 1 --", "c2",
			"c2b1 c2b3 c2a4 c2d3 c2e4 c2f5 c2g6 c2h7 c2d1 c2x0 c2e1 c2f2 c2g3 c2h4"},
		{"§1 from x0 a bishop has two rays", "4k3/8/8/8/8/8/8/7K w - - 0 1 B-", "x0",
			"x0d1 x0c2 x0b3 x0a4 x0e1 x0f2 x0g3 x0h4"},
		{"§1 rooks never reach an x square", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1 --", "d1",
			"d1a1 d1b1 d1c1 d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 d1d8"},
		{"§1 a knight never jumps to an x square", "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1 --", "c1",
			"c1a2 c1b3 c1d3 c1e2"},
		{"§2 the start: the queen penetrates, the Auror swaps", ENStartFEN, "",
			"a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d1a4 d1b3 d1d3 d1d4 d1d5 d1d6 d1d7 d1f3 d1g4 d1h5 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4 x0e1"},
		{"§4 a queen penetrates an own pawn and captures behind it", "4k3/8/8/3n4/8/8/3P4/3QK3 w - - 0 1 A-", "d1",
			"d1a1 d1b1 d1c1 d1f1 d1g1 d1h1 d1c2 d1b3 d1a4 d1e2 d1f3 d1g4 d1h5 d1d3 d1d4 d1d5"},
		{"§4 a penetrating rook captures two pieces", "7k/b7/8/8/n7/8/1A6/R6K w - - 0 1 --", "a1",
			"a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1"},
		{"§4 a stunted queen steps, and may capture an Auror", "4k3/8/8/4a3/3Q4/8/8/4K3 w - - 0 1 --", "d4",
			"d4c3 d4c4 d4c5 d4d3 d4d5 d4e3 d4e4 d4e5"},
		{"§4 F = E: a queen moves as usual", "4k3/8/8/8/8/8/2a5/3Q3K w - - 0 1 A-", "d1",
			"d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 d1d8 d1c2 d1e2 d1f3 d1g4 d1h5 d1e1 d1f1 d1g1 d1c1 d1b1 d1a1"},
		{"§4 an Auror steps and jumps to empty squares only; no swap into check", "4k3/8/8/2P1p3/3A4/8/8/4K3 w - - 0 1 --", "d4",
			"d4c3 d4c4 d4d3 d4d5 d4e3 d4e4 d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5"},
		{"§4/§5 a penetrating check through one blocker", "3k4/8/8/8/8/8/3P4/3Q3K b - - 0 1 A-", "",
			"d8c8 d8c7 d8e7 d8e8 d8x9"},
		{"§4/§5 an Auror swaps with the king out of check", "4r2k/8/8/8/8/A7/8/4K3 w - - 0 1 --", "",
			"e1d1 e1d2 e1f1 e1f2 e1x0 a3e1"},
		{"§3 a pawn reaching the last rank: stay, king or Auror", "7k/3P4/8/8/8/8/8/K7 w - - 0 1 --", "d7",
			"d7d8 d7d8k d7d8a"},
		{"§3 a waiting pawn promotes in place or captures onto x9 (not to a rook)", "3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", "d8",
			"d8d8q d8d8r d8d8b d8d8n d8d8k d8d8a d8x9q d8x9b d8x9n d8x9k d8x9a"},
		{"§3 a black pawn captures onto x0", "k7/8/8/8/8/8/8/4p2K b - - 0 1 N-", "e1",
			"e1e1q e1e1r e1e1b e1e1n e1e1k e1e1a e1x0q e1x0b e1x0n e1x0k e1x0a"},
		{"§3 en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 --", "e5",
			"e5e6 e5d6"},
		{"§5 two kings, one in check: only moves that free it", "7K/8/8/r7/8/7k/8/K7 w - - 0 1 --", "",
			"a1b1 a1b2"},
		{"§5 partial checkmate: the only move is the pass", "7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --", "",
			"0000"},
		{"§5 castling both ways, and a king's step to x0", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 --", "e1",
			"e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 e1x0"},
		{"§5 no castling through an attacked square", "r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1 --", "e1",
			"e1c1 e1d1 e1d2 e1f2 e1x0"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			g := enGame(t, tt.fen)
			want := strings.Fields(tt.want)
			slices.Sort(want)
			if got := legalFrom(g, tt.from); !slices.Equal(got, want) {
				t.Errorf("legal moves\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestENPlay plays moves and checks the position, SAN and outcome after.
func TestENPlay(t *testing.T) {
	tests := []struct {
		rule, fen string
		moves     []string // BCN
		san       []string // the log
		after     string   // the FEN after
		outcome   Outcome
	}{
		{"a bishop crosses x0", "4k3/8/8/8/8/8/2B5/7K w - - 0 1 --", []string{"m:c2x0", "m:e8d8", "m:x0h4"},
			[]string{"Bx0", "Kd8", "Bh4+"}, "3k4/8/8/8/7B/8/8/7K b - - 3 2 --", Outcome{}},
		{"a queen captures behind its own pawn", "4k3/8/8/3n4/8/8/3P4/3QK3 w - - 0 1 A-", []string{"m:d1d5"},
			[]string{"Qxd5"}, "4k3/8/8/3Q4/8/8/3P4/4K3 b - - 0 1 A-", Outcome{}},
		{"a penetrating rook takes two", "7k/b7/8/8/n7/8/1A6/R6K w - - 0 1 --", []string{"m:a1a7"},
			[]string{"Rxa7"}, "7k/R7/8/8/8/8/1A6/7K b - - 0 1 --", Outcome{}},
		{"an Auror swaps out of check", "4r2k/8/8/8/8/A7/8/4K3 w - - 0 1 --", []string{"m:a3e1"},
			[]string{"A@e1"}, "4r2k/8/8/8/8/K7/8/4A3 b - - 1 1 --", Outcome{}},
		{"a pawn waits, then promotes in place", "7k/3P4/8/8/8/8/8/K7 w - - 0 1 --", []string{"m:d7d8", "m:h8g7", "m:d8d8q"},
			[]string{"d8", "Kg7", "d8=Q"}, "3Q4/6k1/8/8/8/8/8/K7 b - - 0 2 --", Outcome{}},
		{"a pawn promotes to a king on arrival", "7k/3P3p/8/8/8/8/8/K7 w - - 0 1 --", []string{"m:d7d8k"},
			[]string{"d8=K"}, "3K3k/7p/8/8/8/8/8/K7 b - - 0 1 --", Outcome{}},
		{"a pawn captures onto x9 and becomes a knight", "3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", []string{"m:d8x9n"},
			[]string{"dxx9=N"}, "7k/8/8/8/8/8/8/K7 b - - 0 1 -N", Outcome{}},
		{"partial checkmate: the pass, then a king is captured", "7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --", []string{"m:0000", "m:a5a1"},
			[]string{"--", "Rxa1"}, "7K/8/8/1r6/8/7k/8/r7 w - - 0 2 --", Outcome{}},
		{"checkmate with two kings", "rr4rr/8/8/4k3/8/8/8/K6K w - - 0 1 --", nil,
			nil, "rr4rr/8/8/4k3/8/8/8/K6K w - - 0 1 --", Outcome{Status: Checkmate, Reason: ByMove, Winner: Black}},
		{"stalemate", "k7/8/8/8/8/8/2q5/K7 w - - 0 1 --", nil,
			nil, "k7/8/8/8/8/8/2q5/K7 w - - 0 1 --", Outcome{Status: Stalemate, Reason: ByMove}},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 --", []string{"m:e1g1", "m:e8c8"},
			[]string{"O-O", "O-O-O"}, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2 --", Outcome{}},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 --", []string{"m:e5d6"},
			[]string{"exd6"}, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1 --", Outcome{Status: Draw, Reason: NoReason}},
		{"only kings and Aurors: insufficient material", "4k3/8/8/8/8/8/8/4K2b w - - 0 1 Aa", []string{"m:e1f2", "m:e8d8", "m:f2g1", "m:d8e8", "m:g1h1"},
			[]string{"Kf2", "Kd8", "Kg1", "Ke8", "Kxh1"}, "4k3/8/8/8/8/8/8/7K b - - 0 3 Aa", Outcome{Status: Draw, Reason: InsufficientMaterial}},
		{"a bishop is enough to play on", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 --", []string{"m:e1f1"},
			[]string{"Kf1"}, "4k3/8/8/8/8/8/8/2B2K2 b - - 1 1 --", Outcome{}},
		{"the fifty-move rule", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 --", []string{"m:a1a2"},
			[]string{"Ra2"}, "4k3/8/8/8/8/8/R7/4K3 b - - 100 80 --", Outcome{Status: Draw, Reason: FiftyMoveRule}},
		{"threefold repetition", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 --", []string{"m:a1a2", "m:e8d8", "m:a2a1", "m:d8e8", "m:a1a2", "m:e8d8", "m:a2a1", "m:d8e8"},
			[]string{"Ra2", "Kd8", "Ra1", "Ke8", "Ra2", "Kd8", "Ra1", "Ke8"}, "4k3/8/8/8/8/8/8/R3K3 w - - 8 5 --", Outcome{Status: Draw, Reason: ThreefoldRepetition}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			g := enGame(t, tt.fen)
			for _, m := range tt.moves {
				if err := g.PlayText(m); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
			}
			if got := g.Record().Log(); !slices.Equal(got, tt.san) && !(len(got) == 0 && len(tt.san) == 0) {
				t.Errorf("log %q, want %q", got, tt.san)
			}
			if got := g.FEN(); got != tt.after {
				t.Errorf("FEN %s\n    want %s", got, tt.after)
			}
			want := tt.outcome
			if want.Status == Draw && want.Reason == NoReason {
				want = Outcome{} // (en passant: the game goes on)
			}
			if got := g.Outcome(); got != want {
				t.Errorf("outcome %v, want %v", got, want)
			}
		})
	}
}

// TestENPassRecorded: the pass is a ply of its own in the history, the
// PGN (--) and coordinates (m:0000), and is refused when not forced.
func TestENPassRecorded(t *testing.T) {
	g := enGame(t, "7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --")
	if err := g.PlayText("m:0000"); err != nil {
		t.Fatal(err)
	}
	if got := g.BCN(); !slices.Equal(got, []string{"m:0000"}) {
		t.Errorf("BCN %v", got)
	}
	if err := g.PlayText("m:0000"); !errors.Is(err, ErrIllegal) {
		t.Errorf("a pass when not in partial checkmate: %v, want ErrIllegal", err)
	}
	if _, err := g.Notation().ParseInput("--"); !errors.Is(err, ErrIllegal) {
		t.Errorf("-- when not in partial checkmate: %v, want ErrIllegal", err)
	}
}

// TestENInput reads coordinates and SAN as docs/en-chess.md §6 writes them.
func TestENInput(t *testing.T) {
	tests := []struct{ fen, text, want string }{
		{"4k3/8/8/8/8/8/2B5/7K w - - 0 1 --", "Bx0", "m:c2x0"},
		{"4k3/8/8/8/8/8/2B5/7K w - - 0 1 --", "c2f2", "m:c2f2"},
		{"4k3/8/8/8/8/8/2B5/7K w - - 0 1 --", "Bf2", "m:c2f2"},
		{"4r2k/8/8/8/8/A7/8/4K3 w - - 0 1 --", "A@e1", "m:a3e1"},
		{"4r2k/8/8/8/8/A7/8/4K3 w - - 0 1 --", "a3e1", "m:a3e1"},
		{"4r2k/8/8/8/8/A7/8/4K3 w - - 0 1 --", "Kx0", "m:e1x0"},
		{"7k/3P4/8/8/8/8/8/K7 w - - 0 1 --", "d8", "m:d7d8"},
		{"7k/3P4/8/8/8/8/8/K7 w - - 0 1 --", "d8=K", "m:d7d8k"},
		{"7k/3P4/8/8/8/8/8/K7 w - - 0 1 --", "d7d8a", "m:d7d8a"},
		{"3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", "d8=Q", "m:d8d8q"},
		{"3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", "dxx9=N", "m:d8x9n"},
		{"3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", "m:d8x9n", "m:d8x9n"},
		{"7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --", "--", "m:0000"},
		{"7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --", "m:0000", "m:0000"},
	}
	for _, tt := range tests {
		g := enGame(t, tt.fen)
		a, err := g.Notation().ParseInput(tt.text)
		if err != nil {
			t.Errorf("%s in %s: %v", tt.text, tt.fen, err)
			continue
		}
		if a.String() != tt.want {
			t.Errorf("%s: %s, want %s", tt.text, a, tt.want)
		}
	}
	g := enGame(t, "3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n")
	if err := g.PlayText("m:d8x9r"); !errors.Is(err, ErrIllegal) {
		t.Errorf("a rook on x9: %v, want ErrIllegal", err)
	}
}

// TestENFEN reads and writes the seven-field EN FEN, with clear errors.
func TestENFEN(t *testing.T) {
	for _, fen := range []string{
		ENStartFEN,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -a",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1 Q-",
		"3P3k/8/8/8/8/8/8/K2K4 b - - 12 40 -n",
	} {
		if got := enGame(t, fen).FEN(); got != fen {
			t.Errorf("FEN %s written back as %s", fen, got)
		}
	}
	bad := []struct{ fen, field, msg string }{
		{StartFEN, "position", "an EN-Chess FEN has 7 fields"},
		{StartFEN + " A", "x squares", `"A" must be two characters`},
		{StartFEN + " Pa", "x squares", "a pawn cannot stand on x0"},
		{StartFEN + " -r", "x squares", "a rook cannot stand on x9"},
		{StartFEN + " Z-", "x squares", `"Z" in "Z-" is not a piece letter`},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1 Aa", "placement", "Black has no king"},
		{"rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNP w - - 0 1 Aa", "placement", "a white pawn stands on h1, its own first rank"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 AaA", "x squares", "two characters"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1", "x squares", "two characters"},
		{"rnbqkbnX/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Aa", "placement", "use PNBRQKA"},
	}
	for _, tt := range bad {
		_, err := FromFEN(tt.fen, ENChess{})
		var fe *FENError
		if !errors.As(err, &fe) || fe.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want a %s error containing %q", tt.fen, err, tt.field, tt.msg)
		}
	}
	// Aurors are EN-Chess's alone.
	if _, err := FromFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w kq - 0 1", Classic{}); err == nil {
		t.Error("a chess FEN with an Auror was read")
	}
}

// TestENPGN writes [Variant "EN-Chess"] and reads it back, from the start
// and from a set-up position with a pass.
func TestENPGN(t *testing.T) {
	for _, tt := range []struct {
		fen   string
		moves []string
	}{
		{ENStartFEN, []string{"m:x0e1", "m:e7e5", "m:d1d5", "m:x9e8", "m:e2e4"}},
		// A piece leaving an x square, named by its square: Bx0c2.
		{"4k3/8/8/8/8/1B6/8/4K3 w - - 0 1 B-", []string{"m:x0c2"}},
		{"4k3/8/8/8/8/1B6/8/4K3 w - - 0 1 B-", []string{"m:b3c2"}},
		// Two Aurors that can swap with one king: Aa@b2, the file first.
		{"4k3/8/8/8/8/8/1K5R/A1A5 w - - 0 1 --", []string{"m:a1b2"}},
		{"7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --", []string{"m:0000", "m:a5a1", "m:h8g8"}},
	} {
		g, err := Replay(ENChess{}, tt.fen, tt.moves)
		if err != nil {
			t.Fatal(err)
		}
		pgn := g.Record().PGN()
		if !strings.Contains(pgn, `[Variant "EN-Chess"]`) {
			t.Errorf("no Variant tag:\n%s", pgn)
		}
		if tt.fen != ENStartFEN && !strings.Contains(pgn, `[FEN "`+tt.fen+`"]`) {
			t.Errorf("no FEN tag:\n%s", pgn)
		}
		back, err := FromPGN(pgn, PGNOptions{})
		if err != nil {
			t.Fatalf("%v\n%s", err, pgn)
		}
		if back.Variant().ID() != "en" || !slices.Equal(back.BCN(), g.BCN()) || back.FEN() != g.FEN() {
			t.Errorf("read back as %s %v %s, want %v %s", back.Variant().ID(), back.BCN(), back.FEN(), g.BCN(), g.FEN())
		}
	}
}

// TestENRandomGames: both sides play random legal moves; no game panics,
// and each ends (a result or a draw rule) within its bound.
func TestENRandomGames(t *testing.T) {
	games := 12
	if testing.Short() || raceEnabled {
		games = 2
	}
	r := rand.New(rand.NewPCG(16, 2026))
	reasons := map[string]int{}
	for i := range games {
		g := New(ENChess{})
		for ply := 0; !g.Outcome().Over(); ply++ {
			if ply > 5000 {
				t.Fatalf("game %d: not over after 5000 plies: %s", i, g.FEN())
			}
			legal := g.Legal()
			if len(legal) == 0 {
				t.Fatalf("game %d: no legal move, yet not over: %s", i, g.FEN())
			}
			a := legal[r.IntN(len(legal))]
			if err := g.Play(a); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
			// Its SAN reads back as the move, from the position before.
			san := g.Record().History()[g.Ply()-g.StartPly()-1].SAN
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if back, err := g.Notation().ParseInput(san); err != nil || back != a {
				t.Fatalf("game %d: %s written %q reads back as %v, %v in %s", i, a, san, back, err, g.FEN())
			}
			if err := g.Play(a); err != nil {
				t.Fatal(err)
			}
			if _, err := FromFEN(g.FEN(), ENChess{}); err != nil {
				t.Fatalf("game %d: the FEN %s does not read back: %v", i, g.FEN(), err)
			}
		}
		reasons[g.Outcome().String()]++
	}
	t.Log(reasons)
}

// FuzzENFEN: no text panics the EN FEN reader; a FEN it reads writes back
// to itself, and every legal move of it plays.
//
//	go test ./rules -run '^$' -fuzz '^FuzzENFEN$' -fuzztime 1m
func FuzzENFEN(f *testing.F) {
	for _, s := range []string{
		ENStartFEN, StartFEN, StartFEN + " -a", StartFEN + " Q-", StartFEN + " Pp", StartFEN + " x9",
		"3P3k/8/8/8/8/8/8/K2K4 b - - 12 40 -n", "7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 --", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 Aa",
		"kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1 Kk", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 é-",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := FromFEN(s, ENChess{})
		if err != nil {
			checkQuote(t, s, err)
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("%q: %T %v, want a *FENError", s, err, err)
			}
			return
		}
		out := g.FEN()
		back, err := FromFEN(out, ENChess{})
		if err != nil || back.FEN() != out || !slices.Equal(back.Legal(), g.Legal()) {
			t.Fatalf("%q → %q → %v", s, out, err)
		}
		for _, a := range g.Legal() {
			if err := g.Play(a); err != nil {
				t.Fatalf("%q: legal %s refused: %v", s, a, err)
			}
			if err := g.Undo(); err != nil || g.FEN() != out {
				t.Fatalf("%q: undo of %s: %v, %s", s, a, err, g.FEN())
			}
		}
	})
}

// TestENCheckedKings lists every king in check, for boards to mark.
func TestENCheckedKings(t *testing.T) {
	for _, tt := range []struct {
		fen  string
		want []Square
	}{
		{"rr4rr/8/8/4k3/8/8/8/K6K w - - 0 1 --", []Square{SquareAt(0, 0), SquareAt(7, 0)}},
		{"7K/8/8/r7/8/7k/8/K7 w - - 0 1 --", []Square{SquareAt(0, 0)}},
		{"3k4/8/8/8/8/8/3P4/3Q3K b - - 0 1 A-", []Square{SquareAt(3, 7)}},
		{ENStartFEN, nil},
	} {
		g := enGame(t, tt.fen)
		pos := g.Position()
		if got := g.CheckedKings(&pos); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.fen, got, tt.want)
		}
	}
	g := New(Classic{})
	for _, m := range []string{"m:f2f3", "m:e7e5", "m:g2g4", "m:d8h4"} {
		if err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if pos := g.Position(); !slices.Equal(g.CheckedKings(&pos), []Square{SquareAt(4, 0)}) {
		t.Errorf("chess: %v", g.CheckedKings(&pos))
	}
}

// TestENNoKingLeft: a side with no king left has lost (docs/en-chess.md
// §5); the check rule keeps a legal game from reaching it, so the position
// is built.
func TestENNoKingLeft(t *testing.T) {
	p := Position{ToMove: White, EnPassant: NoSquare, Fullmove: 1}
	p.Board[SquareAt(4, 7)] = NewPiece(Black, King)
	p.Board[SquareAt(0, 0)] = NewPiece(White, Queen)
	want := Outcome{Status: Checkmate, Reason: KingCapture, Winner: Black}
	if got := (&enMover{}).decided(&p); got != want || got.String() != "Black won by capturing the last king" {
		t.Errorf("%v (%q), want %v", got, got, want)
	}
	p.Board[SquareAt(7, 0)] = NewPiece(White, King)
	if got := (&enMover{}).decided(&p); got.Over() {
		t.Errorf("with a king: %v", got)
	}
}

// TestENFlagFall: on time, a bishop can still mate in EN-Chess; kings and
// Aurors cannot.
func TestENFlagFall(t *testing.T) {
	g := enGame(t, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 -a")
	if err := g.FlagFall(Black); err != nil || g.Outcome() != (Outcome{Status: TimeForfeit, Reason: Timeout, Winner: White}) {
		t.Errorf("Black's flag: %v %v", g.Outcome(), err)
	}
	g = enGame(t, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 -a")
	if err := g.FlagFall(White); err != nil || g.Outcome() != (Outcome{Status: Draw, Reason: Timeout}) {
		t.Errorf("White's flag: %v %v", g.Outcome(), err)
	}
}

// TestENSANDisambiguation: a piece leaving an x square is named by the
// square, a swap's "@" follows the disambiguation, and the older writing
// with "@" first still reads.
func TestENSANDisambiguation(t *testing.T) {
	tests := []struct{ fen, move, san string }{
		{"4k3/8/8/8/8/1B6/8/4K3 w - - 0 1 B-", "m:x0c2", "Bx0c2"},
		{"4k3/8/8/8/8/1B6/8/4K3 w - - 0 1 B-", "m:b3c2", "B3c2"},
		{"4k3/8/8/8/8/8/1K5R/A1A5 w - - 0 1 --", "m:a1b2", "Aa@b2"},
		{"4k3/8/8/8/8/8/1K5R/A1A5 w - - 0 1 --", "m:c1b2", "Ac@b2"},
	}
	for _, tt := range tests {
		g, err := Replay(ENChess{}, tt.fen, []string{tt.move})
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Record().History()[0].SAN; got != tt.san {
			t.Errorf("%s in %s written %q, want %q", tt.move, tt.fen, got, tt.san)
		}
	}
	g := enGame(t, "4k3/8/8/8/8/8/1K5R/A1A5 w - - 0 1 --")
	if a, err := g.Notation().ParseInput("A@cb2"); err != nil || a.String() != "m:c1b2" {
		t.Errorf("A@cb2 read as %v, %v; want m:c1b2", a, err)
	}
}
