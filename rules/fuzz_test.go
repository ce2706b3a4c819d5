package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkQuote fails when err's message quotes much of the input: a message
// quotes at most MaxQuote characters of it, cut between characters.
func checkQuote(t *testing.T, in string, err error) {
	t.Helper()
	msg := err.Error()
	if len(msg) > 1024 || utf8.ValidString(in) && !utf8.ValidString(msg) {
		t.Fatalf("%d bytes of input give a message of %d bytes: %.300q", len(in), len(msg), msg)
	}
}

// The fuzz targets check that no input panics a reader and that whatever
// loads writes back to text that loads to the same state. Seed corpora are
// in testdata/fuzz; run one with, for example,
//
//	go test ./rules -run '^$' -fuzz '^FuzzFEN$' -fuzztime 5m

func FuzzFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN, StartFEN + " 2:e2e4", StartFEN + " b:ban", "8/8/8/8/8/8/8/8 w - - 0 1",
		"7k/8/1b2p3/3pP3/4K3/r7/8/5q2 w - d6 0 1", "4k3/8/8/8/7P/8/2q5/K7 w - - 0 1 2:h4h5=",
		"rnbqkbnr/pppppppp/８/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", StartFEN[:44] + " w KQé - 0 1",
		StartFEN[:44] + " w KQkq - 0 " + strings.Repeat("é", 300), StartFEN + " " + strings.Repeat("1", 300),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range Variants() {
			g, err := FromFEN(s, v)
			if err != nil {
				checkQuote(t, s, err)
				continue
			}
			out := g.FEN()
			back, err := FromFEN(out, v)
			if err != nil {
				t.Fatalf("%s: %q loads, but its FEN %q does not: %v", v.ID(), s, out, err)
			}
			if back.FEN() != out || back.Outcome() != g.Outcome() || !slices.Equal(back.Legal(), g.Legal()) {
				t.Fatalf("%s: %q → %q → %q", v.ID(), s, out, back.FEN())
			}
		}
	})
}

func FuzzPGN(f *testing.F) {
	for _, s := range []string{
		"1. {banning: e2e4} d4 {banning: e7e5} d5 *",
		"[FEN \"6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1 1\"]\n1. {banning: a1a2} Re8+ {banning: g8h7#} 1-0",
		"1.e4 e5 2.Nf3 (2.f4 exf4) Nc6 $1 3.Bb5!? a6 {c} 0-1",
		"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *",
		strings.Repeat("[Tag \"value\"]\n", 100) + "1. e4 *",
		"[Event \"" + strings.Repeat("x", 300) + "\"]\n[" + strings.Repeat("N", 100) + " \"v\"]\n1. e4 *",
		"1. e4 {" + strings.Repeat("comment ", 1000) + "} e5 " + strings.Repeat("Nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxf3", 3) + " *",
		"1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 $1) d6) (1... e6!?) 2. Nf3 $2 ?! *",
		"1. {banning: e2e4} $2 ({banning: d2d4} e4 {banning: e7e5} d5) d4 (c4 {c}) {banning: d7d5} Nf6 *",
		"[FEN \"6k1/5pp1/8/8/8/8/8/K3R3 w - - 0 1 1\"]\n1. {banning: e1e8} ({banning: a1a2} Re8+ {banning: g8h7#}) Kb2 1/2-1/2",
		"$10 {start} 1. e4 ( $14 {Better} 1. d4 ((1. c4))) e5 ( ) *",
		"1. e4 (1. d4 (1. c4 (1. Nf3 (1. b3 (1. g3 (1. f4))))) ) *",
	} {
		f.Add(s)
	}
	bounds := PGNOptions{MaxTags: 4, MaxTagBytes: 16, MaxTagNameBytes: 8, MaxVariations: 4, MaxVariationDepth: 2}
	f.Fuzz(func(t *testing.T, s string) {
		// Within bounds on tags, a game's tags are within them, and the
		// game is the one read without bounds: a bound only refuses.
		if g, err := FromPGN(s, bounds); err == nil {
			if len(g.Record().Tags()) > bounds.MaxTags {
				t.Fatalf("%d tags read, more than %d", len(g.Record().Tags()), bounds.MaxTags)
			}
			for _, tag := range g.Record().Tags() {
				if len(tag.Name) > bounds.MaxTagNameBytes || len(tag.Value) > bounds.MaxTagBytes {
					t.Fatalf("tag %q %q read, longer than the bounds", tag.Name, tag.Value)
				}
			}
			if size := g.Variations().Size(); size.Variations > bounds.MaxVariations || size.Depth > bounds.MaxVariationDepth {
				t.Fatalf("%+v read, past the bounds", size)
			}
			if free, err := FromPGN(s, PGNOptions{}); err != nil || free.Record().PGN() != g.Record().PGN() {
				t.Fatalf("read within bounds, but not the same without: %v", err)
			}
		} else {
			checkQuote(t, s, err)
		}
		g, err := FromPGN(s, PGNOptions{})
		if err != nil {
			checkQuote(t, s, err)
			return
		}
		out := g.Record().PGN()
		back, err := FromPGN(out, PGNOptions{})
		if err != nil {
			t.Fatalf("%q loads, but its PGN does not: %v\n%s", s, err, out)
		}
		if back.FEN() != g.FEN() || back.Outcome() != g.Outcome() || !slices.Equal(back.Record().Log(), g.Record().Log()) || back.Record().PGN() != out ||
			!reflect.DeepEqual(back.Snapshot().Annotations, g.Snapshot().Annotations) {
			t.Fatalf("%q: PGN round trip changed the game:\n%s\n%s", s, out, back.Record().PGN())
		}
		// A store keeps the game as its snapshot: its variations too.
		if restored, err := Restore(g.Snapshot()); err != nil || restored.Record().PGN() != out {
			t.Fatalf("%q: restored from its snapshot: %v\n%s", s, err, out)
		}
	})
}

