package generate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// The generator's thresholds (docs/puzzles.md).
const (
	// mateHorizon is the longest mate a puzzle shows, in plies, and the
	// horizon of the proofs that no other first action mates too soon
	// (Limits.MateHorizon may raise it).
	mateHorizon = 5
	// mateMargin: every other first action's mate, if any, comes at least
	// this many plies after the solution's.
	mateMargin = 4
	// threatHorizon is how soon, in plies after the solver's action, the
	// opponent must force mate after every action but a defence's.
	threatHorizon = 5
	// gainCP is the least material a material puzzle wins, and marginCP
	// how much less every other first action must be worth, in centipawns.
	gainCP   = 100 * puzzles.MaterialGain
	marginCP = 200
	// holdCP is how much of the gain may look lost in the search's value
	// at the end of a material line (the engine's values add placement to
	// material).
	holdCP = 100
	// lostCP: a defence must leave the solver no worse than this.
	lostCP = -300
	// maxSolverActions bounds a material line: the solver acts at most
	// this many times, as in the longest mate (Limits.SolverActions may
	// raise it).
	maxSolverActions = 3
	// maxAhead: a side already this far ahead in material wins more with
	// most actions; no material puzzle starts there.
	maxAhead = 500
)

// Limits are the generator's search limits. They are bounds on depth and
// nodes, never on time, so a run finds the same puzzles on any machine.
type Limits struct {
	// Screen limits the first look at every position; Deep, the searches
	// that verify a candidate and build its line. A search for the best
	// two moves (analyst.best2) has twice their nodes.
	Screen, Deep engine.Limits
	ProofBudget  int64 // positions one proof over explicit bans may visit
	RateNodes    int64 // nodes of each search that rates a puzzle
	// MateHorizon is the longest mate a puzzle may show, in plies, and
	// the horizon of the proofs (0: mateHorizon, 5; at most
	// puzzles.MaxPlies).
	MateHorizon int
	// SolverActions bounds a material line's solver actions (0:
	// maxSolverActions, 3).
	SolverActions int
	// ProofTotal bounds the positions all the proofs of one candidate
	// may visit (0: no bound); past it the candidate is rejected.
	ProofTotal int64
}

// horizon is the longest mate a puzzle may show, in plies.
func (l Limits) horizon() int {
	if l.MateHorizon > 0 {
		return min(l.MateHorizon, puzzles.MaxPlies)
	}
	return mateHorizon
}

// solverActions is the most solver actions of a material line.
func (l Limits) solverActions() int {
	if l.SolverActions > 0 {
		return l.SolverActions
	}
	return maxSolverActions
}

// DefaultLimits are the limits the shipped puzzles were made with.
var DefaultLimits = Limits{
	Screen:      engine.Limits{Depth: 3, Nodes: 15_000},
	Deep:        engine.Limits{Nodes: 60_000},
	ProofBudget: 3_000_000,
	RateNodes:   50_000,
}

// LongLimits are the limits of a run that seeks long puzzles (--long):
// mates in four (within eight plies) and material lines of four solver
// actions, the screen a move deeper, the proofs of a candidate bounded
// together.
var LongLimits = Limits{
	Screen:        engine.Limits{Depth: 4, Nodes: 30_000},
	Deep:          engine.Limits{Nodes: 60_000},
	ProofBudget:   3_000_000,
	RateNodes:     50_000,
	MateHorizon:   puzzles.MaxPlies,
	SolverActions: puzzles.LongActions,
	ProofTotal:    12_000_000,
}

// rejection is why a candidate is not a puzzle: a reason the figures
// count, and what the trace shows besides.
type rejection struct {
	reason, detail string
}

func reject(reason string) error { return &rejection{reason: reason} }

func (r *rejection) Error() string {
	if r.detail == "" {
		return r.reason
	}
	return r.reason + " (" + r.detail + ")"
}

// finder examines positions for puzzles.
type finder struct {
	ctx   context.Context
	lim   Limits
	stats *Stats
	trace io.Writer // a line for each candidate, when set
	// screen searches a game's positions one after another: each starts
	// with what the search of the one before left in its table (a game's
	// positions are searched in order, by one worker, so what it finds
	// still depends on the game alone).
	screen *analyst
}

// hints are what the game a position comes from tells of it.
type hints struct {
	// matedSoon says the game went on to checkmate the side to act within
	// a few plies: a defence may have been needed.
	matedSoon bool
	// before is the position before the last move, if any: a material
	// puzzle must win MaterialGain more than the solver had there, so
	// that taking back what the last move took is not a puzzle.
	before *rules.Position
}

