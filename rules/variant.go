package rules

import (
	"fmt"
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
// its moves (a mover: geometry, move generation, legality, game end), and
// notation (FEN, promotion letters, the PGN Variant tag). Game holds what
// all variants share: the history, bans, undo, repetition and the fifty-move
// rule, SAN and PGN writing over the variant's moves.
//
// A new variant is one new file in this package with a type implementing
// these hooks, listed in Variants (see the package doc).
type Variant interface {
	// ID is the short machine name, such as "ban".
	ID() string
	// Name is the human name, also the PGN Variant tag, such as "Ban Chess".
	Name() string

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
	// promotions lists, in lower case, the letters of the pieces a pawn
	// may become.
	promotions() string
}

// Variants lists every variant the engine plays, the default first.
func Variants() []Variant { return []Variant{BanChess{}, Classic{}, ENChess{}} }

// VariantByID returns the variant with the given ID or name, in any case;
// "" gives the default, Ban Chess.
func VariantByID(id string) (Variant, error) {
	if id == "" {
		return BanChess{}, nil
	}
	var ids []string
	for _, v := range Variants() {
		if strings.EqualFold(id, v.ID()) || strings.EqualFold(id, v.Name()) {
			return v, nil
		}
		ids = append(ids, v.ID())
	}
	return nil, fmt.Errorf("unknown variant %q: choose %s", Clip(id), strings.Join(ids[:len(ids)-1], ", ")+" or "+ids[len(ids)-1])
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
}
