package rules

import "slices"

// EN-Chess's board is a 66-square mailbox: the 64 squares and X0, X9, with
// every ray and knight jump worked out once (enGeo). Diagonal rays bend at
// an x square: c2 towards d1 goes on d1 x0 e1 f2 g3 h4.

// Directions: four orthogonal, then four diagonal.
const (
	dirN = iota
	dirS
	dirE
	dirW
	dirNE
	dirNW
	dirSE
	dirSW
)

var dirSteps = [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// enGeometry holds, for each of the 66 squares, its ray in each direction
// (the first square of a ray is the step) and its knight jumps.
type enGeometry struct {
	rays    [66][8][]Square
	knights [66][]Square
}

// enGeo is read-only once built.
var enGeo = newENGeometry()

func newENGeometry() *enGeometry {
	g := &enGeometry{}
	for sq := Square(0); sq <= X9; sq++ {
		for d := range 8 {
			cur, dir := sq, d
			for {
				cur, dir = enNext(cur, dir)
				if cur == NoSquare {
					break
				}
				g.rays[sq][d] = append(g.rays[sq][d], cur)
			}
		}
		if sq.IsX() {
			continue
		}
		for _, s := range knightSteps {
			f, r := sq.File()+s[0], sq.Rank()+s[1]
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				g.knights[sq] = append(g.knights[sq], SquareAt(f, r))
			}
		}
	}
	return g
}

// enNext returns the square one step from sq in direction d and the
// direction the line goes on in: a diagonal entering an x square leaves it
// along the other half of its line.
func enNext(sq Square, d int) (Square, int) {
	d1, e1, d8, e8 := SquareAt(3, 0), SquareAt(4, 0), SquareAt(3, 7), SquareAt(4, 7)
	switch sq {
	case X0:
		switch d {
		case dirNE:
			return e1, dirNE
		case dirNW:
			return d1, dirNW
		}
		return NoSquare, d
	case X9:
		switch d {
		case dirSE:
			return e8, dirSE
		case dirSW:
			return d8, dirSW
		}
		return NoSquare, d
	}
	f, r := sq.File()+dirSteps[d][0], sq.Rank()+dirSteps[d][1]
	if f >= 0 && f < 8 && r >= 0 && r < 8 {
		return SquareAt(f, r), d
	}
	switch {
	case sq == d1 && d == dirSE:
		return X0, dirNE
	case sq == e1 && d == dirSW:
		return X0, dirNW
	case sq == d8 && d == dirNE:
		return X9, dirSE
	case sq == e8 && d == dirNW:
		return X9, dirSW
	}
	return NoSquare, d
}

// step returns the square one step from sq in direction d, or NoSquare.
func (g *enGeometry) step(sq Square, d int) Square {
	if r := g.rays[sq][d]; len(r) > 0 {
		return r[0]
	}
	return NoSquare
}

// influence is F − E for a piece of colour c on sq: its own Aurors
// adjacent minus the enemy's. Positive: penetration; negative: stunted.
func influence(b *Board, sq Square, c Color) int {
	n := 0
	for d := range 8 {
		if t := enGeo.step(sq, d); t != NoSquare && b[t].Kind() == Auror {
			if b[t].Color() == c {
				n++
			} else {
				n--
			}
		}
	}
	return n
}

// slides reports whether a piece of kind k moves along lines in direction d.
func slides(k PieceKind, d int) bool {
	return k == Queen || k == Rook && d < dirNE || k == Bishop && d >= dirNE
}

// enAttacked reports whether a piece of side by attacks sq on b: Aurors
// never do; line pieces as their influence allows (through one piece when
// penetrating, one step when stunted).
func enAttacked(b *Board, sq Square, by Color) bool {
	for _, t := range enGeo.knights[sq] {
		if b[t] == NewPiece(by, Knight) {
			return true
		}
	}
	pawnFrom := [2]int{dirSW, dirSE} // a white pawn attacks from below
	if by == Black {
		pawnFrom = [2]int{dirNW, dirNE}
	}
	for _, d := range pawnFrom {
		if t := enGeo.step(sq, d); t != NoSquare && b[t] == NewPiece(by, Pawn) {
			return true
		}
	}
	for d := range 8 {
		blockers := 0
		for k, t := range enGeo.rays[sq][d] {
			pc := b[t]
			if pc == NoPiece {
				continue
			}
			if pc.Color() == by {
				if k == 0 && pc.Kind() == King {
					return true
				}
				if slides(pc.Kind(), d) {
					switch inf := influence(b, t, by); {
					case inf < 0 && k == 0, inf == 0 && blockers == 0, inf > 0:
						return true
					}
				}
			}
			if blockers++; blockers > 1 {
				break
			}
		}
	}
	return false
}

