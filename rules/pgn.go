package rules

import (
	"strconv"
	"strings"
)

// Tag is a PGN tag pair, such as [Event "Casual game"].
type Tag struct {
	Name, Value string
}

// Tags returns the PGN tags the game was read with (empty for a game not
// read from PGN). Result, SetUp, FEN and Variant are not kept: PGN derives
// them from the game.
func (g *Game) Tags() []Tag { return append([]Tag(nil), g.tags...) }

// derivedTags are written from the game itself, never copied.
var derivedTags = map[string]bool{"Result": true, "SetUp": true, "FEN": true, "Variant": true}

// PGN writes the game as docs/rules.md §4 specifies. Tags given here
// override the game's own (from import) and the defaults of the Seven Tag
// Roster.
func (g *Game) PGN(tags ...Tag) string { return g.AnnotatedPGN(nil, tags...) }

// AnnotatedPGN writes the game as PGN does, with note(n), when not "", as
// one more comment after the first n plies: a clock's time left, say
// ("[%clk 0:04:59]"). A nil note adds none.
func (g *Game) AnnotatedPGN(note func(n int) string, tags ...Tag) string {
	roster := []Tag{
		{"Event", g.variant.Name() + " game"}, {"Site", "?"}, {"Date", "????.??.??"},
		{"Round", "-"}, {"White", "White"}, {"Black", "Black"},
	}
	var extra []Tag
	set := func(t Tag) {
		if derivedTags[t.Name] || t.Name == "" {
			return
		}
		for i := range roster {
			if roster[i].Name == t.Name {
				roster[i].Value = t.Value
				return
			}
		}
		for i := range extra {
			if extra[i].Name == t.Name {
				extra[i].Value = t.Value
				return
			}
		}
		extra = append(extra, t)
	}
	for _, t := range g.tags {
		set(t)
	}
	for _, t := range tags {
		set(t)
	}
	roster = append(roster, Tag{"Result", g.outcome.Result()})
	if _, classic := g.variant.(Classic); !classic {
		roster = append(roster, Tag{"Variant", g.variant.Name()})
	}
	if g.customStart() {
		roster = append(roster, Tag{"SetUp", "1"}, Tag{"FEN", g.StartFEN()})
	}
	var b strings.Builder
	for _, t := range append(roster, extra...) {
		b.WriteString("[" + t.Name + " " + quotePGN(t.Value) + "]\n")
	}
	b.WriteByte('\n')
	writeWrapped(&b, g.movetext(note), 80)
	b.WriteByte('\n')
	return b.String()
}

func (g *Game) customStart() bool { return g.StartFEN() != g.variant.startFEN() }

// quotePGN writes s as a PGN string: quoted, with quotes and backslashes
// escaped and line breaks made spaces.
func quotePGN(s string) string {
	if strings.ContainsAny(s, "\\\"\n\r") {
		s = pgnEscaper.Replace(s)
	}
	return `"` + s + `"`
}

// pgnEscaper escapes a PGN tag value. A Replacer is safe for concurrent use.
var pgnEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ")

// movetext returns the movetext tokens: move numbers, ban comments, SAN and
// the result. A move number opens White's part of each move (its ban and
// its move); Black's part is numbered only when it comes first.
func (g *Game) movetext(note func(n int) string) []string {
	var out []string
	comment := func(n int) {
		if c := g.comments[n]; c != "" {
			out = append(out, commentToken(c))
		}
		if note == nil {
			return
		}
		if c := note(n); c != "" {
			out = append(out, commentToken(c))
		}
	}
	comment(0)
	moves := 0
	for i, p := range g.plies {
		pos := &g.positions[moves]
		t := g.variant.turn(g.startPly + i)
		opensWhite := t.ToMove == White && (t.Phase == PhaseBan || i == 0 || g.plies[i-1].action.Phase == PhaseMove)
		switch {
		case opensWhite:
			out = append(out, strconv.Itoa(pos.Fullmove)+".")
		case i == 0 || g.comments[i] != "":
			out = append(out, strconv.Itoa(pos.Fullmove)+"...")
		}
		if p.action.Phase == PhaseBan {
			out = append(out, "{banning: "+p.action.Coords()+g.indicator(i+1, pos)+"}")
		} else {
			moves++
			out = append(out, p.san)
		}
		comment(i + 1)
	}
	return append(out, g.outcome.Result())
}

// writeWrapped joins tokens with spaces in lines of at most width columns.
func writeWrapped(b *strings.Builder, tokens []string, width int) {
	col := 0
	for _, t := range tokens {
		if col > 0 && col+1+len(t) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(t)
		col += len(t)
	}
}
