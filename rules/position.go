package rules

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Castling is a set of castling rights.
type Castling uint8

// The four castling rights.
const (
	WhiteKingside Castling = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
)

// String returns the rights as FEN writes them: "KQkq", "Kq", or "-".
func (c Castling) String() string {
	if c == 0 {
		return "-"
	}
	var b []byte
	for i, l := range []byte("KQkq") {
		if c&(1<<i) != 0 {
			b = append(b, l)
		}
	}
	return string(b)
}

// castlingRook lists, for each right, the king's and the rook's home squares.
var castlingHomes = [4]struct {
	right      Castling
	king, rook Square
	piece      Piece
}{
	{WhiteKingside, 4, 7, NewPiece(White, Rook)},
	{WhiteQueenside, 4, 0, NewPiece(White, Rook)},
	{BlackKingside, 60, 63, NewPiece(Black, Rook)},
	{BlackQueenside, 60, 56, NewPiece(Black, Rook)},
}

// Position is the state of the board between plies: placement, side to move,
// castling rights, en passant square, and the two clocks of FEN.
type Position struct {
	Board         Board
	ToMove        Color
	Castling      Castling
	EnPassant     Square // the square behind a pawn that just advanced two squares, or NoSquare
	HalfmoveClock int
	Fullmove      int

	inCheck   bool // the side to move is in check
	epCapture bool // the side to move has a legal en passant capture
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.inCheck }

// KingSquare returns the square of c's king, or NoSquare.
func (p *Position) KingSquare(c Color) Square { return p.Board.Find(NewPiece(c, King)) }

// samePosition reports whether a and b are the same position for the
// repetition rule: placement, side to move, castling rights, and en passant
// only where a capture is actually possible.
func samePosition(a, b *Position) bool {
	return a.Board == b.Board && a.ToMove == b.ToMove && a.Castling == b.Castling &&
		a.repetitionEP() == b.repetitionEP()
}

func (p *Position) repetitionEP() Square {
	if p.epCapture {
		return p.EnPassant
	}
	return NoSquare
}

// appendPlacement writes the first FEN field.
func (p *Position) appendPlacement(b []byte) []byte {
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.Board[SquareAt(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, byte('0'+empty))
				empty = 0
			}
			b = append(b, pc.FENLetter())
		}
		if empty > 0 {
			b = append(b, byte('0'+empty))
		}
		if rank > 0 {
			b = append(b, '/')
		}
	}
	return b
}

// appendFEN6 writes the six standard FEN fields.
func (p *Position) appendFEN6(b []byte) []byte {
	b = p.appendPlacement(b)
	b = append(b, ' ', p.ToMove.String()[0], ' ')
	b = append(b, p.Castling.String()...)
	b = append(b, ' ')
	b = append(b, p.EnPassant.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.HalfmoveClock), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Fullmove), 10)
	return b
}

// FEN returns the six standard FEN fields.
func (p *Position) FEN() string { return string(p.appendFEN6(make([]byte, 0, 90))) }

// apply plays a legal move on the placement and updates the other fields
// (the caller sets inCheck and epCapture, which need move generation).
func (p *Position) apply(from, to Square, promo PieceKind) {
	pc := p.Board[from]
	captured := p.Board[to]
	kind := pc.Kind()
	p.Board[from] = NoPiece
	switch {
	case kind == Pawn && to == p.EnPassant && from.File() != to.File() && captured == NoPiece:
		p.Board[SquareAt(to.File(), from.Rank())] = NoPiece
	case kind == King && to-from == 2:
		p.Board[to-1], p.Board[to+1] = p.Board[to+1], NoPiece
	case kind == King && from-to == 2:
		p.Board[to+1], p.Board[to-2] = p.Board[to-2], NoPiece
	}
	if promo != 0 {
		pc = NewPiece(pc.Color(), promo)
	}
	p.Board[to] = pc
	for _, h := range castlingHomes {
		if from == h.king || from == h.rook || to == h.rook {
			p.Castling &^= h.right
		}
	}
	p.EnPassant = NoSquare
	if kind == Pawn && (to-from == 16 || from-to == 16) {
		p.EnPassant = (from + to) / 2
	}
	if kind == Pawn || captured != NoPiece {
		p.HalfmoveClock = 0
	} else {
		p.HalfmoveClock++
	}
	if p.ToMove == Black {
		p.Fullmove++
	}
	p.ToMove = p.ToMove.Other()
}

var (
	knightSteps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps   = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
)

