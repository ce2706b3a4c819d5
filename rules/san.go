package rules

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"
)

// The engine's moves are notnil/chess moves; these helpers translate them.

func moveFrom(m *chess.Move) Square { return Square(m.S1()) }
func moveTo(m *chess.Move) Square   { return Square(m.S2()) }

// promoKind converts the library's promotion piece type.
func promoKind(m *chess.Move) PieceKind {
	switch m.Promo() {
	case chess.Queen:
		return Queen
	case chess.Rook:
		return Rook
	case chess.Bishop:
		return Bishop
	case chess.Knight:
		return Knight
	}
	return 0
}

func isCapture(m *chess.Move) bool { return m.HasTag(chess.Capture) || m.HasTag(chess.EnPassant) }

// encodeSAN writes m, played from p where moves are all legal moves, in
// Standard Algebraic Notation without a check suffix.
func encodeSAN(p *Position, moves []*chess.Move, m *chess.Move) string {
	from, to := moveFrom(m), moveTo(m)
	pc := p.Board[from]
	if pc.Kind() == King && (to-from == 2 || from-to == 2) {
		if to > from {
			return "O-O"
		}
		return "O-O-O"
	}
	b := make([]byte, 0, 8)
	if pc.Kind() == Pawn {
		if isCapture(m) {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if k := promoKind(m); k != 0 {
			b = append(b, '=', k.Letter())
		}
		return string(b)
	}
	b = append(b, pc.Kind().Letter())
	ambiguous, sameFile, sameRank := false, false, false
	for _, o := range moves {
		of := moveFrom(o)
		if of == from || moveTo(o) != to || p.Board[of] != pc {
			continue
		}
		ambiguous = true
		sameFile = sameFile || of.File() == from.File()
		sameRank = sameRank || of.Rank() == from.Rank()
	}
	if ambiguous {
		switch {
		case !sameFile:
			b = append(b, byte('a'+from.File()))
		case !sameRank:
			b = append(b, byte('1'+from.Rank()))
		default:
			b = append(b, from.String()...)
		}
	}
	if isCapture(m) {
		b = append(b, 'x')
	}
	return string(append(b, to.String()...))
}

// sanQuery is a parsed SAN token: what it asks for, before matching.
type sanQuery struct {
	castle    int // 0 none, 1 king side, 2 queen side
	kind      PieceKind
	fromFile  int // -1 when not given
	fromRank  int // -1 when not given
	to        Square
	promotion PieceKind
}

// parseSAN reads SAN as real PGN files write it: check and annotation marks
// are ignored, castling may be O-O or 0-0, promotion e8=Q or e8Q.
func parseSAN(text string) (sanQuery, error) {
	s := strings.TrimRight(text, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	q := sanQuery{fromFile: -1, fromRank: -1, to: NoSquare}
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
		if k := kindFromLetter(s[n-1]); k != 0 && k != Pawn && k != King && (s[n-2] == '=' || (s[n-2] >= '1' && s[n-2] <= '8')) {
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
	s = strings.TrimRight(s[:len(s)-2], "x:-")
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

// match finds the one legal move the query names.
func (q sanQuery) match(p *Position, moves []*chess.Move) []*chess.Move {
	var found []*chess.Move
	for _, m := range moves {
		from, to := moveFrom(m), moveTo(m)
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
		if to != q.to || (q.fromFile >= 0 && from.File() != q.fromFile) || (q.fromRank >= 0 && from.Rank() != q.fromRank) {
			continue
		}
		if promoKind(m) != q.promotion && !(q.promotion == 0 && promoKind(m) != 0) {
			continue
		}
		found = append(found, m)
	}
	return found
}

// describe names what the query asked for, for error messages.
func (q sanQuery) describe() string {
	switch q.castle {
	case 1:
		return "castle king side"
	case 2:
		return "castle queen side"
	}
	return q.kind.String() + " can reach " + q.to.String()
}
