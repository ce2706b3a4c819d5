package engine

// enPairMask keeps of an enMove what names it: from, to and the promotion.
const enPairMask enMove = 1<<14 - 1 | 7<<21

// The promotions of EN-Chess's pawns, as kind+1 (0: it stays a pawn).
var (
	enArrival   = []int{0, King + 1, Auror + 1}                                           // reaching the last rank
	enOntoX     = []int{Queen + 1, Bishop + 1, Knight + 1, King + 1, Auror + 1}           // capturing onto an x square
	enInPlaceTo = []int{Queen + 1, Rook + 1, Bishop + 1, Knight + 1, King + 1, Auror + 1} // waiting on the last rank
)

// legal appends the legal moves of the side to move to buf (the EN rules,
// §5: with no king in check, those that leave none in check; with some,
// those that leave fewer; none at all with some kings in check but not
// all, the pass). It returns them with how many of the mover's kings are
// in check. A pair two lines reach is one move, the first legal one in the
// order of the directions (as package rules has it).
func (p *enPos) legal(buf []enMove) ([]enMove, int) {
	us := p.side
	checked, kings := p.kingsInCheck(us)
	first := len(buf)
	buf = p.pseudo(buf)
	lines := p.kingLines(us)
	n := first
	for i := first; i < len(buf); i++ {
		m := buf[i]
		if checked > 0 || !p.harmless(m, lines) {
			p.make(m)
			after, _ := p.kingsInCheck(us)
			p.unmake()
			if checked == 0 && after > 0 || checked > 0 && after >= checked {
				continue
			}
		}
		if p.duplicate(buf[first:n], m) {
			continue
		}
		buf[n] = m
		n++
	}
	buf = buf[:n]
	if n == first && checked > 0 && checked < kings {
		buf = append(buf, newENMove(0, 0, enNoOver, 0, enPass))
	}
	return buf, checked
}

// legalCaptures appends the legal moves of the side to move, none of
// whose kings is in check, that capture or promote to a queen: the moves a
// quiescence search tries. It tests the legality of those moves alone (and
// of another line to the same pair, which takes the pair when legal).
func (p *enPos) legalCaptures(buf []enMove) []enMove {
	first := len(buf)
	buf = p.pseudoCaptures(buf)
	n := first
	for i := first; i < len(buf); i++ {
		m := buf[i]
		if !p.captures(m) && m.promo() != Queen+1 || !p.leavesNoCheck(m) {
			continue
		}
		dup := false
		for j := i - 1; j >= first && buf[j].from() == m.from(); j-- {
			if buf[j]&enPairMask == m&enPairMask && p.leavesNoCheck(buf[j]) {
				dup = true
				break
			}
		}
		if !dup {
			buf[n] = m
			n++
		}
	}
	return buf[:n]
}