func FuzzBCN(f *testing.F) {
	for _, s := range []string{"b:e2e4", "m:e7e8q", "m:d8h4#", "b:e1g1+", "x:e2e4", "m:e2e4=", "b:e7e8q", "m:" + strings.Repeat("é", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			checkQuote(t, s, err)
			return
		}
		again, err := ParseAction(a.String())
		if err != nil || again != a {
			t.Fatalf("%q reads as %v, which writes %q and reads back as %v (%v)", s, a, a.String(), again, err)
		}
		for _, fen := range []string{StartFEN + " 1", StartFEN + " 2:e2e4", "8/4P3/7k/p7/8/8/8/4K3 w - - 0 1 2"} {
			g := mustFEN(t, fen, BanChess{})
			if err := g.Play(a); err != nil {
				if g.FEN() != fen {
					t.Fatalf("refused %s changed the game to %s", a, g.FEN())
				}
				continue
			}
			if err := g.Undo(); err != nil || g.FEN() != fen {
				t.Fatalf("play %s then undo: %s (%v)", a, g.FEN(), err)
			}
		}
	})
}

// FuzzVariationEdits applies edits drawn from the input — add, extend,
// delete, promote a variation, make one the main line, undo — to an
// annotated game: a refused edit changes nothing, and after any edit the
// game is within its limits, its PGN reads back to itself and its
// snapshot restores to it.
func FuzzVariationEdits(f *testing.F) {
	f.Add([]byte{0, 0, 3, 1, 1, 1, 0, 2, 3, 2, 0, 0, 4, 3, 0, 0})
	f.Add([]byte{1, 3, 1, 5, 2, 0, 40, 7, 5, 0, 0, 0, 0, 9, 2, 1})
	f.Add([]byte{0, 2, 200, 3, 3, 1, 0, 0, 1, 4, 0, 0, 6, 0, 0, 0})
	var texts []string
	for _, name := range []string{"ban-club-game.pgn", "evergreen.pgn"} {
		b, err := os.ReadFile(filepath.Join("testdata", "annotated", name))
		if err != nil {
			f.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	lim := VariationLimits{MaxPlies: 120, MaxVariations: 12, MaxDepth: 3}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		g, err := FromPGN(texts[int(ops[0])%len(texts)], PGNOptions{ChessAsClassic: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i+3 < len(ops) && i < 4*32; i += 4 {
			op, b, c := ops[i]%7, int(ops[i+2]), int(ops[i+3])
			paths := linesOf(g)
			p := paths[int(ops[i+1])%len(paths)]
			before, rev := g.Record().PGN(), g.Revision()
			var err error
			switch op {
			case 0, 1: // add: c+1 legal actions from after b of the line's plies
				after := b
				if at, e := g.Variations().GameAt(p, min(after, 1000)); e == nil {
					_, err = g.Variations().Add(p, after, someActions(at, c), lim)
				} else {
					_, err = g.Variations().Add(p, after, mustActions(t, "b:e2e4"), lim)
				}
			case 2: // extend
				at, e := g.Variations().GameAt(p, lineLen(g, p))
				if e != nil {
					t.Fatal(e)
				}
				err = g.Variations().Extend(p, someActions(at, c), lim)
			case 3:
				err = g.Variations().Delete(p)
			case 4:
				err = g.Variations().Promote(p, lim)
			case 5:
				err = g.Variations().PromoteToMainLine(p, lim)
			case 6:
				err = g.Undo()
			}
			if err != nil {
				if g.Record().PGN() != before || g.Revision() != rev {
					t.Fatalf("edit %d refused (%v), but it changed the game:\n%s\nto\n%s", op, err, before, g.Record().PGN())
				}
				continue
			}
			out := g.Record().PGN()
			if s := g.Variations().Size(); op < 6 && (s.Plies > lim.MaxPlies || s.Variations > lim.MaxVariations || s.Depth > lim.MaxDepth) {
				t.Fatalf("edit %d left %+v, past %+v", op, s, lim)
			}
			back, err := FromPGN(out, PGNOptions{ChessAsClassic: true})
			if err != nil || back.Record().PGN() != out {
				t.Fatalf("after edit %d the PGN reads back as %v:\n%s", op, err, out)
			}
			if r, err := Restore(g.Snapshot()); err != nil || r.Record().PGN() != out || r.FEN() != g.FEN() {
				t.Fatalf("after edit %d the snapshot restores as %v", op, err)
			}
		}
	})
}

// linesOf lists the Paths of every line of g: the main line first.
func linesOf(g *Game) []Path {
	out := []Path{nil}
	var walk func(p Path, vs func(n int) []*Variation, plies int)
	walk = func(p Path, vs func(n int) []*Variation, plies int) {
		for n := range plies {
			for i, v := range vs(n) {
				q := append(slices.Clip(p), Branch{n, i})
				out = append(out, q)
				walk(q, v.Variations, v.Len())
			}
		}
	}
	walk(nil, g.Variations().After, g.Ply()-g.StartPly())
	return out
}

// lineLen counts the plies of the line p names.
func lineLen(g *Game, p Path) int {
	ref, err := g.Variations().line(p)
	if err != nil {
		panic(err)
	}
	return ref.plies
}

// someActions plays n+1 legal actions on g, picked by n, while there are
// some, and returns them.
func someActions(g *Game, n int) []Action {
	var out []Action
	for k := range n%4 + 1 {
		legal := g.Legal()
		if len(legal) == 0 {
			break
		}
		a := legal[(n+k*7)%len(legal)]
		if g.Play(a) != nil {
			break
		}
		out = append(out, a)
	}
	return out
}
