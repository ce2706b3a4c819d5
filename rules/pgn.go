package rules

import (
	"slices"
	"strconv"
	"strings"
)

// Tag is a PGN tag pair, such as [Event "Casual game"].
type Tag struct {
	Name, Value string
}

// derivedTags are written from the game itself, never copied.
var derivedTags = map[string]bool{"Result": true, "SetUp": true, "FEN": true, "Variant": true}

// PGN writes the game as docs/rules.md §4 specifies. Tags given here
// override the game's own (from import) and the defaults of the Seven Tag
// Roster.
func (r Record) PGN(tags ...Tag) string { return r.AnnotatedPGN(PGNNotes{}, tags...) }

// PGNNotes are what a writer adds to a game's PGN, after the first n plies
// of its main line, without changing the game: NAGs(n), after the game's
// own NAGs of ply n (each once), and Comment(n), when not "", as one more
// comment — a clock's time left, say ("[%clk 0:04:59]"), or an engine's
// evaluation. A nil field adds none.
type PGNNotes struct {
	NAGs    func(n int) []NAG
	Comment func(n int) string
}

// AnnotatedPGN writes the game as PGN does, with notes added.
func (r Record) AnnotatedPGN(notes PGNNotes, tags ...Tag) string {
	g := r.g
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
	if start := g.StartFEN(); start != g.variant.startFEN() {
		roster = append(roster, Tag{"SetUp", "1"}, Tag{"FEN", start})
	}
	var b strings.Builder
	for _, t := range append(roster, extra...) {
		b.WriteString("[" + t.Name + " " + quotePGN(t.Value) + "]\n")
	}
	b.WriteByte('\n')
	r.writeMovetext(&b, notes)
	b.WriteByte('\n')
	return b.String()
}

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

// pgnWidth is the longest line of movetext PGN writes.
const pgnWidth = 80

// movetextCache is the movetext of a game's first plies as PGN wrote it,
// without notes added, wrapped: a ply played adds to a game's movetext
// without changing what comes before its own tokens, so the next PGN
// writes only the plies after these. It never holds the game's last ply,
// whose indicator depends on the outcome. Every change to the game other
// than a ply played drops it (see edited).
type movetextCache struct {
	plies    int    // the plies it holds
	last     Action // the last of them, checked against the game's
	moves    int    // the moves among them
	fullmove int    // the move number after them
	text     string // their movetext, wrapped at pgnWidth
	col      int    // the column text ends at
}

// writeMovetext writes the movetext to b, wrapped at pgnWidth: move
// numbers, ban comments, SAN, NAGs, comments, variations and the result.
// Without notes added it starts from the game's movetextCache and leaves
// one that holds all but its last ply, so a game written after every ply
// costs only its new plies each time.
func (r Record) writeMovetext(b *strings.Builder, add PGNNotes) {
	g := r.g
	plain := add.NAGs == nil && add.Comment == nil
	c := movetextCache{fullmove: g.positions[0].Fullmove}
	if k := g.movetext; plain && k != nil && k.plies < len(g.plies) && g.plies[k.plies-1].action == k.last {
		c = *k
	}
	n := len(g.plies)
	plies := make([]varPly, n)
	if c.plies > 0 {
		plies[c.plies-1].action = g.plies[c.plies-1].action // for numbering the next
	}
	moves, movesKept := c.moves, c.moves // movesKept: the moves before the last ply
	for i := c.plies; i < n; i++ {
		if i == n-1 {
			movesKept = moves
		}
		p := g.plies[i]
		plies[i] = varPly{p.action, p.san}
		if p.action.Phase == PhaseBan {
			plies[i].text = r.indicator(i+1, &g.positions[moves])
		} else {
			moves++
		}
	}
	w := lineWriter{variant: g.variant}
	from, fullmove, col := c.plies, c.fullmove, c.col
	text := &strings.Builder{}
	text.WriteString(c.text)
	if keep := n - 1; plain && keep > c.plies {
		fullmove = w.lineFrom(g.startPly, fullmove, plies[:keep], g.notes, add, from)
		col = wrapTokens(text, col, w.out, pgnWidth)
		w.out, from = w.out[:0], keep
		g.movetext = &movetextCache{plies: keep, last: g.plies[keep-1].action, moves: movesKept,
			fullmove: fullmove, text: text.String(), col: col}
	}
	w.lineFrom(g.startPly, fullmove, plies, g.notes, add, from)
	w.out = append(w.out, g.outcome.Result())
	wrapTokens(text, col, w.out, pgnWidth)
	b.WriteString(text.String())
}