// attacked reports whether any piece of side by attacks sq.
func (b *Board) attacked(sq Square, by Color) bool {
	f, r := sq.File(), sq.Rank()
	at := func(df, dr int) Piece {
		nf, nr := f+df, r+dr
		if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
			return NoPiece
		}
		return b[SquareAt(nf, nr)]
	}
	for _, s := range knightSteps {
		if at(s[0], s[1]) == NewPiece(by, Knight) {
			return true
		}
	}
	for _, s := range kingSteps {
		if at(s[0], s[1]) == NewPiece(by, King) {
			return true
		}
		diagonal := s[0] != 0 && s[1] != 0
		for n := 1; n < 8; n++ {
			pc := at(s[0]*n, s[1]*n)
			if pc == NoPiece {
				if f+s[0]*n < 0 || f+s[0]*n > 7 || r+s[1]*n < 0 || r+s[1]*n > 7 {
					break
				}
				continue
			}
			if pc.Color() == by && (pc.Kind() == Queen || (diagonal && pc.Kind() == Bishop) || (!diagonal && pc.Kind() == Rook)) {
				return true
			}
			break
		}
	}
	dir := 1 // a white pawn attacks from the rank below
	if by == Black {
		dir = -1
	}
	return at(-1, -dir) == NewPiece(by, Pawn) || at(1, -dir) == NewPiece(by, Pawn)
}

// insufficientMaterial reports K v K, K+minor v K, and kings with bishops
// all on squares of one colour.
func (b *Board) insufficientMaterial() bool {
	minors, knights := 0, 0
	light, dark := false, false
	for sq, pc := range b {
		switch pc.Kind() {
		case Pawn, Rook, Queen:
			return false
		case Knight:
			knights++
			minors++
		case Bishop:
			minors++
			if Square(sq).Light() {
				light = true
			} else {
				dark = true
			}
		}
	}
	return minors <= 1 || (knights == 0 && !(light && dark))
}

// canMate reports whether side has the material to mate with some series
// of legal moves, by the test of insufficient material: a lone king, or a
// king with a single bishop or knight, cannot.
func (b *Board) canMate(side Color) bool {
	minors := 0
	for _, pc := range b {
		if pc == NoPiece || pc.Color() != side {
			continue
		}
		switch pc.Kind() {
		case Pawn, Rook, Queen:
			return true
		case Knight, Bishop:
			minors++
		}
	}
	return minors > 1
}

// missingFENFields names the field a FEN of n fields lacks first, and
// fenFieldHelp says what each field holds, for a FEN cut short.
var (
	missingFENFields = [...]string{"placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"}
	fenFieldHelp     = [...]string{"the placement", "the side to move (w or b)", "castling (KQkq, or -)", "en passant (a square, or -)", "the halfmove clock (0)", "the fullmove number (1)"}
)

// readChessFEN reads a chess FEN of 6 fields, or 7 with an extension that
// ext reads (a Ban Chess ply).
func readChessFEN(fields []string, ext func(string, Color, int) (int, Pair, bool, error)) (Position, int, Pair, bool, error) {
	if len(fields) > 0 && len(fields) < 6 {
		var b Board
		if err := parsePlacement(&b, fields[0], false); err != nil {
			return Position{}, 0, Pair{}, false, err // the placement's fault first: the field a reader fixes first
		}
		return Position{}, 0, Pair{}, false, fenErrorf(missingFENFields[len(fields)], "the FEN stops after %d of its 6 fields; still to come: %s",
			len(fields), strings.Join(fenFieldHelp[len(fields):], ", "))
	}
	if len(fields) == 0 || len(fields) > 7 {
		return Position{}, 0, Pair{}, false, fenErrorf("position", "a FEN has 6 fields (7 with the Ban Chess ply), not %d", len(fields))
	}
	pos, err := parseFEN6(fields, false)
	if err != nil {
		return pos, 0, Pair{}, false, err
	}
	if pos.Board.attacked(pos.KingSquare(pos.ToMove.Other()), pos.ToMove) {
		return pos, 0, Pair{}, false, fenRulef("position", FENCheck, "", "%s is in check but it is %s's turn to move", pos.ToMove.Other().Name(), pos.ToMove.Name())
	}
	pos.inCheck = pos.Board.attacked(pos.KingSquare(pos.ToMove), pos.ToMove.Other())
	field := ""
	if len(fields) == 7 {
		field = fields[6]
	}
	ply, ban, hasBan, err := ext(field, pos.ToMove, pos.Fullmove)
	return pos, ply, ban, hasBan, err
}

// parseFEN6 reads and validates the six standard FEN fields, everything
// except what needs move generation; en reads an EN-Chess placement.
func parseFEN6(fields []string, en bool) (Position, error) {
	p := Position{EnPassant: NoSquare}
	if err := parsePlacement(&p.Board, fields[0], en); err != nil {
		return p, err
	}
	switch fields[1] {
	case "w":
		p.ToMove = White
	case "b":
		p.ToMove = Black
	default:
		return p, fenErrorf("side to move", "%q must be w or b", Clip(fields[1]))
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return p, err
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return p, err
	}
	var err error
	if p.HalfmoveClock, err = parseCount(fields[4], 0); err != nil {
		return p, fenErrorf("halfmove clock", "%q must be a whole number from 0", Clip(fields[4]))
	}
	if p.Fullmove, err = parseCount(fields[5], 1); err != nil {
		return p, fenErrorf("fullmove number", "%q must be a whole number from 1", Clip(fields[5]))
	}
	return p, nil
}