// kingsInCheck counts c's kings on b and how many of them are attacked.
func kingsInCheck(b *Board, c Color) (checked, kings int) {
	king := NewPiece(c, King)
	for sq, pc := range b {
		if pc == king {
			kings++
			if enAttacked(b, Square(sq), c.Other()) {
				checked++
			}
		}
	}
	return checked, kings
}

// Kinds of EN-Chess move beyond from→to.
const (
	enPlain   uint8 = iota
	enCastle        // the king's squares; the rook follows
	enEP            // en passant
	enSwap          // an Auror with an own king: from the Auror, to the king
	enInPlace       // a pawn on its last rank promotes where it stands
	enPass          // the turn of a side in partial checkmate
)

// enMove is an EN-Chess move with what it takes to play it.
type enMove struct {
	from, to Square
	promo    PieceKind
	over     Square // an enemy piece passed through and captured, or NoSquare
	kind     uint8
}

// enMover is EN-Chess's board (see mover).
type enMover struct {
	pos Position
	em  []enMove
	mv  []move
}

func (m *enMover) load(p *Position) error {
	m.pos = *p
	m.generate(p)
	return nil
}

func (m *enMover) moves() []move { return m.mv }

func (m *enMover) clone() mover {
	return &enMover{pos: m.pos, em: slices.Clone(m.em), mv: slices.Clone(m.mv)}
}

func (m *enMover) play(i int, next *Position) {
	applyEN(next, m.em[i])
	m.pos = *next
	m.generate(next)
}

func (m *enMover) flags(i int) (capture, check bool) {
	next := m.pos
	applyEN(&next, m.em[i])
	theirs, _ := kingsInCheck(&next.Board, next.ToMove)
	return enCaptures(&m.pos, m.em[i]), theirs > 0
}

func (m *enMover) mates(i int) bool {
	next := m.pos
	applyEN(&next, m.em[i])
	moves, checked, kings := enLegal(&next, nil)
	return len(moves) == 0 && checked > 0 && checked == kings
}

func (m *enMover) decided(p *Position) Outcome {
	if p.Board.Find(NewPiece(p.ToMove, King)) == NoSquare {
		return Outcome{Status: Checkmate, Reason: KingCapture, Winner: p.ToMove.Other()}
	}
	return Outcome{}
}

// insufficient: only kings and Aurors are left.
func (m *enMover) insufficient(b *Board) bool {
	return !m.canMate(b, White) && !m.canMate(b, Black)
}

// canMate: anything but kings and Aurors can.
func (m *enMover) canMate(b *Board, side Color) bool {
	for _, pc := range b {
		if k := pc.Kind(); k != 0 && k != King && k != Auror && pc.Color() == side {
			return true
		}
	}
	return false
}

func (m *enMover) checkedKings(p *Position) []Square {
	var out []Square
	king := NewPiece(p.ToMove, King)
	for sq, pc := range p.Board {
		if pc == king && enAttacked(&p.Board, Square(sq), p.ToMove.Other()) {
			out = append(out, Square(sq))
		}
	}
	return out
}

// generate fills the legal moves of m.pos and p's derived fields.
func (m *enMover) generate(p *Position) {
	var checked int
	m.em, checked, _ = enLegal(&m.pos, m.em[:0])
	p.inCheck = checked > 0
	p.epCapture = false
	m.mv = m.mv[:0]
	for _, e := range m.em {
		m.mv = append(m.mv, move{from: e.from, to: e.to, promo: e.promo})
		p.epCapture = p.epCapture || e.kind == enEP
	}
}

// enCaptures reports whether e, played on p, captures a piece.
func enCaptures(p *Position, e enMove) bool {
	switch e.kind {
	case enEP:
		return true
	case enPlain, enCastle:
		return e.over != NoSquare || p.Board[e.to] != NoPiece
	}
	return false
}

