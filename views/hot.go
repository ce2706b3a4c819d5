package views

import (
	"context"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/i18n"
)

// The board's squares and the history's links are written here in Go
// rather than in board.templ and history.templ: a page has 64 squares and
// a link per ply, and templ's cost per dynamic attribute (a fmt.Sprint each, and a map for each
// class attribute) made them half of what an htmx ply costs the server.
// They write exactly what the templ components they replace wrote, and
// escape every value as templ does.

// square is one square of the board: a read-only cell, a destination that
// plays the selected piece there, or a square to pick. Its placed marks
// (the last move, the ban, a check) are left to the board's ply field
// (Board.Last) unless placed says to write them.
// Its id is "sq-" and its name; oob swaps it into a page out of band.
// Its name, label and piece come from tables (nothing a user wrote), so
// they need no escaping; the asset version and the ply's URL are escaped.
func square(sq Square, readOnly, placed bool, asset, plyURL string, oob bool) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		labels := labelsOf(ctx)
		b := make([]byte, 0, 320)
		name := sq.Name()
		switch {
		case readOnly:
			b = append(b, `<div id="sq-`...)
			b = append(b, name...)
			b = append(b, `" class="`...)
			b = appendSquareClass(b, sq, placed)
			b = append(b, `" data-square="`...)
			b = append(b, name...)
			b = append(b, `" role="img" aria-label="`...)
			b = append(b, sq.Label(labels)...)
			b = append(b, '"')
			if oob {
				b = append(b, ` hx-swap-oob="true"`...)
			}
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</div>"...)
		case sq.has(dest):
			b = append(b, `<button id="sq-`...)
			b = append(b, name...)
			b = append(b, `" class="`...)
			b = appendSquareClass(b, sq, placed)
			b = append(b, `" name="to" value="`...)
			b = append(b, name...)
			b = append(b, '"')
			b = attr(b, "formaction", plyURL)
			b = append(b, ` data-square="`...)
			b = append(b, name...)
			b = append(b, `" aria-label="`...)
			b = append(b, sq.Label(labels)...)
			b = append(b, '"')
			if oob {
				b = append(b, ` hx-swap-oob="true"`...)
			}
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</button>"...)
		default:
			b = append(b, `<button id="sq-`...)
			b = append(b, name...)
			b = append(b, `" class="`...)
			b = appendSquareClass(b, sq, placed)
			b = append(b, `" name="square" value="`...)
			b = append(b, name...)
			b = append(b, `" data-square="`...)
			b = append(b, name...)
			b = append(b, '"')
			if sq.has(selected) {
				b = append(b, ` aria-pressed="true"`...)
			}
			b = append(b, ` aria-label="`...)
			b = append(b, sq.Label(labels)...)
			b = append(b, '"')
			if oob {
				b = append(b, ` hx-swap-oob="true"`...)
			}
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</button>"...)
		}
		_, err := w.Write(b)
		return err
	})
}

// viewSquare is a read-only square of a ViewBoard: as square writes one,
// without an id (the page's own board has the ids).
func viewSquare(sq Square, asset string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		labels := labelsOf(ctx)
		b := make([]byte, 0, 256)
		b = append(b, `<div class="`...)
		b = appendSquareClass(b, sq, true)
		b = append(b, `" data-square="`...)
		b = append(b, sq.Name()...)
		b = append(b, `" role="img" aria-label="`...)
		b = append(b, sq.Label(labels)...)
		b = append(b, `">`...)
		b = appendSquareInner(b, sq, asset)
		b = append(b, "</div>"...)
		_, err := w.Write(b)
		return err
	})
}

