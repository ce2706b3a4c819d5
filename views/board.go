package views

import (
	"context"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Square is one square of the rendered board: where it is, its piece and
// its marks. It is small and has no strings (a page draws 64, and a delta
// compares two boards square by square); its methods say the rest.
type Square struct {
	at    rules.Square
	piece rules.Piece
	marks marks
}

// marks are what a square shows besides its piece.
type marks uint16

const (
	light    marks = 1 << iota // a light square (x squares are neither)
	rankAt                     // on the left edge: it shows its rank's digit
	fileAt                     // on the bottom edge: it shows its file's letter
	xTop                       // EN-Chess's x square above the board
	xBottom                    // and below it
	selected                   // the piece picked
	dest                       // where it may go
	capture                    // a destination with a piece on it
	promo                      // a destination where a pawn promotes
	banFrom                    // the ban drawn, from and to
	banTo
	lastFrom // the last move, from and to
	lastTo
	check // a king in check

	// placedMarks are the last move's and the ban's: the page's board
	// draws them from its ply field (Board.Last) and the ban's arrow.
	placedMarks = banFrom | banTo | lastFrom | lastTo
)

// Name is the square's name: "e4".
func (sq Square) Name() string { return sq.at.String() }

// Label is the square's name and what stands on it in the labels' language:
// "e4, white pawn".
func (sq Square) Label(labels *labelTable) string { return labels[sq.at][sq.piece&31] }

// Piece is the code of the piece on it ("wP"), or "" for none.
func (sq Square) Piece() string { return sq.piece.Code() }

// unplaced is the square without its placed marks: as the page's board
// draws it.
func (sq Square) unplaced() Square {
	sq.marks &^= placedMarks
	return sq
}

// has reports whether the square shows all of m.
func (sq Square) has(m marks) bool { return sq.marks&m == m }

// Arrow is the ban in force drawn over the board, in board units (0–8):
// its line between the squares' centres, and the squares' corners
// (FromX, FromY, ToX, ToY), where the page's board frames them.
type Arrow struct{ X1, Y1, X2, Y2, FromX, FromY, ToX, ToY string }

// Board is the 8×8 board in display order (top-left first), then, in
// EN-Chess, the x squares above and below it.
type Board struct {
	Squares  []Square
	Arrow    *Arrow
	Flipped  bool // Black at the bottom
	ReadOnly bool
	// Dests are the squares that can be picked, each with where it goes:
	// "e2:e3,e4 g1:f3,h3" ("" when none can be). The page carries them
	// once, on the board's ply field, rather than on each square: a ply
	// changes them all, but only a few squares.
	Dests string
	// Last is the last move's squares ("e2e4"), which the page's board
	// carries the same way, on its ply field, rather than as marks of its
	// squares (the ban's squares it frames with the ban's arrow): its
	// squares then change only with their pieces (and a check).
	Last string
}

// Promotion is the open promotion picker.
type Promotion struct {
	From, To string
	Color    string // "w" or "b"
	Choices  []PromotionChoice
	// Col is the display column of To (0 at the left; -1 for an x square,
	// in the middle); Top says To is at the top, so the picker hangs down
	// from it (else it rises).
	Col int
	Top bool
}

// PromotionChoice is one piece the pawn may become.
type PromotionChoice struct {
	Letter string // "q"
	Piece  string // "wQ"
	Name   string // the message naming the piece ("kind.queen")
}

// destSet is the destinations of one square at this ply, in the order of
// their names, and which of them a move promotes on.
type destSet struct {
	from     rules.Square
	to       []rules.Square
	promotes []bool
}

// has reports whether s is one of the destinations.
func (d destSet) has(s rules.Square) bool { return slices.Contains(d.to, s) }

// destMap is the legal actions grouped by their from square; pass says
// one of them is EN-Chess's pass (from no square).
type destMap struct {
	sets []destSet
	pass bool
}

// destinations groups legal actions, sorted as rules.Game.Legal sorts them
// (by from, then to), by their from square. The groups share two arrays.
func destinations(legal []rules.Action) destMap {
	d := destMap{sets: make([]destSet, 0, 16)}
	to := make([]rules.Square, 0, len(legal))
	promotes := make([]bool, 0, len(legal))
	start := make([]int, 0, 16) // where each group's destinations begin
	for _, a := range legal {
		if a.From == rules.NoSquare {
			d.pass = true
			continue
		}
		p := a.Phase == rules.PhaseMove && a.Promotion != 0
		if n := len(d.sets); n == 0 || d.sets[n-1].from != a.From {
			d.sets = append(d.sets, destSet{from: a.From})
			start = append(start, len(to))
		} else if to[len(to)-1] == a.To { // a pair's other promotions
			promotes[len(to)-1] = promotes[len(to)-1] || p
			continue
		}
		to, promotes = append(to, a.To), append(promotes, p)
	}
	for i := range d.sets {
		end := len(to)
		if i+1 < len(start) {
			end = start[i+1]
		}
		d.sets[i].to, d.sets[i].promotes = to[start[i]:end:end], promotes[start[i]:end:end]
	}
	return d
}

// of returns the destinations of square s, if it has any.
func (d destMap) of(s rules.Square) (destSet, bool) {
	for _, set := range d.sets {
		if set.from == s {
			return set, true
		}
	}
	return destSet{}, false
}

// String writes the squares that can be picked and their destinations
// as Board.Dests does: "e2:e3,e4 g1:f3,h3".
func (d destMap) String() string {
	n := 0
	for _, set := range d.sets {
		n += 4 + 3*len(set.to)
	}
	b := make([]byte, 0, n)
	for i, set := range d.sets {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, set.from.String()...)
		b = append(b, ':')
		for j, s := range set.to {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, s.String()...)
		}
	}
	return string(b)
}

