package lessons

import (
	"slices"

	"github.com/banchess/banchess/i18n"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// Goal decides whether an action reaches what a step asks. Check gets the
// game at the step (it may play and take back, and leaves it as it was)
// and a legal action, and says why not when it does not.
type Goal interface {
	Check(g *rules.Game, a rules.Action) (ok bool, why i18n.Message)
}

// Exact is reached by the step's own answers only: "ban e2–e4". Hint
// says what to do instead of any other action.
type Exact struct {
	Answers []string // BCN
	Hint    i18n.Message
}

// Check reports whether a is one of the answers.
func (e Exact) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	if slices.Contains(e.Answers, a.String()) {
		return true, i18n.Message{}
	}
	return false, i18n.Msg("lesson.goal.notThisOne", "Hint", e.Hint)
}

// Mate is reached by an action that checkmates at once.
type Mate struct{}

// Check reports whether a checkmates.
func (Mate) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	me := g.Turn().Actor
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	o := g.Outcome()
	if o.Status == rules.Checkmate && o.Winner == me {
		return true, i18n.Message{}
	}
	if o.Over() {
		return false, i18n.Msg("lesson.goal.endsNotWin", "Action", capital(name), "End", Ending(o))
	}
	return false, i18n.Msg("lesson.goal.notMate", "Action", capital(name), "WaysOut", waysOut(g))
}

// OneWayOut is reached by a move that checks and leaves the opponent one
// pair: the ban that follows, the mover's own, mates.
type OneWayOut struct{}

// Check reports whether a leaves the opponent in check with one pair.
func (OneWayOut) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, i18n.Msg("lesson.goal.endsAtOnce", "Action", capital(name), "End", Ending(o))
	}
	pairs := pairsOf(g.Legal())
	switch {
	case !g.InCheck():
		return false, i18n.Counted("lesson.goal.noCheck", len(pairs), "Action", capital(name))
	case len(pairs) > 1:
		return false, i18n.Msg("lesson.goal.checkButWays", "Action", capital(name), "WaysOut", waysOut(g))
	}
	return true, i18n.Message{}
}

// NoStalemate is reached by a move after which the ban the mover must
// make cannot stalemate: the opponent is in check, or has two pairs or
// more; and the move itself ends nothing.
type NoStalemate struct{}

// Check reports whether a keeps the game going with a win still possible.
func (NoStalemate) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, i18n.Msg("lesson.goal.ends", "Action", capital(name), "End", Ending(o))
	}
	pairs := pairsOf(g.Legal())
	if !g.InCheck() && len(pairs) == 1 {
		return false, i18n.Msg("lesson.goal.stalemates", "Action", capital(name), "Pair", Pair(pairs[0]))
	}
	return true, i18n.Message{}
}

// SafeFromMate is reached by an action after which the opponent cannot
// force checkmate within Plies plies, bans included (proved by
// puzzles.Prover). Threat says what happens otherwise.
type SafeFromMate struct {
	Plies  int
	Threat i18n.Message
}

// Check reports whether the opponent has no forced mate after a.
func (s SafeFromMate) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	me := g.Turn().Actor
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	var pr puzzles.Prover
	n, mates, err := pr.Distance(g, me.Other(), s.Plies)
	if err != nil {
		return false, i18n.Msg("lesson.goal.unchecked", "Action", capital(name), "Err", err.Error())
	}
	if mates {
		return false, i18n.Counted("lesson.goal.forcesMate", n, "Action", name, "Threat", s.Threat)
	}
	return true, i18n.Message{}
}

// WinsMaterial is reached by an action after which the learner is at
// least Gain pawns of material up within Plies plies, whatever the
// opponent does (an exhaustive search over bans and moves: pawn 1,
// knight and bishop 3, rook 5, queen 9; a mate counts as winning all).
type WinsMaterial struct {
	Gain, Plies int
}

// Check reports whether a wins the material.
func (w WinsMaterial) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	me := g.Turn().Actor
	before := puzzles.MaterialBalance(g.Position(), me)
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	v := bestBalance(g, me, w.Plies)
	switch v {
	case mateWorth:
		return true, i18n.Message{}
	case -mateWorth:
		return false, i18n.Msg("lesson.goal.getsMated", "Action", name)
	case drawWorth:
		return false, i18n.Msg("lesson.goal.drawn", "Action", name)
	}
	got := v - before
	switch {
	case got >= w.Gain:
		return true, i18n.Message{}
	case got < 0:
		return false, i18n.Counted("lesson.goal.loses", -got, "Action", name)
	case got == 0:
		return false, i18n.Msg("lesson.goal.even", "Action", name)
	}
	return false, i18n.Counted("lesson.goal.winsOnly", got, "Action", name)
}

// Promotes is reached by a move that promotes a pawn to Piece (any piece
// when 0).
type Promotes struct{ Piece rules.PieceKind }

// Check reports whether a promotes as asked.
func (p Promotes) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	switch {
	case a.Phase != rules.PhaseMove || a.Promotion == 0:
		return false, i18n.Msg("lesson.goal.noPromotion", "Action", capital(Name(g, a)))
	case p.Piece == rules.Queen && a.Promotion != p.Piece:
		return false, i18n.Msg("lesson.goal.notQueen", "Action", capital(Name(g, a)))
	case p.Piece != 0 && a.Promotion != p.Piece:
		return false, i18n.Msg("lesson.goal.otherPiece", "Action", capital(Name(g, a)))
	}
	return true, i18n.Message{}
}

// Draws is reached by an action that ends the game drawn for Reason.
type Draws struct{ Reason rules.Reason }

