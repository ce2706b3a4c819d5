package engine

// Legal appends the legal moves of the side to move to buf and returns it.
func (p *Position) Legal(buf []Move) []Move {
	us, them := p.side, p.side^1
	occ := p.occ[0] | p.occ[1]
	ksq := p.kingSq(us)
	checkers := p.attackersTo(ksq, them, occ)
	pinned := p.pinned(us, ksq, occ)
	// King moves: the destination must not be attacked with the king gone.
	noKing := occ &^ sqBB(ksq)
	for t := tab.king[ksq] &^ p.occ[us]; t != 0; t &= t - 1 {
		to := t.first()
		if p.attackersTo(to, them, noKing) == 0 {
			buf = append(buf, p.withFlag(ksq, to, flagQuiet))
		}
	}
	if checkers.count() > 1 {
		return buf
	}
	// target: where a non-king move must land (block or capture when in check).
	target := ^p.occ[us]
	if checkers != 0 {
		c := checkers.first()
		target = tab.between[ksq][c] | checkers
	} else {
		buf = p.castles(buf, us, occ)
	}
	buf = p.pawnMoves(buf, us, occ, target, pinned, ksq, checkers)
	mine := &p.pieces[us]
	for f := mine[Knight] &^ pinned; f != 0; f &= f - 1 {
		from := f.first()
		buf = p.addTargets(buf, from, tab.knight[from]&target)
	}
	for f := mine[Bishop] | mine[Queen]; f != 0; f &= f - 1 {
		from := f.first()
		t := bishopAttacks(from, occ) & target
		if pinned&sqBB(from) != 0 {
			t &= tab.line[ksq][from]
		}
		buf = p.addTargets(buf, from, t)
	}
	for f := mine[Rook] | mine[Queen]; f != 0; f &= f - 1 {
		from := f.first()
		t := rookAttacks(from, occ) & target
		if pinned&sqBB(from) != 0 {
			t &= tab.line[ksq][from]
		}
		buf = p.addTargets(buf, from, t)
	}
	return buf
}

func (p *Position) withFlag(from, to, flag int) Move {
	if p.board[to] != 0 {
		flag = flagCapture
	}
	return newMove(from, to, flag)
}

func (p *Position) addTargets(buf []Move, from int, t Bitboard) []Move {
	for ; t != 0; t &= t - 1 {
		buf = append(buf, p.withFlag(from, t.first(), flagQuiet))
	}
	return buf
}

// pinned returns our pieces pinned to our king.
func (p *Position) pinned(us, ksq int, occ Bitboard) Bitboard {
	them := &p.pieces[us^1]
	snipers := bishopAttacks(ksq, 0)&(them[Bishop]|them[Queen]) | rookAttacks(ksq, 0)&(them[Rook]|them[Queen])
	var pinned Bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		b := tab.between[ksq][snipers.first()] & occ
		if b.count() == 1 && b&p.occ[us] != 0 {
			pinned |= b
		}
	}
	return pinned
}

func (p *Position) castles(buf []Move, us int, occ Bitboard) []Move {
	type c struct {
		right, king, to, rook int
	}
	opts := [2][2]c{{{castleWK, 4, 6, 7}, {castleWQ, 4, 2, 0}}, {{castleBK, 60, 62, 63}, {castleBQ, 60, 58, 56}}}
	for i, o := range opts[us] {
		if p.castle&o.right == 0 || tab.between[o.king][o.rook]&occ != 0 {
			continue
		}
		step := 1
		if o.to < o.king {
			step = -1
		}
		safe := true
		for s := o.king + step; ; s += step {
			if p.attackersTo(s, us^1, occ) != 0 {
				safe = false
				break
			}
			if s == o.to {
				break
			}
		}
		if safe {
			buf = append(buf, newMove(o.king, o.to, flagCastleK+i))
		}
	}
	return buf
}

func (p *Position) pawnMoves(buf []Move, us int, occ, target, pinned Bitboard, ksq int, checkers Bitboard) []Move {
	them := us ^ 1
	pawns := p.pieces[us][Pawn]
	fwd, start, last := 8, rank2, rank8
	if us == Black {
		fwd, start, last = -8, rank7, rank1
	}
	for f := pawns; f != 0; f &= f - 1 {
		from := f.first()
		allowed := target
		if pinned&sqBB(from) != 0 {
			allowed &= tab.line[ksq][from]
		}
		one := from + fwd
		if p.board[one] == 0 {
			if allowed&sqBB(one) != 0 {
				buf = addPawn(buf, from, one, flagQuiet, last)
			}
			if two := one + fwd; start&sqBB(from) != 0 && p.board[two] == 0 && allowed&sqBB(two) != 0 {
				buf = append(buf, newMove(from, two, flagDouble))
			}
		}
		for t := tab.pawn[us][from] & p.occ[them] & allowed; t != 0; t &= t - 1 {
			buf = addPawn(buf, from, t.first(), flagCapture, last)
		}
		if p.ep != noSquare && tab.pawn[us][from]&sqBB(p.ep) != 0 && p.epLegal(from, ksq, occ) {
			buf = append(buf, newMove(from, p.ep, flagEP))
		}
	}
	return buf
}

// epLegal plays the en passant capture from from on the occupancy and sees
// whether our king is attacked afterwards.
func (p *Position) epLegal(from, ksq int, occ Bitboard) bool {
	us, them := p.side, p.side^1
	cap := p.ep - 8
	if us == Black {
		cap = p.ep + 8
	}
	o := occ&^sqBB(from)&^sqBB(cap) | sqBB(p.ep)
	th := &p.pieces[them]
	return bishopAttacks(ksq, o)&(th[Bishop]|th[Queen]) == 0 &&
		rookAttacks(ksq, o)&(th[Rook]|th[Queen]) == 0 &&
		tab.knight[ksq]&th[Knight] == 0 &&
		tab.pawn[us][ksq]&th[Pawn]&^sqBB(cap) == 0
}

func addPawn(buf []Move, from, to, flag int, last Bitboard) []Move {
	if last&sqBB(to) == 0 {
		return append(buf, newMove(from, to, flag))
	}
	base := flagPromo
	if flag == flagCapture {
		base += 4
	}
	for k := Queen; k >= Knight; k-- {
		buf = append(buf, newMove(from, to, base+k-Knight))
	}
	return buf
}

// Perft counts the leaf nodes of the legal move tree to depth (plain chess,
// no bans): the standard test of a move generator.
func (p *Position) Perft(depth int) uint64 {
	var bufs [][]Move
	for range depth {
		bufs = append(bufs, make([]Move, 0, 256))
	}
	return p.perft(depth, bufs)
}

func (p *Position) perft(depth int, bufs [][]Move) uint64 {
	moves := p.Legal(bufs[depth-1][:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.Make(m)
		n += p.perft(depth-1, bufs)
		p.Unmake()
	}
	return n
}
