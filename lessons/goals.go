package lessons

import (
	"fmt"
	"slices"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// Goal decides whether an action reaches what a step asks. Check gets the
// game at the step (it may play and take back, and leaves it as it was)
// and a legal action, and says why not when it does not.
type Goal interface {
	Check(g *rules.Game, a rules.Action) (ok bool, why string)
}

// Exact is reached by the step's own answers only: "ban e2–e4". Hint
// says what to do instead of any other action.
type Exact struct {
	Answers []string // BCN
	Hint    string
}

// Check reports whether a is one of the answers.
func (e Exact) Check(g *rules.Game, a rules.Action) (bool, string) {
	if slices.Contains(e.Answers, a.String()) {
		return true, ""
	}
	return false, "That is not the one this step asks for. " + e.Hint
}

// Mate is reached by an action that checkmates at once.
type Mate struct{}

// Check reports whether a checkmates.
func (Mate) Check(g *rules.Game, a rules.Action) (bool, string) {
	me := g.Turn().Actor
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	o := g.Outcome()
	if o.Status == rules.Checkmate && o.Winner == me {
		return true, ""
	}
	if o.Over() {
		return false, fmt.Sprintf("%s ends the game, but not in your win: %s.", capital(name), o)
	}
	return false, fmt.Sprintf("%s does not checkmate: %s", capital(name), waysOut(g))
}

// OneWayOut is reached by a move that checks and leaves the opponent one
// pair: the ban that follows, the mover's own, mates.
type OneWayOut struct{}

// Check reports whether a leaves the opponent in check with one pair.
func (OneWayOut) Check(g *rules.Game, a rules.Action) (bool, string) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, fmt.Sprintf("%s ends the game at once: %s.", capital(name), o)
	}
	pairs := pairsOf(g.Legal())
	switch {
	case !g.InCheck():
		return false, fmt.Sprintf("%s is not check: the opponent may play any of %d moves, and your ban takes away one.", capital(name), len(pairs))
	case len(pairs) > 1:
		return false, fmt.Sprintf("%s is check, but %s", capital(name), waysOut(g))
	}
	return true, ""
}

// NoStalemate is reached by a move after which the ban the mover must
// make cannot stalemate: the opponent is in check, or has two pairs or
// more; and the move itself ends nothing.
type NoStalemate struct{}

// Check reports whether a keeps the game going with a win still possible.
func (NoStalemate) Check(g *rules.Game, a rules.Action) (bool, string) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, fmt.Sprintf("%s ends the game: %s.", capital(name), o)
	}
	pairs := pairsOf(g.Legal())
	if !g.InCheck() && len(pairs) == 1 {
		return false, fmt.Sprintf("%s leaves %s one move, %s, and not in check: your ban must take it, and that is stalemate — a draw.",
			capital(name), g.ToMove().Name(), Pair(pairs[0]))
	}
	return true, ""
}

// SafeFromMate is reached by an action after which the opponent cannot
// force checkmate within Plies plies, bans included (proved by
// puzzles.Prover). Threat says what happens otherwise.
type SafeFromMate struct {
	Plies  int
	Threat string
}

// Check reports whether the opponent has no forced mate after a.
func (s SafeFromMate) Check(g *rules.Game, a rules.Action) (bool, string) {
	me := g.Turn().Actor
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	var pr puzzles.Prover
	n, mates, err := pr.Distance(g, me.Other(), s.Plies)
	if err != nil {
		return false, fmt.Sprintf("%s could not be checked: %v.", capital(name), err)
	}
	if mates {
		return false, fmt.Sprintf("After %s, %s forces checkmate within %d plies. %s", name, me.Other().Name(), n, s.Threat)
	}
	return true, ""
}

// WinsMaterial is reached by an action after which the learner is at
// least Gain pawns of material up within Plies plies, whatever the
// opponent does (an exhaustive search over bans and moves: pawn 1,
// knight and bishop 3, rook 5, queen 9; a mate counts as winning all).
type WinsMaterial struct {
	Gain, Plies int
}

