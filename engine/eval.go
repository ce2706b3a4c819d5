package engine

// Piece values in centipawns, by kind.
var pieceValue = [6]int{100, 320, 330, 500, 900, 0}

// evaluate scores the position for the side to move, in centipawns. Besides
// material and placement it weighs what bans make sharper than in chess:
// mobility (a ban takes one option away, so having few is worse) and the
// king's escape squares (a checked king with one way out is mated by the
// ban of that way).
func (p *Position) evaluate() int {
	occ := p.occ[0] | p.occ[1]
	var score [2]int
	phase := 0 // 24 with every piece on the board, 0 with none
	for c := White; c <= Black; c++ {
		for k := Knight; k <= Queen; k++ {
			phase += p.pieces[c][k].count() * [6]int{0, 1, 1, 2, 4, 0}[k]
		}
	}
	if phase > 24 {
		phase = 24
	}
	for c := White; c <= Black; c++ {
		them := c ^ 1
		own := p.occ[c]
		s := 0
		var attacks Bitboard
		for k := Pawn; k <= Queen; k++ {
			for b := p.pieces[c][k]; b != 0; b &= b - 1 {
				sq := b.first()
				s += pieceValue[k]
				f, r := sq&7, sq>>3
				rel := r
				if c == Black {
					rel = 7 - r
				}
				centre := 7 - (abs2(f) + abs2(r)) // 0 at a corner … 6 in the centre
				switch k {
				case Pawn:
					s += rel*rel*(24-phase)/24*3 + rel*3
					if f >= 2 && f <= 5 {
						s += centre * 2
					}
					attacks |= tab.pawn[c][sq]
				case Knight:
					a := tab.knight[sq]
					s += centre*5 + (a&^own).count()*4
					attacks |= a
				case Bishop:
					a := bishopAttacks(sq, occ)
					s += centre*2 + (a&^own).count()*4
					attacks |= a
				case Rook:
					a := rookAttacks(sq, occ)
					s += (a &^ own).count() * 2
					attacks |= a
				case Queen:
					a := bishopAttacks(sq, occ) | rookAttacks(sq, occ)
					s += (a &^ own).count()
					attacks |= a
				}
			}
		}
		if p.pieces[c][Bishop].count() >= 2 {
			s += 30
		}
		score[c] += s
		// Our attacks near their king take its escape squares away.
		ksq := p.kingSq(them)
		kf, kr := ksq&7, ksq>>3
		zone := tab.king[ksq]
		escapes := (zone &^ p.occ[them] &^ attacks).count()
		pressure := (zone & attacks).count()
		mg := pressure*12 + [9]int{70, 45, 20, 8, 0, 0, 0, 0, 0}[escapes]
		krel := kr
		if them == Black {
			krel = 7 - kr
		}
		mg += krel * 15 // a king that walked out early
		eg := -(7 - (abs2(kf) + abs2(kr))) * 8
		score[c] += (mg*phase + eg*(24-phase)) / 24
	}
	return score[p.side] - score[p.side^1] + 10
}

// abs2 is the distance of a file or rank from the board's middle, 0 to 3.
func abs2(x int) int {
	if x < 4 {
		return 3 - x
	}
	return x - 4
}

// insufficient reports whether neither side can mate: K v K, K+minor v K,
// and bishops all on one colour.
func (p *Position) insufficient() bool {
	for c := White; c <= Black; c++ {
		if p.pieces[c][Pawn]|p.pieces[c][Rook]|p.pieces[c][Queen] != 0 {
			return false
		}
	}
	knights := p.pieces[0][Knight] | p.pieces[1][Knight]
	bishops := p.pieces[0][Bishop] | p.pieces[1][Bishop]
	minors := (knights | bishops).count()
	if minors <= 1 {
		return true
	}
	const light Bitboard = 0x55aa55aa55aa55aa
	return knights == 0 && (bishops&light == 0 || bishops&^light == 0)
}