// mark records on b the squares that can be picked, with their
// destinations, and marks the square sel picked (rules.NoSquare for none)
// with where it can go.
func (d destMap) mark(b *Board, sel rules.Square) {
	b.Dests = d.String()
	picked, ok := d.of(sel)
	if !ok {
		return
	}
	for i := range b.Squares {
		sq := &b.Squares[i]
		if sq.at == sel {
			sq.marks |= selected
		}
		if j := slices.Index(picked.to, sq.at); j >= 0 {
			sq.marks |= dest
			if picked.promotes[j] {
				sq.marks |= promo
			}
			if sq.piece != rules.NoPiece {
				sq.marks |= capture
			}
		}
	}
}

// board lays out pos with bottom's side nearest the viewer; the board's
// extra squares (EN-Chess's x squares, x9 above and x0 below) follow the
// 64, the top one first.
func board(pos *rules.Position, bottom rules.Color, ban, last *rules.Pair, checked []rules.Square, extra []rules.Square) Board {
	b := Board{Flipped: bottom == rules.Black, Squares: make([]Square, 0, rules.X9+1)}
	mark := func(s rules.Square) marks {
		var m marks
		if slices.Contains(checked, s) {
			m |= check
		}
		if ban != nil && s == ban.From {
			m |= banFrom
		}
		if ban != nil && s == ban.To {
			m |= banTo
		}
		if last != nil && s == last.From {
			m |= lastFrom
		}
		if last != nil && s == last.To {
			m |= lastTo
		}
		return m
	}
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			s := displaySquare(row, col, b.Flipped)
			sq := Square{at: s, piece: pos.Board[s], marks: mark(s)}
			if s.Light() {
				sq.marks |= light
			}
			if col == 0 {
				sq.marks |= rankAt
			}
			if row == 7 {
				sq.marks |= fileAt
			}
			b.Squares = append(b.Squares, sq)
		}
	}
	top, under := rules.X9, rules.X0
	if b.Flipped {
		top, under = under, top
	}
	for _, x := range []struct {
		at    rules.Square
		place marks
	}{{top, xTop}, {under, xBottom}} {
		if slices.Contains(extra, x.at) {
			b.Squares = append(b.Squares, Square{at: x.at, piece: pos.Board[x.at], marks: x.place | mark(x.at)&^(banFrom|banTo)})
		}
	}
	if last != nil {
		b.Last = last.From.String() + last.To.String()
	}
	if ban != nil {
		c1, r1 := displayXY(ban.From, b.Flipped)
		c2, r2 := displayXY(ban.To, b.Flipped)
		b.Arrow = &Arrow{X1: centre(c1), Y1: centre(r1), X2: centre(c2), Y2: centre(r2),
			FromX: strconv.Itoa(c1), FromY: strconv.Itoa(r1), ToX: strconv.Itoa(c2), ToY: strconv.Itoa(r2)}
	}
	return b
}

// labelTable is a language's labels of the squares, "e4, white pawn" or
// "e4, empty", by square and piece, escaped for HTML.
type labelTable [rules.X9 + 1][32]string

// pieceMessages name each piece, by its code, and an empty square ("").
var pieceMessages = map[string]string{
	"":   "piece.none",
	"wP": "piece.wP", "wN": "piece.wN", "wB": "piece.wB", "wR": "piece.wR", "wQ": "piece.wQ", "wK": "piece.wK", "wA": "piece.wA",
	"bP": "piece.bP", "bN": "piece.bN", "bB": "piece.bB", "bR": "piece.bR", "bQ": "piece.bQ", "bK": "piece.bK", "bA": "piece.bA",
}

