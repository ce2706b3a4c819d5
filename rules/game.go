package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/notnil/chess"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// ErrNothingToUndo is returned by Undo at the start of a game.
var ErrNothingToUndo = errors.New("nothing to undo: the game is at its start")

// Game is one game: a variant, a start position, and the plies played since.
// The zero Game is not usable; create one with New, FromFEN, FromPGN or Replay.
type Game struct {
	variant     Variant
	startPly    int
	startBan    Pair
	startHasBan bool

	positions []Position // the start, then the position after each move
	plies     []plyRecord

	live  *chess.Position // the current position, for move generation
	moves []*chess.Move   // its legal moves

	outcome  Outcome
	declared bool // the outcome was declared (resignation, agreement), not reached by a ply

	tags          []Tag
	fromChessGame bool

	revision uint64 // counts the changes made to the game
}

type plyRecord struct {
	action Action
	san    string // moves only, with + or #
}

// New starts a game of v from the initial position.
func New(v Variant) *Game {
	g, err := FromFEN(StartFEN, v)
	if err != nil {
		panic("rules: the initial position is invalid: " + err.Error())
	}
	return g
}

// FromFEN starts a game of v from an extended FEN in any form RULES.md §2
// accepts. The error, a *FENError, names the field that is wrong.
func FromFEN(fen string, v Variant) (*Game, error) {
	if v == nil {
		v = BanChess{}
	}
	fields := strings.Fields(fen)
	if len(fields) < 6 || len(fields) > 7 {
		return nil, fenErrorf("position", "a FEN has 6 fields (7 with the Ban Chess ply), not %d", len(fields))
	}
	pos, err := parseFEN6(fields)
	if err != nil {
		return nil, err
	}
	ext := ""
	if len(fields) == 7 {
		ext = fields[6]
	}
	ply, ban, hasBan, err := v.parseExtension(ext, pos.ToMove, pos.Fullmove)
	if err != nil {
		return nil, err
	}
	g := &Game{variant: v, startPly: ply, startBan: ban, startHasBan: hasBan}
	if err := g.reset(pos); err != nil {
		return nil, err
	}
	if hasBan && !g.hasMove(ban) {
		return nil, fenErrorf("ban", "%s matches no legal move of %s", ban, pos.ToMove.Name())
	}
	g.outcome = g.adjudicate(!hasBan)
	return g, nil
}

// reset makes pos the start and only position.
func (g *Game) reset(pos Position) error {
	live := &chess.Position{}
	if err := live.UnmarshalText(pos.appendFEN6(nil)); err != nil {
		return fenErrorf("position", "%v", err)
	}
	g.positions = append(g.positions[:0], pos)
	g.plies = g.plies[:0]
	g.setLive(live)
	return nil
}

// setLive makes live the current position and records what its moves tell.
func (g *Game) setLive(live *chess.Position) {
	g.live = live
	g.moves = live.ValidMoves()
	cur := &g.positions[len(g.positions)-1]
	cur.epCapture = false
	for _, m := range g.moves {
		if m.HasTag(chess.EnPassant) {
			cur.epCapture = true
			break
		}
	}
}

// Replay starts a game of v from fen ("" for the initial position) and
// plays the actions, given in BCN. The error names the first action refused.
func Replay(v Variant, fen string, actions []string) (*Game, error) {
	if fen == "" {
		fen = StartFEN
	}
	g, err := FromFEN(fen, v)
	if err != nil {
		return nil, err
	}
	for i, text := range actions {
		if err := g.PlayText(text); err != nil {
			return nil, fmt.Errorf("action %d (%s): %w", i+1, Clip(text), err)
		}
	}
	return g, nil
}

// Variant returns the game's variant.
func (g *Game) Variant() Variant { return g.variant }

// Ply returns the number of the ply to be played next (the start counts as
// the ply it names: 1 for a new game).
func (g *Game) Ply() int { return g.startPly + len(g.plies) }