// examine looks for a puzzle at g's current moment. It returns nil when
// there is none.
func (f *finder) examine(g *rules.Game, h hints) (*puzzles.Puzzle, error) {
	if g.Outcome().Over() || len(g.Legal()) < 2 || g.Position().HalfmoveClock >= 90 {
		return nil, nil
	}
	if _, banned := g.Ban(); !banned && g.Turn().Phase == rules.PhaseMove {
		// A move ply with no ban in force (a FEN may say so) is not a
		// moment of a Ban Chess game: the engine takes it for a ban turn.
		return nil, nil
	}
	f.stats.Positions++
	if f.screen == nil {
		f.screen = newAnalyst(f.ctx, f.lim.Screen)
	}
	screen, before := f.screen, f.screen.nodes
	defer func() { f.stats.Nodes += screen.nodes - before }()
	r, err := screen.search(g)
	if err != nil {
		return nil, err
	}
	solver := g.Turn().Actor
	base := 100 * puzzles.MaterialBalance(g.Position(), solver)
	if h.before != nil {
		base = max(base, 100*puzzles.MaterialBalance(*h.before, solver))
	}
	kind := classify(valueOf(r), base, h.matedSoon, f.lim.horizon())
	if kind == "" {
		return nil, nil
	}
	f.stats.Candidates[string(kind)]++
	began, nodes, proofs := time.Now(), f.stats.Nodes, f.stats.ProofNodes
	p, err := f.verify(g, screen, base, kind)
	if f.trace != nil {
		verdict := "kept"
		if p == nil {
			verdict = fmt.Sprint(err)
		}
		fmt.Fprintf(f.trace, "%s  %s: %s (%v, %d nodes, %d proof nodes)\n", g.FEN(), kind, verdict,
			time.Since(began).Round(time.Millisecond), f.stats.Nodes-nodes, f.stats.ProofNodes-proofs)
	}
	var why *rejection
	switch {
	case errors.As(err, &why):
		f.stats.Rejected[fmt.Sprintf("%s: %s", kind, why.reason)]++
	case errors.Is(err, errUnstable), errors.Is(err, puzzles.ErrBudget):
		f.stats.Rejected[fmt.Sprintf("%s: %v", kind, err)]++
	default:
		return p, err
	}
	return nil, nil
}

// classify returns the kind of puzzle a first look suggests, "" for none;
// "mate" stands for the three mates until a proof tells which.
func classify(v value, base int, matedSoon bool, horizon int) puzzles.Theme {
	switch {
	case v.mates(horizon):
		return "mate"
	case v.mate == 0 && v.cp >= base+gainCP && base <= maxAhead:
		return puzzles.Material
	case matedSoon && v.mate == 0 && v.cp >= lostCP:
		return puzzles.Defence
	}
	return ""
}

// qualify checks the best and second-best values of a position against
// what a puzzle of kind needs, a mate within horizon plies.
func qualify(kind puzzles.Theme, best, second value, base, horizon int) error {
	switch kind {
	case "mate":
		if !best.mates(horizon) {
			return reject("no mate within the horizon")
		}
	case puzzles.Material:
		if best.mate != 0 || best.cp < base+gainCP {
			return reject("the gain is smaller than 3 pawns")
		}
	case puzzles.Defence:
		if best.mate != 0 || best.cp < lostCP {
			return reject("the defence does not hold")
		}
	}
	if !apart(kind)(best, second) {
		return &rejection{reason: "another first action is nearly as good", detail: fmt.Sprintf("%v against %v", second, best)}
	}
	return nil
}

// apart returns the test that every other action falls short of the best
// as a puzzle of kind needs: for a mate, it mates mateMargin plies later
// or not at all; for a material puzzle, it does not mate and is worth
// marginCP less; for a defence, it is mated within the threat horizon.
func apart(kind puzzles.Theme) func(best, second value) bool {
	return func(best, second value) bool {
		switch {
		case second == noValue:
			return true
		case kind == "mate" && best.mate > 0:
			return second.mate <= 0 || second.mate >= best.mate+mateMargin
		case second.mate > 0:
			return false
		case kind == puzzles.Material:
			return second.mate < 0 || best.mate > 0 || best.cp-second.cp >= marginCP
		case kind == puzzles.Defence:
			return second.mated(threatHorizon + 1)
		}
		return true
	}
}

