package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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
	promotions  kindSet // the variant's Promotions

	positions []Position // the start, then the position after each move
	plies     []plyRecord

	mover mover    // the variant's board, at the current position
	moves moveList // its legal moves

	// before holds the legal moves of the position before the last move
	// played, while beforeKnown says they are those of the last ply (see
	// LegalBefore).
	before      []move
	beforeKnown bool

	outcome  Outcome
	declared bool // the outcome was declared (resignation, agreement), not reached by a ply

	tags          []Tag
	notes         notes // the main line's NAGs, comments and variations
	fromChessGame bool

	revision uint64         // counts the changes made to the game
	movetext *movetextCache // see writeMovetext
}

type plyRecord struct {
	action Action
	san    string // a move's, with + or #; a ban's banned move's (see pairSAN)
}

// New starts a game of v from its initial position.
func New(v Variant) *Game {
	if v == nil {
		v = BanChess{}
	}
	g, err := FromFEN(v.startFEN(), v)
	if err != nil {
		panic("rules: the initial position is invalid: " + err.Error())
	}
	return g
}

// FromFEN starts a game of v from an extended FEN in any form docs/rules.md
// §2.1 accepts. The error, a *FENError, names the field that is wrong.
func FromFEN(fen string, v Variant) (*Game, error) {
	if v == nil {
		v = BanChess{}
	}
	pos, ply, ban, hasBan, err := v.readFEN(strings.Fields(fen))
	if err != nil {
		return nil, err
	}
	g := &Game{
		variant: v, promotions: kindSetOf(v.Promotions()), startPly: ply, startBan: ban, startHasBan: hasBan,
		mover: v.newMover(), positions: []Position{pos}, // the start, the only position
	}
	if err := g.mover.load(&g.positions[0]); err != nil {
		return nil, err
	}
	g.moves = g.mover.moves()
	if hasBan && !g.moves.has(ban) {
		return nil, fenRulef("ban", FENBan, ban.String(), "%s matches no legal move of %s", ban, pos.ToMove.Name())
	}
	g.outcome = g.adjudicate(!hasBan)
	return g, nil
}