// enLegal appends to out the legal moves of p (docs/en-chess.md §5): with no
// king in check, those that leave none in check; with some, those that
// leave fewer; none at all but some kings in check and not all, the pass.
// It returns them with the mover's checked kings and kings.
func enLegal(p *Position, out []enMove) ([]enMove, int, int) {
	us := p.ToMove
	checked, kings := kingsInCheck(&p.Board, us)
	first := len(out)
	for _, e := range enPseudo(p, nil) {
		next := *p
		applyEN(&next, e)
		after, _ := kingsInCheck(&next.Board, us)
		if checked == 0 && after > 0 || checked > 0 && after >= checked {
			continue
		}
		if enDuplicate(out[first:], e) {
			continue
		}
		out = append(out, e)
	}
	if len(out) == first && checked > 0 && checked < kings {
		out = append(out, enMove{from: NoSquare, to: NoSquare, over: NoSquare, kind: enPass})
	}
	return out, checked, kings
}

// enDuplicate reports whether a move with e's squares and promotion is
// already listed: a line piece may reach a square along two lines (a queen
// on d1 to e1 along the rank or through x0). A pair names one move, the
// first legal one: orthogonal lines before diagonal ones, N S E W NE NW SE SW.
func enDuplicate(moves []enMove, e enMove) bool {
	for i := len(moves) - 1; i >= 0 && moves[i].from == e.from; i-- {
		if moves[i].to == e.to && moves[i].promo == e.promo {
			return true
		}
	}
	return false
}

var (
	enArrival   = []PieceKind{0, King, Auror}                           // a pawn reaching its last rank
	enOntoX     = []PieceKind{Queen, Bishop, Knight, King, Auror}       // a pawn capturing onto an x square
	enInPlaceTo = []PieceKind{Queen, Rook, Bishop, Knight, King, Auror} // a waiting pawn
)

// enPseudo appends to out the moves of p's side to move, before the check
// rule.
func enPseudo(p *Position, out []enMove) []enMove {
	b := &p.Board
	us := p.ToMove
	add := func(from, to Square, promo PieceKind, over Square, kind uint8) {
		out = append(out, enMove{from: from, to: to, promo: promo, over: over, kind: kind})
	}
	for i, pc := range b {
		if pc == NoPiece || pc.Color() != us {
			continue
		}
		sq := Square(i)
		switch k := pc.Kind(); k {
		case Pawn:
			out = enPawn(p, sq, out)
		case Knight:
			for _, t := range enGeo.knights[sq] {
				if b[t] == NoPiece || b[t].Color() != us {
					add(sq, t, 0, NoSquare, enPlain)
				}
			}
		case King:
			for d := range 8 {
				if t := enGeo.step(sq, d); t != NoSquare && (b[t] == NoPiece || b[t].Color() != us) {
					add(sq, t, 0, NoSquare, enPlain)
				}
			}
			out = enCastling(p, sq, out)
		case Auror:
			for d := range 8 {
				if t := enGeo.step(sq, d); t != NoSquare && b[t] == NoPiece {
					add(sq, t, 0, NoSquare, enPlain)
				}
			}
			for _, t := range enGeo.knights[sq] {
				if b[t] == NoPiece {
					add(sq, t, 0, NoSquare, enPlain)
				}
			}
			for j, q := range b {
				if q == NewPiece(us, King) {
					add(sq, Square(j), 0, NoSquare, enSwap)
				}
			}
		default: // bishop, rook, queen
			inf := influence(b, sq, us)
			for d := range 8 {
				if !slides(k, d) {
					continue
				}
				ray := enGeo.rays[sq][d]
				if inf < 0 && len(ray) > 1 {
					ray = ray[:1]
				}
				over, passed := NoSquare, false
				for _, t := range ray {
					q := b[t]
					if q == NoPiece {
						add(sq, t, 0, over, enPlain)
						continue
					}
					if q.Color() != us {
						add(sq, t, 0, over, enPlain)
					}
					if inf <= 0 || passed {
						break
					}
					passed = true
					if q.Color() != us {
						over = t
					}
				}
			}
		}
	}
	return out
}

