package rules

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// annotated are the games in testdata/annotated: well-known classic games
// annotated as real PGN files are (NAGs as $n and as glyphs, comments,
// nested variations), and Ban Chess games with bans, NAGs and comments in
// their variations, played by these rules.
var annotated = []struct {
	file string
	size TreeSize
}{
	{"opera.pgn", TreeSize{Plies: 33 + 16, Variations: 5, Depth: 1, CommentBytes: 351}},
	{"evergreen.pgn", TreeSize{Plies: 47 + 16, Variations: 5, Depth: 2, CommentBytes: 93}},
	{"reti-tartakower.pgn", TreeSize{Plies: 21 + 12, Variations: 5, Depth: 2, CommentBytes: 166}},
	{"ban-club-game.pgn", TreeSize{Plies: 12 + 12, Variations: 4, Depth: 2, CommentBytes: 97}},
	{"ban-endgame.pgn", TreeSize{Plies: 10 + 13, Variations: 3, Depth: 1, CommentBytes: 65}},
	{"ban-black-first.pgn", TreeSize{Plies: 8 + 14, Variations: 4, Depth: 2, CommentBytes: 67}},
}

func readAnnotated(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "annotated", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnnotatedRoundTrip: each annotated game reads with all its
// variations, NAGs and comments, and its PGN says the same as the file —
// the same plies, NAGs, comments and variations in the same places — and
// reads back to the same PGN, as does the game restored from its
// snapshot, through JSON as a store keeps it.
func TestAnnotatedRoundTrip(t *testing.T) {
	for _, c := range annotated {
		t.Run(c.file, func(t *testing.T) {
			text := readAnnotated(t, c.file)
			g, err := FromPGN(text, PGNOptions{ChessAsClassic: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Variations().Size(); got != c.size {
				t.Errorf("size %+v, want %+v", got, c.size)
			}
			out := g.Record().PGN()
			if want, got := meaning(t, text), meaning(t, out); !slices.Equal(got, want) {
				t.Errorf("the PGN says something else:\n%s\nfrom\n%s", strings.Join(got, " "), strings.Join(want, " "))
			}
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "[") && !strings.Contains(out, line+"\n") {
					t.Errorf("the PGN lost the tag %s", line)
				}
			}
			back, err := FromPGN(out, PGNOptions{ChessAsClassic: true})
			if err != nil || back.Record().PGN() != out {
				t.Fatalf("read back: %v\n%s\nthen\n%s", err, out, back.Record().PGN())
			}
			b, err := json.Marshal(g.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			var s Snapshot
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			restored, err := Restore(s)
			if err != nil || restored.Record().PGN() != out {
				t.Errorf("restored: %v\n%s", err, restored.Record().PGN())
			}
		})
	}
}

// meaning lists what movetext says, token by token, without what may be
// written in more than one way: move numbers, check marks, glyphs for $1
// to $6, the spacing of comments, several comments in a row.
func meaning(t *testing.T, text string) []string {
	t.Helper()
	games, err := splitPGN(text, PGNOptions{})
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	var out []string
	for _, tok := range games[0].tokens {
		var s string
		switch tok.kind {
		case tokMove:
			s = strings.TrimRight(tok.text, "+#")
		case tokNAG:
			s = tok.nag.String()
		case tokComment:
			if m := banComment.FindStringSubmatch(tok.text); m != nil {
				s = "ban:" + strings.ToLower(m[1])
				break
			}
			s = "{" + strings.Join(strings.Fields(tok.text), " ") + "}"
			if n := len(out); n > 0 && strings.HasPrefix(out[n-1], "{") {
				out[n-1] = strings.TrimSuffix(out[n-1], "}") + " " + s[1:]
				continue
			}
		default:
			s = tok.text
		}
		out = append(out, s)
	}
	return out
}

// TestVariationsRead: what a game keeps of its variations, NAGs and
// comments, where it keeps them.
func TestVariationsRead(t *testing.T) {
	g, err := FromPGN(readAnnotated(t, "opera.pgn"), PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	// 3... Bg4 $6 is ply 6: its NAG, and the variation replacing it.
	if nags := g.Record().NAGs(6); !slices.Equal(nags, []NAG{6}) || nags[0].Symbol() != "?!" {
		t.Errorf("NAGs of 3... Bg4: %v", nags)
	}
	vs := g.Variations().After(5)
	if len(vs) != 1 || !slices.Equal(vs[0].Log(), []string{"exd4"}) || vs[0].Comment(1) != "is the usual move." {
		t.Fatalf("the variation for 3... Bg4: %v", vs)
	}
	if h := g.Record().History()[5]; !slices.Equal(h.NAGs, []NAG{6}) || h.SAN != "Bg4" {
		t.Errorf("the history of ply 6: %s %v", h.SAN, h.NAGs)
	}
	// 8. Nc3 $5 {…} (8. Qxb7 Qb4+ 9. Qxb4 Bxb4+ {…})
	v := g.Variations().After(14)[0]
	if !slices.Equal(v.Log(), []string{"Qxb7", "Qb4+", "Qxb4", "Bxb4+"}) || v.Comment(4) == "" || len(v.Actions()) != v.Len() {
		t.Errorf("the variation for 8. Nc3: %v %q", v.Log(), v.Comment(4))
	}
	ban, err := FromPGN(readAnnotated(t, "ban-endgame.pgn"), PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A NAG on a ban, and a variation replacing it that ends in a mate by
	// ban.
	if !slices.Equal(ban.Record().NAGs(1), []NAG{1}) || ban.Record().Comment(1) != "The only ban that holds." {
		t.Errorf("the first ban: %v %q", ban.Record().NAGs(1), ban.Record().Comment(1))
	}
	mate := ban.Variations().After(0)[0]
	if !slices.Equal(mate.Log(), []string{"b:a1a2", "Re8+", "b:g8h7#"}) || !slices.Equal(mate.NAGs(1), []NAG{4}) {
		t.Errorf("the mate by ban: %v %v", mate.Log(), mate.NAGs(1))
	}
	if ban.Outcome().Reason != Agreement {
		t.Errorf("the game's outcome: %v", ban.Outcome())
	}
	nested := g.Variations().After(14)[0].Variations(0)
	if nested != nil {
		t.Errorf("a variation without nested ones has %v", nested)
	}
	deep, err := FromPGN(readAnnotated(t, "reti-tartakower.pgn"), PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	inner := deep.Variations().After(8)[0].Variations(1)
	if len(inner) != 1 || !slices.Equal(inner[0].Log(), []string{"gxf6"}) {
		t.Errorf("5. Nxf6+ exf6 (5... gxf6): %v", inner)
	}
}

// TestVariationMoveNumbers: a variation starts with its move number, and
// the line it interrupts goes on with one ("3... Nf6"), in chess and in
// Ban Chess, whichever side's part it interrupts.
func TestVariationMoveNumbers(t *testing.T) {
	tests := []struct {
		pgn, want string
		variant   Variant
	}{
		{"1. e4 e5 2. Nf3 Nc6 3. Bb5 (3. Bc4 Nf6) a6 *", "3. Bb5 (3. Bc4 Nf6) 3... a6 *", Classic{}},
		{"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", Classic{}},
		{"1. e4 $1 e5 $2 *", "1. e4 $1 e5 $2 *", Classic{}},
		{"1. {banning: e2e4} d4 (c4) {banning: e7e5} d5 *",
			"1. {banning: e2e4} d4 (1. c4) 1... {banning: e7e5} d5 *", BanChess{}},
		{"1. {banning: e2e4} ({banning: d2d4} e4) d4 {banning: e7e5} (1... {banning: d7d5} e5) d5 *",
			"1. {banning: e2e4} (1. {banning: d2d4} e4) 1. d4 {banning: e7e5} (1...\n{banning: d7d5} e5) 1... d5 *", BanChess{}},
		{"1. {banning: e2e4} $2 d4 *", "1. {banning: e2e4} $2 d4 *", BanChess{}},
		{"$10 {start} 1. e4 *", "$10 {start} 1. e4 *", Classic{}},
	}
	for _, tt := range tests {
		g, err := FromPGN(tt.pgn, PGNOptions{Variant: tt.variant})
		if err != nil {
			t.Fatalf("%s: %v", tt.pgn, err)
		}
		got := g.Record().PGN()
		if !strings.Contains(got, "\n\n"+tt.want+"\n") && !strings.HasSuffix(got, tt.want+"\n") {
			t.Errorf("%s:\n%s\nwant …%s", tt.pgn, got, tt.want)
		}
	}
}

// TestPGNVariationBounds: the plies of variations count towards MaxPlies,
// their comments towards MaxCommentBytes, and MaxVariations and
// MaxVariationDepth bound them; the reader stops at the first past a bound.
func TestPGNVariationBounds(t *testing.T) {
	const pgn = "1. e4 e5 (1... c5 {Sicilian} (1... e6 {French} 2. d4)) 2. Nf3 (2. f4) *" // 7 plies, 3 variations, 2 deep
	tests := []struct {
		name string
		pgn  string
		opts PGNOptions
		kind error // nil: read
		want string
	}{
		{"no bound", pgn, PGNOptions{}, nil, ""},
		{"at the bounds", pgn, PGNOptions{MaxPlies: 7, MaxVariations: 3, MaxVariationDepth: 2, MaxCommentBytes: 14}, nil, ""},
		{"plies", pgn, PGNOptions{MaxPlies: 6}, ErrTooManyPlies, "more than 6 plies"},
		{"variations", pgn, PGNOptions{MaxVariations: 2}, ErrTooManyVariations, "more than 2 variations"},
		{"depth", pgn, PGNOptions{MaxVariationDepth: 1}, ErrTooManyVariations, "nest more than 1 deep"},
		{"comments", pgn, PGNOptions{MaxCommentBytes: 13}, ErrCommentsTooLong, "14 bytes long in all"},
		// The reader stops at the bound: the illegal move after it is never read.
		{"stops at the bound", "1. e4 e5 (1... c5) (1... Qz9) *", PGNOptions{MaxVariations: 1}, ErrTooManyVariations, "more than 1 variations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.ChessAsClassic = true
			g, err := FromPGN(tt.pgn, opts)
			if tt.kind == nil {
				if err != nil || g.Variations().Size() != (TreeSize{Plies: 7, Variations: 3, Depth: 2, CommentBytes: 14}) {
					t.Fatalf("FromPGN: %v, size %+v", err, g.Variations().Size())
				}
				return
			}
			var pe *PGNError
			if !errors.Is(err, tt.kind) || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("FromPGN: %v, want a *PGNError wrapping %v saying %q", err, tt.kind, tt.want)
			}
		})
	}
}

func TestNAGs(t *testing.T) {
	for _, tt := range []struct {
		text   string
		nag    NAG
		symbol string
		bad    bool
	}{
		{"!", 1, "!", false}, {"?", 2, "?", false}, {"!!", 3, "!!", false}, {"??", 4, "??", false},
		{"!?", 5, "!?", false}, {"?!", 6, "?!", false}, {"$0", 0, "$0", false}, {"$7", 7, "$7", false},
		{"$18", 18, "$18", false}, {"$255", 255, "$255", false}, {"$2", 2, "?", false},
		{"$256", 0, "", true}, {"$-1", 0, "", true}, {"$+1", 0, "", true}, {"$", 0, "", true},
		{"$1x", 0, "", true}, {"!!!", 0, "", true}, {"", 0, "", true}, {"+-", 0, "", true},
	} {
		n, err := ParseNAG(tt.text)
		if (err != nil) != tt.bad || !tt.bad && (n != tt.nag || n.Symbol() != tt.symbol) {
			t.Errorf("ParseNAG(%q) = %v (%q), %v", tt.text, n, n.Symbol(), err)
		}
	}
	b, err := json.Marshal(map[int][]NAG{3: {1, 146}})
	var back map[int][]NAG
	if err != nil || string(b) != `{"3":["$1","$146"]}` || json.Unmarshal(b, &back) != nil || back[3][1] != 146 {
		t.Errorf("JSON: %s %v %v", b, err, back)
	}
	if err := json.Unmarshal([]byte(`["$300"]`), new([]NAG)); err == nil {
		t.Error("JSON $300 read")
	}
	// A glyph on its move, apart, and as $n: one NAG, once.
	g, err := FromPGN("1. e4! $1 ! $146 e5 *", PGNOptions{Variant: Classic{}})
	if err != nil || !slices.Equal(g.Record().NAGs(1), []NAG{1, 146}) || g.Record().NAGs(2) != nil {
		t.Errorf("NAGs %v %v (%v)", g.Record().NAGs(1), g.Record().NAGs(2), err)
	}
}

// TestPGNNotes: notes a writer adds come after the game's own, on its
// main line only, a NAG the ply has already written once.
func TestPGNNotes(t *testing.T) {
	g, err := FromPGN("1. e4 $1 {best} (1. d4 $2) e5 *", PGNOptions{Variant: Classic{}})
	if err != nil {
		t.Fatal(err)
	}
	notes := PGNNotes{
		NAGs:    func(n int) []NAG { return []NAG{1, NAG(n + 10), 1} },
		Comment: func(n int) string { return map[int]string{1: "[%clk 0:05:00]"}[n] },
	}
	want := `[Result "*"] $1 $10 1. e4 $1 $11 {best} {[%clk 0:05:00]} (1. d4 $2) 1... e5 $1 $12 *`
	if got := strings.Join(strings.Fields(g.Record().AnnotatedPGN(notes)), " "); !strings.HasSuffix(got, want) {
		t.Errorf("got\n%s\nwant …%s", got, want)
	}
	if g.Record().NAGs(1) == nil || len(g.Record().NAGs(2)) != 0 {
		t.Errorf("writing changed the game's NAGs: %v %v", g.Record().NAGs(1), g.Record().NAGs(2))
	}
}
