package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// enMove is an EN-Chess move: from (bits 0–6), to (7–13), the square of an
// enemy piece a penetrating line piece passes through and captures (14–20,
// enNoOver for none), the kind a pawn becomes plus one (21–23, 0 for none)
// and what kind of move it is (24–26).
type enMove uint32

// enNoOver marks a move that passes through no enemy piece.
const enNoOver = 127

// What kind of move an enMove is, beyond from→to.
const (
	enPlain   = iota
	enDouble  // a pawn's two-square advance
	enCastle  // the king's squares; the rook follows
	enEP      // en passant
	enSwap    // an Auror with an own king: from the Auror, to the king
	enInPlace // a pawn on its last rank promotes where it stands
	enPass    // the turn of a side in partial checkmate
)

func newENMove(from, to, over, promo, kind int) enMove {
	return enMove(from | to<<7 | over<<14 | promo<<21 | kind<<24)
}

func (m enMove) from() int { return int(m & 127) }
func (m enMove) to() int   { return int(m>>7) & 127 }
func (m enMove) over() int { return int(m>>14) & 127 }
func (m enMove) kind() int { return int(m>>24) & 7 }

// promo returns the kind a pawn becomes plus one, 0 when none (a pawn that
// stays one names none).
func (m enMove) promo() int { return int(m>>21) & 7 }

// String returns the move as BCN's coordinates: e2e4, x0e1, d8d8q, 0000.
func (m enMove) String() string {
	if m.kind() == enPass {
		return "0000"
	}
	s := enSquareName(m.from()) + enSquareName(m.to())
	if p := m.promo(); p != 0 {
		s += string("pnbrqka"[p-1])
	}
	return s
}

// EN pieces on the board: 0 empty, else 1 + colour·enKinds + kind.
func enPiece(c, k int) uint8 { return uint8(1 + c*enKinds + k) }
func enColor(pc uint8) int   { return int(pc-1) / enKinds }
func enKind(pc uint8) int    { return int(pc-1) % enKinds }

// enCastleMask[s] keeps the castling rights a move from, to or through s
// leaves.
var enCastleMask = func() [enSquares]int {
	var m [enSquares]int
	for i := range m {
		m[i] = 15
	}
	m[0] &^= castleWQ
	m[7] &^= castleWK
	m[4] &^= castleWQ | castleWK
	m[56] &^= castleBQ
	m[63] &^= castleBK
	m[60] &^= castleBQ | castleBK
	return m
}()

// enPos is an EN-Chess position with make/unmake: a mailbox of the 66
// squares, with a count of each piece.
type enPos struct {
	board  [enSquares]uint8
	count  [1 + 2*enKinds]int8
	sets   [1 + 2*enKinds]enSet // where each piece stands
	side   int
	castle int
	ep     int
	half   int
	full   int
	hash   uint64
	undo   []enUndo
}

// enUndo is what make needs to restore an EN position.
type enUndo struct {
	move     enMove
	captured uint8 // on to, or the pawn taken en passant
	over     uint8 // the piece passed through and captured
	castle   int
	ep       int
	half     int
	hash     uint64
}

// parseENFEN reads the seven fields of an EN FEN (x0 then x9 last). It
// checks the shape only: callers validate positions with rules first.
func parseENFEN(fen string) (*enPos, error) {
	f := strings.Fields(fen)
	if len(f) != 7 {
		return nil, fmt.Errorf("engine: EN-Chess FEN %q has %d fields, want 7", fen, len(f))
	}
	p := &enPos{ep: noSquare, full: 1}
	put := func(c rune, s int) error {
		k := strings.IndexRune("pnbrqka", c|0x20)
		if k < 0 {
			return fmt.Errorf("engine: bad piece %q in %q", c, fen)
		}
		col := White
		if c >= 'a' {
			col = Black
		}
		p.put(enPiece(col, k), s)
		return nil
	}
	rank, file := 7, 0
	for _, c := range f[0] {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			if rank < 0 || file > 7 {
				return nil, fmt.Errorf("engine: bad placement %q", f[0])
			}
			if err := put(c, rank*8+file); err != nil {
				return nil, err
			}
			file++
		}
	}
	if f[1] == "b" {
		p.side = Black
	}
	for _, c := range f[2] {
		if i := strings.IndexRune("KQkq", c); i >= 0 {
			p.castle |= 1 << i
		}
	}
	if f[3] != "-" && len(f[3]) == 2 {
		p.ep = int(f[3][1]-'1')*8 + int(f[3][0]-'a')
	}
	p.half, _ = strconv.Atoi(f[4])
	p.full, _ = strconv.Atoi(f[5])
	if len(f[6]) != 2 {
		return nil, fmt.Errorf("engine: bad x squares %q", f[6])
	}
	for i, c := range f[6] {
		if c != '-' {
			if err := put(c, enX0+i); err != nil {
				return nil, err
			}
		}
	}
	p.hash = p.computeHash()
	return p, nil
}

