package engine

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

func gameOf(t *testing.T, fen string, actions ...string) *rules.Game {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, fen, actions)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func searchGame(t *testing.T, g *rules.Game, lim Limits) Result {
	t.Helper()
	s, err := FromGame(g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewSearcher(4).Search(context.Background(), s, lim)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(res.Best); err != nil {
		t.Fatalf("%s: the engine's %s is illegal: %v", g.FEN(), res.Best, err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEdges checks bans of a promotion (one pair, four moves), of an en
// passant capture (the only escape from check: a mate by the ban), and the
// draw rules, at every level from 2 (see testedLevels).
func TestEdges(t *testing.T) {
	for _, level := range testedLevels(2) {
		lim, err := Level(level, 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		lim.Noise = 0
		// White's pawn promotes unless Black bans e7e8, all four promotions.
		promo := gameOf(t, "8/4P3/8/8/8/8/k7/6K1 w - - 0 1")
		if res := searchGame(t, promo, lim); res.Best.String() != "b:e7e8" {
			t.Errorf("level %d: Black bans %s, want b:e7e8 (score %d)", level, res.Best, res.Score)
		}
		banned := gameOf(t, "8/4P3/8/8/8/8/k7/6K1 w - - 0 1", "b:e7e8")
		if res := searchGame(t, banned, lim); res.Best.Pair().String() == "e7e8" {
			t.Errorf("level %d: White plays the banned %s", level, res.Best)
		}
		// b7-b5 checks the king on c4; c5xb6 en passant is its only move.
		ep := gameOf(t, "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1")
		if got := actionStrings(ep.Legal()); len(got) != 1 || got[0] != "b:c5b6" {
			t.Fatalf("bans %v, want only b:c5b6", got)
		}
		if res := searchGame(t, ep, lim); res.Best.String() != "b:c5b6" || res.Mate != 1 {
			t.Errorf("level %d: %s mate %d, want b:c5b6 mating in 1", level, res.Best, res.Mate)
		}
		// Black, a queen down, repeats the start position a third time.
		rep := gameOf(t, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"b:a2a3", "m:g1f3", "b:a7a6", "m:g8f6", "b:a2a3", "m:f3g1", "b:a7a6", "m:f6g8",
			"b:a2a3", "m:g1f3", "b:a7a6", "m:g8f6", "b:a2a3", "m:f3g1", "b:a7a6")
		if res := searchGame(t, rep, lim); res.Best.String() != "m:f6g8" || res.Score != 0 || res.Mate != 0 {
			t.Errorf("level %d: Black plays %s (score %d), want m:f6g8 for the draw by repetition", level, res.Best, res.Score)
		}
		// Any move of Black's king is the hundredth half-move: a draw, though
		// White has a queen more.
		fifty := gameOf(t, "k7/8/8/8/8/8/8/K2Q4 b - - 99 80")
		if res := searchGame(t, fifty, lim); res.Score != 0 || res.Mate != 0 {
			t.Errorf("level %d: White's ban scores %d (mate %d), want 0: the fifty-move rule", level, res.Score, res.Mate)
		}
		fresh := gameOf(t, "k7/8/8/8/8/8/8/K2Q4 b - - 0 80")
		if res := searchGame(t, fresh, lim); res.Score < 500 && res.Mate <= 0 {
			t.Errorf("level %d: a queen up with the clock at 0, White's ban scores %d", level, res.Score)
		}
	}
}