// StartPly returns the ply the game started at.
func (g *Game) StartPly() int { return g.startPly }

// Turn says who acts now and what they do.
func (g *Game) Turn() Turn { return g.variant.turn(g.Ply()) }

// StartPosition returns the position the game started from.
func (g *Game) StartPosition() Position { return g.positions[0] }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// ToMove returns the side to move on the board.
func (g *Game) ToMove() Color { return g.positions[len(g.positions)-1].ToMove }

// InCheck reports whether the side to move is in check.
func (g *Game) InCheck() bool { return g.positions[len(g.positions)-1].inCheck }

// Outcome returns the game's status, reason and winner.
func (g *Game) Outcome() Outcome { return g.outcome }

// Ban returns the ban in force, if any: the pair the side to move may not play.
func (g *Game) Ban() (Pair, bool) {
	if n := len(g.plies); n > 0 {
		last := g.plies[n-1].action
		return last.Pair(), last.Phase == PhaseBan
	}
	return g.startBan, g.startHasBan
}

// LastAction returns the last ply played, if any.
func (g *Game) LastAction() (Action, bool) {
	if n := len(g.plies); n > 0 {
		return g.plies[n-1].action, true
	}
	return Action{}, false
}

// FromChessGame reports whether the game was read from a PGN without bans,
// whose moves were played as standard chess to reach the start position.
func (g *Game) FromChessGame() bool { return g.fromChessGame }

// hasMove reports whether the side to move has a legal move with this pair.
func (g *Game) hasMove(p Pair) bool {
	for _, m := range g.moves {
		if moveFrom(m) == p.From && moveTo(m) == p.To {
			return true
		}
	}
	return false
}

// playable counts the legal moves the ban in force leaves.
func (g *Game) playable() int {
	ban, banned := g.Ban()
	n := 0
	for _, m := range g.moves {
		if !banned || moveFrom(m) != ban.From || moveTo(m) != ban.To {
			n++
		}
	}
	return n
}

