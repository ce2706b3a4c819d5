package boardimage

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"sync"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"

	"github.com/banchess/banchess/rules"
)

// The PNG is drawn from the same SVG piece art as the SVG, rasterised in
// pure Go by oksvg and rasterx once per square size and then only copied:
// a board costs a few copies and one PNG encoding, not twelve rasterisations.

var (
	lightRGBA = color.NRGBA{0xee, 0xee, 0xd2, 0xff}
	darkRGBA  = color.NRGBA{0x76, 0x96, 0x56, 0xff}
	banRGBA   = color.NRGBA{0xc6, 0x2d, 0x2d, 0xff}
	lastTint  = color.NRGBA{255, 214, 10, 115} // rgba(255,214,10,0.45)
	hatchTint = color.NRGBA{0xc6, 0x2d, 0x2d, 71}
	arrowRGBA = color.NRGBA{0xc6, 0x2d, 0x2d, 204} // opacity 0.8
)

// sprites holds the twelve pieces rasterised at one square size.
type sprites map[rules.Piece]*image.RGBA

// maxSpriteSizes bounds how many square sizes keep their sprites.
const maxSpriteSizes = 16

// spritesAt returns the pieces rasterised side pixels square, drawing them
// the first time a size is asked for.
func (r *Renderer) spritesAt(side int) (sprites, error) {
	r.spriteMu.Lock()
	defer r.spriteMu.Unlock()
	if s, ok := r.sprites[side]; ok {
		return s, nil
	}
	s := make(sprites, len(r.pieces))
	for p, a := range r.pieces {
		icon, err := oksvg.ReadIconStream(bytes.NewReader(a.source), oksvg.StrictErrorMode)
		if err != nil {
			return nil, fmt.Errorf("piece art %s: %w", a.code, err)
		}
		icon.SetTarget(0, 0, float64(side), float64(side))
		img := image.NewRGBA(image.Rect(0, 0, side, side))
		icon.Draw(rasterx.NewDasher(side, side, rasterx.NewScannerGV(side, side, img, img.Bounds())), 1)
		s[p] = img
	}
	if len(r.sprites) >= maxSpriteSizes {
		for k := range r.sprites { // any one: sizes are few and cheap to redraw
			delete(r.sprites, k)
			break
		}
	}
	r.sprites[side] = s
	return s, nil
}

// edge returns where the i-th of 8 equal parts of size starts, in pixels.
func edge(i, size int) int { return i * size / 8 }

// cellRect returns the pixels of the square at col, row.
func cellRect(col, row, size int) image.Rectangle {
	return image.Rect(edge(col, size), edge(row, size), edge(col+1, size), edge(row+1, size))
}

// encoders reuse the PNG encoder's buffers across images.
type encoderPool struct{ sync.Pool }

func (p *encoderPool) Get() *png.EncoderBuffer {
	if b, ok := p.Pool.Get().(*png.EncoderBuffer); ok {
		return b
	}
	return nil
}

func (p *encoderPool) Put(b *png.EncoderBuffer) { p.Pool.Put(b) }