// verify checks a candidate at the screen's limits, then at the deep
// limits, proves what it can by exhaustive minimax, and builds the
// puzzle.
func (f *finder) verify(g *rules.Game, screen *analyst, base int, kind puzzles.Theme) (*puzzles.Puzzle, error) {
	_, best, second, err := screen.best2(g)
	if err != nil {
		return nil, err
	}
	if err := qualify(kind, best, second, base, f.lim.horizon()); err != nil {
		return nil, err
	}
	deep := newAnalyst(f.ctx, f.lim.Deep)
	defer func() { f.stats.Nodes += deep.nodes }()
	top, best, second, err := deep.best2(g)
	if err != nil {
		return nil, err
	}
	if err := qualify(kind, best, second, base, f.lim.horizon()); err != nil {
		return nil, err
	}
	pr := &puzzles.Prover{Budget: f.lim.ProofBudget, Total: f.lim.ProofTotal}
	defer func() { f.stats.ProofNodes += pr.Nodes }()
	b := &builder{g: g, deep: deep, pr: pr, solver: g.Turn().Actor, start: g.FEN(),
		horizon: f.lim.horizon(), actions: f.lim.solverActions()}
	var line []rules.Action
	switch kind {
	case "mate":
		line, kind, err = b.mate(top)
	case puzzles.Defence:
		line, err = b.defence(top)
		b.mine = 1
	case puzzles.Material:
		line, err = b.material(top, base)
	}
	if err != nil {
		return nil, err
	}
	solution := make([]string, len(line))
	for i, a := range line {
		solution[i] = a.String()
	}
	themes, err := puzzles.Describe(b.start, solution, kind)
	if err != nil {
		return nil, fmt.Errorf("generate: %s: the line %v fails its check: %w", b.start, solution, err)
	}
	start, err := rules.FromFEN(b.start, puzzles.Variant())
	if err != nil {
		return nil, err
	}
	rating, err := rate(f.ctx, start, line, b.mine, themes, f.lim.RateNodes, &f.stats.Nodes)
	if err != nil {
		return nil, err
	}
	return &puzzles.Puzzle{ID: puzzles.IDOf(puzzles.Key(start)), FEN: b.start, Solution: solution, Themes: themes, Rating: rating}, nil
}

// builder builds a puzzle's line from g's current moment, which it plays
// along and takes back.
type builder struct {
	g      *rules.Game
	deep   *analyst
	pr     *puzzles.Prover
	solver rules.Color
	start  string
	line   []rules.Action
	mine   int // the solver's actions in line
	// horizon is the longest mate, in plies; actions the most solver
	// actions of a material line.
	horizon, actions int
}

func (b *builder) play(a rules.Action) error {
	mine := b.g.Turn().Actor == b.solver
	if err := b.g.Play(a); err != nil {
		return fmt.Errorf("generate: %s: %w", b.g.FEN(), err)
	}
	b.line = append(b.line, a)
	if mine {
		b.mine++
	}
	return nil
}

// rewind takes back every action the builder played.
func (b *builder) rewind() {
	for range b.line {
		b.g.Undo()
	}
}