// pseudoCaptures appends, of the moves of the side to move before the
// check rule, those that may capture or promote to a queen: the captures of
// pawns, knights and kings, pawns' promotions in place, and every move of
// the line pieces (another line to a pair decides which move the pair is).
// Aurors never capture.
func (p *enPos) pseudoCaptures(buf []enMove) []enMove {
	b := &p.board
	us := p.side
	for sq, pc := range b {
		if pc == 0 || enColor(pc) != us {
			continue
		}
		switch k := enKind(pc); k {
		case Pawn:
			last := 7
			if us == Black {
				last = 0
			}
			if sq>>3 == last {
				buf = append(buf, newENMove(sq, sq, enNoOver, Queen+1, enInPlace))
			}
			buf = p.pawnCaptures(buf, sq)
		case Knight:
			for _, t := range enGeo.knights[sq] {
				if q := b[t]; q != 0 && enColor(q) != us {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
		case King:
			for _, t := range enGeo.adj[sq] {
				if q := b[t]; q != 0 && enColor(q) != us {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
		case Bishop, Rook, Queen:
			buf = p.lineMoves(buf, sq, k)
		}
	}
	return buf
}

// leavesNoCheck reports whether m leaves none of the mover's kings in
// check.
func (p *enPos) leavesNoCheck(m enMove) bool {
	us := p.side
	p.make(m)
	after, _ := p.kingsInCheck(us)
	p.unmake()
	return after == 0
}

// captures reports whether m takes a piece.
func (p *enPos) captures(m enMove) bool {
	switch m.kind() {
	case enEP:
		return true
	case enPlain, enDouble:
		return m.over() != enNoOver || p.board[m.to()] != 0
	}
	return false
}

// kingLines returns the squares on the lines from c's kings: the only
// squares a piece leaving can open an attack on a king through.
func (p *enPos) kingLines(c int) enSet {
	var s enSet
	king := enPiece(c, King)
	for sq := range enSquares {
		if p.board[sq] == king {
			for d := range 8 {
				s = s.or(enGeo.raySet[sq][d])
			}
		}
	}
	return s
}

// harmless reports whether m, by a side none of whose kings is in check,
// cannot put one in check, so that legal need not play it to know: it is
// not a king's or an Auror's move (an Auror leaving changes the influence
// on enemy line pieces) nor a pawn becoming a king (one more king that may
// stand attacked), takes nothing off another square (en passant, a piece
// passed through), and leaves a square off every line from the mover's
// kings. Placing a piece only blocks lines, and taking one where
// it lands leaves the square taken, or weakens the enemy's pieces by the
// Auror it takes.
func (p *enPos) harmless(m enMove, lines enSet) bool {
	switch m.kind() {
	case enPlain, enDouble, enInPlace:
	default:
		return false
	}
	if k := enKind(p.board[m.from()]); k == King || k == Auror || m.over() != enNoOver || m.promo() == King+1 {
		return false
	}
	return !lines.has(m.from())
}

// duplicate reports whether a move with m's squares and promotion is listed
// already (the moves of a piece are generated together).
func (p *enPos) duplicate(moves []enMove, m enMove) bool {
	for i := len(moves) - 1; i >= 0 && moves[i].from() == m.from(); i-- {
		if moves[i]&enPairMask == m&enPairMask {
			return true
		}
	}
	return false
}

// pseudo appends the moves of the side to move before the check rule.
func (p *enPos) pseudo(buf []enMove) []enMove {
	b := &p.board
	us := p.side
	ownKing := enPiece(us, King)
	for sq, pc := range b {
		if pc == 0 || enColor(pc) != us {
			continue
		}
		switch k := enKind(pc); k {
		case Pawn:
			buf = p.pawnMoves(buf, sq)
		case Knight:
			for _, t := range enGeo.knights[sq] {
				if q := b[t]; q == 0 || enColor(q) != us {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
		case King:
			for _, t := range enGeo.adj[sq] {
				if q := b[t]; q == 0 || enColor(q) != us {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
			buf = p.castles(buf, sq)
		case Auror:
			for _, t := range enGeo.adj[sq] {
				if b[t] == 0 {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
			for _, t := range enGeo.knights[sq] {
				if b[t] == 0 {
					buf = append(buf, newENMove(sq, int(t), enNoOver, 0, enPlain))
				}
			}
			for n, t := int(p.count[ownKing]), 0; n > 0; t++ {
				if b[t] == ownKing {
					buf = append(buf, newENMove(sq, t, enNoOver, 0, enSwap))
					n--
				}
			}
		default: // bishop, rook, queen
			buf = p.lineMoves(buf, sq, k)
		}
	}
	return buf
}

// lineMoves appends the moves of the bishop, rook or queen on sq: one step
// when stunted, through one piece when penetrating (capturing it if it is
// an enemy).
func (p *enPos) lineMoves(buf []enMove, sq, k int) []enMove {
	b := &p.board
	us := p.side
	inf := p.influence(sq, us)
	for d := range 8 {
		if !enSlides(k, d) {
			continue
		}
		n := int(enGeo.rayLen[sq][d])
		if inf < 0 && n > 1 {
			n = 1
		}
		ray := &enGeo.ray[sq][d]
		over, passed := enNoOver, false
		for i := range n {
			t := int(ray[i])
			q := b[t]
			if q == 0 {
				buf = append(buf, newENMove(sq, t, over, 0, enPlain))
				continue
			}
			if enColor(q) != us {
				buf = append(buf, newENMove(sq, t, over, 0, enPlain))
			}
			if inf <= 0 || passed {
				break
			}
			passed = true
			if enColor(q) != us {
				over = t
			}
		}
	}
	return buf
}

// pawnMoves appends the moves of the pawn on sq.
func (p *enPos) pawnMoves(buf []enMove, sq int) []enMove {
	b := &p.board
	us := p.side
	fwd, home, last := enN, 1, 7
	if us == Black {
		fwd, home, last = enS, 6, 0
	}
	add := func(to int, promos []int, kind int) {
		for _, k := range promos {
			buf = append(buf, newENMove(sq, to, enNoOver, k, kind))
		}
	}
	arrive := func(to, kind int) {
		if to>>3 == last {
			add(to, enArrival, kind)
		} else {
			add(to, enArrival[:1], kind)
		}
	}
	if sq>>3 == last {
		add(sq, enInPlaceTo, enInPlace)
	} else if one := enGeo.step(sq, fwd); b[one] == 0 {
		arrive(one, enPlain)
		if two := enGeo.step(one, fwd); sq>>3 == home && b[two] == 0 {
			add(two, enArrival[:1], enDouble)
		}
	}
	return p.pawnCaptures(buf, sq)
}

// pawnCaptures appends the captures of the pawn on sq.
func (p *enPos) pawnCaptures(buf []enMove, sq int) []enMove {
	b := &p.board
	us := p.side
	caps, last := [2]int{enNE, enNW}, 7
	if us == Black {
		caps, last = [2]int{enSE, enSW}, 0
	}
	add := func(to int, promos []int, kind int) {
		for _, k := range promos {
			buf = append(buf, newENMove(sq, to, enNoOver, k, kind))
		}
	}
	for _, d := range caps {
		t := enGeo.step(sq, d)
		switch {
		case t < 0:
		case b[t] != 0 && enColor(b[t]) != us && t >= 64:
			add(t, enOntoX, enPlain)
		case b[t] != 0 && enColor(b[t]) != us && t>>3 == last:
			add(t, enArrival, enPlain)
		case b[t] != 0 && enColor(b[t]) != us:
			add(t, enArrival[:1], enPlain)
		case t == p.ep && b[t] == 0:
			add(t, enArrival[:1], enEP)
		}
	}
	return buf
}

// castles appends the castling moves of the king on sq: the original king
// and rook, unmoved, the squares between empty, and the king's square,
// the one it crosses and the one it reaches not attacked.
func (p *enPos) castles(buf []enMove, sq int) []enMove {
	b := &p.board
	us := p.side
	rook := enPiece(us, Rook)
	for _, h := range [4]struct{ right, king, rook, color int }{
		{castleWK, 4, 7, White}, {castleWQ, 4, 0, White}, {castleBK, 60, 63, Black}, {castleBQ, 60, 56, Black},
	} {
		if p.castle&h.right == 0 || h.king != sq || h.color != us || b[h.rook] != rook {
			continue
		}
		dir := 1
		if h.rook < h.king {
			dir = -1
		}
		clear := true
		for s := h.king + dir; s != h.rook; s += dir {
			clear = clear && b[s] == 0
		}
		to := h.king + 2*dir
		if !clear || p.attacked(h.king, us^1) || p.attacked(h.king+dir, us^1) || p.attacked(to, us^1) {
			continue
		}
		buf = append(buf, newENMove(sq, to, enNoOver, 0, enCastle))
	}
	return buf
}

// kingless reports whether the side to move has no king left: it has lost
// (EN-Chess's own rule).
func (p *enPos) kingless() bool { return p.count[enPiece(p.side, King)] == 0 }

// insufficient reports whether neither side has anything but kings and
// Aurors: a draw.
func (p *enPos) insufficient() bool {
	for c := White; c <= Black; c++ {
		for k := Pawn; k <= Queen; k++ {
			if p.count[enPiece(c, k)] != 0 {
				return false
			}
		}
	}
	return true
}

// perft counts the leaf nodes of the legal move tree to depth, as package
// rules's Game counts them: a position after a move that ends the game (no
// king left, only kings and Aurors, the fifty-move rule) has no moves.
func (p *enPos) perft(depth int) uint64 {
	bufs := make([][]enMove, depth)
	for i := range bufs {
		bufs[i] = make([]enMove, 0, 256)
	}
	return p.perftAt(depth, bufs, true)
}

func (p *enPos) perftAt(depth int, bufs [][]enMove, root bool) uint64 {
	if p.kingless() || !root && (p.insufficient() || p.half >= 100) {
		return 0
	}
	moves, _ := p.legal(bufs[depth-1][:0])
	bufs[depth-1] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.make(m)
		n += p.perftAt(depth-1, bufs, false)
		p.unmake()
	}
	return n
}
