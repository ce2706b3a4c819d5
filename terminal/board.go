package terminal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/banchess/banchess/rules"
)

// ANSI styles, written only when options.colour is set.
const (
	red   = "\x1b[31;1m"
	bold  = "\x1b[1m"
	reset = "\x1b[0m"
)

// paint wraps text in an ANSI style when colour is on, and returns it
// unchanged otherwise.
func (s *session) paint(style, text string) string {
	if !s.opts.colour {
		return text
	}
	return style + text + reset
}

// showBoard writes the board of g and the status line under it.
func (s *session) showBoard(g *rules.Game) { fmt.Fprint(s.out, s.board(g)) }

// board is the board of g and the status line under it, for showBoard.
func (s *session) board(g *rules.Game) string {
	return s.renderBoard(g) + s.status(g) + "\n"
}

// renderBoard draws the position with files and ranks labelled, White at
// the bottom unless flipped. Each square is three columns wide; the two
// squares of the ban in force are bracketed, [P], and those of the last
// move in parentheses, (P). A board's extra squares (EN-Chess's x
// squares) get a line each, at the d/e corner above rank 8 (x9) and below
// rank 1 (x0).
func (s *session) renderBoard(g *rules.Game) string {
	pos := g.Position()
	ban, banned := g.Ban()
	last, moved := lastMove(g)
	checked := g.CheckedKings(&pos)
	files := "   "
	for i := range 8 {
		files += " " + string(rune('a'+s.file(i))) + " "
	}
	var b strings.Builder
	files = strings.TrimRight(files, " ")
	b.WriteString(files + "\n")
	extra := g.Variant().Board().ExtraSquares()
	top, bottom := rules.X9, rules.X0
	if s.flipped {
		top, bottom = bottom, top
	}
	xLine := func(sq rules.Square) {
		if !slices.Contains(extra, sq) {
			return
		}
		glyph := s.glyph(pos.Board[sq])
		if slices.Contains(checked, sq) {
			glyph = s.paint(red, glyph)
		}
		fmt.Fprintf(&b, "%s%s  %s\n", strings.Repeat(" ", 14), glyph, sq)
	}
	xLine(top)
	for row := range 8 {
		rank := 7 - row
		if s.flipped {
			rank = row
		}
		fmt.Fprintf(&b, " %d ", rank+1)
		for col := range 8 {
			sq := rules.SquareAt(s.file(col), rank)
			glyph := s.glyph(pos.Board[sq])
			if slices.Contains(checked, sq) {
				glyph = s.paint(red, glyph)
			}
			switch {
			case banned && (sq == ban.From || sq == ban.To):
				b.WriteString(s.paint(red, "[") + glyph + s.paint(red, "]"))
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
func (s *session) file(col int) int {
	if s.flipped {
		return 7 - col
	}
	return col
}

// glyph draws a piece: its FEN letter, or a figurine with --unicode.
func (s *session) glyph(p rules.Piece) string {
	if p == rules.NoPiece {
		if s.unicode {
			return "·"
		}
		return "."
	}
	if !s.unicode || p.Kind() == rules.Auror { // no figurine for EN-Chess's Auror
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
func (s *session) status(g *rules.Game) string {
	if o := g.Outcome(); o.Over() {
		return s.paint(bold, fmt.Sprintf("Ply %d · game over: %s · %s", g.Ply(), o, o.Result()))
	}
	parts := []string{fmt.Sprintf("Ply %d", g.Ply()), turnSentence(g.Turn())}
	if ban, ok := g.Ban(); ok {
		parts = append(parts, ban.String()+" is banned")
	}
	if g.InCheck() {
		parts = append(parts, s.paint(red, g.ToMove().Name()+" is in check"))
	}
	return strings.Join(parts, " · ")
}

// historyLines numbers the game's moves, each ban written before the move it
// restricted: " 1. b:e2e4 d4        b:e7e5 d5".
func historyLines(g *rules.Game) []string {
	hist, log := g.Record().History(), g.Record().Log()
	if len(hist) == 0 {
		return []string{fmt.Sprintf("Nothing played yet. Ply %d: %s.", g.Ply(), turnSentence(g.Turn()))}
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
