package rules

import (
	"github.com/banchess/banchess/internal/race"
	"slices"
	"testing"
)

// TestLegalBefore plays every reference game and checks, after each ply,
// that LegalBefore answers the legal actions the game offered before it;
// and that it knows nothing it cannot: at the start, after a move is taken
// back, and in a game loaded from a FEN.
func TestLegalBefore(t *testing.T) {
	plies := 0
	for _, ref := range raceSample(loadRefGames(t)) {
		if ref.Start == illegalRefStart {
			continue
		}
		g := mustFEN(t, ref.Start, BanChess{})
		if _, ok := g.LegalBefore(); ok {
			t.Fatalf("seed %d: LegalBefore at the start says it knows", ref.Seed)
		}
		for i, p := range ref.Plies {
			want := bcnStrings(g.Legal())
			mustPlay(t, g, p.Play)
			got, ok := g.LegalBefore()
			if !ok || !slices.Equal(bcnStrings(got), want) {
				t.Fatalf("seed %d, ply %d (%s): LegalBefore = %v, %v; want %v", ref.Seed, i+1, p.Play, bcnStrings(got), ok, want)
			}
			plies++
		}
	}
	if plies < 40_000 && !race.Enabled {
		t.Fatalf("checked %d plies; the reference games hold more", plies)
	}

	g := New(BanChess{})
	for _, a := range []string{"b:e2e4", "m:d2d4", "b:d7d5", "m:e7e5", "b:d4e5"} {
		mustPlay(t, g, a)
	}
	tests := []struct {
		name  string
		undo  int // plies taken back
		known bool
	}{
		{"after a ban", 0, true},
		{"a ban taken back, the move before it played here", 1, true},
		{"that move taken back: the ban before it", 1, true},
		{"that ban taken back: a move whose position is gone", 1, false},
	}
	for _, tt := range tests {
		for range tt.undo {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := g.LegalBefore(); ok != tt.known {
			t.Errorf("%s: LegalBefore knows = %v, want %v", tt.name, ok, tt.known)
		}
	}
	loaded := mustFEN(t, g.FEN(), BanChess{})
	if _, ok := loaded.LegalBefore(); ok {
		t.Error("a game loaded from a FEN says it knows the ply before its start")
	}
}