// png draws s as a PNG image size pixels square.
func (r *Renderer) png(s Scene, size int) ([]byte, error) {
	spr, err := r.spritesAt(size / 8)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for row := range 8 {
		for col := range 8 {
			c := darkRGBA
			if s.square(col, row).Light() {
				c = lightRGBA
			}
			draw.Draw(img, cellRect(col, row, size), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
	tint := func(sq rules.Square, c color.NRGBA) {
		col, row := s.cell(sq)
		draw.Draw(img, cellRect(col, row, size), image.NewUniform(c), image.Point{}, draw.Over)
	}
	if has(s.Last) {
		tint(s.Last.From, lastTint)
		tint(s.Last.To, lastTint)
	}
	if has(s.Ban) {
		hatch(img, s, size)
		for _, sq := range []rules.Square{s.Ban.From, s.Ban.To} {
			col, row := s.cell(sq)
			frame(img, cellRect(col, row, size), max(2, size/100))
		}
	}
	if onBoard(s.Check) {
		col, row := s.cell(s.Check)
		glow(img, cellRect(col, row, size))
	}
	for sq, p := range s.Board {
		if p == rules.NoPiece || !onBoard(rules.Square(sq)) {
			continue
		}
		col, row := s.cell(rules.Square(sq))
		cr := cellRect(col, row, size)
		// A square may be a pixel wider than the sprite: centre it.
		at := cr.Min.Add(image.Pt((cr.Dx()-size/8)/2, (cr.Dy()-size/8)/2))
		draw.Draw(img, image.Rectangle{at, at.Add(image.Pt(size/8, size/8))}, spr[p], image.Point{}, draw.Over)
	}
	if has(s.Ban) {
		drawArrow(img, arrowOf(s, float64(size)/8), size)
	}
	var buf bytes.Buffer
	buf.Grow(size * size / 8)
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.encoders}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding the PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// hatch stripes the ban's to-square diagonally, as the page does.
func hatch(img *image.RGBA, s Scene, size int) {
	col, row := s.cell(s.Ban.To)
	r := cellRect(col, row, size)
	period := max(4, size/32)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (x+y)%period < period/2 {
				blend(img, x, y, hatchTint)
			}
		}
	}
}

// frame draws the ban's red border w pixels wide inside r.
func frame(img *image.RGBA, r image.Rectangle, w int) {
	red := image.NewUniform(banRGBA)
	for _, side := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+w)},
		{image.Pt(r.Min.X, r.Max.Y-w), r.Max},
		{r.Min, image.Pt(r.Min.X+w, r.Max.Y)},
		{image.Pt(r.Max.X-w, r.Min.Y), r.Max},
	} {
		draw.Draw(img, side, red, image.Point{}, draw.Src)
	}
}

// glow draws the red radial glow of a king in check over r.
func glow(img *image.RGBA, r image.Rectangle) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	radius := float64(r.Dx()) / 2 * math.Sqrt2 // the gradient reaches the corners, as CSS's does
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			t := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) / radius
			var a float64
			switch {
			case t < 0.35:
				a = 0.9 - (0.9-0.55)*t/0.35
			case t < 0.72:
				a = 0.55 * (0.72 - t) / (0.72 - 0.35)
			}
			if a > 0 {
				blend(img, x, y, color.NRGBA{0xff - uint8(0x56*min(t/0.72, 1)), 0, 0, uint8(a * 255)})
			}
		}
	}
}

// drawArrow fills the ban's arrow, shaft and head in one path so that the
// translucent colour is laid once where they meet.
func drawArrow(img *image.RGBA, a arrow, size int) {
	f := rasterx.NewFiller(size, size, rasterx.NewScannerGV(size, size, img, img.Bounds()))
	f.SetColor(arrowRGBA)
	dx, dy := a.bx-a.x1, a.by-a.y1
	l := math.Hypot(dx, dy)
	nx, ny := -dy/l*a.width/2, dx/l*a.width/2
	f.Start(rasterx.ToFixedP(a.x1+nx, a.y1+ny))
	f.Line(rasterx.ToFixedP(a.bx+nx, a.by+ny))
	f.Line(rasterx.ToFixedP(a.lx, a.ly))
	f.Line(rasterx.ToFixedP(a.tipX, a.tipY))
	f.Line(rasterx.ToFixedP(a.rx, a.ry))
	f.Line(rasterx.ToFixedP(a.bx-nx, a.by-ny))
	f.Line(rasterx.ToFixedP(a.x1-nx, a.y1-ny))
	f.Stop(true)
	f.Draw()
}

// blend lays c over the pixel at x, y of the opaque img.
func blend(img *image.RGBA, x, y int, c color.NRGBA) {
	i := img.PixOffset(x, y)
	px := img.Pix[i : i+3 : i+3]
	a := uint32(c.A)
	for k, v := range [3]uint8{c.R, c.G, c.B} {
		px[k] = uint8((uint32(v)*a + uint32(px[k])*(255-a) + 127) / 255)
	}
}
