package training

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
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
// was. A reason names the wrong action and says why (reason.notThis, its
// Action and Why), but for a puzzle already solved or a refusal.
func (s *Service) reason(ctx context.Context, p Puzzle, g *rules.Game, wrong rules.Action) (i18n.Message, []rules.Action) {
	if g.Outcome().Over() {
		return i18n.Msg("reason.solvedAlready"), nil
	}
	name := lessons.Name(g, wrong)
	if err := g.Play(wrong); err != nil {
		return i18n.Verbatim(errs.Of(err).Msg), nil // the rules' refusals speak English
	}
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		return notThis(name, i18n.Msg("reason.endsGame", "End", lessons.Ending(o))), nil
	}
	var why i18n.Message
	var answer []rules.Action
	if s.analyser != nil {
		why, answer = s.engineReason(ctx, g, p)
	}
	if why.IsZero() {
		why = proofReason(g, p)
	}
	return notThis(name, why), answer
}

// notThis is the reason the wrong action, named name, fails: why.
func notThis(name, why i18n.Message) i18n.Message {
	return i18n.Msg("reason.notThis", "Action", name, "Why", why)
}

// WhyNot is what a reason says after the wrong action's name (its Why),
// the whole reason when it has none.
func WhyNot(reason i18n.Message) i18n.Message {
	if why, ok := reason.Arg("Why").(i18n.Message); ok && reason.ID == "reason.notThis" {
		return why
	}
	return reason
}

// encodeReason writes a reason to be kept with an attempt (and said in
// the language of whoever reads it).
func encodeReason(m i18n.Message) string {
	if m.IsZero() {
		return ""
	}
	data, err := json.Marshal(m)
	if err != nil { // a reason's values are strings, numbers and messages
		return m.String()
	}
	return string(data)
}

// Why is the reason the attempt failed ("" said when solved): as kept
// (a message written as JSON), or, kept before reasons were messages, its
// English text as it stands.
func (a Attempt) Why() i18n.Message {
	if strings.HasPrefix(a.Reason, "{") {
		var m i18n.Message
		if err := json.Unmarshal([]byte(a.Reason), &m); err == nil {
			return m
		}
	}
	return i18n.Verbatim(a.Reason)
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
// what it comes to for the solver, with its refutation; nothing when the
// engine does not answer.
func (s *Service) engineReason(ctx context.Context, g *rules.Game, p Puzzle) (i18n.Message, []rules.Action) {
	res, err := s.analyser.Analyse(ctx, g, reasonLimits)
	if err != nil || len(res.PV) == 0 {
		return i18n.Message{}, nil
	}
	return lineReason(g, p, res), refutation(g, res.PV, p.Solver)
}

// bySide is the id for White or for Black: a sentence that names a side
// is written whole for each.
func bySide(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}

// lineReason says what the engine's result res from g, after the wrong
// action, comes to for the solver.
func lineReason(g *rules.Game, p Puzzle, res engine.Result) i18n.Message {
	solver, opp := p.Solver, p.Solver.Other()
	line := i18n.Msg("reason.bestPlay", "Line", names(g, res.PV, reasonLine))
	actor := g.Turn().Actor
	if res.Mate != 0 {
		mater, plies := actor, res.Mate
		if plies < 0 {
			mater, plies = actor.Other(), -plies
		}
		if mater == opp {
			return i18n.Counted(bySide(opp, "reason.mates.w", "reason.mates.b"), plies, "Line", line)
		}
		return i18n.Counted(bySide(solver, "reason.slower.w", "reason.slower.b"), plies, "Line", line)
	}
	score := res.Score
	if actor != solver {
		score = -score
	}
	eval := i18n.Msg(bySide(solver, "reason.eval.w", "reason.eval.b"), "Score", fmt.Sprintf("%+.1f", float64(score)/100))
	switch {
	case p.Kind() == puzzles.Defence:
		return i18n.Msg(bySide(solver, "reason.holdsNoLonger.w", "reason.holdsNoLonger.b"), "Line", line, "Eval", eval)
	case p.Kind() == puzzles.Material:
		return i18n.Msg(bySide(solver, "reason.noMaterial.w", "reason.noMaterial.b"), "Line", line, "Eval", eval)
	}
	return i18n.Msg("reason.noMate", "Line", line, "Eval", eval)
}

// proofReason says, by the rules alone, what the wrong action at g gives
// away: the mate (proved within proofPlies plies), or the material.
func proofReason(g *rules.Game, p Puzzle) i18n.Message {
	var pr puzzles.Prover
	pr.Budget = 2_000_000
	solver, opp := p.Solver, p.Solver.Other()
	switch p.Kind() {
	case puzzles.Defence:
		if n, ok, err := pr.Distance(g, opp, proofPlies); err == nil && ok {
			return i18n.Counted(bySide(opp, "reason.forcesMate.w", "reason.forcesMate.b"), n)
		}
		return i18n.Msg("reason.notHeld")
	case puzzles.Material:
		return i18n.Msg("reason.materialKept")
	}
	if n, ok, err := pr.Distance(g, solver, proofPlies); err == nil && ok {
		return i18n.Counted(bySide(solver, "reason.slowerProof.w", "reason.slowerProof.b"), n)
	}
	return i18n.Counted(bySide(solver, "reason.noForce.w", "reason.noForce.b"), proofPlies)
}

// names says who does what in up to n actions of line played from g
// ("Black bans e2–e4, White plays Nf3") and leaves g as it was.
func names(g *rules.Game, line []rules.Action, n int) i18n.Message {
	var out []i18n.Message
	played := 0
	for _, a := range line {
		if len(out) == n {
			out = append(out, i18n.Verbatim("…"))
			break
		}
		actor := g.Turn().Actor
		name := i18n.Msg(bySide(actor, "reason.plays.w", "reason.plays.b"), "Action", lessons.Name(g, a))
		if a.Phase == rules.PhaseBan {
			name = i18n.Msg(bySide(actor, "reason.bans.w", "reason.bans.b"), "Pair", lessons.Pair(a.Pair()))
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
	if len(out) == 0 {
		return i18n.Verbatim("")
	}
	joined := out[len(out)-1]
	for i := len(out) - 2; i >= 0; i-- {
		joined = i18n.Msg("reason.then", "First", out[i], "Next", joined)
	}
	return joined
}
