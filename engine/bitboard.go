package engine

import "math/bits"

// Bitboard is a set of squares, bit i standing for square i (a1 = 0, h8 = 63).
type Bitboard uint64

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank2 Bitboard = rank1 << 8
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
)

func sqBB(s int) Bitboard { return 1 << uint(s) }

func (b Bitboard) count() int { return bits.OnesCount64(uint64(b)) }

// first returns the lowest square of a non-empty set.
func (b Bitboard) first() int { return bits.TrailingZeros64(uint64(b)) }

// tables holds the attack sets and masks move generation looks up. They are
// computed once (newTables) and only read afterwards.
type tables struct {
	knight, king [64]Bitboard
	pawn         [2][64]Bitboard // squares a pawn of the colour on the square attacks
	file, rank   [64]Bitboard    // the line through the square, without it
	diag, anti   [64]Bitboard
	between      [64][64]Bitboard // squares strictly between two aligned squares
	line         [64][64]Bitboard // the whole line through two aligned squares
	// hashing
	zPiece  [12][64]uint64
	zCastle [16]uint64
	zEP     [8]uint64
	zSide   uint64
	zBan    [64][64]uint64
	zPhase  uint64
}

var tab = newTables()

func newTables() *tables {
	t := &tables{}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			if ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				t.knight[s] |= sqBB(rr*8 + ff)
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if ff, rr := f+df, r+dr; (df != 0 || dr != 0) && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
					t.king[s] |= sqBB(rr*8 + ff)
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if ff := f + df; ff >= 0 && ff < 8 {
				if r < 7 {
					t.pawn[White][s] |= sqBB((r+1)*8 + ff)
				}
				if r > 0 {
					t.pawn[Black][s] |= sqBB((r-1)*8 + ff)
				}
			}
		}
		t.file[s] = (fileA << uint(f)) &^ sqBB(s)
		t.rank[s] = (rank1 << uint(8*r)) &^ sqBB(s)
		for d := -7; d <= 7; d++ {
			if ff, rr := f+d, r+d; d != 0 && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				t.diag[s] |= sqBB(rr*8 + ff)
			}
			if ff, rr := f+d, r-d; d != 0 && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				t.anti[s] |= sqBB(rr*8 + ff)
			}
		}
	}
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			if a == b {
				continue
			}
			for _, m := range []*[64]Bitboard{&t.file, &t.rank, &t.diag, &t.anti} {
				if m[a]&sqBB(b) != 0 {
					t.line[a][b] = m[a] | sqBB(a)
					t.between[a][b] = lineAttacks(sqBB(b), m[a], a) & lineAttacks(sqBB(a), m[b], b)
				}
			}
		}
	}
	rng := splitmix(0x9E3779B97F4A7C15)
	for p := range t.zPiece {
		for s := range t.zPiece[p] {
			t.zPiece[p][s] = rng.next()
		}
	}
	for i := range t.zCastle {
		t.zCastle[i] = rng.next()
	}
	for i := range t.zEP {
		t.zEP[i] = rng.next()
	}
	t.zSide = rng.next()
	for a := range t.zBan {
		for b := range t.zBan[a] {
			t.zBan[a][b] = rng.next()
		}
	}
	t.zPhase = rng.next()
	return t
}

// splitmix is the SplitMix64 generator, for hash keys and reproducible noise.
type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// lineAttacks returns the squares a slider on s attacks along mask (the line
// without s), given the occupancy: the hyperbola quintessence.
func lineAttacks(occ, mask Bitboard, s int) Bitboard {
	o := occ & mask
	b := sqBB(s)
	fwd := o - 2*b
	rev := Bitboard(bits.Reverse64(uint64(Bitboard(bits.Reverse64(uint64(o))) - 2*Bitboard(bits.Reverse64(uint64(b))))))
	return (fwd ^ rev) & mask
}

func bishopAttacks(s int, occ Bitboard) Bitboard {
	return lineAttacks(occ, tab.diag[s], s) | lineAttacks(occ, tab.anti[s], s)
}

func rookAttacks(s int, occ Bitboard) Bitboard {
	return lineAttacks(occ, tab.file[s], s) | lineAttacks(occ, tab.rank[s], s)
}
