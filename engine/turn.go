package engine

// A turn is a mover's move with the opponent's ban before it. At a ban turn
// the banner bans the pair of the mover's best move (any other ban leaves
// that move), so the turn is worth the mover's best value among the other
// pairs: its second-best pair. turn searches for that value with alpha-beta
// narrowed to it: a child only matters if it beats the second best so far,
// and the turn fails high once two distinct pairs reach beta.

// top2 keeps the best and second-best pairs of a turn.
type top2 struct {
	v1, v2 int
	m1, m2 Move
}

func newTop2() top2 { return top2{v1: -infinity, v2: -infinity} }

// add records that move m is worth v; moves of one pair (promotions) count
// as one pair worth their best.
func (t *top2) add(m Move, v int) {
	switch {
	case t.m1 != 0 && m.Pair() == t.m1.Pair():
		if v > t.v1 {
			t.v1, t.m1 = v, m
		}
	case v > t.v1:
		t.v2, t.m2 = t.v1, t.m1
		t.v1, t.m1 = v, m
	case t.m2 != 0 && m.Pair() == t.m2.Pair():
		if v > t.v2 {
			t.v2, t.m2 = v, m
		}
	case v > t.v2:
		t.v2, t.m2 = v, m
	}
}

// value is the turn's value: the best move's at a move turn; at a ban
// turn the second best pair's, or free's (the best of the pairs that may
// not be banned) when better.
func (t *top2) value(banTurn bool, free int) int {
	if !banTurn {
		return t.v1
	}
	return max(t.v2, free)
}

// pairs counts the distinct pairs of a move list (promotions to the same
// square are generated together, queen first).
func pairs(moves []Move) int {
	n := 0
	for _, m := range moves {
		if !m.IsPromotion() || m.Promotion() == Queen {
			n++
		}
	}
	return n
}

// turn returns the value of the turn for the side to move. ban is the pair
// banned for this move or noBan; in Ban Chess noBan means the ban is still
// to come (a ban turn). ply counts the plies played since the root.
func (w *search) turn(depth, ply, alpha, beta, ban int) int {
	if w.checkStop() {
		return 0
	}
	p := w.pos
	if ply > 0 && w.drawn() {
		return 0
	}
	moves := p.Legal(w.moves[ply][:0])
	w.moves[ply] = moves
	inCheck := p.InCheck()
	banTurn := w.s.bans && ban == noBan
	if v, over := w.terminal(moves, inCheck, banTurn, ply, ban); over {
		return v
	}
	if depth <= 0 || ply >= maxPly {
		if w.exact {
			return w.eval()
		}
		return w.quiesce(ply, alpha, beta, 0)
	}
	key := p.hash ^ banKey(ban, w.s.bans)
	var h1, h2 Move
	if e, ok := w.tt.probe(key); ok {
		h1, h2 = e.m1, e.m2
		if ply > 0 && int(e.depth) >= depth && !w.exact {
			v := int(e.score)
			if v > mateMin {
				v -= ply
			} else if v < -mateMin {
				v += ply
			}
			switch {
			case e.flag == boundExact,
				e.flag == boundLower && v >= beta,
				e.flag == boundUpper && v <= alpha:
				return v
			}
		}
	}
	w.order(moves, ply, h1, h2)
	next := ply + 1
	if banTurn {
		next = ply + 2
	}
	best := newTop2()
	// At a ban root that may not ban every pair (SearchMoves, MultiPV),
	// the mover keeps the best move of a pair that may not be banned.
	restricted := ply == 0 && w.root.on
	free, freeV := Move(0), -infinity
	if ply == 0 {
		w.rootTop, w.rootFree = best, free
	}
	searched := 0
	origAlpha := alpha
	for i, m := range moves {
		if m.Pair() == ban {
			continue
		}
		unbannable := restricted && banTurn && !w.root.bans[m.Pair()]
		switch {
		case restricted && !banTurn && !w.root.moves[m]:
			continue
		case banTurn && !unbannable && best.m1 != 0 && m.Pair() == best.m1.Pair():
			continue // another promotion of the pair banned: it changes nothing
		}
		lb := max(alpha, best.value(banTurn, freeV))
		p.Make(m)
		w.keys = append(w.keys, p.hash)
		var v int
		if searched == 0 {
			v = -w.turn(depth-1, next, -beta, -lb, noBan)
		} else {
			r := 0
			if depth >= 3 && i >= 4 && !w.exact && !inCheck && !m.IsCapture() && !m.IsPromotion() && !p.InCheck() {
				r = 1
			}
			v = -w.turn(depth-1-r, next, -lb-1, -lb, noBan)
			if v > lb && (v < beta || r > 0) {
				v = -w.turn(depth-1, next, -beta, -lb, noBan)
			}
		}
		w.keys = w.keys[:len(w.keys)-1]
		p.Unmake()
		if w.stopped {
			return 0
		}
		searched++
		best.add(m, v)
		if unbannable && v > freeV {
			free, freeV = m, v
		}
		if ply == 0 {
			w.rootTop, w.rootFree = best, free
		}
		if value := best.value(banTurn, freeV); value >= beta {
			if !m.IsCapture() {
				w.remember(m, ply, depth)
			}
			if !restricted {
				w.tt.store(key, depth, value, boundLower, ply, best.m1, best.m2)
			}
			return value
		}
	}
	value := best.value(banTurn, freeV)
	flag := boundExact
	if value <= origAlpha {
		flag = boundUpper
	}
	if !restricted {
		w.tt.store(key, depth, value, flag, ply, best.m1, best.m2)
	}
	return value
}

