package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// The sides, as indexes.
const (
	White = 0
	Black = 1
)

// The kinds of piece, as indexes.
const (
	Pawn = iota
	Knight
	Bishop
	Rook
	Queen
	King
)

// Castling rights, as FEN's KQkq.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// noSquare marks the absence of an en passant square.
const noSquare = -1

// Position is a chess position on bitboards with make/unmake. The zero value
// is not usable: create one with ParseFEN.
type Position struct {
	pieces [2][6]Bitboard
	occ    [2]Bitboard
	board  [64]uint8 // 0 empty, else 1 + colour*6 + kind
	side   int
	castle int
	ep     int // en passant target square or noSquare
	half   int // halfmove clock
	full   int
	hash   uint64 // Zobrist key: placement, side, castling, and the en passant file when a pawn of the side to move could capture there
	undo   []undo
}

// undo is what make needs to restore a position.
type undo struct {
	move     Move
	captured uint8
	castle   int
	ep       int
	half     int
	hash     uint64
}

// castleMask[s] keeps the castling rights a move from or to s leaves.
var castleMask = func() [64]int {
	var m [64]int
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

// ParseFEN reads the six standard fields of a FEN (a seventh is ignored; the
// Ban Chess state comes from package rules). It checks the shape only:
// callers validate positions with rules first.
func ParseFEN(fen string) (*Position, error) {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return nil, fmt.Errorf("engine: FEN %q has %d fields, want at least 4", fen, len(f))
	}
	p := &Position{ep: noSquare, full: 1}
	rank, file := 7, 0
	for _, c := range f[0] {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			k := strings.IndexRune("pnbrqk", c|0x20)
			if k < 0 || rank < 0 || file > 7 {
				return nil, fmt.Errorf("engine: bad placement %q", f[0])
			}
			col := White
			if c >= 'a' {
				col = Black
			}
			p.put(col, k, rank*8+file)
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
	if len(f) >= 6 {
		p.half, _ = strconv.Atoi(f[4])
		p.full, _ = strconv.Atoi(f[5])
	}
	p.hash = p.computeHash()
	return p, nil
}

// FEN returns the position's six FEN fields.
func (p *Position) FEN() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[r*8+f]
			if pc == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			c := "PNBRQKpnbrqk"[pc-1]
			b.WriteByte(c)
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
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}

func squareName(s int) string { return string([]byte{byte('a' + s&7), byte('1' + s>>3)}) }

// Copy returns an independent copy of the position (without its undo stack).
func (p *Position) Copy() *Position {
	q := *p
	q.undo = nil
	return &q
}

func (p *Position) put(c, k, s int) {
	b := sqBB(s)
	p.pieces[c][k] |= b
	p.occ[c] |= b
	p.board[s] = uint8(1 + c*6 + k)
}

func (p *Position) remove(c, k, s int) {
	b := sqBB(s)
	p.pieces[c][k] &^= b
	p.occ[c] &^= b
	p.board[s] = 0
}

func (p *Position) computeHash() uint64 {
	var h uint64
	for s := 0; s < 64; s++ {
		if pc := p.board[s]; pc != 0 {
			h ^= tab.zPiece[pc-1][s]
		}
	}
	h ^= tab.zCastle[p.castle]
	if p.side == Black {
		h ^= tab.zSide
	}
	if p.epCapturable() {
		h ^= tab.zEP[p.ep&7]
	}
	return h
}

// epCapturable reports whether a pawn of the side to move attacks the en
// passant square.
func (p *Position) epCapturable() bool {
	return p.ep != noSquare && tab.pawn[p.side^1][p.ep]&p.pieces[p.side][Pawn] != 0
}

func (p *Position) kingSq(c int) int { return p.pieces[c][King].first() }

// attackersTo returns the pieces of colour by attacking s with occupancy occ.
func (p *Position) attackersTo(s, by int, occ Bitboard) Bitboard {
	pc := &p.pieces[by]
	return tab.pawn[by^1][s]&pc[Pawn] |
		tab.knight[s]&pc[Knight] |
		tab.king[s]&pc[King] |
		bishopAttacks(s, occ)&(pc[Bishop]|pc[Queen]) |
		rookAttacks(s, occ)&(pc[Rook]|pc[Queen])
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attackersTo(p.kingSq(p.side), p.side^1, p.occ[0]|p.occ[1]) != 0
}

// Make plays a legal (or pseudo-legal) move; Unmake takes it back.
func (p *Position) Make(m Move) {
	from, to, flag := m.From(), m.To(), m.flag()
	us, them := p.side, p.side^1
	pc := p.board[from]
	kind := int(pc-1) % 6
	u := undo{move: m, captured: p.board[to], castle: p.castle, ep: p.ep, half: p.half, hash: p.hash}
	h := p.hash
	if p.epCapturable() {
		h ^= tab.zEP[p.ep&7]
	}
	h ^= tab.zCastle[p.castle]
	p.half++
	if flag == flagEP {
		cap := to - 8
		if us == Black {
			cap = to + 8
		}
		u.captured = p.board[cap]
		p.remove(them, Pawn, cap)
		h ^= tab.zPiece[them*6+Pawn][cap]
	} else if u.captured != 0 {
		ck := int(u.captured-1) % 6
		p.remove(them, ck, to)
		h ^= tab.zPiece[them*6+ck][to]
	}
	if u.captured != 0 || kind == Pawn {
		p.half = 0
	}
	p.remove(us, kind, from)
	h ^= tab.zPiece[us*6+kind][from]
	nk := kind
	if m.IsPromotion() {
		nk = m.Promotion()
	}
	p.put(us, nk, to)
	h ^= tab.zPiece[us*6+nk][to]
	switch flag {
	case flagCastleK, flagCastleQ:
		rf, rt := to+1, to-1
		if flag == flagCastleQ {
			rf, rt = to-2, to+1
		}
		p.remove(us, Rook, rf)
		p.put(us, Rook, rt)
		h ^= tab.zPiece[us*6+Rook][rf] ^ tab.zPiece[us*6+Rook][rt]
	}
	p.ep = noSquare
	if flag == flagDouble {
		p.ep = (from + to) / 2
	}
	p.castle &= castleMask[from] & castleMask[to]
	h ^= tab.zCastle[p.castle]
	p.side = them
	h ^= tab.zSide
	if us == Black {
		p.full++
	}
	if p.epCapturable() {
		h ^= tab.zEP[p.ep&7]
	}
	p.hash = h
	p.undo = append(p.undo, u)
}

// Unmake takes back the last move made.
func (p *Position) Unmake() {
	n := len(p.undo) - 1
	u := p.undo[n]
	p.undo = p.undo[:n]
	m := u.move
	from, to, flag := m.From(), m.To(), m.flag()
	them := p.side
	us := them ^ 1
	p.side = us
	if us == Black {
		p.full--
	}
	kind := int(p.board[to]-1) % 6
	p.remove(us, kind, to)
	if m.IsPromotion() {
		kind = Pawn
	}
	p.put(us, kind, from)
	switch flag {
	case flagEP:
		cap := to - 8
		if us == Black {
			cap = to + 8
		}
		p.put(them, Pawn, cap)
	case flagCastleK, flagCastleQ:
		rf, rt := to+1, to-1
		if flag == flagCastleQ {
			rf, rt = to-2, to+1
		}
		p.remove(us, Rook, rt)
		p.put(us, Rook, rf)
	default:
		if u.captured != 0 {
			p.put(them, int(u.captured-1)%6, to)
		}
	}
	p.castle, p.ep, p.half, p.hash = u.castle, u.ep, u.half, u.hash
}
