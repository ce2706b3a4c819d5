package engine

// Move is a move: from (bits 0–5), to (6–11) and a flag (12–15).
type Move uint16

const (
	flagQuiet   = 0
	flagDouble  = 1
	flagCastleK = 2
	flagCastleQ = 3
	flagCapture = 4
	flagEP      = 5
	flagPromo   = 8 // + kind−Knight; +4 for a capture
)

func newMove(from, to, flag int) Move { return Move(from | to<<6 | flag<<12) }

// From returns the square the move starts on (a1 = 0 … h8 = 63).
func (m Move) From() int { return int(m & 63) }

// To returns the square the move ends on.
func (m Move) To() int { return int(m>>6) & 63 }

func (m Move) flag() int { return int(m >> 12) }

// Pair returns from and to in one number, from + 64·to: the pair a ban names.
func (m Move) Pair() int { return int(m & 0xfff) }

// IsPromotion reports whether the move promotes a pawn.
func (m Move) IsPromotion() bool { return m.flag()&flagPromo != 0 }

// Promotion returns the kind a pawn promotes to (Knight…Queen); only for
// promotions.
func (m Move) Promotion() int { return m.flag()&3 + Knight }

// IsCapture reports whether the move captures (en passant included).
func (m Move) IsCapture() bool { f := m.flag(); return f == flagCapture || f == flagEP || f >= 12 }

// String returns the move in coordinates, such as "e2e4" or "e7e8q".
func (m Move) String() string {
	s := squareName(m.From()) + squareName(m.To())
	if m.IsPromotion() {
		s += string("nbrq"[m.Promotion()-Knight])
	}
	return s
}