// appendSquareInner writes the square's piece and coordinates.
func appendSquareInner(b []byte, sq Square, asset string) []byte {
	if code := sq.Piece(); code != "" {
		b = append(b, `<img`...)
		b = attr(b, "src", PieceURL(code, asset))
		b = append(b, ` data-piece="`...)
		b = append(b, code...)
		b = append(b, `" alt="">`...) // not draggable: style.css lets the pointer through it
	}
	// The coordinates are drawn by CSS from data-c, not written as text:
	// a square's name is its aria-label, which a visible "8" would have
	// to be part of.
	if sq.has(rankAt) {
		b = append(b, `<span class="coord rank" data-c="`...)
		b = append(b, byte('1'+sq.at.Rank()))
		b = append(b, `" aria-hidden="true"></span> `...)
	}
	if sq.has(fileAt) {
		b = append(b, `<span class="coord file" data-c="`...)
		b = append(b, byte('a'+sq.at.File()))
		b = append(b, `" aria-hidden="true"></span>`...)
	}
	if sq.has(xTop) || sq.has(xBottom) { // an x square: its name beside it
		b = append(b, `<span class="coord xname" data-c="`...)
		b = append(b, sq.Name()...)
		b = append(b, `" aria-hidden="true"></span>`...)
	}
	return b
}

// historyItem is one ply in the history list: a link to the board after
// it, and its comment. query comes from historyQuery.
func historyItem(it HistoryItem, query historyLinks) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		b := appendHistoryLink(make([]byte, 0, 256), it, query, i18n.From(ctx))
		if it.Comment != "" {
			b = append(b, `<span class="comment">`...)
			b = appendEscaped(b, it.Comment)
			b = append(b, "</span>"...)
		}
		_, err := w.Write(b)
		return err
	})
}

// appendHistoryLink writes a history item's link.
func appendHistoryLink(b []byte, it HistoryItem, query historyLinks, l *i18n.Language) []byte {
	b = append(b, `<a`...)
	b = attr(b, "href", string(historyURL(it.Index, query)))
	b = attr(b, "class", historyClass(it))
	b = attr(b, "title", it.Title)
	b = attr(b, "data-ply", strconv.Itoa(it.Index))
	if it.Current || it.Now {
		b = attr(b, "aria-current", "step")
	}
	b = append(b, '>')
	if it.Ban {
		b = append(b, `<span class="sr-only">`...) // its ⊘ is drawn by style.css
		b = appendEscaped(b, l.T("history.ban"))
		b = append(b, ` </span>`...)
	}
	b = appendEscaped(b, it.Text)
	b = appendMarks(b, it.Marks)
	return append(b, "</a>"...)
}

// attr writes ` name="value"`, the value escaped.
func attr(b []byte, name, value string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = appendEscaped(b, value)
	return append(b, '"')
}

// appendEscaped writes s escaped for HTML text or a quoted attribute, as
// templ does.
func appendEscaped(b []byte, s string) []byte {
	if strings.ContainsAny(s, `<>&'"`) {
		return append(b, html.EscapeString(s)...)
	}
	return append(b, s...)
}

// MiniBoard draws a FEN's piece placement as a small board of figurines,
// for lists of games; it is decoration (the list says the rest in words).
func MiniBoard(placement string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := make([]byte, 0, 1600)
		b = append(b, `<span class="mini-board" aria-hidden="true">`...)
		rank, file := 7, 0
		for i := 0; i < len(placement) && rank >= 0; i++ {
			c := placement[i]
			switch {
			case c == '/':
				rank, file = rank-1, 0
				continue
			case c >= '1' && c <= '8':
				for n := int(c - '0'); n > 0 && file < 8; n-- {
					b = miniSquare(b, rank, file, "")
					file++
				}
				continue
			}
			if file < 8 {
				b = miniSquare(b, rank, file, figurine(c))
				file++
			}
		}
		b = append(b, "</span>"...)
		_, err := w.Write(b)
		return err
	})
}

// figurine is a FEN piece letter as a Unicode chess symbol.
func figurine(c byte) string {
	const letters, symbols = "KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"
	i := strings.IndexByte(letters, c)
	if i < 0 {
		return ""
	}
	return symbols[i*3 : i*3+3] // each symbol is three bytes of UTF-8
}

func miniSquare(b []byte, rank, file int, piece string) []byte {
	if (rank+file)%2 == 1 {
		b = append(b, `<i class="l">`...)
	} else {
		b = append(b, `<i class="d">`...)
	}
	b = append(b, piece...)
	return append(b, "</i>"...)
}
