package rules

import (
	"fmt"
	"slices"
	"strings"
)

// MoveSAN returns a legal move of the side to move in SAN, with + or # as
// playing it would give, without playing it.
func (n Notation) MoveSAN(a Action) (string, error) {
	g := n.g
	for i, m := range g.moves {
		if m.from != a.From || m.to != a.To || m.promo != a.Promotion {
			continue
		}
		capture, check := g.mover.flags(i)
		san := encodeSAN(&g.positions[len(g.positions)-1], g.moves, m, capture)
		if check {
			if g.mover.mates(i) {
				return san + "#", nil
			}
			return san + "+", nil
		}
		return san, nil
	}
	return "", illegalf(a.String(), "%s", whyNot(&g.positions[len(g.positions)-1], a.Pair(), g.ToMove()))
}

// BanSAN returns a pair of the side to move's legal moves as a ban of it
// is written in the move list: the move's SAN without check or promotion
// piece ("e4", "Nbd2", "O-O", "e8" for a pawn's promotions).
func (n Notation) BanSAN(p Pair) (string, error) {
	g := n.g
	if !g.moves.has(p) {
		return "", illegalf(BanAction(p.From, p.To).String(), "%s", whyNot(&g.positions[len(g.positions)-1], p, g.ToMove()))
	}
	return n.pairSAN(p), nil
}

// pairSAN writes the legal moves with pair p as one move in SAN, without
// check or promotion piece ("" when there is none).
func (n Notation) pairSAN(p Pair) string {
	g := n.g
	for i, m := range g.moves {
		if m.from == p.From && m.to == p.To {
			capture, _ := g.mover.flags(i)
			m.promo = 0
			return encodeSAN(&g.positions[len(g.positions)-1], g.moves, m, capture)
		}
	}
	return ""
}

