package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// Where names the moment of a puzzle a request is about: Moment, the
// solution's plies played; or, when Ply is not 0, the ply of the board a
// form was made on (a game's ply, as the puzzle's position counts it).
type Where struct{ Moment, Ply int }

// moment is the moment w names in a puzzle whose position is at ply
// start.
func (w Where) moment(start int) int {
	if w.Ply != 0 {
		return w.Ply - start
	}
	return w.Moment
}

// MomentOf returns the moment w names in puzzle id, as it names it: one
// the solution may not have.
func (s *Service) MomentOf(id string, w Where) (int, error) {
	if w.Ply == 0 {
		return w.Moment, nil
	}
	p, err := s.puzzle(id)
	if err != nil {
		return 0, err
	}
	g, err := p.Start()
	if err != nil {
		return 0, errs.Internalf(err, "puzzle %s", id)
	}
	return w.moment(g.StartPly()), nil
}

// Ply is one ply of a puzzle's solution, as played.
type Ply struct {
	Action rules.Action
	// SAN is a move's SAN, with + or # ("Ra8+"); for a ban, the banned
	// move's ("e4").
	SAN string
	// Mine says the ply is the solver's.
	Mine bool
}

// Name names the ply as a player reads it, as lessons.Name does: a move
// in SAN, a ban by its squares ("the ban of g8–h7").
func (p Ply) Name() i18n.Message {
	if p.Action.Phase == rules.PhaseBan {
		return lessons.BanOf(p.Action.Pair())
	}
	return i18n.Move(p.SAN)
}

// Moment is a puzzle at a moment of its solution, as a player sees it:
// what a page of the puzzle shows.
type Moment struct {
	ID string
	// Kind is the puzzle's kind (puzzles.Puzzle.Kind): the goal a page
	// shows before the solver answers.
	Kind    puzzles.Theme
	Solver  rules.Color
	Learner Learner
	// At is the moment: the solution's plies played. Game is the
	// position there.
	At   int
	Game *rules.Game
	// Played are the solution's plies before At.
	Played []Ply
	// Length is the solution's plies.
	Length int
	// Ahead is where the solver acts at or after At: At itself when they
	// act there, else the moment of their next action, or Length when
	// they have none left.
	Ahead int
}

// SolverActs reports whether the solver acts at the moment: the puzzle
// waits for their action.
func (m Moment) SolverActs() bool { return m.At < m.Length && m.Game.Turn().Actor == m.Solver }

// Replied is the solver's last action before the moment and the
// opponent's plies since; ok is false at the puzzle's position.
func (m Moment) Replied() (mine Ply, replies []Ply, ok bool) {
	for _, p := range m.Played {
		if p.Mine {
			mine, replies, ok = p, nil, true
		} else {
			replies = append(replies, p)
		}
	}
	return mine, replies, ok
}

// moment describes the moment sv stands at of puzzle p, for learner l,
// its Ahead at At: the plies played are played[:At], or (nil) read from
// the game.
func moment(p puzzles.Puzzle, l Learner, sv *puzzles.Solving, played []Ply) Moment {
	m := Moment{ID: p.ID, Kind: p.Kind(), Solver: sv.Solver(), Learner: l, At: sv.At(), Game: sv.Game(), Length: len(sv.Line()), Ahead: sv.At()}
	if played != nil {
		m.Played = played[:m.At]
		return m
	}
	hist := sv.Game().Record().History()
	m.Played = make([]Ply, len(hist))
	for i, h := range hist {
		m.Played[i] = Ply{Action: h.Action, SAN: h.SAN, Mine: h.Actor == m.Solver}
	}
	return m
}

// Look returns puzzle id at the moment w names, for player. At a moment
// of the opponent's replies (or past the solution) the solver does not
// act: Ahead says where they act next.
func (s *Service) Look(ctx context.Context, player, id string, w Where) (Moment, error) {
	p, sv, err := s.solving(id)
	if err != nil {
		return Moment{}, err
	}
	n := w.moment(sv.Game().StartPly())
	if n < 0 || n > len(sv.Line()) {
		return Moment{}, &errs.Error{Code: errs.Invalid, Msg: fmt.Sprintf("This puzzle's solution has %d plies.", len(sv.Line()))}
	}
	l, err := s.learner(ctx, player)
	if err != nil {
		return Moment{}, err
	}
	ahead, err := aheadOf(sv, n)
	if err != nil {
		return Moment{}, errs.Internalf(err, "puzzle %s", id)
	}
	m := moment(p, l, sv, nil)
	m.Ahead = ahead
	return m, nil
}

