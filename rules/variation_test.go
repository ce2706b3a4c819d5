package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func mustActions(t *testing.T, bcn ...string) []Action {
	t.Helper()
	out := make([]Action, len(bcn))
	for i, s := range bcn {
		a, err := ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

func mustPGN(t *testing.T, pgn string, v Variant) *Game {
	t.Helper()
	g, err := FromPGN(pgn, PGNOptions{Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// standsAs fails unless g stands where want does: the same FEN, legal
// actions, outcome and history.
func standsAs(t *testing.T, g *Game, want *Game) {
	t.Helper()
	if g.FEN() != want.FEN() || !slices.Equal(g.Legal(), want.Legal()) || g.Outcome() != want.Outcome() ||
		!slices.Equal(g.Record().Log(), want.Record().Log()) || !slices.EqualFunc(g.Record().History(), want.Record().History(), samePly) {
		t.Fatalf("the game stands at\n%s %v %v\nwant\n%s %v %v", g.FEN(), g.Record().Log(), g.Outcome(), want.FEN(), want.Record().Log(), want.Outcome())
	}
}

func TestAddVariation(t *testing.T) {
	g := New(BanChess{})
	mustPlay(t, g, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c1f4")
	rev := g.Revision()
	// An alternative to Black's ban of g1f3, ply 5.
	p, err := g.Variations().Add(nil, 4, mustActions(t, "b:b1c3", "m:g1f3"), VariationLimits{})
	if err != nil || !slices.Equal(p, Path{{After: 4, Index: 0}}) || g.Revision() != rev+1 {
		t.Fatalf("Add: %v %v, revision %d", p, err, g.Revision())
	}
	// Within it, an alternative to Nf3; then it goes on.
	inner, err := g.Variations().Add(p, 1, mustActions(t, "m:c2c4"), VariationLimits{})
	if err != nil || !slices.Equal(inner, Path{{4, 0}, {1, 0}}) {
		t.Fatalf("nested: %v %v", inner, err)
	}
	if err := g.Variations().Extend(p, mustActions(t, "b:g8f6", "m:c7c5"), VariationLimits{}); err != nil {
		t.Fatal(err)
	}
	if v := g.Variations().After(4)[0]; !slices.Equal(v.Log(), []string{"b:b1c3", "Nf3", "b:g8f6", "c5"}) {
		t.Errorf("the variation: %v", v.Log())
	}
	want := "2. {banning: g1f3} (2. {banning: b1c3} Nf3 (2. c4) 2... {banning: g8f6} c5) 2. Bf4 *"
	if pgn := strings.Join(strings.Fields(g.Record().PGN()), " "); !strings.Contains(pgn, want) {
		t.Errorf("the PGN:\n%s\nwant …%s", g.Record().PGN(), want)
	}
	at, err := g.Variations().GameAt(inner, 1)
	if err != nil {
		t.Fatal(err)
	}
	standsAs(t, at, replayed(t, BanChess{}, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:b1c3", "m:c2c4"))
	if main, err := g.Variations().GameAt(nil, 3); err != nil || main.FEN() != replayed(t, BanChess{}, "b:e2e4", "m:d2d4", "b:e7e5").FEN() {
		t.Errorf("GameAt the main line: %v", err)
	}

	// Refusals change nothing.
	before, rev := g.Record().PGN(), g.Revision()
	lim := VariationLimits{MaxPlies: 100, MaxVariations: 2, MaxDepth: 2}
	for _, tt := range []struct {
		name string
		do   func() error
		kind error
		want string
	}{
		{"illegal", func() error {
			_, err := g.Variations().Add(nil, 0, mustActions(t, "b:d2d4", "m:d2d4"), VariationLimits{})
			return err
		}, ErrBanned, "action 2 (m:d2d4): d2d4 is banned"},
		{"a move at a ban", func() error {
			_, err := g.Variations().Add(nil, 0, mustActions(t, "m:d2d4"), VariationLimits{})
			return err
		}, ErrIllegal, "turn to ban"},
		{"after the last ply", func() error {
			_, err := g.Variations().Add(nil, 6, mustActions(t, "b:e7e5"), VariationLimits{})
			return err
		}, ErrNoVariation, "after 0 to 5"},
		{"no such line", func() error {
			_, err := g.Variations().Add(Path{{4, 1}}, 0, mustActions(t, "b:e2e4"), VariationLimits{})
			return err
		}, ErrNoVariation, "none with index 1"},
		{"too many", func() error { _, err := g.Variations().Add(nil, 0, mustActions(t, "b:d2d4"), lim); return err }, ErrTooManyVariations, "more than 2 variations"},
		{"too deep", func() error {
			_, err := g.Variations().Add(inner, 0, mustActions(t, "m:b2b3"), VariationLimits{MaxDepth: 2})
			return err
		}, ErrTooManyVariations, "more than 2 deep"},
		{"too many plies", func() error { return g.Variations().Extend(p, mustActions(t, "b:f4c7"), VariationLimits{MaxPlies: 11}) }, ErrTooManyPlies, "more than 11 plies"},
		{"extend the main line", func() error { return g.Variations().Extend(nil, mustActions(t, "b:h7h6"), VariationLimits{}) }, ErrNoVariation, "main line"},
		{"extend illegally", func() error { return g.Variations().Extend(inner, mustActions(t, "m:c4c5"), VariationLimits{}) }, ErrIllegal, "turn to ban"},
		{"delete the main line", func() error { return g.Variations().Delete(nil) }, ErrNoVariation, "cannot be deleted"},
		{"delete none", func() error { return g.Variations().Delete(Path{{3, 0}}) }, ErrNoVariation, "none with index 0"},
		{"promote none", func() error { return g.Variations().Promote(Path{{4, 0}, {0, 0}}, VariationLimits{}) }, ErrNoVariation, "none with index 0"},
		{"GameAt past the end", func() error { _, err := g.Variations().GameAt(inner, 2); return err }, ErrNoVariation, "variation 1 after ply 1 of variation 1 after ply 4 has 1 plies, not 2"},
	} {
		err := tt.do()
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %v saying %q", tt.name, err, tt.kind, tt.want)
		}
		if g.Record().PGN() != before || g.Revision() != rev {
			t.Fatalf("%s changed the game:\n%s", tt.name, g.Record().PGN())
		}
	}
	if _, err := g.Variations().Add(nil, 0, nil, VariationLimits{}); err == nil {
		t.Error("an empty variation was added")
	}
}

func TestDeleteVariation(t *testing.T) {
	const pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) (1... e6) 2. Nf3 *"
	g := mustPGN(t, pgn, Classic{})
	if err := g.Variations().Delete(Path{{1, 0}, {1, 0}}); err != nil {
		t.Fatal(err)
	}
	if err := g.Variations().Delete(Path{{1, 1}}); err != nil {
		t.Fatal(err)
	}
	if got := g.Record().PGN(); !strings.Contains(got, "\n1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 *\n") {
		t.Errorf("after two deletions:\n%s", got)
	}
	if err := g.Variations().Delete(Path{{1, 0}}); err != nil || g.Variations().After(1) != nil || g.Variations().Size().Variations != 0 {
		t.Errorf("the last deleted: %v %v", err, g.Variations().After(1))
	}
}

func TestPromoteVariation(t *testing.T) {
	const pgn = "1. e4 e5 2. Nf3 {main} (2. f4 $5 {the King's Gambit} exf4 3. Nf3 (3. Bc4) 3... g5) 2... Nc6 $1 3. Bb5 *"
	g := mustPGN(t, pgn, Classic{})
	original := g.Record().PGN()
	p := Path{{2, 0}}
	if err := g.Variations().Promote(p, VariationLimits{}); err != nil {
		t.Fatal(err)
	}
	standsAs(t, g, replayed(t, Classic{}, "m:e2e4", "m:e7e5", "m:f2f4", "m:e5f4", "m:g1f3", "m:g7g5"))
	if legal, ok := g.LegalBefore(); !ok || !slices.Equal(legal, replayed(t, Classic{}, "m:e2e4", "m:e7e5", "m:f2f4", "m:e5f4", "m:g1f3").Legal()) {
		t.Errorf("LegalBefore after a promotion: %v", ok)
	}
	old := g.Variations().After(2)
	if len(old) != 1 || !slices.Equal(old[0].Log(), []string{"Nf3", "Nc6", "Bb5"}) || old[0].Comment(1) != "main" || !slices.Equal(old[0].NAGs(2), []NAG{1}) {
		t.Fatalf("the old main line: %v", old)
	}
	if g.Record().Comment(3) != "the King's Gambit" || !slices.Equal(g.Record().NAGs(3), []NAG{5}) || len(g.Variations().After(4)) != 1 {
		t.Errorf("the new main line's annotations: %q %v %v", g.Record().Comment(3), g.Record().NAGs(3), g.Variations().After(4))
	}
	want := "1. e4 e5 2. f4 $5 {the King's Gambit} (2. Nf3 {main} 2... Nc6 $1 3. Bb5) 2... exf4 3. Nf3 (3. Bc4) 3... g5 *"
	if got := strings.Join(strings.Fields(g.Record().PGN()), " "); !strings.Contains(got, want) {
		t.Errorf("promoted:\n%s\nwant …%s", g.Record().PGN(), want)
	}
	// Promoting again exchanges them back.
	if err := g.Variations().Promote(p, VariationLimits{}); err != nil || g.Record().PGN() != original {
		t.Errorf("promoted back: %v\n%s\nwant\n%s", err, g.Record().PGN(), original)
	}

	// A promotion nests the line's own variations one deeper, within the
	// bound.
	nested := mustPGN(t, "1. e4 e5 (1... c5) 2. Nf3 (2. Nc3) *", Classic{})
	before := nested.Record().PGN()
	if err := nested.Variations().Promote(Path{{1, 0}}, VariationLimits{MaxDepth: 1}); !errors.Is(err, ErrTooManyVariations) || nested.Record().PGN() != before {
		t.Errorf("a promotion past the depth: %v\n%s", err, nested.Record().PGN())
	}
	if err := nested.Variations().Promote(Path{{1, 0}}, VariationLimits{MaxDepth: 2}); err != nil ||
		!strings.Contains(nested.Record().PGN(), "1. e4 c5 (1... e5 2. Nf3 (2. Nc3)) *") {
		t.Errorf("promoted: %v\n%s", err, nested.Record().PGN())
	}

	// What comes before a variation's first ply joins the note of the ply
	// it branches from.
	start := mustPGN(t, "1. e4 {open} e5 ( $10 {Better is} 1... c5) *", Classic{})
	if err := start.Variations().Promote(Path{{1, 0}}, VariationLimits{}); err != nil || start.Record().Comment(1) != "open Better is" || !slices.Equal(start.Record().NAGs(1), []NAG{10}) {
		t.Errorf("the start's notes: %v %q %v", err, start.Record().Comment(1), start.Record().NAGs(1))
	}
}

// TestPromoteDeclared: promoting a line that ends the game by itself gives
// the game that ending; otherwise a declared outcome stays.
func TestPromoteDeclared(t *testing.T) {
	g, err := FromPGN(readAnnotated(t, "ban-endgame.pgn"), PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Variations().Promote(Path{{3, 0}}, VariationLimits{}); err != nil || g.Outcome().Reason != Agreement {
		t.Errorf("a line that does not end: %v, %v", err, g.Outcome())
	}
	if err := g.Variations().Promote(Path{{0, 0}}, VariationLimits{}); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o != (Outcome{Status: Checkmate, Reason: ByBan, Winner: White}) || g.Snapshot().Declared != (Outcome{}) {
		t.Errorf("the mate by ban promoted: %v", o)
	}
	if !strings.HasSuffix(strings.Join(strings.Fields(g.Record().PGN()), " "), "1. Re8+ {banning: g8h7#} {The king has one move, and White bans it.} 1-0") {
		t.Errorf("the PGN:\n%s", g.Record().PGN())
	}
	if err := g.Variations().Promote(Path{{0, 0}}, VariationLimits{}); err != nil || g.Outcome().Over() {
		t.Errorf("promoted back: %v %v", err, g.Outcome())
	}
}

func TestPromoteToMainLine(t *testing.T) {
	g, err := FromPGN(readAnnotated(t, "reti-tartakower.pgn"), PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	size := g.Variations().Size()
	// 5. Nxf6+ exf6 (5... gxf6): the variation within the variation.
	if err := g.Variations().PromoteToMainLine(Path{{8, 0}, {1, 0}}, VariationLimits{}); err != nil {
		t.Fatal(err)
	}
	if log := g.Record().Log(); len(log) != 10 || log[8] != "Nxf6+" || log[9] != "gxf6" {
		t.Errorf("the main line: %v", log)
	}
	if old := g.Variations().After(8); len(old) != 1 || old[0].Log()[0] != "Qd3" || g.Variations().After(9)[0].Log()[0] != "exf6" {
		t.Errorf("the old lines: %v %v", old, g.Variations().After(9))
	}
	if g.Variations().Size() != size {
		t.Errorf("size %+v, was %+v", g.Variations().Size(), size)
	}
	if _, err := FromPGN(g.Record().PGN(), PGNOptions{ChessAsClassic: true}); err != nil {
		t.Errorf("the PGN does not read: %v\n%s", err, g.Record().PGN())
	}
}

// TestUndoTakesItsAnnotations: a ply taken back takes its NAGs, the
// comment after it and its alternatives with it, and only those.
func TestUndoTakesItsAnnotations(t *testing.T) {
	g := mustPGN(t, "1. e4 $1 {best} (1. d4) e5 $2 {bad} (1... c5) (1... e6) *", Classic{})
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Record().NAGs(2) != nil || g.Record().Comment(2) != "" || g.Variations().After(1) != nil || g.Variations().Size().Variations != 1 || g.Record().Comment(1) != "best" {
		t.Errorf("after undo: %v %q %v\n%s", g.Record().NAGs(2), g.Record().Comment(2), g.Variations().After(1), g.Record().PGN())
	}
	s, err := Restore(g.Snapshot())
	if err != nil || s.Record().PGN() != g.Record().PGN() {
		t.Errorf("restored: %v\n%s", err, s.Record().PGN())
	}
}

func TestRestoreVariations(t *testing.T) {
	good := Snapshot{Variant: "classic", Actions: []string{"m:e2e4", "m:e7e5"}, Annotations: Annotations{
		Variations: map[int][]VariationSnapshot{1: {{Actions: []string{"m:c7c5", "m:g1f3"}, Annotations: Annotations{
			NAGs: map[int][]NAG{2: {1}}, Comments: map[int]string{0: "Sicilian"},
		}}}},
	}}
	g, err := Restore(good)
	if err != nil || !strings.Contains(g.Record().PGN(), "1. e4 e5 ({Sicilian} 1... c5 2. Nf3 $1) *") {
		t.Fatalf("%v\n%s", err, g.Record().PGN())
	}
	for _, tt := range []struct {
		name string
		ann  Annotations
		want string
	}{
		{"illegal", Annotations{Variations: map[int][]VariationSnapshot{1: {{Actions: []string{"m:c7c5", "m:c5c4"}}}}}, "variation 1 after ply 1: action 2 (m:c5c4)"},
		{"past the line", Annotations{Variations: map[int][]VariationSnapshot{2: {{Actions: []string{"m:g1f3"}}}}}, "a variation after ply 2 of a line of 2"},
		{"empty", Annotations{Variations: map[int][]VariationSnapshot{0: {{}}}}, "a variation without plies"},
		{"a NAG past its line", Annotations{Variations: map[int][]VariationSnapshot{0: {{Actions: []string{"m:d2d4"}, Annotations: Annotations{NAGs: map[int][]NAG{2: {1}}}}}}}, "NAGs after ply 2 of a line of 1"},
		{"a comment past the game", Annotations{Comments: map[int]string{3: "x"}}, "a comment after ply 3 of a line of 2"},
		{"not BCN", Annotations{Variations: map[int][]VariationSnapshot{0: {{Actions: []string{"e4"}}}}}, "action 1 (e4)"},
	} {
		s := good
		s.Annotations = tt.ann
		if _, err := Restore(s); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func replayed(t *testing.T, v Variant, actions ...string) *Game {
	t.Helper()
	g, err := Replay(v, "", actions)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