// parseCount reads a non-negative decimal of at most six digits, at least min.
func parseCount(s string, min int) (int, error) {
	if len(s) == 0 || len(s) > 6 {
		return 0, strconv.ErrRange
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	n, _ := strconv.Atoi(s)
	if n < min {
		return 0, strconv.ErrRange
	}
	return n, nil
}

// parsePlacement reads the first FEN field. Chess wants one king a side
// and no pawn on the first or last rank; EN-Chess (en) takes Aurors, any
// number of kings from one, and pawns waiting on their last rank.
func parsePlacement(b *Board, s string, en bool) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fenErrorf("placement", "%q has %d ranks; it needs 8 separated by /", Clip(s), len(ranks))
	}
	var count [3][8]int
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return fenErrorf("placement", "rank %d (%q) covers more than 8 squares", rank+1, Clip(row))
				}
				continue
			}
			k := kindFromLetter(c)
			if k == 0 || k == Auror && !en {
				// Quote the character, not its first byte: "８", not "\xef".
				_, n := utf8.DecodeRuneInString(row[j:])
				letters := "PNBRQK"
				if en {
					letters = "PNBRQKA"
				}
				return fenErrorf("placement", "%q on rank %d is not a piece letter (use %s, lower case for Black) or a count 1–8", row[j:j+n], rank+1, letters)
			}
			if file > 7 {
				return fenErrorf("placement", "rank %d (%q) covers more than 8 squares", rank+1, Clip(row))
			}
			color := White
			if c >= 'a' {
				color = Black
			}
			if en && k == Pawn && (color == White && rank == 0 || color == Black && rank == 7) {
				return fenRulef("placement", FENPawnRank, SquareAt(file, rank).String(), "a %s pawn stands on %s, its own first rank, where no pawn can be", color, SquareAt(file, rank))
			}
			if !en && k == Pawn && (rank == 0 || rank == 7) {
				return fenRulef("placement", FENPawnRank, SquareAt(file, rank).String(), "a %s pawn stands on %s; pawns cannot be on the first or last rank", color, SquareAt(file, rank))
			}
			b[SquareAt(file, rank)] = NewPiece(color, k)
			count[color][k]++
			file++
		}
		if file != 8 {
			return fenErrorf("placement", "rank %d (%q) covers %d squares; it must cover 8", rank+1, Clip(row), file)
		}
	}
	if en {
		return nil // EN-Chess counts pieces once its x squares are read
	}
	for _, c := range []Color{White, Black} {
		kings := count[c][King]
		if kings != 1 {
			return fenRulef("placement", FENKings, "", "%s has %d kings; each side needs exactly one", c.Name(), kings)
		}
		if count[c][Pawn] > 8 {
			return fenRulef("placement", FENPawns, "", "%s has %d pawns; at most 8 are possible", c.Name(), count[c][Pawn])
		}
		total := 0
		for _, n := range count[c] {
			total += n
		}
		if total > 16 {
			return fenRulef("placement", FENPieces, "", "%s has %d pieces; at most 16 are possible", c.Name(), total)
		}
	}
	return nil
}

func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	if s == "" || len(s) > 4 {
		return fenErrorf("castling", "%q must be - or some of KQkq", Clip(s))
	}
	for j := 0; j < len(s); j++ {
		c := s[j]
		i := strings.IndexByte("KQkq", c)
		if i < 0 {
			_, n := utf8.DecodeRuneInString(s[j:]) // the character, not a byte
			return fenErrorf("castling", "%q is not a castling right; use K, Q, k, q or -", s[j:j+n])
		}
		h := castlingHomes[i]
		if p.Castling&h.right != 0 {
			return fenErrorf("castling", "%q is repeated in %q", string(c), s)
		}
		color := h.piece.Color()
		if p.Board[h.king] != NewPiece(color, King) {
			return fenRulef("castling", FENCastling, "", "%q needs the %s king on %s", string(c), color, h.king)
		}
		if p.Board[h.rook] != h.piece {
			return fenRulef("castling", FENCastling, "", "%q needs a %s rook on %s", string(c), color, h.rook)
		}
		p.Castling |= h.right
	}
	return nil
}

func (p *Position) parseEnPassant(s string) error {
	if s == "-" {
		return nil
	}
	sq, err := ParseSquare(s)
	if err != nil {
		return fenErrorf("en passant", "%q must be - or a square like e3", Clip(s))
	}
	// The pawn that just advanced belongs to the side not to move.
	mover := p.ToMove.Other()
	wantRank, dir := 2, 1
	if mover == Black {
		wantRank, dir = 5, -1
	}
	if sq.Rank() != wantRank {
		return fenRulef("en passant", FENEnPassant, s, "%s is impossible: with %s to move the square must be on rank %d", s, p.ToMove.Name(), wantRank+1)
	}
	pawn := SquareAt(sq.File(), wantRank+dir)
	origin := SquareAt(sq.File(), wantRank-dir)
	if p.Board[pawn] != NewPiece(mover, Pawn) || p.Board[sq] != NoPiece || p.Board[origin] != NoPiece {
		return fenRulef("en passant", FENEnPassant, s, "%s is impossible: it needs a %s pawn on %s that just came from %s", s, mover, pawn, origin)
	}
	p.EnPassant = sq
	return nil
}