// fen returns the position's seven FEN fields.
func (p *enPos) fen() string {
	var b strings.Builder
	letter := func(pc uint8) byte {
		c := "pnbrqka"[enKind(pc)]
		if enColor(pc) == White {
			c -= 'a' - 'A'
		}
		return c
	}
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			pc := p.board[r*8+f]
			if pc == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(letter(pc))
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w ", " b "}[p.side])
	if p.castle == 0 {
		b.WriteByte('-')
	}
	for i, c := range "KQkq" {
		if p.castle&(1<<i) != 0 {
			b.WriteRune(c)
		}
	}
	if p.ep == noSquare {
		b.WriteString(" -")
	} else {
		b.WriteString(" " + squareName(p.ep))
	}
	fmt.Fprintf(&b, " %d %d ", p.half, p.full)
	for _, s := range []int{enX0, enX9} {
		if pc := p.board[s]; pc != 0 {
			b.WriteByte(letter(pc))
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// copy returns an independent copy of the position (without its undo
// stack).
func (p *enPos) copy() *enPos {
	q := *p
	q.undo = nil
	return &q
}

func (p *enPos) put(pc uint8, s int) {
	p.board[s] = pc
	p.count[pc]++
	p.sets[pc].add(s)
}

func (p *enPos) remove(s int) {
	pc := p.board[s]
	p.count[pc]--
	p.sets[pc].del(s)
	p.board[s] = 0
}

// swap exchanges the pieces on a and b (an Auror and a king).
func (p *enPos) swap(a, b int) {
	pa, pb := p.board[a], p.board[b]
	p.remove(a)
	p.remove(b)
	p.put(pb, a)
	p.put(pa, b)
}

func (p *enPos) computeHash() uint64 {
	var h uint64
	for s, pc := range p.board {
		if pc != 0 {
			h ^= enGeo.zPiece[pc-1][s]
		}
	}
	h ^= enGeo.zCastle[p.castle]
	if p.side == Black {
		h ^= enGeo.zSide
	}
	if p.epCapturable() {
		h ^= enGeo.zEP[p.ep&7]
	}
	return h
}

// enPawnFrom are the directions from a square to the pawns of a colour
// that attack it.
var enPawnFrom = [2][2]int{{enSW, enSE}, {enNW, enNE}}

// epCapturable reports whether a pawn of the side to move attacks the en
// passant square.
func (p *enPos) epCapturable() bool {
	if p.ep == noSquare {
		return false
	}
	for _, d := range enPawnFrom[p.side] {
		if t := enGeo.step(p.ep, d); t >= 0 && p.board[t] == enPiece(p.side, Pawn) {
			return true
		}
	}
	return false
}

// influence is F − E for a piece of colour c on sq: its own Aurors
// adjacent minus the enemy's. Positive: it penetrates; negative: it is
// stunted.
func (p *enPos) influence(sq, c int) int {
	n := 0
	for _, t := range enGeo.adj[sq] {
		if pc := p.board[t]; pc != 0 && enKind(pc) == Auror {
			if enColor(pc) == c {
				n++
			} else {
				n--
			}
		}
	}
	return n
}

// attacked reports whether a piece of side by attacks sq: Aurors never
// do; line pieces as their influence allows (through one piece when
// penetrating, one step when stunted).
func (p *enPos) attacked(sq, by int) bool {
	b := &p.board
	if sq < 64 && tab.knight[sq]&p.sets[enPiece(by, Knight)].b != 0 || enGeo.adjSet[sq].meets(p.sets[enPiece(by, King)]) {
		return true
	}
	pawn := enPiece(by, Pawn)
	for _, d := range enPawnFrom[by] {
		if t := enGeo.step(sq, d); t >= 0 && b[t] == pawn {
			return true
		}
	}
	queens := p.sets[enPiece(by, Queen)]
	lines := [2]enSet{queens.or(p.sets[enPiece(by, Rook)]), queens.or(p.sets[enPiece(by, Bishop)])}
	for d := range 8 {
		if !enGeo.raySet[sq][d].meets(lines[d>>2]) {
			continue // no line piece of by on this ray
		}
		ray := &enGeo.ray[sq][d]
		blockers := 0
		for k := range int(enGeo.rayLen[sq][d]) {
			t := int(ray[k])
			pc := b[t]
			if pc == 0 {
				continue
			}
			if enColor(pc) == by {
				if enSlides(enKind(pc), d) {
					switch inf := p.influence(t, by); {
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

// kingsInCheck counts c's kings and how many of them are attacked.
func (p *enPos) kingsInCheck(c int) (checked, kings int) {
	set := p.sets[enPiece(c, King)]
	for b := set.b; b != 0; b &= b - 1 {
		kings++
		if p.attacked(b.first(), c^1) {
			checked++
		}
	}
	for i := range 2 {
		if set.x&(1<<i) != 0 {
			kings++
			if p.attacked(enX0+i, c^1) {
				checked++
			}
		}
	}
	return checked, kings
}

// make plays a pseudo-legal move; unmake takes it back.
func (p *enPos) make(m enMove) {
	us := p.side
	u := enUndo{move: m, castle: p.castle, ep: p.ep, half: p.half, hash: p.hash}
	h := p.hash
	if p.epCapturable() {
		h ^= enGeo.zEP[p.ep&7]
	}
	h ^= enGeo.zCastle[p.castle]
	from, to := m.from(), m.to()
	p.half++
	switch m.kind() {
	case enPass:
	case enSwap:
		a, k := p.board[from], p.board[to]
		h ^= enGeo.zPiece[a-1][from] ^ enGeo.zPiece[k-1][to] ^ enGeo.zPiece[k-1][from] ^ enGeo.zPiece[a-1][to]
		p.swap(from, to)
	case enInPlace:
		pc, np := p.board[from], enPiece(us, m.promo()-1)
		p.remove(from)
		p.put(np, from)
		h ^= enGeo.zPiece[pc-1][from] ^ enGeo.zPiece[np-1][from]
		p.half = 0
	default:
		pc := p.board[from]
		if o := m.over(); o != enNoOver {
			u.over = p.board[o]
			h ^= enGeo.zPiece[u.over-1][o]
			p.remove(o)
			p.half = 0
		}
		capSq := to
		if m.kind() == enEP {
			capSq = from&^7 | to&7
		}
		if c := p.board[capSq]; c != 0 {
			u.captured = c
			h ^= enGeo.zPiece[c-1][capSq]
			p.remove(capSq)
			p.half = 0
		}
		if enKind(pc) == Pawn {
			p.half = 0
		}
		p.remove(from)
		h ^= enGeo.zPiece[pc-1][from]
		np := pc
		if pr := m.promo(); pr != 0 {
			np = enPiece(us, pr-1)
		}
		p.put(np, to)
		h ^= enGeo.zPiece[np-1][to]
		if m.kind() == enCastle {
			rf, rt := to+1, to-1
			if to < from {
				rf, rt = to-2, to+1
			}
			r := p.board[rf]
			p.remove(rf)
			p.put(r, rt)
			h ^= enGeo.zPiece[r-1][rf] ^ enGeo.zPiece[r-1][rt]
		}
	}
	if m.kind() != enPass {
		p.castle &= enCastleMask[from] & enCastleMask[to]
		if o := m.over(); o != enNoOver {
			p.castle &= enCastleMask[o]
		}
	}
	h ^= enGeo.zCastle[p.castle]
	p.ep = noSquare
	if m.kind() == enDouble {
		p.ep = (from + to) / 2
	}
	p.side = us ^ 1
	h ^= enGeo.zSide
	if us == Black {
		p.full++
	}
	if p.epCapturable() {
		h ^= enGeo.zEP[p.ep&7]
	}
	p.hash = h
	p.undo = append(p.undo, u)
}

func (p *enPos) unmake() {
	n := len(p.undo) - 1
	u := p.undo[n]
	p.undo = p.undo[:n]
	m := u.move
	p.side ^= 1
	us := p.side
	if us == Black {
		p.full--
	}
	from, to := m.from(), m.to()
	switch m.kind() {
	case enPass:
	case enSwap:
		p.swap(from, to)
	case enInPlace:
		p.remove(from)
		p.put(enPiece(us, Pawn), from)
	default:
		pc := p.board[to]
		p.remove(to)
		if m.promo() != 0 {
			pc = enPiece(us, Pawn)
		}
		p.put(pc, from)
		if m.kind() == enCastle {
			rf, rt := to+1, to-1
			if to < from {
				rf, rt = to-2, to+1
			}
			r := p.board[rt]
			p.remove(rt)
			p.put(r, rf)
		}
		if u.captured != 0 {
			capSq := to
			if m.kind() == enEP {
				capSq = from&^7 | to&7
			}
			p.put(u.captured, capSq)
		}
		if u.over != 0 {
			p.put(u.over, m.over())
		}
	}
	p.castle, p.ep, p.half, p.hash = u.castle, u.ep, u.half, u.hash
}