// enPawn appends the moves of the pawn on sq.
func enPawn(p *Position, sq Square, out []enMove) []enMove {
	b := &p.Board
	us := p.Board[sq].Color()
	fwd, caps, home, last := dirN, [2]int{dirNE, dirNW}, 1, 7
	if us == Black {
		fwd, caps, home, last = dirS, [2]int{dirSE, dirSW}, 6, 0
	}
	add := func(to Square, promos []PieceKind, kind uint8) {
		for _, k := range promos {
			out = append(out, enMove{from: sq, to: to, promo: k, over: NoSquare, kind: kind})
		}
	}
	arrive := func(to Square, kind uint8) {
		if to.Rank() == last {
			add(to, enArrival, kind)
		} else {
			add(to, enArrival[:1], kind)
		}
	}
	if sq.Rank() == last {
		add(sq, enInPlaceTo, enInPlace)
	} else if one := enGeo.step(sq, fwd); b[one] == NoPiece {
		arrive(one, enPlain)
		if two := enGeo.step(one, fwd); sq.Rank() == home && b[two] == NoPiece {
			add(two, enArrival[:1], enPlain)
		}
	}
	for _, d := range caps {
		t := enGeo.step(sq, d)
		switch {
		case t == NoSquare:
		case b[t] != NoPiece && b[t].Color() != us && t.IsX():
			add(t, enOntoX, enPlain)
		case b[t] != NoPiece && b[t].Color() != us:
			arrive(t, enPlain)
		case t == p.EnPassant && b[t] == NoPiece:
			add(t, enArrival[:1], enEP)
		}
	}
	return out
}

// enCastling appends the castling moves of the king on sq: the original
// king and rook, unmoved, the squares between empty, and the king's
// square, the one it crosses and the one it reaches not attacked.
func enCastling(p *Position, sq Square, out []enMove) []enMove {
	b := &p.Board
	us := p.ToMove
	for _, h := range castlingHomes {
		if p.Castling&h.right == 0 || h.king != sq || h.piece.Color() != us || b[h.rook] != h.piece {
			continue
		}
		dir := 1
		if h.rook < h.king {
			dir = -1
		}
		clear := true
		for s := h.king + Square(dir); s != h.rook; s += Square(dir) {
			clear = clear && b[s] == NoPiece
		}
		to := h.king + Square(2*dir)
		if !clear || enAttacked(b, h.king, us.Other()) || enAttacked(b, h.king+Square(dir), us.Other()) || enAttacked(b, to, us.Other()) {
			continue
		}
		out = append(out, enMove{from: sq, to: to, over: NoSquare, kind: enCastle})
	}
	return out
}

// applyEN plays e on p.
func applyEN(p *Position, e enMove) {
	b := &p.Board
	us := p.ToMove
	reset := false
	switch e.kind {
	case enPass:
	case enSwap:
		b[e.from], b[e.to] = b[e.to], b[e.from]
	case enInPlace:
		b[e.from] = NewPiece(us, e.promo)
		reset = true
	default:
		pc := b[e.from]
		reset = pc.Kind() == Pawn || b[e.to] != NoPiece || e.over != NoSquare
		if e.over != NoSquare {
			b[e.over] = NoPiece
		}
		switch e.kind {
		case enEP:
			b[SquareAt(e.to.File(), e.from.Rank())] = NoPiece
		case enCastle:
			if e.to > e.from {
				b[e.to-1], b[e.to+1] = b[e.to+1], NoPiece
			} else {
				b[e.to+1], b[e.to-2] = b[e.to-2], NoPiece
			}
		}
		if e.promo != 0 {
			pc = NewPiece(us, e.promo)
		}
		b[e.from], b[e.to] = NoPiece, pc
	}
	for _, h := range castlingHomes {
		for _, s := range [3]Square{e.from, e.to, e.over} {
			if s == h.king || s == h.rook {
				p.Castling &^= h.right
			}
		}
	}
	p.EnPassant = NoSquare
	if e.kind == enPlain && b[e.to].Kind() == Pawn && (e.to-e.from == 16 || e.from-e.to == 16) {
		p.EnPassant = (e.from + e.to) / 2
	}
	if reset {
		p.HalfmoveClock = 0
	} else {
		p.HalfmoveClock++
	}
	if us == Black {
		p.Fullmove++
	}
	p.ToMove = us.Other()
}
