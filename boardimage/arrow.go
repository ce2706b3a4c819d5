package boardimage

import "math"

// arrow is the ban's arrow in a drawing whose squares are sq units wide:
// a shaft from the centre of the ban's from-square to the base of a
// triangular head whose tip is the centre of its to-square.
type arrow struct {
	x1, y1, bx, by float64 // the shaft, to the head's base
	width          float64 // the shaft's width
	tipX, tipY     float64
	lx, ly, rx, ry float64 // the head's base corners
}

// arrowOf returns the arrow of s's ban.
func arrowOf(s Scene, sq float64) arrow {
	c1, r1 := s.cell(s.Ban.From)
	c2, r2 := s.cell(s.Ban.To)
	x1, y1 := (float64(c1)+0.5)*sq, (float64(r1)+0.5)*sq
	x2, y2 := (float64(c2)+0.5)*sq, (float64(r2)+0.5)*sq
	dx, dy := x2-x1, y2-y1
	l := math.Hypot(dx, dy)
	ux, uy := dx/l, dy/l // along the arrow
	nx, ny := -uy, ux    // across it
	head, half := 0.42*sq, 0.24*sq
	bx, by := x2-ux*head, y2-uy*head
	return arrow{
		x1: x1, y1: y1, bx: bx, by: by, width: 0.14 * sq,
		tipX: x2, tipY: y2,
		lx: bx + nx*half, ly: by + ny*half, rx: bx - nx*half, ry: by - ny*half,
	}
}