// Legal returns every legal action now, sorted by their BCN text; none once
// the game is over.
func (g *Game) Legal() []Action {
	if g.outcome.Over() {
		return nil
	}
	t := g.Turn()
	out := make([]Action, 0, len(g.moves))
	if t.Phase == PhaseBan {
		for _, m := range g.moves {
			a := BanAction(moveFrom(m), moveTo(m))
			if promoKind(m) == 0 || promoKind(m) == Queen { // one ban per pair
				out = append(out, a)
			}
		}
	} else {
		ban, banned := g.Ban()
		for _, m := range g.moves {
			a := MoveAction(moveFrom(m), moveTo(m), promoKind(m))
			if !banned || a.Pair() != ban {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(a, b Action) int { return int(a.sortKey()) - int(b.sortKey()) })
	return out
}

// sortKey orders actions as their BCN text sorts.
func (a Action) sortKey() int32 {
	promo := int32(0)
	if a.Promotion != 0 {
		promo = int32(a.Promotion.Letter()|0x20) - 'a' + 1
	}
	return int32(a.From.File())<<17 | int32(a.From.Rank())<<14 | int32(a.To.File())<<11 | int32(a.To.Rank())<<8 | promo
}

// Play applies one action. An illegal one returns an *ActionError (kind
// ErrIllegal, ErrBanned for the move the ban in force forbids, or
// ErrGameOver) and leaves the game unchanged.
func (g *Game) Play(a Action) error {
	if g.outcome.Over() {
		return &ActionError{Kind: ErrGameOver, Action: a.String(), msg: "the game is over: " + g.outcome.String()}
	}
	t := g.Turn()
	if a.Phase != t.Phase {
		return illegalf(a.String(), "it is %s's turn to %s, not to %s", t.Actor.Name(), t.Phase, a.Phase)
	}
	if a.Phase == PhaseBan {
		if !g.hasMove(a.Pair()) {
			return illegalf(a.String(), "%s cannot ban %s: %s", t.Actor.Name(), a.Coords(), g.whyNot(a.Pair(), t.ToMove))
		}
		g.plies = append(g.plies, plyRecord{action: a})
		g.outcome = g.adjudicate(false)
		g.revision++
		return nil
	}
	m, err := g.findMove(a)
	if err != nil {
		return err
	}
	g.playMove(m)
	g.revision++
	return nil
}

// Revision counts the changes made to the game: every ply played or undone
// and every outcome declared or withdrawn changes it. A store compares
// revisions to know whether a game needs writing.
func (g *Game) Revision() uint64 { return g.revision }

// PlayText applies an action written in BCN, such as "b:e2e4" or "m:e7e8q".
func (g *Game) PlayText(bcn string) error {
	a, err := ParseAction(bcn)
	if err != nil {
		return err
	}
	return g.Play(a)
}

// findMove returns the legal move a names, or says why there is none.
func (g *Game) findMove(a Action) (*chess.Move, error) {
	if ban, banned := g.Ban(); banned && a.Pair() == ban {
		return nil, bannedf(a.String(), "%s is banned this turn", ban)
	}
	var pairMatch bool
	for _, m := range g.moves {
		if moveFrom(m) != a.From || moveTo(m) != a.To {
			continue
		}
		pairMatch = true
		if promoKind(m) == a.Promotion {
			return m, nil
		}
	}
	switch {
	case pairMatch && a.Promotion == 0:
		return nil, illegalf(a.String(), "%s promotes a pawn: add the piece, as in %sq", a.Coords(), a.Coords())
	case pairMatch:
		return nil, illegalf(a.String(), "%s is not a promotion", a.Pair())
	}
	return nil, illegalf(a.String(), "%s", g.whyNot(a.Pair(), g.ToMove()))
}

// MoveSAN returns a legal move of the side to move in SAN, with + or # as
// playing it would give, without playing it.
func (g *Game) MoveSAN(a Action) (string, error) {
	for _, m := range g.moves {
		if moveFrom(m) != a.From || moveTo(m) != a.To || promoKind(m) != a.Promotion {
			continue
		}
		san := encodeSAN(&g.positions[len(g.positions)-1], g.moves, m)
		if m.HasTag(chess.Check) {
			if next := g.live.Update(m); len(next.ValidMoves()) == 0 {
				return san + "#", nil
			}
			return san + "+", nil
		}
		return san, nil
	}
	return "", illegalf(a.String(), "%s", g.whyNot(a.Pair(), g.ToMove()))
}

// whyNot explains why the side to move has no legal move with this pair.
func (g *Game) whyNot(p Pair, side Color) string {
	board := &g.positions[len(g.positions)-1].Board
	pc := board[p.From]
	switch {
	case pc == NoPiece:
		return fmt.Sprintf("there is no piece on %s", p.From)
	case pc.Color() != side:
		return fmt.Sprintf("the %s on %s is %s's, and it is %s's move", pc.Kind(), p.From, pc.Color().Name(), side.Name())
	case g.InCheck():
		return fmt.Sprintf("the %s on %s cannot move to %s (%s is in check)", pc.Kind(), p.From, p.To, side.Name())
	}
	return fmt.Sprintf("the %s on %s cannot move to %s", pc.Kind(), p.From, p.To)
}

// playMove applies a legal move of the live position.
func (g *Game) playMove(m *chess.Move) {
	prev := &g.positions[len(g.positions)-1]
	san := encodeSAN(prev, g.moves, m)
	next := *prev
	next.apply(moveFrom(m), moveTo(m), promoKind(m))
	next.inCheck = m.HasTag(chess.Check)
	g.positions = append(g.positions, next)
	g.setLive(g.live.Update(m))
	if next.inCheck {
		if len(g.moves) == 0 {
			san += "#"
		} else {
			san += "+"
		}
	}
	g.plies = append(g.plies, plyRecord{action: MoveAction(moveFrom(m), moveTo(m), promoKind(m)), san: san})
	g.outcome = g.adjudicate(true)
}

// adjudicate decides the outcome after a ply (or at the start): no playable
// move is checkmate or stalemate, by the ban or by the move; after a move,
// the draw rules apply too.
func (g *Game) adjudicate(afterMove bool) Outcome {
	pos := &g.positions[len(g.positions)-1]
	if g.playable() == 0 {
		reason := ByMove
		if _, banned := g.Ban(); banned {
			reason = ByBan
		}
		if pos.inCheck {
			return Outcome{Status: Checkmate, Reason: reason, Winner: pos.ToMove.Other()}
		}
		return Outcome{Status: Stalemate, Reason: reason}
	}
	if !afterMove {
		return Outcome{}
	}
	switch {
	case pos.Board.insufficientMaterial():
		return Outcome{Status: Draw, Reason: InsufficientMaterial}
	case g.repetitions() >= 3:
		return Outcome{Status: Draw, Reason: ThreefoldRepetition}
	case pos.HalfmoveClock >= 100:
		return Outcome{Status: Draw, Reason: FiftyMoveRule}
	}
	return Outcome{}
}

// repetitions counts how often the current position has stood on the board,
// looking back only as far as the last capture or pawn move.
func (g *Game) repetitions() int {
	last := len(g.positions) - 1
	cur := &g.positions[last]
	n := 1
	for i := last - 2; i >= 0 && i >= last-cur.HalfmoveClock; i -= 2 {
		if samePosition(&g.positions[i], cur) {
			n++
		}
	}
	return n
}

// Undo takes back the last ply, ban or move. A resignation or agreed draw is
// withdrawn first (it is not a ply). Undoing the ply that ended a game
// reopens it. At the start it returns ErrNothingToUndo.
func (g *Game) Undo() error {
	if g.declared {
		g.declared = false
		g.outcome = Outcome{}
		g.revision++
		return nil
	}
	n := len(g.plies)
	if n == 0 {
		return ErrNothingToUndo
	}
	if g.plies[n-1].action.Phase == PhaseMove {
		live := &chess.Position{}
		if err := live.UnmarshalText(g.positions[len(g.positions)-2].appendFEN6(nil)); err != nil {
			return fmt.Errorf("undo: restoring the position before the move: %w", err)
		}
		g.positions = g.positions[:len(g.positions)-1]
		g.setLive(live)
	}
	g.plies = g.plies[:n-1]
	g.outcome = Outcome{}
	g.revision++
	return nil
}

// Resign ends the game: side resigns and the other side wins.
func (g *Game) Resign(side Color) error {
	if side != White && side != Black {
		return errors.New("resign: the side must be white or black")
	}
	return g.declare(Outcome{Status: Resigned, Reason: Resignation, Winner: side.Other()})
}

// AgreeDraw ends the game as a draw by agreement.
func (g *Game) AgreeDraw() error {
	return g.declare(Outcome{Status: Draw, Reason: Agreement})
}

// FlagFall ends the game because side's clock ran out: side loses on time,
// unless the other side has no mating material (a lone king, or a king and
// one bishop or knight), which is a draw.
func (g *Game) FlagFall(side Color) error {
	if side != White && side != Black {
		return errors.New("flag fall: the side must be white or black")
	}
	if pos := g.Position(); !pos.Board.canMate(side.Other()) {
		return g.declare(Outcome{Status: Draw, Reason: Timeout})
	}
	return g.declare(Outcome{Status: TimeForfeit, Reason: Timeout, Winner: side.Other()})
}

func (g *Game) declare(o Outcome) error {
	if g.outcome.Over() {
		return &ActionError{Kind: ErrGameOver, msg: "the game is over: " + g.outcome.String()}
	}
	g.outcome, g.declared = o, true
	g.revision++
	return nil
}
