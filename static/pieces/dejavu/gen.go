//go:build ignore

// gen writes the "DejaVu" piece set: the chess symbols of the DejaVu Sans
// font (U+2654–U+265F), their outlines turned into SVG paths. A white
// piece is the black symbol's silhouette filled white under the white
// symbol's drawing; a black piece is the black symbol. Run it where the
// font is installed (Debian's fonts-dejavu-core):
//
//	cd static/pieces/dejavu && go run gen.go
package main

import (
	"fmt"
	"log"
	"os"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

const fontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

// size is the glyphs' size in font units of the 45×45 drawing.
const size = 48

func main() {
	b, err := os.ReadFile(fontFile)
	if err != nil {
		log.Fatal(err)
	}
	f, err := sfnt.Parse(b)
	if err != nil {
		log.Fatal(err)
	}
	var buf sfnt.Buffer
	path := func(r rune) string {
		i, err := f.GlyphIndex(&buf, r)
		if err != nil || i == 0 {
			log.Fatalf("no glyph for %U: %v", r, err)
		}
		segs, err := f.LoadGlyph(&buf, i, fixed.I(size), nil)
		if err != nil {
			log.Fatal(err)
		}
		bounds, _, err := f.GlyphBounds(&buf, i, fixed.I(size), font.HintingNone)
		if err != nil {
			log.Fatal(err)
		}
		// Centre the glyph in the 45×45 box.
		dx := (45-fl(bounds.Max.X-bounds.Min.X))/2 - fl(bounds.Min.X)
		dy := (45-fl(bounds.Max.Y-bounds.Min.Y))/2 - fl(bounds.Min.Y)
		var sb strings.Builder
		pt := func(p fixed.Point26_6) string { return fmt.Sprintf("%.2f %.2f", fl(p.X)+dx, fl(p.Y)+dy) }
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				sb.WriteString("M" + pt(s.Args[0]))
			case sfnt.SegmentOpLineTo:
				sb.WriteString("L" + pt(s.Args[0]))
			case sfnt.SegmentOpQuadTo:
				sb.WriteString("Q" + pt(s.Args[0]) + " " + pt(s.Args[1]))
			case sfnt.SegmentOpCubeTo:
				sb.WriteString("C" + pt(s.Args[0]) + " " + pt(s.Args[1]) + " " + pt(s.Args[2]))
			}
		}
		return sb.String() + "Z"
	}
	// The white symbols from U+2654, the black ones from U+265A, in the
	// order king, queen, rook, bishop, knight, pawn.
	for i, p := range "KQRBNP" {
		white, black := path(0x2654+rune(i)), path(0x265A+rune(i))
		write("w"+string(p), `<path d="`+black+`" fill="#fff"/><path d="`+white+`" fill="#000"/>`)
		write("b"+string(p), `<path d="`+black+`" fill="#000"/>`)
	}
}

func fl(x fixed.Int26_6) float64 { return float64(x) / 64 }

// write saves one piece's drawing as name.svg.
func write(name, body string) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" width="45" height="45">` +
		`<!-- ` + name + `: drawn from the DejaVu Sans font's chess symbols (Bitstream Vera licence with DejaVu changes in the public domain; see NOTICE) -->` +
		body + `</svg>` + "\n"
	if err := os.WriteFile(name+".svg", []byte(svg), 0o644); err != nil {
		log.Fatal(err)
	}
}