// Check reports whether a wins the material.
func (w WinsMaterial) Check(g *rules.Game, a rules.Action) (bool, string) {
	me := g.Turn().Actor
	before := puzzles.MaterialBalance(g.Position(), me)
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	v := bestBalance(g, me, w.Plies)
	switch v {
	case mateWorth:
		return true, ""
	case -mateWorth:
		return false, fmt.Sprintf("After %s, best play gets you mated.", name)
	case drawWorth:
		return false, fmt.Sprintf("After %s, best play ends in a draw.", name)
	}
	got := v - before
	switch {
	case got >= w.Gain:
		return true, ""
	case got < 0:
		return false, fmt.Sprintf("After %s, best play loses you %s.", name, pawns(-got))
	case got == 0:
		return false, fmt.Sprintf("After %s, best play wins nothing: the material stays even.", name)
	}
	return false, fmt.Sprintf("After %s, best play wins only %s.", name, pawns(got))
}

// Promotes is reached by a move that promotes a pawn to Piece (any piece
// when 0).
type Promotes struct{ Piece rules.PieceKind }

// Check reports whether a promotes as asked.
func (p Promotes) Check(g *rules.Game, a rules.Action) (bool, string) {
	switch {
	case a.Phase != rules.PhaseMove || a.Promotion == 0:
		return false, fmt.Sprintf("%s does not promote a pawn.", capital(Name(g, a)))
	case p.Piece != 0 && a.Promotion != p.Piece:
		return false, fmt.Sprintf("%s promotes to a %s; a %s is stronger here.", capital(Name(g, a)), a.Promotion, p.Piece)
	}
	return true, ""
}

// Draws is reached by an action that ends the game drawn for Reason.
type Draws struct{ Reason rules.Reason }

// Check reports whether a ends the game drawn for the reason.
func (d Draws) Check(g *rules.Game, a rules.Action) (bool, string) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	o := g.Outcome()
	if o.Over() && o.Winner == 0 && o.Reason == d.Reason {
		return true, ""
	}
	if o.Over() {
		return false, fmt.Sprintf("%s ends the game, but %s.", capital(name), o)
	}
	return false, fmt.Sprintf("After %s the game goes on.", name)
}

// ResetsFifty is reached by a move after which the game goes on with the
// half-move clock back at 0: a capture or a pawn move.
type ResetsFifty struct{}

// Check reports whether a resets the fifty-move count.
func (ResetsFifty) Check(g *rules.Game, a rules.Action) (bool, string) {
	name := Name(g, a)
	g.Play(a)
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return false, fmt.Sprintf("%s ends the game: %s.", capital(name), o)
	}
	if pos := g.Position(); pos.HalfmoveClock != 0 {
		return false, fmt.Sprintf("%s is neither a capture nor a pawn move, so the count goes on.", capital(name))
	}
	return true, ""
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

// waysOut says how many pairs the side to move at g has, naming a few.
func waysOut(g *rules.Game) string {
	pairs := pairsOf(g.Legal())
	side := g.ToMove().Name()
	var names []string
	for _, p := range pairs {
		if len(names) == 3 {
			break
		}
		names = append(names, Pair(p))
	}
	switch len(pairs) {
	case 0:
		return side + " has no move."
	case 1:
		return side + " has one way out, " + names[0] + "."
	case 2, 3:
		return fmt.Sprintf("%s has %d ways out (%s): a ban takes away only one.", side, len(pairs), list(names))
	}
	return fmt.Sprintf("%s has %d moves (%s, …): a ban takes away only one.", side, len(pairs), list(names))
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

// pawns writes an amount of material: "1 pawn", "3 pawns".
func pawns(n int) string {
	if n == 1 {
		return "1 pawn"
	}
	return fmt.Sprintf("%d pawns", n)
}

// capital makes the first letter of s upper case.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// AllOf is reached by an action that reaches every one of its goals; the
// first goal missed says why not.
type AllOf []Goal

// Check reports whether a reaches every goal.
func (all AllOf) Check(g *rules.Game, a rules.Action) (bool, string) {
	for _, goal := range all {
		if ok, why := goal.Check(g, a); !ok {
			return false, why
		}
	}
	return true, ""
}

// AnyOf is reached by an action that reaches one of its goals; the last
// goal missed says why not.
type AnyOf []Goal

// Check reports whether a reaches one of the goals.
func (any AnyOf) Check(g *rules.Game, a rules.Action) (bool, string) {
	why := ""
	for _, goal := range any {
		ok, w := goal.Check(g, a)
		if ok {
			return true, ""
		}
		why = w
	}
	return false, why
}
