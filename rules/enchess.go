package rules

import "strings"

// ENChess is EN-Chess (docs/en-chess.md): chess with two x squares off the
// d/e corners (X0, X9) on which diagonals bend, an Auror per side that
// never captures but swaps with kings and strengthens or stunts line
// pieces, pawns that may wait on the last rank, several kings, and partial
// checkmate, in which the side to move passes. It has no bans: every ply
// is a move, White's on odd plies. Its board is enMover; its draw rules are
// chess's (chessRules).
type ENChess struct{ chessRules }

// ENStartFEN is EN-Chess's initial position: the seventh field holds the
// contents of x0 and x9.
const ENStartFEN = StartFEN + " Aa"

// ID implements Variant.
func (ENChess) ID() string { return "en" }

// Name implements Variant.
func (ENChess) Name() string { return "EN-Chess" }

// UCIName implements Variant.
func (ENChess) UCIName() string { return "enchess" }

func (ENChess) turn(ply int) Turn { return Classic{}.turn(ply) }

func (ENChess) startFEN() string { return ENStartFEN }

// HasPasses implements Variant: in partial checkmate the side to move
// passes.
func (ENChess) HasPasses() bool { return true }

// Board implements Variant: the x squares and the Auror.
func (ENChess) Board() BoardKind { return ENBoard }

// Promotions implements Variant: chess's pieces, a king or an Auror, or
// staying a pawn.
func (ENChess) Promotions() []PieceKind {
	return []PieceKind{Queen, Rook, Bishop, Knight, King, Auror, Pawn}
}

func (ENChess) newMover() mover { return &enMover{} }

// readFEN reads the seven fields of an EN FEN: the six of chess (Aurors as
// A/a, pawns allowed on their last rank, one king or more a side) and x0
// then x9, each a piece letter or -.
func (ENChess) readFEN(fields []string) (Position, int, Pair, bool, error) {
	if len(fields) != 7 {
		return Position{}, 0, Pair{}, false, fenErrorf("position", "an EN-Chess FEN has 7 fields, the seventh holding x0 then x9 (as in Aa), not %d", len(fields))
	}
	pos, err := parseFEN6(fields, true)
	if err != nil {
		return pos, 0, Pair{}, false, err
	}
	x := fields[6]
	if len(x) != 2 {
		return pos, 0, Pair{}, false, fenErrorf("x squares", "%q must be two characters, x0 then x9, each a piece letter or - (as in Aa)", Clip(x))
	}
	for i, sq := range []Square{X0, X9} {
		c := x[i]
		if c == '-' {
			continue
		}
		k := kindFromLetter(c)
		switch {
		case k == 0:
			return pos, 0, Pair{}, false, fenErrorf("x squares", "%q in %q is not a piece letter (use NBQKA, lower case for Black) or -", string(rune(c)), Clip(x))
		case k == Pawn || k == Rook:
			return pos, 0, Pair{}, false, fenErrorf("x squares", "a %s cannot stand on %s", k, sq)
		}
		color := White
		if c >= 'a' {
			color = Black
		}
		pos.Board[sq] = NewPiece(color, k)
	}
	var count [3][8]int
	for _, pc := range pos.Board {
		if pc != NoPiece {
			count[pc.Color()][pc.Kind()]++
		}
	}
	for _, c := range []Color{White, Black} {
		total := 0
		for _, n := range count[c] {
			total += n
		}
		switch {
		case count[c][King] == 0:
			return pos, 0, Pair{}, false, fenRulef("placement", FENKings, "", "%s has no king; each side needs at least one", c.Name())
		case count[c][Pawn] > 8:
			return pos, 0, Pair{}, false, fenRulef("placement", FENPawns, "", "%s has %d pawns; at most 8 are possible", c.Name(), count[c][Pawn])
		case total > 17:
			return pos, 0, Pair{}, false, fenRulef("placement", FENPieces, "", "%s has %d pieces; at most 17 are possible", c.Name(), total)
		}
	}
	return pos, Classic{}.firstPly(pos.ToMove, pos.Fullmove), Pair{}, false, nil
}

// fenTail writes x0 then x9; an EN FEN has no indicator.
func (ENChess) fenTail(pos *Position, _ int, _ Pair, _ bool) (string, bool) {
	var b strings.Builder
	for _, sq := range []Square{X0, X9} {
		if pc := pos.Board[sq]; pc != NoPiece {
			b.WriteByte(pc.FENLetter())
		} else {
			b.WriteByte('-')
		}
	}
	return b.String(), false
}
