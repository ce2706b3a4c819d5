package engine

// enPieceValue is each EN-Chess kind's worth in centipawns. A king beyond
// the first is a piece that steps like a king (and one more king that can
// be checked); an Auror never captures but strengthens line pieces next to
// it and gives its kings a way out (the swap).
var enPieceValue = [enKinds]int{100, 310, 330, 480, 900, 250, 220}

// Worth of a line piece's influence: penetrating (own Aurors adjacent
// outnumber the enemy's) and stunted (the enemy's outnumber them).
const (
	enPenetrating = 30
	enStunted     = -60
	enWaiting     = 700 // a pawn on its last rank promotes in place next turn
)

// evaluate scores the EN-Chess position for the side to move, in
// centipawns: material (a pawn on its last rank nearly a queen), pawns'
// advance, knights' and Aurors' centrality, line pieces' reach and the
// Aurors' influence on them, and the safety of a side's kings (escape
// squares, and not walking out before the endgame).
func (p *enPos) evaluate() int {
	var score [2]int
	phase := 0
	for c := White; c <= Black; c++ {
		for k := Knight; k <= Queen; k++ {
			phase += int(p.count[enPiece(c, k)]) * [6]int{0, 1, 1, 2, 4, 0}[k]
		}
	}
	phase = min(phase, 24)
	for sq, pc := range p.board {
		if pc == 0 {
			continue
		}
		c, k := enColor(pc), enKind(pc)
		s := enPieceValue[k]
		f, r := sq&7, sq>>3
		if sq >= 64 {
			f, r = 3, 7*(sq-enX0) // x0 is by the first rank, x9 by the last
		}
		rel := r
		if c == Black {
			rel = 7 - r
		}
		centre := 0
		if sq < 64 {
			centre = 7 - (abs2(f) + abs2(r))
		}
		switch k {
		case Pawn:
			if rel == 7 {
				s = enWaiting
			} else {
				s += rel*rel*(24-phase)/24*3 + rel*3
				if f >= 2 && f <= 5 {
					s += centre * 2
				}
			}
		case Knight:
			s += centre * 5
		case Auror:
			s += centre * 3
		case Bishop, Rook, Queen:
			inf := p.influence(sq, c)
			switch {
			case inf > 0:
				s += enPenetrating
			case inf < 0:
				s += enStunted
			}
			s += p.reach(sq, k, inf) * [6]int{0, 0, 4, 2, 1, 0}[k]
		case King:
			mg := rel * -15
			eg := centre * 8
			s += (mg*phase + eg*(24-phase)) / 24
			free := 0
			for _, t := range enGeo.adj[sq] {
				if q := p.board[t]; q == 0 || enColor(q) != c {
					free++
				}
			}
			if free <= 1 && phase > 8 {
				s -= 25 // few ways out: exposed to a mate
			}
		}
		score[c] += s
	}
	return score[p.side] - score[p.side^1] + 10
}

// reach counts the empty squares a line piece of kind k on sq sees along
// its lines, one step only when stunted.
func (p *enPos) reach(sq, k, inf int) int {
	n := 0
	for d := range 8 {
		if !enSlides(k, d) {
			continue
		}
		l := int(enGeo.rayLen[sq][d])
		if inf < 0 {
			l = min(l, 1)
		}
		for i := range l {
			if p.board[enGeo.ray[sq][d][i]] != 0 {
				break
			}
			n++
		}
	}
	return n
}
