package views

import (
	"context"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// The board's squares and the history's links are written here in Go
// rather than in page.templ: a page has 64 squares and a link per ply, and
// templ's cost per dynamic attribute (a fmt.Sprint each, and a map for each
// class attribute) made them half of what an htmx ply costs the server.
// They write exactly what the templ components they replace wrote, and
// escape every value as templ does.

// square is one square of the board: a read-only cell, a destination that
// plays the selected piece there, or a square to pick.
func square(sq Square, readOnly bool, asset string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := make([]byte, 0, 512)
		switch {
		case readOnly:
			b = append(b, `<div class="`...)
			b = appendClass(b, sq)
			b = attr(b, "data-square", sq.Name)
			b = append(b, ` role="img"`...)
			b = attr(b, "aria-label", sq.Label)
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</div>"...)
		case sq.Dest:
			b = append(b, `<button type="submit" class="`...)
			b = appendClass(b, sq)
			b = append(b, ` name="to"`...)
			b = attr(b, "value", sq.Name)
			b = append(b, ` formaction="/ply"`...)
			b = attr(b, "data-square", sq.Name)
			b = attr(b, "data-dests", sq.Dests)
			b = attr(b, "aria-label", sq.Label)
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</button>"...)
		default:
			b = append(b, `<button type="submit" class="`...)
			b = appendClass(b, sq)
			b = append(b, ` name="square"`...)
			b = attr(b, "value", sq.Name)
			b = attr(b, "data-square", sq.Name)
			if sq.Dests != "" {
				b = attr(b, "data-dests", sq.Dests)
			}
			if sq.Selected {
				b = append(b, ` aria-pressed="true"`...)
			}
			b = attr(b, "aria-label", sq.Label)
			b = append(b, '>')
			b = appendSquareInner(b, sq, asset)
			b = append(b, "</button>"...)
		}
		_, err := w.Write(b)
		return err
	})
}

// appendClass writes the square's classes and closes the attribute.
func appendClass(b []byte, sq Square) []byte {
	b = appendEscaped(b, squareClass(sq))
	return append(b, '"')
}

// appendSquareInner writes the square's piece and coordinates.
func appendSquareInner(b []byte, sq Square, asset string) []byte {
	if sq.Piece != "" {
		b = append(b, `<img`...)
		b = attr(b, "src", PieceURL(sq.Piece, asset))
		b = attr(b, "data-piece", sq.Piece)
		b = append(b, ` alt="" draggable="false"> `...)
	}
	if sq.RankAt != "" {
		b = append(b, `<span class="coord rank" aria-hidden="true">`...)
		b = appendEscaped(b, sq.RankAt)
		b = append(b, "</span> "...)
	}
	if sq.FileAt != "" {
		b = append(b, `<span class="coord file" aria-hidden="true">`...)
		b = appendEscaped(b, sq.FileAt)
		b = append(b, "</span>"...)
	}
	return b
}

// historyItem is one ply in the history list: a link to the board after
// it. query comes from historyQuery.
func historyItem(it HistoryItem, query string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := make([]byte, 0, 256)
		b = append(b, `<a`...)
		b = attr(b, "href", string(historyURL(it.Index, query)))
		b = attr(b, "class", historyClass(it))
		b = attr(b, "title", it.Title)
		b = attr(b, "data-ply", strconv.Itoa(it.Index))
		b = append(b, '>')
		if it.Ban {
			b = append(b, `<span class="ban-mark" aria-hidden="true">⊘</span> <span class="sr-only">ban </span> `...)
		}
		b = appendEscaped(b, it.Text)
		b = append(b, "</a>"...)
		_, err := w.Write(b)
		return err
	})
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
