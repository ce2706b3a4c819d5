package rules

import (
	"fmt"
)

// Color is a side: White or Black. The zero Color means "no side".
type Color uint8

// The two sides.
const (
	White Color = iota + 1
	Black
)

// Other returns the opposing side.
func (c Color) Other() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return 0
}

// String returns "white", "black", or "" for no side.
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return ""
}

// Name returns "White" or "Black", for sentences.
func (c Color) Name() string {
	switch c {
	case White:
		return "White"
	case Black:
		return "Black"
	}
	return ""
}

// ParseColor reads "white"/"w" or "black"/"b".
func ParseColor(s string) (Color, error) {
	switch s {
	case "white", "w", "White":
		return White, nil
	case "black", "b", "Black":
		return Black, nil
	}
	return 0, fmt.Errorf("%q is not a colour: use white or black", Clip(s))
}

// Square is one of the 64 squares, a1 = 0, b1 = 1, …, h8 = 63, or one of
// EN-Chess's two x squares, X0 and X9.
type Square int8

// NoSquare stands for the absence of a square; X0 and X9 are EN-Chess's
// extra squares below the d1/e1 corner and above the d8/e8 corner.
const (
	NoSquare Square = -1
	X0       Square = 64
	X9       Square = 65
)

// SquareAt returns the square on file (0 = a) and rank (0 = 1).
func SquareAt(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file up to 7 for the h-file (0 for an x square).
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank up to 7 for the eighth; an x square
// gives 8.
func (s Square) Rank() int { return int(s) >> 3 }

// Valid reports whether s is a square: one of the 64 or an x square.
func (s Square) Valid() bool { return s >= 0 && s <= X9 }

// IsX reports whether s is an x square (X0 or X9).
func (s Square) IsX() bool { return s == X0 || s == X9 }

// String returns the square's name, such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s.Valid() {
		return squareNames[s]
	}
	return string(appendSquare(make([]byte, 0, 2), s))
}

// squareNames are the squares' names, by square: read only.
var squareNames = func() (t [X9 + 1]string) {
	for s := range t {
		t[s] = string(appendSquare(nil, Square(s)))
	}
	return t
}()

// Light reports whether s is a light square (x squares are neither: false).
func (s Square) Light() bool { return !s.IsX() && (s.File()+s.Rank())%2 == 1 }

// ParseSquare reads a square name such as "e4", or "x0" or "x9".
func ParseSquare(s string) (Square, error) {
	switch s {
	case "x0":
		return X0, nil
	case "x9":
		return X9, nil
	}
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("%q is not a square: use a file a–h and a rank 1–8, like e4", Clip(s))
	}
	return SquareAt(int(s[0]-'a'), int(s[1]-'1')), nil
}

// PieceKind is a kind of piece regardless of colour. The zero value means none.
type PieceKind uint8

// The six kinds of piece, and EN-Chess's Auror.
const (
	Pawn PieceKind = iota + 1
	Knight
	Bishop
	Rook
	Queen
	King
	Auror
)

var kindLetters = [...]byte{0, 'P', 'N', 'B', 'R', 'Q', 'K', 'A'}
var kindNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king", "auror"}

// Letter returns the upper-case letter of the kind (P, N, B, R, Q, K, A).
func (k PieceKind) Letter() byte {
	if int(k) < len(kindLetters) {
		return kindLetters[k]
	}
	return '?'
}

// String returns the kind's English name, such as "knight".
func (k PieceKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// kindFromLetter reads a piece letter in either case; 0 when it is none.
func kindFromLetter(c byte) PieceKind {
	switch c | 0x20 {
	case 'p':
		return Pawn
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	case 'k':
		return King
	case 'a':
		return Auror
	}
	return 0
}

// Piece is a coloured piece; the zero Piece is an empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// NewPiece returns the piece of kind k and colour c.
func NewPiece(c Color, k PieceKind) Piece { return Piece(uint8(c)<<3 | uint8(k)) }

// Color returns the piece's side.
func (p Piece) Color() Color { return Color(p >> 3) }

// Kind returns the piece's kind.
func (p Piece) Kind() PieceKind { return PieceKind(p & 7) }

// FENLetter returns the letter FEN uses: upper case for White.
func (p Piece) FENLetter() byte {
	l := p.Kind().Letter()
	if p.Color() == Black {
		l |= 0x20
	}
	return l
}

// Code returns colour and letter, such as "wP" or "bK".
func (p Piece) Code() string { return pieceNames[p&31].code }

// pieceNames are each piece's Code and String, by piece: read only.
var pieceNames = func() (t [32]struct{ code, text string }) {
	for _, c := range []Color{White, Black} {
		for k := Pawn; int(k) < len(kindLetters); k++ {
			pc := NewPiece(c, k)
			t[pc].code = string([]byte{c.String()[0], k.Letter()})
			t[pc].text = c.String() + " " + k.String()
		}
	}
	t[NoPiece].text = "empty"
	return t
}()

// String returns a description such as "white pawn".
func (p Piece) String() string { return pieceNames[p&31].text }

// Board is the placement of pieces, indexed by Square; the x squares stay
// empty but in EN-Chess.
type Board [66]Piece

// Find returns the first square holding p, or NoSquare.
func (b *Board) Find(p Piece) Square {
	for sq, q := range b {
		if q == p {
			return Square(sq)
		}
	}
	return NoSquare
}

// Pair is a from→to square pair: what a ban names.
type Pair struct {
	From, To Square
}

// String returns the pair in coordinate form, such as "e2e4" ("0000" for
// EN-Chess's pass).
func (p Pair) String() string {
	if p.From == NoSquare {
		return "0000"
	}
	return p.From.String() + p.To.String()
}

// ParsePair reads a pair such as "e2e4".
func ParsePair(s string) (Pair, error) {
	if len(s) != 4 {
		return Pair{}, fmt.Errorf("%q is not a square pair: write it like e2e4", Clip(s))
	}
	from, err := ParseSquare(s[:2])
	if err != nil {
		return Pair{}, err
	}
	to, err := ParseSquare(s[2:])
	if err != nil {
		return Pair{}, err
	}
	return Pair{from, to}, nil
}