// terminal scores a turn that cannot go on: no legal move (mated or
// stalemated by the last move), or at a ban turn one pair only (the ban
// takes it: mate or stalemate by the ban, one ply later).
func (w *search) terminal(moves []Move, inCheck, banTurn bool, ply, ban int) (int, bool) {
	n := pairs(moves)
	if ban != noBan {
		n-- // the ban in force names a legal pair
	}
	switch {
	case n == 0:
	case n == 1 && banTurn:
		ply++
	default:
		return 0, false
	}
	if inCheck {
		return -(mateVal - ply), true
	}
	return 0, true
}

// quiesce searches captures only (every move when in check) until the
// position is quiet. At a ban turn the mover keeps its standing score or
// its second-best capture, whichever is better: the banner bans the best.
func (w *search) quiesce(ply, alpha, beta, qply int) int {
	p := w.pos
	if qply > 0 {
		if w.checkStop() {
			return 0
		}
		if w.drawn() {
			return 0
		}
	}
	inCheck := p.InCheck()
	moves := w.moves[ply]
	if qply > 0 {
		moves = p.Legal(w.moves[ply][:0])
		w.moves[ply] = moves
		if v, over := w.terminal(moves, inCheck, w.s.bans, ply, noBan); over {
			return v
		}
	}
	stand := -infinity
	if !inCheck || qply >= qsDepth {
		stand = w.eval()
		if stand >= beta || qply >= qsDepth || ply >= maxPly {
			return stand
		}
		alpha = max(alpha, stand)
	}
	w.order(moves, ply, 0, 0)
	next := ply + 1
	if w.s.bans {
		next = ply + 2
	}
	best := newTop2()
	for _, m := range moves {
		if !inCheck && !m.IsCapture() && !(m.IsPromotion() && m.Promotion() == Queen) {
			continue
		}
		if w.s.bans && best.m1 != 0 && m.Pair() == best.m1.Pair() {
			continue
		}
		lb := max(alpha, best.v1)
		if w.s.bans {
			lb = max(alpha, best.v2)
		}
		p.Make(m)
		w.keys = append(w.keys, p.hash)
		v := -w.quiesce(next, -beta, -lb, qply+1)
		w.keys = w.keys[:len(w.keys)-1]
		p.Unmake()
		if w.stopped {
			return 0
		}
		best.add(m, v)
		value := best.v1
		if w.s.bans {
			value = best.v2
		}
		if value >= beta {
			return value
		}
	}
	value := best.v1
	if w.s.bans {
		value = best.v2
	}
	return max(stand, value)
}

// remember records a quiet move that cut off, for ordering.
func (w *search) remember(m Move, ply, depth int) {
	if ply < maxPly && w.killers[ply][0] != m {
		w.killers[ply][1], w.killers[ply][0] = w.killers[ply][0], m
	}
	h := &w.history[w.pos.side][m&0xfff]
	*h += int32(depth * depth)
}

// order sorts moves best first: the table's two moves, captures by victim
// and attacker, queen promotions, killers, then by history.
func (w *search) order(moves []Move, ply int, h1, h2 Move) {
	var keys [256]int32
	p := w.pos
	for i, m := range moves {
		var k int32
		switch {
		case m == h1:
			k = 1 << 30
		case m == h2:
			k = 1<<30 - 1
		case m.IsCapture():
			victim := Pawn
			if pc := p.board[m.To()]; pc != 0 {
				victim = int(pc-1) % 6
			}
			attacker := int(p.board[m.From()]-1) % 6
			k = 1<<28 + int32(victim*16-attacker)
		case m.IsPromotion():
			k = 1<<27 + int32(m.Promotion())
		case ply < maxPly && m == w.killers[ply][0]:
			k = 1<<26 + 1
		case ply < maxPly && m == w.killers[ply][1]:
			k = 1 << 26
		default:
			k = w.history[p.side][m&0xfff]
		}
		if m.IsPromotion() && m.Promotion() != Queen {
			k -= int32(Queen - m.Promotion()) // just behind its queen promotion
		}
		keys[i] = k
	}
	// insertion sort: lists are short
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], keys[i]
		j := i - 1
		for ; j >= 0 && keys[j] < k; j-- {
			moves[j+1], keys[j+1] = moves[j], keys[j]
		}
		moves[j+1], keys[j+1] = m, k
	}
}