// KeepMovetext brings the movetext the game keeps for its PGN up to all
// but its last ply (see movetextCache), as writing its PGN does: a clone
// made afterwards writes its PGN from there. A game kept in a cache and
// cloned for every answer keeps it this way on the original, where the
// clones' own would be lost.
func (g *Game) KeepMovetext() {
	var discard strings.Builder
	Record{g}.writeMovetext(&discard, PGNNotes{})
}

// lineWriter writes lines of play as movetext tokens.
type lineWriter struct {
	variant Variant
	out     []string
}

// line writes a line whose first ply is ply start of the game and is played
// at move fullmove: each ply, with its NAGs, the comment after it and its
// variations, each in parentheses. A move number opens White's part of
// each move (its ban and its move); Black's part is numbered only when it
// comes first, and any ply after a comment or a variation is numbered
// again (N. for White's part, N... for Black's). add are notes added to
// the line's own (see PGNNotes).
func (w *lineWriter) line(start, fullmove int, plies []varPly, ns notes, add PGNNotes) {
	w.lineFrom(start, fullmove, plies, ns, add, 0)
}

// lineFrom writes a line as line does from its ply from on, where the move
// number is fullmove, and returns the move number after the line. Only
// the ply before from need be in plies before it (its action).
func (w *lineWriter) lineFrom(start, fullmove int, plies []varPly, ns notes, add PGNNotes, from int) int {
	if from == 0 {
		w.notes(ns[0], add, 0)
	}
	for i := from; i < len(plies); i++ {
		p := plies[i]
		t := w.variant.turn(start + i)
		opensWhite := t.ToMove == White && (t.Phase == PhaseBan || i == 0 || plies[i-1].action.Phase == PhaseMove)
		if opensWhite || i == 0 || ns.interrupts(i) {
			num := strconv.Itoa(fullmove) + "."
			if t.ToMove == Black {
				num += ".."
			}
			w.out = append(w.out, num)
		}
		if p.action.Phase == PhaseBan {
			w.out = append(w.out, "{banning: "+p.action.Coords()+p.text+"}")
		} else {
			w.out = append(w.out, p.text)
		}
		nt := ns[i+1]
		w.notes(nt, add, i+1)
		if nt != nil {
			for _, v := range nt.variations {
				first := len(w.out)
				w.line(start+i, fullmove, v.plies, v.notes, PGNNotes{})
				w.out[first] = "(" + w.out[first]
				w.out[len(w.out)-1] += ")"
			}
		}
		if p.action.Phase == PhaseMove && t.ToMove == Black {
			fullmove++
		}
	}
	return fullmove
}

// notes writes the NAGs and the comments after the first n plies of a
// line: nt's, then those add adds.
func (w *lineWriter) notes(nt *note, add PGNNotes, n int) {
	var nags []NAG
	comment := ""
	if nt != nil {
		nags, comment = nt.nags, nt.comment
	}
	if add.NAGs != nil {
		for _, nag := range add.NAGs(n) {
			if !slices.Contains(nags, nag) {
				nags = append(slices.Clip(nags), nag)
			}
		}
	}
	for _, nag := range nags {
		w.out = append(w.out, nag.String())
	}
	if comment != "" {
		w.out = append(w.out, commentToken(comment))
	}
	if add.Comment == nil {
		return
	}
	if c := add.Comment(n); c != "" {
		w.out = append(w.out, commentToken(c))
	}
}

// wrapTokens writes tokens to b, where the last line has col columns,
// joined with spaces in lines of at most width columns, and returns the
// column it ends at.
func wrapTokens(b *strings.Builder, col int, tokens []string, width int) int {
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
	return col
}