// encodeSAN writes m, played from p where moves are all legal moves, in
// Standard Algebraic Notation without a check suffix; capture says whether
// it captures. EN-Chess adds the pass "--", the swap "A@e1", promotion in
// place "d8=Q" and x squares.
func encodeSAN(p *Position, moves []move, m move, capture bool) string {
	from, to := m.from, m.to
	if from == NoSquare {
		return "--"
	}
	pc := p.Board[from]
	if pc.Kind() == King && !from.IsX() && !to.IsX() && (to-from == 2 || from-to == 2) {
		if to > from {
			return "O-O"
		}
		return "O-O-O"
	}
	b := make([]byte, 0, 8)
	if pc.Kind() == Pawn {
		if capture {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if k := m.promo; k != 0 {
			b = append(b, '=', k.Letter())
		}
		return string(b)
	}
	b = append(b, pc.Kind().Letter())
	ambiguous, sameFile, sameRank := false, false, false
	for _, o := range moves {
		of := o.from
		if of == from || o.to != to || of == NoSquare || p.Board[of] != pc {
			continue
		}
		ambiguous = true
		sameFile = sameFile || of.File() == from.File() || of.IsX() || from.IsX()
		sameRank = sameRank || of.Rank() == from.Rank()
	}
	if ambiguous {
		// A piece on an x square is named by its square: x squares have
		// no file or rank of their own.
		switch {
		case from.IsX() || sameFile && sameRank:
			b = append(b, from.String()...)
		case !sameFile:
			b = append(b, byte('a'+from.File()))
		default:
			b = append(b, byte('1'+from.Rank()))
		}
	}
	if pc.Kind() == Auror && p.Board[to] == NewPiece(pc.Color(), King) {
		b = append(b, '@') // the swap, after any disambiguation: Ab@e1
	}
	if capture {
		b = append(b, 'x')
	}
	return string(append(b, to.String()...))
}

// sanQuery is a parsed SAN token: what it asks for, before matching.
type sanQuery struct {
	pass      bool
	castle    int // 0 none, 1 king side, 2 queen side
	kind      PieceKind
	fromFile  int    // -1 when not given
	fromRank  int    // -1 when not given
	from      Square // an x square the piece leaves, NoSquare when not given
	to        Square
	promotion PieceKind
}

// parseSAN reads SAN as real PGN files write it: check and annotation marks
// are ignored, castling may be O-O or 0-0, promotion e8=Q or e8Q.
func parseSAN(text string) (sanQuery, error) {
	s := strings.TrimRight(text, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	q := sanQuery{fromFile: -1, fromRank: -1, from: NoSquare, to: NoSquare}
	if s == "--" {
		q.pass = true
		return q, nil
	}
	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O":
		q.castle, q.kind = 1, King
		return q, nil
	case "O-O-O":
		q.castle, q.kind = 2, King
		return q, nil
	}
	if s == "" {
		return q, fmt.Errorf("%q is not a move", Clip(text))
	}
	q.kind = Pawn
	if k := kindFromLetter(s[0]); k != 0 && k != Pawn && s[0] >= 'A' && s[0] <= 'Z' {
		q.kind = k
		s = s[1:]
	} else if s[0] == 'P' {
		s = s[1:]
	}
	// Promotion at the end: "=Q", "Q", "(Q)", "=q".
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	if n := len(s); n >= 3 {
		if k := kindFromLetter(s[n-1]); k != 0 && k != Pawn && (s[n-2] == '=' || (s[n-2] >= '1' && s[n-2] <= '8')) {
			q.promotion = k
			s = strings.TrimSuffix(s[:n-1], "=")
		}
	}
	if len(s) < 2 {
		return q, fmt.Errorf("%q is not a move: it has no destination square", Clip(text))
	}
	to, err := ParseSquare(s[len(s)-2:])
	if err != nil {
		return q, fmt.Errorf("%q is not a move: it must end with a square like f3", Clip(text))
	}
	q.to = to
	// What names the piece: a file, a rank, a square, or an x square
	// ("Bx0c2"); the swap's "@" and the capture's "x" may come before or
	// after it.
	s = strings.ReplaceAll(strings.TrimRight(s[:len(s)-2], "x:-@"), "@", "")
	if x, err := ParseSquare(s); err == nil && x.IsX() {
		q.from = x
		return q, nil
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'h' && q.fromFile < 0:
			q.fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && q.fromRank < 0:
			q.fromRank = int(c - '1')
		default:
			return q, fmt.Errorf("%q is not a move in algebraic notation", Clip(text))
		}
	}
	return q, nil
}

// match finds the legal moves the query names: several when they differ
// only by promotion. Without a promotion piece, a pawn that stays a pawn
// (EN-Chess) is named rather than its promotions.
func (q sanQuery) match(p *Position, moves []move) []move {
	var found []move
	stays := false
	for _, m := range moves {
		from, to := m.from, m.to
		if q.pass || from == NoSquare {
			if q.pass && from == NoSquare {
				found = append(found, m)
			}
			continue
		}
		pc := p.Board[from]
		if pc.Kind() != q.kind {
			continue
		}
		if q.castle != 0 {
			if (q.castle == 1 && to-from == 2) || (q.castle == 2 && from-to == 2) {
				found = append(found, m)
			}
			continue
		}
		if to != q.to || (q.from != NoSquare && from != q.from) ||
			(q.fromFile >= 0 && (from.IsX() || from.File() != q.fromFile)) ||
			(q.fromRank >= 0 && (from.IsX() || from.Rank() != q.fromRank)) {
			continue
		}
		if m.promo != q.promotion && !(q.promotion == 0 && m.promo != 0) {
			continue
		}
		stays = stays || q.kind == Pawn && m.promo == 0 && (to.Rank() == 0 || to.Rank() == 7)
		found = append(found, m)
	}
	if stays {
		found = slices.DeleteFunc(found, func(m move) bool { return m.promo != 0 })
	}
	return found
}

// describe names what the query asked for, for error messages.
func (q sanQuery) describe() string {
	if q.pass {
		return "pass (a side passes only in partial checkmate)"
	}
	switch q.castle {
	case 1:
		return "castle king side"
	case 2:
		return "castle queen side"
	}
	return q.kind.String() + " can reach " + q.to.String()
}
