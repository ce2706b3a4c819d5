package engine

// The evaluation's terms. Each is counted for White minus Black (see
// Position.EvalTerms) and weighed twice: in the middlegame and in the
// endgame (evalMG, evalEG), blended by the phase. A term of the king's
// safety counts what a side does to the opponent's king.
const (
	tPawn, tKnight, tBishop, tRook, tQueen = iota, iota, iota, iota, iota // material
	tPawnRank                              = 5                            // 6 terms: a pawn on its relative rank 1…6
	tPawnCentre                            = 11                           // a c–f pawn's centrality
	tKnightCentre                          = 12
	tKnightMob                             = 13
	tBishopCentre                          = 14
	tBishopMob                             = 15
	tRookMob                               = 16
	tQueenMob                              = 17
	tBishopPair                            = 18
	tKingPressure                          = 19 // our attacks on squares around their king
	tEscapes                               = 20 // 4 terms: their king has 0…3 escape squares
	tKingRank                              = 24 // their king's relative rank
	tKingCentre                            = 25 // their king's centrality
	tPassed                                = 26 // 6 terms: a passed pawn on its relative rank 1…6
	tDoubled                               = 32
	tIsolated                              = 33
	tProtected                             = 34 // a pawn defended by a pawn
	tRookOpen                              = 35
	tRookHalfOpen                          = 36
	tPawnThreat                            = 37 // a pawn attacks a piece
	tRookSeventh                           = 38
	tShield                                = 39 // own pawns just ahead of the own king
	tTempo                                 = 40 // the side to move
	// NumEvalTerms is the number of the evaluation's terms.
	NumEvalTerms = 41
)

// EvalTermName names term i for the tuner's output.
func EvalTermName(i int) string {
	names := [NumEvalTerms]string{"pawn", "knight", "bishop", "rook", "queen",
		"pawn rank 1", "pawn rank 2", "pawn rank 3", "pawn rank 4", "pawn rank 5", "pawn rank 6",
		"pawn centre", "knight centre", "knight mobility", "bishop centre", "bishop mobility",
		"rook mobility", "queen mobility", "bishop pair", "king pressure",
		"escapes 0", "escapes 1", "escapes 2", "escapes 3", "king rank", "king centre",
		"passed rank 1", "passed rank 2", "passed rank 3", "passed rank 4", "passed rank 5", "passed rank 6",
		"doubled", "isolated", "protected", "rook open file", "rook half-open file", "pawn threat",
		"rook seventh", "king shield", "tempo"}
	if i < 0 || i >= NumEvalTerms {
		return ""
	}
	return names[i]
}

// EvalWeights returns the evaluation's weights, middlegame and endgame.
func EvalWeights() (mg, eg [NumEvalTerms]int) { return evalMG, evalEG }

// evalMasks are the pawn-structure masks, worked out once.
type evalMasks struct {
	file     [8]Bitboard
	adjacent [8]Bitboard     // the files beside a file
	front    [2][64]Bitboard // the squares ahead of a square on its file and those beside, for a side
	ahead    [2][64]Bitboard // the squares ahead of a square on its file
}

var masks = newEvalMasks()

func newEvalMasks() *evalMasks {
	m := &evalMasks{}
	for s := 0; s < 64; s++ {
		m.file[s&7] |= sqBB(s)
	}
	for f := 0; f < 8; f++ {
		if f > 0 {
			m.adjacent[f] |= m.file[f-1]
		}
		if f < 7 {
			m.adjacent[f] |= m.file[f+1]
		}
	}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for rr := 0; rr < 8; rr++ {
			span := (m.file[f] | m.adjacent[f]) & (Bitboard(0xff) << uint(rr*8))
			if rr > r {
				m.front[White][s] |= span
				m.ahead[White][s] |= sqBB(rr*8 + f)
			}
			if rr < r {
				m.front[Black][s] |= span
				m.ahead[Black][s] |= sqBB(rr*8 + f)
			}
		}
	}
	return m
}

// evaluate scores the position for the side to move, in centipawns. Besides
// material and placement it weighs what bans make sharper than in chess:
// mobility (a ban takes one option away, so having few is worse) and the
// king's escape squares (a checked king with one way out is mated by the
// ban of that way). The weights were fitted by the tuner (engine/tune).
func (p *Position) evaluate() int {
	var t [NumEvalTerms]int
	phase := p.terms(&t)
	mg, eg := 0, 0
	for i, n := range t {
		if n != 0 {
			mg += n * evalMG[i]
			eg += n * evalEG[i]
		}
	}
	v := (mg*phase + eg*(24-phase)) / 24
	if p.side == Black {
		return -v
	}
	return v
}