// aheadOf moves sv to moment n and returns where the solver acts at or
// after it (see Moment.Ahead), leaving sv at n.
func aheadOf(sv *puzzles.Solving, n int) (int, error) {
	if err := sv.To(n); err != nil || sv.SolverActs() {
		return n, err
	}
	if err := sv.Reply(); err != nil {
		return 0, err
	}
	ahead := sv.At()
	return ahead, sv.To(n)
}

// Review is a player's last finished attempt at a puzzle, with the
// solution step by step, at a moment of it.
type Review struct {
	Moment
	// Themes are the puzzle's; Stats what is kept of it (its rating).
	Themes  []puzzles.Theme
	Stats   PuzzleStats
	Attempt Attempt
	// Failed is the moment the attempt went wrong: that of its wrong
	// action, or the solution's end once solved.
	Failed int
	// Shown is the moment asked for, which may be past the solution
	// (Moment is then at its end).
	Shown int
	// Steps are the solution's plies.
	Steps []Ply
	// Failure, for a failed attempt shown where it went wrong, is what
	// went wrong: its wrong action, then the refutation the engine
	// answered it with (Attempt.Refutation), as played from moment
	// Failed; nil otherwise, or when the wrong action cannot be played
	// (an attempt through the API may give an illegal one). The first
	// FailureShown of them are played on Game.
	Failure      []Ply
	FailureShown int
}

// Review returns player's last finished attempt at puzzle id with the
// solution shown at moment at (from 0); below 0, at the moment the
// attempt went wrong, with the first line plies of its Failure played
// (below 0, all of them). ok is false when player has made none.
func (s *Service) Review(ctx context.Context, player, id string, at, line int) (r Review, ok bool, err error) {
	p, sv, err := s.solving(id)
	if err != nil {
		return Review{}, false, err
	}
	a, ok, err := s.lastAttempt(ctx, player, p.ID)
	if err != nil || !ok {
		return Review{}, false, err
	}
	stats, err := s.stats(ctx, p)
	if err != nil {
		return Review{}, false, err
	}
	l, err := s.learner(ctx, player)
	if err != nil {
		return Review{}, false, err
	}
	r, err = review(p, stats, l, a, sv, at, line)
	return r, err == nil, err
}

// review describes attempt a at the puzzle sv solves, its solution
// played to the end for its steps and shown at moment at (below 0, where
// a went wrong, with line plies of its failure: see Service.Review).
func review(p puzzles.Puzzle, stats PuzzleStats, l Learner, a Attempt, sv *puzzles.Solving, at, line int) (Review, error) {
	solution := sv.Line()
	if err := sv.To(len(solution)); err != nil {
		return Review{}, errs.Internalf(err, "puzzle %s", p.ID)
	}
	r := Review{Themes: p.Themes, Stats: stats, Attempt: a, Failed: len(solution), Shown: at}
	r.Steps = moment(p, l, sv, nil).Played
	if !a.Solved {
		mine := 0
		for i, step := range r.Steps {
			if step.Mine {
				if mine == a.FailedAt {
					r.Failed = i
					break
				}
				mine++
			}
		}
	}
	if r.Shown < 0 {
		r.Shown = r.Failed
	}
	if err := sv.To(min(r.Shown, len(solution))); err != nil {
		return Review{}, errs.Internalf(err, "puzzle %s", p.ID)
	}
	r.Moment = moment(p, l, sv, r.Steps)
	if at < 0 && !a.Solved {
		r.Failure = failure(sv.Game(), a, sv.Solver())
		r.FailureShown = len(r.Failure)
		if line >= 0 && line < len(r.Failure) {
			r.FailureShown = line
		}
		for range len(r.Failure) - r.FailureShown {
			if err := sv.Game().Undo(); err != nil {
				return Review{}, errs.Internalf(err, "puzzle %s", p.ID)
			}
		}
	}
	return r, nil
}

// failure plays, on g at the moment failed attempt a went wrong, its
// wrong action and then the refutation kept with it, as far as g takes
// them, and returns them as played (nil when g refuses the wrong action).
func failure(g *rules.Game, a Attempt, solver rules.Color) []Ply {
	if a.FailedAt < 0 || a.FailedAt >= len(a.Actions) {
		return nil
	}
	var out []Ply
	for _, text := range append([]string{a.Actions[a.FailedAt]}, a.Refutation...) {
		act, err := rules.ParseAction(text)
		if err != nil || g.Play(act) != nil {
			break
		}
		hist := g.Record().History()
		h := hist[len(hist)-1]
		out = append(out, Ply{Action: h.Action, SAN: h.SAN, Mine: h.Actor == solver})
	}
	return out
}
