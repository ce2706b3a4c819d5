package training

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// The engine's search for the reason a wrong action fails: short, so that
// a wrong answer is answered at once.
var reasonLimits = engine.Limits{Time: 300 * time.Millisecond, Depth: 8}

// reasonLine is how many plies of the engine's line a reason shows.
const reasonLine = 4

// proofPlies is how far the rules-only reason looks for a mate.
const proofPlies = 5

// reason says why wrong, played at g (the puzzle's position with the
// solution played as far as the attempt went), fails: the rules' refusal
// of an illegal action, the draw it makes, or the line that answers it —
// the engine's when the service has one and it answers, else a proof over
// the rules. With the engine's line comes the refutation a board shows
// after the wrong action (see refutation); nil without. It leaves g as it
// was.
func (s *Service) reason(ctx context.Context, p Puzzle, g *rules.Game, wrong rules.Action) (string, []rules.Action) {
	if g.Outcome().Over() {
		return "The puzzle was already solved: there is nothing more to play.", nil
	}
	name := lessons.Name(g, wrong)
	if err := g.Play(wrong); err != nil {
		return "Not this: " + errs.Of(err).Msg, nil
	}
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return fmt.Sprintf("Not this: %s. It ends the game, %s.", name, o), nil
	}
	why, answer := "", []rules.Action(nil)
	if s.analyser != nil {
		why, answer = s.engineReason(ctx, g, p)
	}
	if why == "" {
		why = proofReason(g, p)
	}
	return fmt.Sprintf("Not this: %s. %s", name, why), answer
}

// refutation is the start of line, the engine's best play from g just
// after a wrong action, that answers it on the board: its plies up to
// and including the opponent's first — after a wrong move, the solver's
// best ban comes before it, for in Ban Chess the solver bans next — or
// up to the end of the game. It is nil when line reaches neither (or
// holds an action g refuses). It leaves g as it was.
func refutation(g *rules.Game, line []rules.Action, solver rules.Color) []rules.Action {
	var out []rules.Action
	defer func() {
		for range out {
			g.Undo()
		}
	}()
	for _, a := range line {
		actor := g.Turn().Actor
		if g.Play(a) != nil {
			break
		}
		out = append(out, a)
		if actor != solver || g.Outcome().Over() {
			return slices.Clone(out)
		}
	}
	return nil
}

// engineReason is the engine's line from g, after the wrong action, and
// what it comes to for the solver, with its refutation; "" when the
// engine does not answer.
func (s *Service) engineReason(ctx context.Context, g *rules.Game, p Puzzle) (string, []rules.Action) {
	res, err := s.analyser.Analyse(ctx, g, reasonLimits)
	if err != nil || len(res.PV) == 0 {
		return "", nil
	}
	return lineReason(g, p, res), refutation(g, res.PV, p.Solver)
}

// lineReason says what the engine's result res from g, after the wrong
// action, comes to for the solver.
func lineReason(g *rules.Game, p Puzzle, res engine.Result) string {
	solver, opp := p.Solver, p.Solver.Other()
	line := "Best play: " + names(g, res.PV, reasonLine)
	actor := g.Turn().Actor
	if res.Mate != 0 {
		mater, plies := actor, res.Mate
		if plies < 0 {
			mater, plies = actor.Other(), -plies
		}
		if mater == opp {
			return fmt.Sprintf("%s, and %s mates in %d plies.", line, opp.Name(), plies)
		}
		return fmt.Sprintf("%s: %s still mates, but only in %d plies — the puzzle's way is faster.", line, solver.Name(), plies)
	}
	score := res.Score
	if actor != solver {
		score = -score
	}
	eval := fmt.Sprintf("%s %+.1f", solver.Name(), float64(score)/100)
	switch {
	case p.Kind() == puzzles.Defence:
		return fmt.Sprintf("%s: %s holds no longer (the engine: %s).", line, solver.Name(), eval)
	case p.Kind() == puzzles.Material:
		return fmt.Sprintf("%s, and %s wins no material that way (the engine: %s).", line, solver.Name(), eval)
	}
	return fmt.Sprintf("%s, and there is no mate (the engine: %s).", line, eval)
}

// proofReason says, by the rules alone, what the wrong action at g gives
// away: the mate (proved within proofPlies plies), or the material.
func proofReason(g *rules.Game, p Puzzle) string {
	var pr puzzles.Prover
	pr.Budget = 2_000_000
	solver, opp := p.Solver, p.Solver.Other()
	switch p.Kind() {
	case puzzles.Defence:
		if n, ok, err := pr.Distance(g, opp, proofPlies); err == nil && ok {
			return fmt.Sprintf("%s then forces mate within %d plies.", opp.Name(), n)
		}
		return "It does not hold the position as the solution does."
	case puzzles.Material:
		return "It does not win the material: the opponent keeps it."
	}
	if n, ok, err := pr.Distance(g, solver, proofPlies); err == nil && ok {
		return fmt.Sprintf("%s still mates, but only within %d plies — the puzzle's way is faster.", solver.Name(), n)
	}
	return fmt.Sprintf("After it %s can no longer force mate within %d plies.", solver.Name(), proofPlies)
}

// names says who does what in up to n actions of line played from g
// ("Black bans e2–e4, White plays Nf3") and leaves g as it was.
func names(g *rules.Game, line []rules.Action, n int) string {
	var out []string
	played := 0
	for _, a := range line {
		if len(out) == n {
			out = append(out, "…")
			break
		}
		actor := g.Turn().Actor.Name()
		name := actor + " plays " + lessons.Name(g, a)
		if a.Phase == rules.PhaseBan {
			name = actor + " bans " + lessons.Pair(a.Pair())
		}
		if g.Play(a) != nil {
			break
		}
		played++
		out = append(out, name)
	}
	for ; played > 0; played-- {
		g.Undo()
	}
	return strings.Join(out, ", ")
}
