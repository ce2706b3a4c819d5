package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Turn says who acts at a ply, what they do, and whose pieces are concerned:
// ToMove is the side to move on the board (the side whose move is banned or
// played).
type Turn struct {
	Actor  Color
	Phase  Phase
	ToMove Color
}

// Variant is a rule set played by Game. Like scalachess's Variant, it is a
// set of hooks: the schedule of plies (who bans, who moves), the board and
// its moves (a mover: geometry, move generation, legality, game end), the
// draw rules that apply, and notation (FEN, promotion pieces, the PGN
// Variant tag). Game holds what all variants share over those hooks: the
// history, bans, undo, checkmate and stalemate, SAN and PGN writing over the
// variant's moves.
//
// The exported hooks are the variant's capabilities, which callers outside
// this package ask instead of checking which variant a game is of. The
// hooks every chess variant shares have defaults, in chessRules, which a
// variant embeds and overrides where its rules differ.
//
// A new variant is one new file in this package with a type implementing
// these hooks, listed in Variants (see the package doc).
type Variant interface {
	// ID is the short machine name, such as "ban".
	ID() string
	// Name is the human name, also the PGN Variant tag, such as "Ban Chess".
	Name() string
	// UCIName is the name UCI's UCI_Variant option gives it:
	// Fairy-Stockfish's where it has the variant, such as "chess".
	UCIName() string

	// HasBans reports whether plies alternate ban and move as in Ban
	// Chess: before every move the mover's opponent bans one of its moves
	// (Black banning first). Without bans every ply is a move.
	HasBans() bool
	// HasPasses reports whether a side may have to pass, a move that moves
	// nothing (EN-Chess's partial checkmate).
	HasPasses() bool
	// Board is the board the variant is played on: its squares and its
	// men. Positions carry over only between variants on the same board
	// (CanBranch).
	Board() BoardKind
	// Promotions lists what a pawn reaching its last rank may become, in
	// the order a picker offers them. Pawn in the list means it may also
	// stay a pawn, a move that names no piece (EN-Chess).
	Promotions() []PieceKind
	// ThreefoldRepetition reports whether a position standing on the board
	// for the third time, after a move, draws the game.
	ThreefoldRepetition() bool
	// FiftyMoveRule reports whether fifty moves by each side without a
	// capture or a pawn move (a halfmove clock of 100) draw the game.
	FiftyMoveRule() bool

	// turn says who acts at ply (ply ≥ 1) and what.
	turn(ply int) Turn
	// startFEN is the FEN of a new game, as Game.StartFEN writes it.
	startFEN() string
	// readFEN reads a FEN's fields (already split) into the start position
	// and the ply and ban in force; the error is a *FENError.
	readFEN(fields []string) (pos Position, ply int, ban Pair, hasBan bool, err error)
	// fenTail writes the FEN fields after the sixth, "" for none, and says
	// whether the state's indicator (+ # =) follows them.
	fenTail(pos *Position, ply int, ban Pair, hasBan bool) (tail string, indicator bool)
	// newMover returns the variant's move generator, with no position yet.
	newMover() mover
}

// BoardKind is a board variants are played on: its squares and the men
// that stand on them. A position of one variant is a position of another
// only when both are played on the same board.
type BoardKind uint8

// The boards.
const (
	// ChessBoard is chess's: 64 squares and the six men of chess.
	ChessBoard BoardKind = iota
	// ENBoard is EN-Chess's: chess's squares and two x squares, x0 and
	// x9, off the d/e corners; chess's men and the Auror.
	ENBoard
)

// ExtraSquares lists the board's squares beyond chess's 64, White's side
// first: x0 and x9 on EN-Chess's board, none on chess's.
func (b BoardKind) ExtraSquares() []Square {
	if b == ENBoard {
		return []Square{X0, X9}
	}
	return nil
}

// CanBranch reports whether a position reached in a game of from can start
// a game of to (Game.Branch): only on the same board, so a Ban Chess
// position can become a Classic one and back, but an EN-Chess position
// (x squares, Aurors) stays EN-Chess.
func CanBranch(from, to Variant) bool { return from.Board() == to.Board() }

// chessRules are the hooks chess variants share: no bans, chess's board
// and moves, promotion to a queen, rook, bishop or knight, and both draw
// rules. A variant embeds it and overrides what its rules change, as
// scalachess's variants override the defaults of its Variant; it is not a
// variant itself, which adds its ID, name, ply schedule and FEN.
type chessRules struct{}

// HasBans implements Variant: chess has none.
func (chessRules) HasBans() bool { return false }

// HasPasses implements Variant: chess has no passes.
func (chessRules) HasPasses() bool { return false }

// Board implements Variant: chess's board.
func (chessRules) Board() BoardKind { return ChessBoard }

// Promotions implements Variant: a queen, rook, bishop or knight.
func (chessRules) Promotions() []PieceKind { return []PieceKind{Queen, Rook, Bishop, Knight} }

// ThreefoldRepetition implements Variant: it applies.
func (chessRules) ThreefoldRepetition() bool { return true }

// FiftyMoveRule implements Variant: it applies.
func (chessRules) FiftyMoveRule() bool { return true }