// labelsIn is l's label table.
func labelsIn(l *i18n.Language) *labelTable {
	t := new(labelTable)
	for p := range t[0] {
		id, ok := pieceMessages[rules.Piece(p).Code()]
		if !ok || (p != 0 && rules.Piece(p).Code() == "") {
			continue
		}
		piece := l.T(id)
		for s := range t {
			t[s][p] = html.EscapeString(l.T("square.label", "Square", rules.Square(s).String(), "Piece", piece))
		}
	}
	return t
}

// squareLabels are the label tables of the built-in languages, the
// pseudo-locale's included: read only (a board has 64 labels, every page
// and delta).
var squareLabels = func() map[*i18n.Language]*labelTable {
	c := i18n.Builtin()
	m := map[*i18n.Language]*labelTable{}
	for _, l := range append(c.Languages(), c.Named(i18n.Pseudo)) {
		m[l] = labelsIn(l)
	}
	return m
}()

// labelsOf is the label table of the language ctx carries.
func labelsOf(ctx context.Context) *labelTable {
	l := i18n.From(ctx)
	if t, ok := squareLabels[l.Origin()]; ok {
		return t
	}
	return labelsIn(l) // a language of another catalog: made for the page
}

func displaySquare(row, col int, flipped bool) rules.Square {
	if flipped {
		return rules.SquareAt(7-col, row)
	}
	return rules.SquareAt(col, 7-row)
}

// displayXY returns the display column and row of s (0–7 from the top
// left).
func displayXY(s rules.Square, flipped bool) (col, row int) {
	if flipped {
		return 7 - s.File(), s.Rank()
	}
	return s.File(), 7 - s.Rank()
}

// centre is the middle of display column or row v in board units.
func centre(v int) string { return strconv.FormatFloat(float64(v)+0.5, 'f', 1, 64) }

// promotion is the picker for the pawn move from→to: the pieces the legal
// moves promote to and, in EN-Chess, staying a pawn (letter p).
func promotion(g *rules.Game, from, to rules.Square, c rules.Color) *Promotion {
	p := &Promotion{From: from.String(), To: to.String(), Color: c.String()[:1]}
	var kinds []rules.PieceKind
	for _, a := range g.Legal() {
		if a.From == from && a.To == to {
			kinds = append(kinds, a.Promotion)
		}
	}
	for _, k := range []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.King, rules.Auror, 0} {
		if !slices.Contains(kinds, k) {
			continue
		}
		choice := PromotionChoice{Letter: strings.ToLower(string(k.Letter())), Piece: rules.NewPiece(c, k).Code(), Name: promotionNames[k]}
		if k == 0 {
			choice = PromotionChoice{Letter: "p", Piece: rules.NewPiece(c, rules.Pawn).Code(), Name: "kind.stay"}
		}
		p.Choices = append(p.Choices, choice)
	}
	return p
}

// appendSquareClass writes a square's CSS classes; without placed, not
// those of its placed marks (a board whose ply field carries them).
func appendSquareClass(b []byte, sq Square, placed bool) []byte {
	b = append(b, "sq"...)
	switch {
	case sq.has(xTop):
		b = append(b, " xsq x-top"...)
	case sq.has(xBottom):
		b = append(b, " xsq x-bottom"...)
	case sq.has(light):
		b = append(b, " light"...)
	default:
		b = append(b, " dark"...)
	}
	for _, f := range squareClasses {
		if sq.has(f.mark) && (placed || f.mark&placedMarks == 0) {
			b = append(b, f.class...)
		}
	}
	return b
}

// squareClasses are the classes of a square's marks, in the order they
// are written: read only.
var squareClasses = [...]struct {
	mark  marks
	class string
}{
	{selected, " selected"}, {dest, " dest"}, {capture, " capture"}, {promo, " promo"},
	{banFrom, " ban-from"}, {banTo, " ban-to"}, {lastFrom, " last-from"}, {lastTo, " last-to"},
	{check, " check"},
}

// promotionClass places the picker over its square: "col-4", or "col-x"
// for an x square.
func promotionClass(p *Promotion) string {
	if p.Col < 0 {
		return "col-x"
	}
	return "col-" + strconv.Itoa(p.Col)
}

// promotionNames are the messages naming each piece a pawn may become.
var promotionNames = map[rules.PieceKind]string{
	rules.Queen: "kind.queen", rules.Rook: "kind.rook", rules.Bishop: "kind.bishop",
	rules.Knight: "kind.knight", rules.King: "kind.king", rules.Auror: "kind.auror",
}

// boardLabel names the board for screen readers, with how to play it.
func boardLabel(g Game) string {
	bottom := rules.White
	if g.Board.Flipped {
		bottom = rules.Black
	}
	if g.Board.ReadOnly {
		return g.Opts.Lang.T(bySide(bottom, "board.label.w", "board.label.b"))
	}
	return g.Opts.Lang.T(bySide(bottom, "board.label.play.w", "board.label.play.b"))
}