// mate proves the shortest forced mate, checks that no other first action
// mates within mateMargin plies more (proven up to the horizon; the deep
// search looked further) and that the one that does is the search's top,
// and builds the line: at each solver's step the
// one action that keeps the mate within the plies left (the last may be
// any that mates at once: the first in BCN order), at each reply the one
// that puts the mate off longest (ties: the engine's choice, else the
// first in BCN order).
func (b *builder) mate(top rules.Action) ([]rules.Action, puzzles.Theme, error) {
	defer b.rewind()
	plies, found, err := b.pr.Distance(b.g, b.solver, b.horizon)
	if err != nil {
		return nil, "", err
	}
	if !found {
		return nil, "", reject("the proof finds no mate within the horizon")
	}
	var winners []rules.Action
	within := min(plies+mateMargin-1, b.horizon)
	for _, a := range b.g.Legal() {
		ok, err := b.matesAfter(a, within-1)
		if err != nil {
			return nil, "", err
		}
		if ok {
			winners = append(winners, a)
		}
	}
	switch {
	case len(winners) != 1:
		return nil, "", &rejection{reason: "other first actions mate nearly as soon", detail: fmt.Sprintf("%d mate within %d plies", len(winners), within)}
	case winners[0] != top:
		return nil, "", &rejection{reason: "the proof and the search disagree", detail: fmt.Sprintf("%s mates, the search plays %s", winners[0], top)}
	}
	if plies == 1 {
		// A mate in one claims that no other first action ends the game
		// at once (Describe): a stalemate or a draw in one is no puzzle's
		// alternative.
		for _, a := range b.g.Legal() {
			if err := b.g.Play(a); err != nil {
				return nil, "", err
			}
			o := b.g.Outcome()
			b.g.Undo()
			if a != winners[0] && o.Over() {
				return nil, "", &rejection{reason: "another first action ends the game at once", detail: fmt.Sprintf("%s: %s", a, o)}
			}
		}
	}
	if err := b.play(winners[0]); err != nil {
		return nil, "", err
	}
	for left := plies - 1; !b.g.Outcome().Over(); left-- {
		if left <= 0 {
			return nil, "", fmt.Errorf("generate: %s: the proven mate in %d plies is not reached", b.start, plies)
		}
		var next rules.Action
		var err error
		if b.g.Turn().Actor == b.solver {
			next, err = b.mateStep(left)
		} else {
			next, err = b.stubbornReply(left)
		}
		if err != nil {
			return nil, "", err
		}
		if err := b.play(next); err != nil {
			return nil, "", err
		}
	}
	kind, ok := puzzles.MateTheme(b.mine)
	if !ok {
		return nil, "", &rejection{reason: "the mate takes more than 4 solver actions", detail: fmt.Sprint(b.mine)}
	}
	return slices.Clone(b.line), kind, nil
}

// matesAfter reports whether the solver, playing a now, mates within
// plies more.
func (b *builder) matesAfter(a rules.Action, plies int) (bool, error) {
	if err := b.g.Play(a); err != nil {
		return false, err
	}
	defer b.g.Undo()
	return b.pr.Mates(b.g, b.solver, plies)
}

// mateStep returns the solver's action that keeps the mate within left
// plies, which must be the only one unless it mates at once.
func (b *builder) mateStep(left int) (rules.Action, error) {
	var wins []rules.Action
	for _, a := range b.g.Legal() {
		if err := b.g.Play(a); err != nil {
			return rules.Action{}, err
		}
		o := b.g.Outcome()
		b.g.Undo()
		if o.Status == rules.Checkmate && o.Winner == b.solver {
			return a, nil // mates at once: the first in BCN order
		}
		ok, err := b.matesAfter(a, left-1)
		if err != nil {
			return rules.Action{}, err
		}
		if ok {
			wins = append(wins, a)
		}
	}
	switch len(wins) {
	case 0:
		return rules.Action{}, fmt.Errorf("generate: %s: no action keeps the proven mate", b.g.FEN())
	case 1:
		return wins[0], nil
	}
	return rules.Action{}, reject("a later solver step has more than one mating action")
}

// stubbornReply returns the opponent's action that puts the mate off
// longest: all lose within left plies.
func (b *builder) stubbornReply(left int) (rules.Action, error) {
	var longest []rules.Action
	most := -1
	for _, a := range b.g.Legal() {
		if err := b.g.Play(a); err != nil {
			return rules.Action{}, err
		}
		d, found, err := b.pr.Distance(b.g, b.solver, left-1)
		b.g.Undo()
		if err != nil {
			return rules.Action{}, err
		}
		if !found {
			return rules.Action{}, fmt.Errorf("generate: %s: %s escapes the proven mate", b.g.FEN(), a)
		}
		switch {
		case d > most:
			most, longest = d, []rules.Action{a}
		case d == most:
			longest = append(longest, a)
		}
	}
	if len(longest) > 1 {
		r, err := b.deep.search(b.g)
		if err != nil {
			return rules.Action{}, err
		}
		if slices.Contains(longest, r.Best) {
			return r.Best, nil
		}
	}
	return longest[0], nil
}

// defence checks by proof that every first action but top lets the
// opponent force mate within the threat horizon and top does not.
func (b *builder) defence(top rules.Action) ([]rules.Action, error) {
	opponent := b.solver.Other()
	for _, a := range b.g.Legal() {
		if err := b.g.Play(a); err != nil {
			return nil, err
		}
		lost, err := b.pr.Mates(b.g, opponent, threatHorizon)
		b.g.Undo()
		if err != nil {
			return nil, err
		}
		switch {
		case a == top && lost:
			return nil, reject("the proof mates the defence")
		case a != top && !lost:
			return nil, reject("the proof finds another first action that holds")
		}
	}
	return []rules.Action{top}, nil
}