// Replay starts a game of v from fen ("" for the initial position) and
// plays the actions, given in BCN. The error names the first action refused.
func Replay(v Variant, fen string, actions []string) (*Game, error) {
	if fen == "" && v != nil {
		fen = v.startFEN()
	} else if fen == "" {
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

// InCheck reports whether the side to move is in check (EN-Chess: any of
// its kings).
func (g *Game) InCheck() bool { return g.positions[len(g.positions)-1].inCheck }

// CheckedKings lists the kings of p's side to move that are in check under
// the game's rules: one at most in chess, any number in EN-Chess. p is
// this game's position or one of its history.
func (g *Game) CheckedKings(p *Position) []Square {
	if !p.inCheck {
		return nil
	}
	return g.mover.checkedKings(p)
}

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

// moveList is a position's legal moves, as its mover lists them.
type moveList []move

// has reports whether a move of the list has the pair p.
func (ms moveList) has(p Pair) bool {
	for _, m := range ms {
		if m.from == p.From && m.to == p.To {
			return true
		}
	}
	return false
}

// playable counts the moves of the list that ban, when banned, leaves.
func (ms moveList) playable(ban Pair, banned bool) int {
	n := 0
	for _, m := range ms {
		if !banned || m.from != ban.From || m.to != ban.To {
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
	ban, banned := g.Ban()
	return legalActions(g.Turn().Phase, g.moves, ban, banned)
}

// LegalBefore returns the legal actions of the last ply played as they
// were before it was played — what a page showing the game one ply
// earlier offered — without replaying the game. ok is false when the game
// does not know them: no ply played, or the last one is a move played
// before an Undo.
func (g *Game) LegalBefore() (legal []Action, ok bool) {
	n := len(g.plies)
	if n == 0 {
		return nil, false
	}
	t := g.variant.turn(g.Ply() - 1)
	if t.Phase == PhaseBan { // a ban leaves the position, and so its moves, as they were
		return legalActions(PhaseBan, g.moves, Pair{}, false), true
	}
	if !g.beforeKnown {
		return nil, false
	}
	ban, banned := g.startBan, g.startHasBan
	if n > 1 {
		prev := g.plies[n-2].action
		ban, banned = prev.Pair(), prev.Phase == PhaseBan
	}
	return legalActions(PhaseMove, g.before, ban, banned), true
}

// legalActions are the actions of phase that moves allow, less the pair
// banned, sorted by their BCN text.
func legalActions(phase Phase, moves []move, ban Pair, banned bool) []Action {
	out := make([]Action, 0, len(moves))
	if phase == PhaseBan {
		for _, m := range moves {
			if m.promo == 0 || m.promo == Queen { // one ban per pair
				out = append(out, BanAction(m.from, m.to))
			}
		}
	} else {
		for _, m := range moves {
			a := m.action()
			if !banned || a.Pair() != ban {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(a, b Action) int { return int(a.sortKey()) - int(b.sortKey()) })
	return out
}

// sortKey orders actions as their BCN text sorts ("0000" first, x squares
// after h8).
func (a Action) sortKey() int32 {
	promo := int32(0)
	if a.Promotion != 0 {
		promo = int32(a.Promotion.Letter()|0x20) - 'a' + 1
	}
	return squareKey(a.From)<<16 | squareKey(a.To)<<8 | promo
}

// squareKey orders squares as their names sort: a1 a2 … h8 x0 x9, after
// NoSquare.
func squareKey(s Square) int32 { return squareKeys[s+1] }

// squareKeys is squareKey's table, indexed by square + 1; read only.
var squareKeys = func() (t [X9 + 2]int32) {
	for s := range X9 + 1 {
		t[s+1] = int32(s) + 1
		if !s.IsX() {
			t[s+1] = int32(s.File()<<3|s.Rank()) + 1
		}
	}
	return t
}()

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
		if !g.moves.has(a.Pair()) {
			return illegalf(a.String(), "%s cannot ban %s: %s", t.Actor.Name(), a.Coords(), whyNot(&g.positions[len(g.positions)-1], a.Pair(), t.ToMove))
		}
		g.plies = append(g.plies, plyRecord{action: a, san: g.Notation().pairSAN(a.Pair())})
		g.outcome = g.adjudicate(false)
		g.revision++
		return nil
	}
	i, err := g.findMove(a)
	if err != nil {
		return err
	}
	g.playMove(i)
	g.revision++
	return nil
}

// edited counts a change other than a ply played: one that may change
// the movetext before the last ply (see movetextCache).
func (g *Game) edited() {
	g.revision++
	g.movetext = nil
}

// Revision counts the changes made to the game: every ply played or
// undone, every outcome declared or withdrawn and every variation added,
// extended, deleted or promoted changes it. A store compares
// revisions to know whether a game needs writing.
func (g *Game) Revision() uint64 { return g.revision }

// PlayText applies an action written in BCN, such as "b:e2e4" or "m:e7e8q".
func (g *Game) PlayText(bcn string) error {
	a, err := parseAction(bcn, g.promotions.letters())
	if err != nil {
		return err
	}
	return g.Play(a)
}

// findMove returns the index of the legal move a names, or says why there
// is none.
func (g *Game) findMove(a Action) (int, error) {
	if ban, banned := g.Ban(); banned && a.Pair() == ban {
		return 0, bannedf(a.String(), "%s is banned this turn", ban)
	}
	var pairMatch, promotes bool
	for i, m := range g.moves {
		if m.from != a.From || m.to != a.To {
			continue
		}
		pairMatch, promotes = true, promotes || m.promo != 0
		if m.promo == a.Promotion {
			return i, nil
		}
	}
	switch {
	case pairMatch && a.Promotion == 0:
		return 0, illegalf(a.String(), "%s promotes a pawn: add the piece, as in %sq", a.Coords(), a.Coords())
	case promotes:
		return 0, illegalf(a.String(), "%s cannot promote to a %s", a.Pair(), a.Promotion)
	case pairMatch:
		return 0, illegalf(a.String(), "%s is not a promotion", a.Pair())
	}
	return 0, illegalf(a.String(), "%s", whyNot(&g.positions[len(g.positions)-1], a.Pair(), g.ToMove()))
}

// whyNot explains why side, to move at pos, has no legal move with this
// pair.
func whyNot(pos *Position, p Pair, side Color) string {
	board := &pos.Board
	if !p.From.Valid() {
		return "there is nothing to pass: a side passes only in partial checkmate"
	}
	pc := board[p.From]
	switch {
	case pc == NoPiece:
		return fmt.Sprintf("there is no piece on %s", p.From)
	case pc.Color() != side:
		return fmt.Sprintf("the %s on %s is %s's, and it is %s's move", pc.Kind(), p.From, pc.Color().Name(), side.Name())
	case pos.inCheck:
		return fmt.Sprintf("the %s on %s cannot move to %s (%s is in check)", pc.Kind(), p.From, p.To, side.Name())
	}
	return fmt.Sprintf("the %s on %s cannot move to %s", pc.Kind(), p.From, p.To)
}

// playMove applies the legal move g.moves[i].
func (g *Game) playMove(i int) {
	m := g.moves[i]
	prev := &g.positions[len(g.positions)-1]
	capture, _ := g.mover.flags(i)
	san := encodeSAN(prev, g.moves, m, capture)
	g.before, g.beforeKnown = append(g.before[:0], g.moves...), true
	g.positions = append(g.positions, *prev)
	next := &g.positions[len(g.positions)-1]
	g.mover.play(i, next)
	g.moves = g.mover.moves()
	if next.inCheck {
		if len(g.moves) == 0 {
			san += "#"
		} else {
			san += "+"
		}
	}
	g.plies = append(g.plies, plyRecord{action: m.action(), san: san})
	g.outcome = g.adjudicate(true)
}

// adjudicate decides the outcome after a ply (or at the start): no playable
// move is checkmate or stalemate, by the ban or by the move; after a move,
// the draw rules apply too, those the variant keeps.
func (g *Game) adjudicate(afterMove bool) Outcome {
	pos := &g.positions[len(g.positions)-1]
	if o := g.mover.decided(pos); o.Over() {
		return o
	}
	if g.moves.playable(g.Ban()) == 0 {
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
	case g.mover.insufficient(&pos.Board):
		return Outcome{Status: Draw, Reason: InsufficientMaterial}
	case g.variant.ThreefoldRepetition() && g.repetitions() >= 3:
		return Outcome{Status: Draw, Reason: ThreefoldRepetition}
	case g.variant.FiftyMoveRule() && pos.HalfmoveClock >= 100:
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

// Undo takes back the last ply, ban or move, with its NAGs, the comment
// after it and the variations that are alternatives to it. A resignation
// or agreed draw is withdrawn first (it is not a ply). Undoing the ply
// that ended a game reopens it. At the start it returns ErrNothingToUndo.
func (g *Game) Undo() error {
	if g.declared {
		g.declared = false
		g.outcome = Outcome{}
		g.edited()
		return nil
	}
	n := len(g.plies)
	if n == 0 {
		return ErrNothingToUndo
	}
	if g.plies[n-1].action.Phase == PhaseMove {
		if err := g.mover.load(&g.positions[len(g.positions)-2]); err != nil {
			return fmt.Errorf("undo: restoring the position before the move: %w", err)
		}
		g.positions = g.positions[:len(g.positions)-1]
		g.moves = g.mover.moves()
		g.beforeKnown = false
	}
	g.plies = g.plies[:n-1]
	delete(g.notes, n) // its NAGs, the comment after it and its alternatives
	g.outcome = Outcome{}
	g.edited()
	return nil
}

// Resign ends the game: side resigns and the other side wins.
func (g *Game) Resign(side Color) error {
	if side != White && side != Black {
		return errors.New("resign: the side must be white or black")
	}
	return g.declare(Outcome{Status: Resigned, Reason: Resignation, Winner: side.Other()})
}

// Abort calls the game off: it ends with no result and no winner
// (Aborted). Who may abort, and when, is for the application to decide.
func (g *Game) Abort() error {
	return g.declare(Outcome{Status: Aborted, Reason: Abort})
}

// AgreeDraw ends the game as a draw by agreement.
func (g *Game) AgreeDraw() error {
	return g.declare(Outcome{Status: Draw, Reason: Agreement})
}

// FlagFall ends the game because side's clock ran out: side loses on time,
// unless the other side has no mating material (a lone king, or a king and
// one bishop or knight; in EN-Chess, kings and Aurors only), which is a
// draw.
func (g *Game) FlagFall(side Color) error {
	if side != White && side != Black {
		return errors.New("flag fall: the side must be white or black")
	}
	if pos := g.Position(); !g.mover.canMate(&pos.Board, side.Other()) {
		return g.declare(Outcome{Status: Draw, Reason: Timeout})
	}
	return g.declare(Outcome{Status: TimeForfeit, Reason: Timeout, Winner: side.Other()})
}

func (g *Game) declare(o Outcome) error {
	if g.outcome.Over() {
		return &ActionError{Kind: ErrGameOver, msg: "the game is over: " + g.outcome.String()}
	}
	g.outcome, g.declared = o, true
	g.edited()
	return nil
}
