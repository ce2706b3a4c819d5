package terminal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/ruletext"
)

// boardView draws the board of a game as text, with the status line
// under it: pieces as letters or figurines, White at the bottom unless
// flipped.
type boardView struct {
	out     *printer // writes the board (show) and paints the ban and checks
	unicode bool     // figurines instead of FEN letters
	flipped bool     // Black at the bottom
}

// flip turns the board round.
func (v *boardView) flip() { v.flipped = !v.flipped }

// show writes the board of g and the status line under it.
func (v *boardView) show(g *rules.Game) { v.out.print(v.text(g)) }

// text is the board of g and the status line under it, for show.
func (v *boardView) text(g *rules.Game) string {
	return v.render(g) + v.status(g) + "\n"
}

// render draws the position with files and ranks labelled, White at the
// bottom unless flipped. Each square is three columns wide; the two squares
// of the ban in force are bracketed, [P], and those of the last move in
// parentheses, (P). A board's extra squares (EN-Chess's x squares) get a
// line each, at the d/e corner above rank 8 (x9) and below rank 1 (x0).
func (v *boardView) render(g *rules.Game) string {
	pos := g.Position()
	ban, banned := g.Ban()
	last, moved := lastMove(g)
	checked := g.CheckedKings(&pos)
	files := "   "
	for i := range 8 {
		files += " " + string(rune('a'+v.file(i))) + " "
	}
	var b strings.Builder
	files = strings.TrimRight(files, " ")
	b.WriteString(files + "\n")
	extra := g.Variant().Board().ExtraSquares()
	top, bottom := rules.X9, rules.X0
	if v.flipped {
		top, bottom = bottom, top
	}
	xLine := func(sq rules.Square) {
		if !slices.Contains(extra, sq) {
			return
		}
		glyph := v.glyph(pos.Board[sq])
		if slices.Contains(checked, sq) {
			glyph = v.out.paint(red, glyph)
		}
		fmt.Fprintf(&b, "%s%s  %s\n", strings.Repeat(" ", 14), glyph, sq)
	}
	xLine(top)
	for row := range 8 {
		rank := 7 - row
		if v.flipped {
			rank = row
		}
		fmt.Fprintf(&b, " %d ", rank+1)
		for col := range 8 {
			sq := rules.SquareAt(v.file(col), rank)
			glyph := v.glyph(pos.Board[sq])
			if slices.Contains(checked, sq) {
				glyph = v.out.paint(red, glyph)
			}
			switch {
			case banned && (sq == ban.From || sq == ban.To):
				b.WriteString(v.out.paint(red, "[") + glyph + v.out.paint(red, "]"))
			case moved && (sq == last.From || sq == last.To):
				b.WriteString("(" + glyph + ")")
			default:
				b.WriteString(" " + glyph + " ")
			}
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	xLine(bottom)
	b.WriteString(files + "\n")
	return b.String()
}

// lastMove is the from→to of the last move played, if any.
func lastMove(g *rules.Game) (rules.Pair, bool) {
	acts := g.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Phase == rules.PhaseMove {
			return acts[i].Pair(), true
		}
	}
	return rules.Pair{}, false
}

// file maps a column on screen to a file, a to h or h to a when flipped.
func (v *boardView) file(col int) int {
	if v.flipped {
		return 7 - col
	}
	return col
}

// glyph draws a piece: its FEN letter, or a figurine with --unicode.
func (v *boardView) glyph(p rules.Piece) string {
	if p == rules.NoPiece {
		if v.unicode {
			return "·"
		}
		return "."
	}
	if !v.unicode || p.Kind() == rules.Auror { // no figurine for EN-Chess's Auror
		return string(p.FENLetter())
	}
	const white, black = "♙♘♗♖♕♔", "♟♞♝♜♛♚"
	set := []rune(white)
	if p.Color() == rules.Black {
		set = []rune(black)
	}
	return string(set[p.Kind()-rules.Pawn])
}

// status is the line under the board: "Ply 3 · White bans a Black move",
// with the ban in force and a check, or the end of the game; the ply is
// numbered as on the web page.
func (v *boardView) status(g *rules.Game) string {
	if o := g.Outcome(); o.Over() {
		return v.out.paint(bold, v.out.lang.T("term.plyOver", "Ply", g.Ply(), "Ending", ruletext.Ending(v.out.lang, o), "Result", o.Result()))
	}
	parts := []string{v.out.lang.T("term.ply", "Ply", g.Ply()), turnSentence(v.out.lang, g.Turn())}
	if ban, ok := g.Ban(); ok {
		parts = append(parts, v.out.lang.T("term.banned", "Ban", ban))
	}
	if g.InCheck() {
		parts = append(parts, v.out.paint(red, v.out.lang.T(sided(g.ToMove(), "term.inCheck.w", "term.inCheck.b"))))
	}
	return strings.Join(parts, " · ")
}

// historyLines numbers the game's moves, each ban written before the move it
// restricted: " 1. b:e2e4 d4        b:e7e5 d5".
func historyLines(l *i18n.Language, g *rules.Game) []string {
	hist, log := g.Record().History(), g.Record().Log()
	if len(hist) == 0 {
		return []string{l.T("term.nothingYet", "Ply", g.Ply(), "Turn", turnSentence(l, g.Turn()))}
	}
	type half struct {
		number int
		side   rules.Color
		text   string
	}
	var halves []half
	for i, p := range hist {
		number, side := moveNumber(p)
		if n := len(halves); n > 0 && halves[n-1].number == number && halves[n-1].side == side {
			halves[n-1].text += " " + log[i]
			continue
		}
		halves = append(halves, half{number, side, log[i]})
	}
	var lines []string
	for i := 0; i < len(halves); i++ {
		h := halves[i]
		white, black := "...", ""
		if h.side == rules.White {
			white = h.text
			if i+1 < len(halves) && halves[i+1].number == h.number && halves[i+1].side == rules.Black {
				i++
				black = halves[i].text
			}
		} else {
			black = h.text
		}
		lines = append(lines, strings.TrimRight(fmt.Sprintf("%3d. %-20s %s", h.number, white, black), " "))
	}
	if o := g.Outcome(); o.Over() {
		lines = append(lines, fmt.Sprintf("%s (%s)", o.Result(), o))
	}
	return lines
}

// moveNumber returns the number and side of the move a ply belongs to: a ban
// belongs to the move it restricts.
func moveNumber(p rules.PlyInfo) (int, rules.Color) {
	if p.Action.Phase == rules.PhaseBan {
		return p.Position.Fullmove, p.Position.ToMove
	}
	if p.Actor == rules.Black {
		return p.Position.Fullmove - 1, rules.Black
	}
	return p.Position.Fullmove, rules.White
}

// sans writes moves of the side to move in SAN (coordinates should SAN fail).
func sans(g *rules.Game, moves []rules.Action) []string {
	out := make([]string, len(moves))
	for i, a := range moves {
		san, err := g.Notation().MoveSAN(a)
		if err != nil {
			san = a.Coords()
		}
		out[i] = san
	}
	return out
}
