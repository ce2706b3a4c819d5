package boardimage

import (
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/banchess/banchess/rules"
)

// The board's colours, those of the playground's style sheet.
const (
	lightHex = "#eeeed2"
	darkHex  = "#769656"
	banHex   = "#c62d2d"
	lastRGBA = "rgba(255,214,10,0.45)"
)

// unit is a square's side in the SVG's user units.
const unit = 100

// pieceArt is one piece's drawing, ready to go in an SVG's defs.
type pieceArt struct {
	code   string // "wK"
	source []byte // the whole SVG file, for the rasteriser
	inner  string // what is inside its <svg> element, ids removed
}

var (
	svgOpen = regexp.MustCompile(`(?s)<svg\b[^>]*>`)
	idAttr  = regexp.MustCompile(`\s+id="[^"]*"`)
)

// readPieces reads every piece's art from fsys (pieces/wK.svg, …), EN-Chess's
// Auror's too.
func readPieces(fsys fs.FS) (map[rules.Piece]pieceArt, error) {
	art := make(map[rules.Piece]pieceArt, 12)
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for k := rules.Pawn; k <= rules.Auror; k++ {
			p := rules.NewPiece(c, k)
			src, err := fs.ReadFile(fsys, "pieces/"+p.Code()+".svg")
			if err != nil {
				return nil, fmt.Errorf("piece art: %w", err)
			}
			open := svgOpen.FindIndex(src)
			end := strings.LastIndex(string(src), "</svg>")
			if open == nil || end < open[1] {
				return nil, fmt.Errorf("piece art %s: no <svg> element", p.Code())
			}
			inner := idAttr.ReplaceAllString(string(src[open[1]:end]), "")
			art[p] = pieceArt{code: p.Code(), source: src, inner: strings.TrimSpace(inner)}
		}
	}
	return art, nil
}

// svg draws s as an SVG document size pixels square.
func (r *Renderer) svg(s Scene, size int) []byte {
	var b strings.Builder
	b.Grow(16 << 10)
	n := strconv.Itoa(size)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="` + n + `" height="` + n + `" viewBox="0 0 800 800">`)
	b.WriteString(`<defs>`)
	used := map[rules.Piece]bool{}
	for _, p := range s.Board {
		if p != rules.NoPiece && !used[p] {
			used[p] = true
			a := r.pieces[p]
			b.WriteString(`<symbol id="` + a.code + `" viewBox="0 0 40 40">` + a.inner + `</symbol>`)
		}
	}
	if onBoard(s.Check) {
		b.WriteString(`<radialGradient id="check" r="0.71"><stop offset="0" stop-color="#ff0000" stop-opacity="0.9"/>` +
			`<stop offset="0.35" stop-color="#e70000" stop-opacity="0.55"/><stop offset="0.72" stop-color="#a90000" stop-opacity="0"/></radialGradient>`)
	}
	if has(s.Ban) {
		b.WriteString(`<pattern id="hatch" width="17" height="17" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
			`<rect width="8.5" height="17" fill="` + banHex + `" fill-opacity="0.28"/></pattern>`)
	}
	b.WriteString(`</defs>`)
	for row := range 8 {
		for col := range 8 {
			fill := darkHex
			if s.square(col, row).Light() {
				fill = lightHex
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, col*unit, row*unit, unit, unit, fill)
		}
	}
	rect := func(sq rules.Square, attrs string) {
		col, row := s.cell(sq)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" %s/>`, col*unit, row*unit, unit, unit, attrs)
	}
	if has(s.Last) {
		rect(s.Last.From, `fill="`+lastRGBA+`"`)
		rect(s.Last.To, `fill="`+lastRGBA+`"`)
	}
	if has(s.Ban) {
		rect(s.Ban.To, `fill="url(#hatch)"`)
		for _, sq := range []rules.Square{s.Ban.From, s.Ban.To} {
			col, row := s.cell(sq)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s" stroke-width="8"/>`, col*unit+4, row*unit+4, unit-8, unit-8, banHex)
		}
	}
	if onBoard(s.Check) {
		rect(s.Check, `fill="url(#check)"`)
	}
	for sq, p := range s.Board {
		if p == rules.NoPiece || !onBoard(rules.Square(sq)) {
			continue
		}
		col, row := s.cell(rules.Square(sq))
		fmt.Fprintf(&b, `<use href="#%s" x="%d" y="%d" width="%d" height="%d"/>`, r.pieces[p].code, col*unit, row*unit, unit, unit)
	}
	if has(s.Ban) {
		a := arrowOf(s, unit)
		fmt.Fprintf(&b, `<g fill="%s" stroke="%s" opacity="0.8"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke-width="%.1f" stroke-linecap="round"/>`,
			banHex, banHex, a.x1, a.y1, a.bx, a.by, a.width)
		fmt.Fprintf(&b, `<path stroke="none" d="M%.1f %.1fL%.1f %.1fL%.1f %.1fz"/></g>`, a.tipX, a.tipY, a.lx, a.ly, a.rx, a.ry)
	}
	b.WriteString(`</svg>`)
	return []byte(b.String())
}
