// Package boardimage draws a position as an image, SVG or PNG: the board,
// the playground's Cburnett pieces, the last move, the ban in force (its
// squares and an arrow) and a king in check. Position links and link
// previews use it; a Renderer caches what it draws.
package boardimage

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/banchess/banchess/rules"
)

// Size bounds, in pixels, of an image's side.
const (
	MinSize     = 128
	MaxSize     = 1024
	DefaultSize = 512
)

// Scene is what an image shows.
type Scene struct {
	Board rules.Board
	Flip  bool         // Black at the bottom
	Last  rules.Pair   // the last move; From is NoSquare when none
	Ban   rules.Pair   // the ban in force; From is NoSquare when none
	Check rules.Square // the king in check, or NoSquare
}

// None is a Pair that names no squares: no last move, no ban.
var None = rules.Pair{From: rules.NoSquare, To: rules.NoSquare}

// SceneOf returns the scene of g's current position: its ban in force,
// its last move and its king in check.
func SceneOf(g *rules.Game) Scene {
	pos := g.Position()
	s := Scene{Board: pos.Board, Last: None, Ban: None, Check: rules.NoSquare}
	if ban, ok := g.Ban(); ok {
		s.Ban = ban
	}
	acts := g.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Phase == rules.PhaseMove {
			s.Last = acts[i].Pair()
			break
		}
	}
	if g.InCheck() {
		if k := pos.KingSquare(pos.ToMove); onBoard(k) {
			s.Check = k
		}
	}
	return s
}

// FromFEN returns the scene of an extended FEN (docs/rules.md §2) of any
// variant: its placement, the ban its seventh field names, and a king in
// check (EN-Chess's x squares are not drawn). A FEN in a URL may write its
// spaces as underscores, and may be the placement alone (the board's
// first field), drawn as it stands. The error, Ban Chess's reading, says what is
// wrong with it.
func FromFEN(fen string) (Scene, error) {
	fen = strings.ReplaceAll(strings.TrimSpace(fen), "_", " ")
	if fen == "" {
		return Scene{}, errors.New("the image names no position: give an extended FEN such as " + strings.ReplaceAll(rules.StartFEN, " ", "_"))
	}
	candidates := []string{fen}
	if !strings.Contains(fen, " ") { // the placement alone: either side to move, no rights
		candidates = []string{fen + " w - - 0 1", fen + " b - - 0 1"}
	}
	var first error
	for _, f := range candidates {
		for _, v := range rules.Variants() { // Ban Chess first: its FEN reads a Classic one too
			g, err := rules.FromFEN(f, v)
			if err == nil {
				return SceneOf(g), nil
			}
			if first == nil {
				first = err
			}
		}
	}
	return Scene{}, fmt.Errorf("the position: %w", first)
}

// key identifies what a scene draws at a size in a format: the cache's key
// and the base of the ETag.
func (s Scene) key(format string, size int) string {
	var b strings.Builder
	b.Grow(64 + 24)
	for _, p := range s.Board {
		b.WriteByte('a' + byte(p))
	}
	flip := byte('0')
	if s.Flip {
		flip = '1'
	}
	fmt.Fprintf(&b, "%c%d,%d,%d,%d,%d|%s%d", flip, s.Last.From, s.Last.To, s.Ban.From, s.Ban.To, s.Check, format, size)
	return b.String()
}

// cell returns the display column and row (0–7, from the top left) of sq.
func (s Scene) cell(sq rules.Square) (col, row int) {
	if s.Flip {
		return 7 - sq.File(), sq.Rank()
	}
	return sq.File(), 7 - sq.Rank()
}

// square returns the square shown at column col, row row.
func (s Scene) square(col, row int) rules.Square {
	if s.Flip {
		return rules.SquareAt(7-col, row)
	}
	return rules.SquareAt(col, 7-row)
}

// has reports whether p names two squares of the 8×8 board (an image
// does not draw EN-Chess's x squares).
func has(p rules.Pair) bool { return onBoard(p.From) && onBoard(p.To) }

// onBoard reports whether sq is one of the 64 squares an image draws.
func onBoard(sq rules.Square) bool { return sq.Valid() && !sq.IsX() }

// Path is the address under which a server drawing images serves fen's
// image in format f: /img/{FEN}.png, the FEN's spaces written as
// underscores and the rest URL-escaped. Add size, flip, last and ban as
// query values.
func Path(fen string, f Format) string {
	return "/img/" + url.PathEscape(strings.ReplaceAll(strings.TrimSpace(fen), " ", "_")) + "." + string(f)
}