// EvalTerms returns the evaluation's terms, White's count minus Black's,
// and the phase: 24 with every piece on the board, 0 with none. The
// evaluation for White is the sum of the terms weighed by EvalWeights,
// middlegame weights × phase + endgame weights × (24 − phase), over 24.
func (p *Position) EvalTerms() (t [NumEvalTerms]int, phase int) {
	phase = p.terms(&t)
	return t, phase
}

// terms adds the evaluation's terms to t and returns the phase.
func (p *Position) terms(t *[NumEvalTerms]int) int {
	occ := p.occ[0] | p.occ[1]
	phase := 0
	for c := White; c <= Black; c++ {
		phase += p.pieces[c][Knight].count() + p.pieces[c][Bishop].count() +
			2*p.pieces[c][Rook].count() + 4*p.pieces[c][Queen].count()
	}
	phase = min(phase, 24)
	if p.side == White {
		t[tTempo] = 1
	} else {
		t[tTempo] = -1
	}
	for c := White; c <= Black; c++ {
		sign := 1 - 2*c
		them := c ^ 1
		own := p.occ[c]
		ourPawns, theirPawns := p.pieces[c][Pawn], p.pieces[them][Pawn]
		var attacks, pawnAttacks Bitboard
		for k := Pawn; k <= Queen; k++ {
			t[tPawn+k] += sign * p.pieces[c][k].count()
			for b := p.pieces[c][k]; b != 0; b &= b - 1 {
				sq := b.first()
				f, r := sq&7, sq>>3
				rel := r
				if c == Black {
					rel = 7 - r
				}
				centre := 7 - (abs2(f) + abs2(r)) // 0 at a corner … 6 in the centre
				switch k {
				case Pawn:
					if rel >= 1 && rel <= 6 {
						t[tPawnRank+rel-1] += sign
					}
					if f >= 2 && f <= 5 {
						t[tPawnCentre] += sign * centre
					}
					if masks.front[c][sq]&theirPawns == 0 && rel >= 1 && rel <= 6 {
						t[tPassed+rel-1] += sign
					}
					if masks.ahead[c][sq]&ourPawns != 0 {
						t[tDoubled] += sign
					}
					if masks.adjacent[f]&ourPawns == 0 {
						t[tIsolated] += sign
					}
					if tab.pawn[them][sq]&ourPawns != 0 {
						t[tProtected] += sign
					}
					pawnAttacks |= tab.pawn[c][sq]
				case Knight:
					a := tab.knight[sq]
					t[tKnightCentre] += sign * centre
					t[tKnightMob] += sign * (a &^ own).count()
					attacks |= a
				case Bishop:
					a := bishopAttacks(sq, occ)
					t[tBishopCentre] += sign * centre
					t[tBishopMob] += sign * (a &^ own).count()
					attacks |= a
				case Rook:
					a := rookAttacks(sq, occ)
					t[tRookMob] += sign * (a &^ own).count()
					switch {
					case masks.file[f]&ourPawns != 0:
					case masks.file[f]&theirPawns == 0:
						t[tRookOpen] += sign
					default:
						t[tRookHalfOpen] += sign
					}
					if rel == 6 {
						t[tRookSeventh] += sign
					}
					attacks |= a
				case Queen:
					a := bishopAttacks(sq, occ) | rookAttacks(sq, occ)
					t[tQueenMob] += sign * (a &^ own).count()
					attacks |= a
				}
			}
		}
		attacks |= pawnAttacks
		if p.pieces[c][Bishop].count() >= 2 {
			t[tBishopPair] += sign
		}
		t[tPawnThreat] += sign * (pawnAttacks & (p.occ[them] &^ theirPawns)).count()
		// Our attacks near their king take its escape squares away.
		ksq := p.kingSq(them)
		kf, kr := ksq&7, ksq>>3
		zone := tab.king[ksq]
		escapes := (zone &^ p.occ[them] &^ attacks).count()
		t[tKingPressure] += sign * (zone & attacks).count()
		if escapes < 4 {
			t[tEscapes+escapes] += sign
		}
		krel := kr
		if them == Black {
			krel = 7 - kr
		}
		t[tKingRank] += sign * krel
		t[tKingCentre] += sign * (7 - (abs2(kf) + abs2(kr)))
		// Our own king's pawn shield.
		oksq := p.kingSq(c)
		t[tShield] += sign * (tab.king[oksq] & masks.front[c][oksq] & ourPawns).count()
	}
	return phase
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

// Occupied reports whether a piece stands on square sq (a1 = 0 … h8 = 63).
func (p *Position) Occupied(sq int) bool { return (p.occ[0]|p.occ[1])&sqBB(sq) != 0 }
