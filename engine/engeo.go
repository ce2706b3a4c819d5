package engine

// EN-Chess's board (docs/en-chess.md):
// the 64 squares and two x squares, x0 off the d1/e1 corner and x9 off
// the d8/e8 corner, on which diagonals bend (a4 b3 c2 d1 x0 e1 f2 g3 h4 is
// one line). Rays that bend and pieces that pass through one blocker do
// not fit bitboards, so the EN generator is a 66-square mailbox over rays
// and jumps worked out once (enGeo).

// The x squares, numbered as package rules numbers them.
const (
	enX0      = 64
	enX9      = 65
	enSquares = 66
)

// Auror is EN-Chess's piece, as an index after King.
const Auror = King + 1

// enKinds is the number of EN-Chess's kinds of piece (chess's and the Auror).
const enKinds = Auror + 1

// EN directions: four orthogonal, then four diagonal, in the order package
// rules generates lines (which decides, for a pair two lines reach, which
// line the move takes).
const (
	enN = iota
	enS
	enE
	enW
	enNE
	enNW
	enSE
	enSW
)

var enDirSteps = [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// enGeometry holds, for each square, its ray in each direction (the first
// square of a ray is the step), its knight jumps, and the squares a step
// away.
type enGeometry struct {
	ray     [enSquares][8][8]int8
	rayLen  [enSquares][8]int8
	raySet  [enSquares][8]enSet // the squares of each ray
	knights [enSquares][]int8
	adj     [enSquares][]int8
	adjSet  [enSquares]enSet
	zPiece  [2 * enKinds][enSquares]uint64
	zSide   uint64
	zCastle [16]uint64
	zEP     [8]uint64
}

// enGeo is read-only once built.
var enGeo = newENGeometry()

func newENGeometry() *enGeometry {
	g := &enGeometry{}
	for sq := range enSquares {
		for d := range 8 {
			cur, dir := sq, d
			for {
				cur, dir = enNext(cur, dir)
				if cur < 0 {
					break
				}
				g.ray[sq][d][g.rayLen[sq][d]] = int8(cur)
				g.rayLen[sq][d]++
				g.raySet[sq][d].add(cur)
			}
			if g.rayLen[sq][d] > 0 {
				g.adj[sq] = append(g.adj[sq], g.ray[sq][d][0])
				g.adjSet[sq].add(int(g.ray[sq][d][0]))
			}
		}
		if sq >= 64 {
			continue
		}
		for _, s := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			f, r := sq&7+s[0], sq>>3+s[1]
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				g.knights[sq] = append(g.knights[sq], int8(r*8+f))
			}
		}
	}
	rng := splitmix(0xE4C0FFEE5EED)
	for i := range g.zPiece {
		for s := range g.zPiece[i] {
			g.zPiece[i][s] = rng.next()
		}
	}
	g.zSide = rng.next()
	for i := range g.zCastle {
		g.zCastle[i] = rng.next()
	}
	for i := range g.zEP {
		g.zEP[i] = rng.next()
	}
	return g
}

// enNext returns the square one step from sq in direction d (-1 for none)
// and the direction the line goes on in: a diagonal entering an x square
// leaves it along the other half of its line.
func enNext(sq, d int) (int, int) {
	const d1, e1, d8, e8 = 3, 4, 59, 60
	switch sq {
	case enX0:
		switch d {
		case enNE:
			return e1, enNE
		case enNW:
			return d1, enNW
		}
		return -1, d
	case enX9:
		switch d {
		case enSE:
			return e8, enSE
		case enSW:
			return d8, enSW
		}
		return -1, d
	}
	f, r := sq&7+enDirSteps[d][0], sq>>3+enDirSteps[d][1]
	if f >= 0 && f < 8 && r >= 0 && r < 8 {
		return r*8 + f, d
	}
	switch {
	case sq == d1 && d == enSE:
		return enX0, enNE
	case sq == e1 && d == enSW:
		return enX0, enNW
	case sq == d8 && d == enNE:
		return enX9, enSE
	case sq == e8 && d == enNW:
		return enX9, enSW
	}
	return -1, d
}

// enSet is a set of the 66 squares: chess's as a bitboard, x0 and x9 as
// bits 0 and 1 of x.
type enSet struct {
	b Bitboard
	x uint8
}

func (s *enSet) add(sq int) {
	if sq < 64 {
		s.b |= sqBB(sq)
	} else {
		s.x |= 1 << (sq - 64)
	}
}

func (s *enSet) del(sq int) {
	if sq < 64 {
		s.b &^= sqBB(sq)
	} else {
		s.x &^= 1 << (sq - 64)
	}
}

// has reports whether sq is in s.
func (s enSet) has(sq int) bool {
	if sq < 64 {
		return s.b&sqBB(sq) != 0
	}
	return s.x&(1<<(sq-64)) != 0
}

// meets reports whether s and t share a square.
func (s enSet) meets(t enSet) bool { return s.b&t.b != 0 || s.x&t.x != 0 }

func (s enSet) or(t enSet) enSet { return enSet{s.b | t.b, s.x | t.x} }

// step returns the square one step from sq in direction d, or -1.
func (g *enGeometry) step(sq, d int) int {
	if g.rayLen[sq][d] == 0 {
		return -1
	}
	return int(g.ray[sq][d][0])
}

// enSlides reports whether a piece of kind k moves along lines in
// direction d.
func enSlides(k, d int) bool {
	return k == Queen || k == Rook && d < enNE || k == Bishop && d >= enNE
}

// enSquareName names a square as package rules does: e4, x0, x9.
func enSquareName(s int) string {
	switch s {
	case enX0:
		return "x0"
	case enX9:
		return "x9"
	}
	return squareName(s)
}
