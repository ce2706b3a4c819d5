package rules

import (
	"slices"
	"strings"
	"testing"
)

// sameGame reports whether two games have the same start, plies, outcome and
// PGN.
func sameGame(a, b *Game) bool {
	return a.Variant() == b.Variant() && a.StartFEN() == b.StartFEN() && a.FEN() == b.FEN() &&
		a.Outcome() == b.Outcome() && slices.EqualFunc(a.Record().History(), b.Record().History(), samePly) &&
		a.Record().PGN() == b.Record().PGN() && a.Record().FromChessGame() == b.Record().FromChessGame()
}

// TestSnapshotReferenceGames restores every reference game, and each of
// them undone by one ply, from its snapshot.
func TestSnapshotReferenceGames(t *testing.T) {
	for _, ref := range raceSample(loadRefGames(t)) {
		if ref.Start == illegalRefStart {
			continue
		}
		g := ref.played(t)
		for range 2 {
			back, err := Restore(g.Snapshot())
			if err != nil {
				t.Fatalf("seed %d: %v", ref.Seed, err)
			}
			if !sameGame(back, g) {
				t.Fatalf("seed %d: restored as %s (%v), want %s (%v)", ref.Seed, back.FEN(), back.Outcome(), g.FEN(), g.Outcome())
			}
			if g.Undo() != nil {
				break
			}
		}
	}
}

func TestSnapshotDeclaredAndTags(t *testing.T) {
	resigned := New(BanChess{})
	mustPlay(t, resigned, "b:e2e4")
	if err := resigned.Resign(White); err != nil {
		t.Fatal(err)
	}
	drawn := New(Classic{})
	mustPlay(t, drawn, "m:e2e4")
	if err := drawn.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	aborted := New(BanChess{})
	mustPlay(t, aborted, "b:e2e4")
	if err := aborted.Abort(); err != nil {
		t.Fatal(err)
	}
	fromChess, err := FromPGN("[Event \"Club\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 *", PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*Game{"resigned": resigned, "drawn": drawn, "aborted": aborted, "from chess": fromChess} {
		s := g.Snapshot()
		back, err := Restore(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sameGame(back, g) || !slices.Equal(back.Record().Tags(), g.Record().Tags()) {
			t.Errorf("%s: restored as\n%s\nwant\n%s", name, back.Record().PGN(), g.Record().PGN())
		}
		// The declared outcome stays undoable after a restore.
		if g.Outcome().Over() && (back.Undo() != nil || back.Outcome().Over() || back.Ply() != g.Ply()) {
			t.Errorf("%s: undo after restore gives %v at ply %d", name, back.Outcome(), back.Ply())
		}
	}
}

func TestRestoreErrors(t *testing.T) {
	ok := New(BanChess{}).Snapshot()
	tests := []struct {
		name string
		edit func(*Snapshot)
		want string
	}{
		{"unknown variant", func(s *Snapshot) { s.Variant = "atomic" }, "unknown variant"},
		{"bad start", func(s *Snapshot) { s.StartFEN = "8/8/8/8/8/8/8/8 w - - 0 1" }, "restore"},
		{"illegal action", func(s *Snapshot) { s.Actions = []string{"m:e2e4"} }, "action 1 (m:e2e4)"},
		{"declared checkmate", func(s *Snapshot) { s.Declared = Outcome{Status: Checkmate, Reason: ByBan, Winner: White} }, "a resignation, an agreed draw, a flag fall or an abort"},
		{"declared on a finished game", func(s *Snapshot) {
			s.StartFEN = "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"
			s.Declared = Outcome{Status: Draw, Reason: Agreement}
		}, "game is over"},
	}
	for _, tc := range tests {
		s := ok
		tc.edit(&s)
		if _, err := Restore(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestRevision checks every change moves the revision and every refusal
// leaves it.
func TestRevision(t *testing.T) {
	g := New(BanChess{})
	steps := []struct {
		name    string
		do      func() error
		changes bool
	}{
		{"ban", func() error { return g.PlayText("b:e2e4") }, true},
		{"refused move", func() error { return g.PlayText("m:e2e4") }, false},
		{"move", func() error { return g.PlayText("m:d2d4") }, true},
		{"undo", g.Undo, true},
		{"resign", func() error { return g.Resign(Black) }, true},
		{"refused draw", g.AgreeDraw, false},
		{"withdraw resignation", g.Undo, true},
		{"undo ban", g.Undo, true},
		{"nothing to undo", g.Undo, false},
	}
	for _, s := range steps {
		before := g.Revision()
		err := s.do()
		if changed := g.Revision() != before; changed != s.changes || (err == nil) != s.changes {
			t.Errorf("%s: err %v, revision %d → %d", s.name, err, before, g.Revision())
		}
	}
}