func (chessRules) newMover() mover { return &chessMover{} }

// kindSet is a set of piece kinds, one bit a kind: how Game keeps its
// variant's promotions.
type kindSet uint8

// The promotions of chess, and of every variant together (letters order).
const (
	chessKinds kindSet = 1<<Queen | 1<<Rook | 1<<Bishop | 1<<Knight
	allKinds   kindSet = chessKinds | 1<<King | 1<<Auror
)

func kindSetOf(kinds []PieceKind) kindSet {
	var s kindSet
	for _, k := range kinds {
		s |= 1 << k
	}
	return s
}

// letters writes the set's kinds but Pawn (staying a pawn names none) as
// notation names them, in lower case, queen, rook, bishop, knight, king,
// Auror: "qrbn" for chess's promotions, without allocating for the usual
// sets.
func (s kindSet) letters() string {
	switch s &^ (1 << Pawn) {
	case chessKinds:
		return chessPromotions
	case allKinds:
		return allPromotions
	}
	var b []byte
	for i := range len(allPromotions) {
		if c := allPromotions[i]; s&(1<<kindFromLetter(c)) != 0 {
			b = append(b, c)
		}
	}
	return string(b)
}

// ParsePromotion reads a promotion field, the letter of a piece a pawn may
// become in one of vs, in either case: p is Pawn where a variant lets the
// pawn stay one, and "" is none (0). The error lists the letters: the
// first variant's, then what each other adds.
func ParsePromotion(letter string, vs []Variant) (PieceKind, error) {
	if letter == "" {
		return 0, nil
	}
	var listed []PieceKind
	var use []string
	for _, v := range vs {
		var own []string
		for _, k := range v.Promotions() {
			if len(letter) == 1 && letter[0]|0x20 == k.Letter()|0x20 {
				return k, nil
			}
			if slices.Contains(listed, k) {
				continue
			}
			listed = append(listed, k)
			if name := string(k.Letter() | 0x20); k == Pawn {
				own = append(own, name+" to stay a pawn")
			} else {
				own = append(own, name)
			}
		}
		switch {
		case len(use) == 0:
			use = append(use, orList(own))
		case len(own) > 0:
			use = append(use, "(in "+v.Name()+" also "+orList(own)+")")
		}
	}
	return 0, fmt.Errorf("%q is not a promotion piece: use %s", Clip(letter), strings.Join(use, " "))
}

// Variants lists every variant the engine plays, the default first.
func Variants() []Variant { return []Variant{BanChess{}, Classic{}, ENChess{}} }

// VariantByID returns the variant of Variants with the given ID or name, in
// any case; "" gives the default, Ban Chess.
func VariantByID(id string) (Variant, error) { return LookupVariant(Variants(), id) }

// LookupVariant returns the variant of vs with the given ID or name, in any
// case; "" gives vs's first, the default. A program that plays other
// variants than Variants looks them up so.
func LookupVariant(vs []Variant, id string) (Variant, error) {
	if len(vs) == 0 {
		return nil, errors.New("no variants to choose from")
	}
	if id == "" {
		return vs[0], nil
	}
	ids := make([]string, 0, len(vs))
	for _, v := range vs {
		if strings.EqualFold(id, v.ID()) || strings.EqualFold(id, v.Name()) {
			return v, nil
		}
		ids = append(ids, v.ID())
	}
	return nil, fmt.Errorf("unknown variant %q: choose %s", Clip(id), orList(ids))
}

// orList joins words as a sentence does: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// move is a legal move as Game keeps it, whichever mover generated it.
type move struct {
	from, to Square // NoSquare for a pass
	promo    PieceKind
}

func (m move) action() Action { return MoveAction(m.from, m.to, m.promo) }

// mover is a variant's board: it holds the current position, generates its
// legal moves and plays them. Game keeps one.
type mover interface {
	// load makes p the current position and sets its derived fields
	// (inCheck, epCapture); the error is a *FENError.
	load(p *Position) error
	// moves returns the legal moves of the current position. The slice is
	// the mover's: valid until the next load or play.
	moves() []move
	// play plays moves()[i]: next, a copy of the current position, becomes
	// the position after it, derived fields set, and the current one.
	play(i int, next *Position)
	// flags says whether moves()[i] captures a piece and whether it leaves
	// an enemy king in check.
	flags(i int) (capture, check bool)
	// mates reports whether moves()[i] leaves the opponent checkmated.
	mates(i int) bool
	// decided returns the outcome the position p (the current one) ends the
	// game with under the variant's own rules, such as a side with no king
	// left; the zero Outcome when none. Checkmate, stalemate and the draw
	// rules are Game's.
	decided(p *Position) Outcome
	// insufficient reports whether neither side can ever win on b.
	insufficient(b *Board) bool
	// canMate reports whether side has the material to mate on b.
	canMate(b *Board, side Color) bool
	// checkedKings lists the kings of p's side to move that are in check.
	checkedKings(p *Position) []Square
	// clone returns a mover at the same position that shares nothing the
	// receiver changes when it loads or plays.
	clone() mover
}