// Check reports whether a ends the game drawn for the reason.
func (d Draws) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	o := g.Outcome()
	if o.Over() && o.Winner == 0 && o.Reason == d.Reason {
		return true, i18n.Message{}
	}
	if o.Over() {
		return false, i18n.Msg("lesson.goal.drawnOther", "Action", capital(name), "End", Ending(o))
	}
	return false, i18n.Msg("lesson.goal.goesOn", "Action", name)
}

// ResetsFifty is reached by a move after which the game goes on with the
// half-move clock back at 0: a capture or a pawn move.
type ResetsFifty struct{}

// Check reports whether a resets the fifty-move count.
func (ResetsFifty) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, i18n.Msg("lesson.goal.ends", "Action", capital(name), "End", Ending(o))
	}
	if pos := g.Position(); pos.HalfmoveClock != 0 {
		return false, i18n.Msg("lesson.goal.noReset", "Action", capital(name))
	}
	return true, i18n.Message{}
}

// pairsOf returns the distinct pairs of legal actions, in their order.
func pairsOf(legal []rules.Action) []rules.Pair {
	var out []rules.Pair
	for _, a := range legal {
		if p := a.Pair(); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// waysOut says how many pairs the side to move at g, the learner's
// opponent, has, naming a few.
func waysOut(g *rules.Game) i18n.Message {
	pairs := pairsOf(g.Legal())
	var names []string
	for _, p := range pairs {
		if len(names) == 3 {
			break
		}
		names = append(names, Pair(p))
	}
	switch len(pairs) {
	case 0:
		return i18n.Msg("lesson.ways.none")
	case 1:
		return i18n.Msg("lesson.ways.one", "Pair", names[0])
	case 2, 3:
		return i18n.Counted("lesson.ways.few", len(pairs), "Pairs", list(names))
	}
	return i18n.Counted("lesson.ways.many", len(pairs), "Pairs", list(names))
}

// Ending says how the game ended, o: "Checkmate — White wins, 1-0",
// "Stalemate by ban — draw, 1/2-1/2" (the game pages' banners).
func Ending(o rules.Outcome) i18n.Message {
	switch o.Status {
	case rules.Checkmate:
		end := i18n.Msg("banner.mate")
		switch o.Reason {
		case rules.ByBan:
			end = i18n.Msg("banner.mateByBan")
		case rules.KingCapture:
			end = i18n.Msg("banner.kingCaptured")
		}
		wins := i18n.Msg("banner.wins.b", "Result", o.Result())
		if o.Winner == rules.White {
			wins = i18n.Msg("banner.wins.w", "Result", o.Result())
		}
		return i18n.Msg("lesson.end.won", "End", end, "Wins", wins)
	case rules.Stalemate:
		if o.Reason == rules.ByBan {
			return i18n.Msg("banner.stalemateByBan")
		}
		return i18n.Msg("banner.stalemate")
	}
	switch o.Reason {
	case rules.ThreefoldRepetition:
		return i18n.Msg("banner.repetition")
	case rules.FiftyMoveRule:
		return i18n.Msg("banner.fiftyMoves")
	case rules.InsufficientMaterial:
		return i18n.Msg("banner.material")
	}
	return i18n.Msg("banner.draw")
}

// mateWorth and drawWorth are what a mate (for the learner; less for
// the opponent's) and a draw count for in a material search: a draw is
// no gain, whatever the material.
const (
	mateWorth = 1000
	drawWorth = -500
)

// bestBalance is me's material balance after plies more plies of best
// play from g (each side best for itself, bans included), a mate counting
// ±mateWorth and a draw drawWorth: minimax with alpha-beta pruning.
func bestBalance(g *rules.Game, me rules.Color, plies int) int {
	return balance(g, me, plies, -2*mateWorth, 2*mateWorth)
}

// balance is bestBalance within the window (alpha, beta): a value outside
// it is only a bound.
func balance(g *rules.Game, me rules.Color, plies, alpha, beta int) int {
	if o := g.Outcome(); o.Over() {
		switch {
		case o.Status == rules.Checkmate && o.Winner == me:
			return mateWorth
		case o.Status == rules.Checkmate:
			return -mateWorth
		}
		return drawWorth
	}
	if plies == 0 {
		return puzzles.MaterialBalance(g.Position(), me)
	}
	mine := g.Turn().Actor == me
	best := 2 * mateWorth
	if mine {
		best = -best
	}
	for _, a := range g.Legal() {
		g.Play(a)
		v := balance(g, me, plies-1, alpha, beta)
		g.Undo()
		if mine {
			best, alpha = max(best, v), max(alpha, v)
		} else {
			best, beta = min(best, v), min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// capital is name said at the start of a sentence: "The ban of e2–e4"
// (a move's SAN stays as it is).
func capital(name i18n.Message) i18n.Message {
	if name.ID == "lesson.banOf" {
		name.ID = "lesson.banOfStart"
	}
	return name
}

// AllOf is reached by an action that reaches every one of its goals; the
// first goal missed says why not.
type AllOf []Goal

// Check reports whether a reaches every goal.
func (all AllOf) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	for _, goal := range all {
		if ok, why := goal.Check(g, a); !ok {
			return false, why
		}
	}
	return true, i18n.Message{}
}

// AnyOf is reached by an action that reaches one of its goals; the last
// goal missed says why not.
type AnyOf []Goal

// Check reports whether a reaches one of the goals.
func (any AnyOf) Check(g *rules.Game, a rules.Action) (bool, i18n.Message) {
	var why i18n.Message
	for _, goal := range any {
		ok, w := goal.Check(g, a)
		if ok {
			return true, i18n.Message{}
		}
		why = w
	}
	return false, why
}
