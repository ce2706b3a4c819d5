package puzzles

import (
	"slices"
	"strings"
	"testing"
)

// Positions the tests share.
const (
	// White mates by Nxb6+, leaving Ka7 only, and the ban of it; Kxb6
	// leaves Kb8 only, not in check, and its ban stalemates.
	banMate = "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2"
	// White mates at once by Qh1; a quiet queen move that takes h7
	// (Qb7, Qd3) stalemates at once; Qb8+ leaves Kh7 only, and its ban
	// mates.
	queenMate = "7k/5K2/8/8/8/p7/P7/1Q6 w - - 0 1 2"
	// The back rank: Ra8 mates.
	backRank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 2"
	// Either rook mates on the back rank.
	twoRooks = "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1 2"
	// White's queen takes Black's.
	queens = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 2"
	// White's pawn promotes; Black's on a4 keeps mating material on the
	// board whatever it promotes to.
	promote = "8/4P1k1/8/8/p7/8/8/4K3 w - - 0 1 2"
	// White mates with its fourth action, the ban of the last way out:
	// Qb6+ Kxb6 banned, Kc8; Qc7+, Kxc7 banned.
	queenMate4 = "8/1k4P1/8/8/8/4Q3/K7/8 w - - 13 10 38:g7g8"
	// White wins a rook in four actions: Kg6, the ban of Rf7, Rd3, then
	// d8=Q and the ban of Rxd8.
	rookWon4 = "1R6/3P1P2/8/p1k2KP1/8/5r2/8/8 w - - 13 27 106:f5e6+"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		solution []string
		kind     Theme
		want     []Theme
		err      string // a part of the error, when one is wanted
	}{
		{"mate by ban", banMate, []string{"m:d5b6", "b:a8a7"}, MateIn2, []Theme{MateIn2, MateByBan, StalemateTrap}, ""},
		{"mate in one", backRank, []string{"m:a1a8"}, MateIn1, []Theme{MateIn1}, ""},
		{"mate in one, with a trap after the move", queenMate, []string{"m:b1b8", "b:h8h7"}, MateIn2, []Theme{MateIn2, MateByBan, StalemateTrap}, ""},
		{"material", queens, []string{"m:d2d5"}, Material, []Theme{Material}, ""},
		{"promotion", promote, []string{"m:e7e8q"}, Material, []Theme{Material, Promotion}, ""},
		{"defence", queens, []string{"m:d2d5"}, Defence, []Theme{Defence}, ""},
		{"mate in four", queenMate4, []string{"m:e3b6", "b:b7b6", "m:b7c8", "b:g7g8", "m:b6c7", "b:c8c7"}, MateIn4, []Theme{MateIn4, MateByBan, Long}, ""},
		{"a long material line", rookWon4, []string{"m:f5g6", "b:f3f7", "m:f3d3", "b:f7f8", "m:d7d8q", "b:d3d8"}, Material, []Theme{Material, Promotion, Long}, ""},
		{"a short material line is not long", rookWon4, []string{"m:f5g6", "b:f3f7", "m:f3d3", "b:f7f8", "m:d7d8q"}, Material, []Theme{Material, Promotion}, ""},
		{"mate in four counted as three", queenMate4, []string{"m:e3b6", "b:b7b6", "m:b7c8", "b:g7g8", "m:b6c7", "b:c8c7"}, MateIn3, nil, "the solver's action 4"},
		{"long is a trait", queenMate4, []string{"m:e3b6"}, Long, nil, "not a kind"},

		{"another mate in one", twoRooks, []string{"m:a1a8"}, MateIn1, nil, "another first action, m:b1b8, ends the game"},
		{"a stalemate in one", queenMate, []string{"m:b1h1"}, MateIn1, nil, "ends the game at once too"},
		{"the wrong count", banMate, []string{"m:d5b6", "b:a8a7"}, MateIn1, nil, "the mate comes with the solver's action 2"},
		{"no mate", banMate, []string{"m:h2h3"}, MateIn1, nil, "not in checkmate"},
		{"too little material", promote, []string{"m:e7e8n"}, Material, nil, "wins 2 pawns"},
		{"a reply last", queens, []string{"m:d2d5", "b:e8e7", "m:e8f8"}, Material, nil, "ends with a reply"},
		{"a defence of two actions", queens, []string{"m:d2d5", "b:e8e7"}, Defence, nil, "a defence is one action"},
		{"an illegal action", banMate, []string{"m:d5b5"}, MateIn1, nil, "action 1"},
		{"a trait as kind", banMate, []string{"m:d5b6", "b:a8a7"}, MateByBan, nil, "not a kind"},
		{"empty", banMate, nil, MateIn1, nil, "empty"},
		{"over at the start", "7k/5K2/8/8/8/p7/P7/7Q b - - 0 1 4", []string{"m:h8g8"}, Defence, nil, "over at the start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Describe(tt.fen, tt.solution, tt.kind)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("themes %v, want %v", got, tt.want)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	good := Puzzle{ID: "", FEN: banMate, Solution: []string{"m:d5b6", "b:a8a7"}, Themes: []Theme{MateIn2, MateByBan, StalemateTrap}, Rating: 800}
	g, err := good.Start()
	if err != nil {
		t.Fatal(err)
	}
	good.ID = IDOf(Key(g))
	if err := Verify(good); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*Puzzle)
		err    string
	}{
		{"another id", func(p *Puzzle) { p.ID = "aaaaaaaa" }, "its position's id"},
		{"a theme missing", func(p *Puzzle) { p.Themes = []Theme{MateIn2, MateByBan} }, "its solution shows"},
		{"a theme too many", func(p *Puzzle) { p.Themes = append(p.Themes, Promotion) }, "its solution shows"},
		{"a rating too low", func(p *Puzzle) { p.Rating = 10 }, "outside"},
		{"a bad FEN", func(p *Puzzle) { p.FEN = "8/8/8 w - - 0 1" }, "FEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := good
			p.Themes = slices.Clone(good.Themes)
			tt.change(&p)
			if err := Verify(p); err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			}
		})
	}
}

// TestKey checks that move counters do not change a position's key, and
// the phase and the ban in force do.
func TestKey(t *testing.T) {
	key := func(fen string) string { return Key(game(t, fen)) }
	same := key("4k3/8/8/3q4/8/8/3Q4/4K3 w - - 7 30 118")
	if got := key(queens); got != same {
		t.Errorf("the counters change the key: %q and %q", got, same)
	}
	for _, fen := range []string{
		"4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 1",      // a ban ply
		"4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 2:d2d5", // a ban in force
		"4k3/8/8/3q4/8/8/3Q4/4K3 b - - 0 1 4",      // the other side
	} {
		if key(fen) == same {
			t.Errorf("%s has the key of %s", fen, queens)
		}
	}
	if id := IDOf(same); len(id) != 8 || strings.ToLower(id) != id {
		t.Errorf("id %q: want eight lower-case characters", id)
	}
}
