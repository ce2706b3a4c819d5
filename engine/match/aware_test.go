package match

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

const stockfishPath = "/usr/games/stockfish"

// stockfish starts Stockfish for a test, or skips it when none is installed.
func stockfish(t *testing.T, aware bool) *Stockfish {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skip("Stockfish is not installed (apt-get install stockfish)")
	}
	sf, err := NewStockfish(stockfishPath, 200*time.Millisecond, aware)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sf.Close() })
	return sf
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		line  string
		k     int
		want  pvLine
		exact bool
	}{
		{"info depth 12 multipv 2 score cp -35 nodes 9 pv e7e5 g1f3", 2, pvLine{"e7e5", -35}, true},
		{"info depth 3 score mate 2 pv d1h5 g7g6", 1, pvLine{"d1h5", mateScore - 2}, true},
		{"info depth 3 score mate -1 pv a7a6", 1, pvLine{"a7a6", -mateScore + 1}, true},
		{"info depth 9 multipv 1 score cp 20 lowerbound nodes 9 pv e2e4", 0, pvLine{}, false},
		{"info depth 9 currmove e2e4 currmovenumber 1", 0, pvLine{}, false},
		{"info string NNUE evaluation using nn.bin", 0, pvLine{}, false},
	}
	for _, tt := range tests {
		k, l, ok := parseInfo(strings.Fields(tt.line))
		if ok != tt.exact || (ok && (k != tt.k || l != tt.want)) {
			t.Errorf("parseInfo(%q) = %d, %+v, %v; want %d, %+v, %v", tt.line, k, l, ok, tt.k, tt.want, tt.exact)
		}
	}
}

// TestAfterMove checks stockfish-aware's look one ban ahead: a check that
// leaves one reply wins (the ban takes it), and a queen left to one capture
// is safe (the mover bans the capture).
func TestAfterMove(t *testing.T) {
	sf := stockfish(t, true)
	tests := []struct {
		name, fen, move string
		low, high       int
	}{
		{"check with one escape", "7k/6p1/8/8/8/8/8/3Q2K1 w - - 0 1 2", "d1d8", mateScore, mateScore},
		{"queen left to one capture", "k2r4/8/8/8/3Q4/8/8/K7 w - - 0 1 2", "a1b1", 100, mateScore},
		{"queen left to two captures", "k2r4/6b1/8/8/3Q4/8/8/K7 w - - 0 1 2", "a1b1", -mateScore, -300},
	}
	for _, tt := range tests {
		g, err := rules.FromFEN(tt.fen, rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := sf.afterMove(g, tt.move, 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if v < tt.low || v > tt.high {
			t.Errorf("%s: after %s worth %d, want %d to %d", tt.name, tt.move, v, tt.low, tt.high)
		}
	}
}

// TestStockfishActs: both players ban the pair of the mover's best move,
// and move legally under the ban in force.
func TestStockfishActs(t *testing.T) {
	rule, aware := stockfish(t, false), stockfish(t, true)
	const banned = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"
	for _, tt := range []struct {
		sf        *Stockfish
		fen, want string // want "" for any legal action
	}{
		{rule, "k2r4/8/8/8/3Q4/8/8/K7 b - - 0 1 3", "b:d8d4"},
		{aware, "k2r4/8/8/8/3Q4/8/8/K7 b - - 0 1 3", "b:d8d4"},
		{rule, banned, ""},
		{aware, banned, ""},
	} {
		g, err := rules.FromFEN(tt.fen, rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := tt.sf.Act(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(a); err != nil {
			t.Errorf("%s: %s played %s: %v", tt.fen, tt.sf.Name(), a, err)
		}
		if tt.want != "" && a.String() != tt.want {
			t.Errorf("%s: %s played %s, want %s", tt.fen, tt.sf.Name(), a, tt.want)
		}
	}
}
