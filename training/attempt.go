package training

import (
	"context"
	"fmt"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// Result is a judged attempt.
type Result struct {
	Puzzle  Puzzle
	Verdict puzzles.Verdict
	// Next is the index in the solution of the solver's next action after
	// a correct unfinished attempt (the replies before it played); -1
	// once the attempt is over.
	Next int
	// Reason says, for a wrong action, why not; Refutation is the
	// engine's answer to it, as a board shows it after the wrong action
	// (see Attempt.Refutation), nil when the engine gave none.
	Reason     i18n.Message
	Refutation []rules.Action
	// Attempt is the attempt as kept once it finished (solved or failed)
	// for a player; nil otherwise.
	Attempt *Attempt
	// Learner is the player after the attempt (their rating).
	Learner Learner
}

// Done reports whether the attempt is over: solved, or failed.
func (r Result) Done() bool { return !r.Verdict.Correct || r.Verdict.Solved }

// Attempt judges actions, the solver's actions at puzzle id in order (the
// replies are the puzzle's). A correct prefix is judged on what it holds
// and changes nothing. An attempt that ends — solved, or at a wrong
// action — is kept for player, and their first at this puzzle rates them
// and the puzzle (see Store.RecordAttempt).
func (s *Service) Attempt(ctx context.Context, player, id string, actions []rules.Action) (Result, error) {
	p, sv, err := s.solving(id)
	if err != nil {
		return Result{}, err
	}
	if len(actions) == 0 || len(actions) > MaxActions {
		return Result{}, refused(errs.Invalid, BadActions, fmt.Sprintf("An attempt gives 1 to %d of the solver's actions.", MaxActions))
	}
	for _, a := range actions {
		if _, err := sv.Act(a); err != nil {
			return Result{}, errs.Internalf(err, "judging puzzle %s", id)
		}
	}
	return s.judged(ctx, player, p, sv, actions)
}

// Played is an action played on a puzzle's page: its attempt judged (see
// Attempt), and what the page shows after it.
type Played struct {
	Result
	// Moment, while the attempt goes on, is the moment just after the
	// action, the replies not played yet (its Ahead is the solver's next
	// moment, Result.Next).
	Moment *Moment
	// Review, once the attempt is over and kept, is its review at the
	// moment it went wrong with the wrong action played on its board (its
	// refutation not yet: a page with scripts plays it after a pause), or
	// at the end, solved.
	Review *Review
}

// Play judges in, a board's or a typed action of the solver at the
// moment of the board it was made on (in.Ply; 0 for the puzzle's
// position), as the attempt of the solution's solver actions before it
// and this one (see Attempt). The moment must be one where the solver
// acts; input the rules refuse is refused as a game refuses it, and
// changes nothing.
func (s *Service) Play(ctx context.Context, player, id string, in games.Input) (Played, error) {
	p, sv, err := s.solving(id)
	if err != nil {
		return Played{}, err
	}
	n := Where{Ply: in.Ply}.moment(sv.Game().StartPly())
	var mine []rules.Action
	if mine, err = follow(sv, n); err != nil {
		return Played{}, err
	}
	g := sv.Game()
	a, err := in.Action(g)
	if err != nil {
		return Played{}, err
	}
	if err := g.Play(a); err != nil {
		return Played{}, errs.Of(err)
	}
	if err := g.Undo(); err != nil {
		return Played{}, errs.Internalf(err, "puzzle %s", id)
	}
	if _, err := sv.Act(a); err != nil {
		return Played{}, errs.Internalf(err, "judging puzzle %s", id)
	}
	res, err := s.judged(ctx, player, p, sv, append(mine, a))
	if err != nil {
		return Played{}, err
	}
	out := Played{Result: res}
	switch {
	case !res.Done():
		if err := sv.To(n + 1); err != nil {
			return Played{}, errs.Internalf(err, "puzzle %s", id)
		}
		m := moment(p, res.Learner, sv, nil)
		m.Ahead = res.Next
		out.Moment = &m
	case res.Attempt != nil:
		r, err := review(p, res.Puzzle.Stats, res.Learner, *res.Attempt, sv, -1, 1)
		if err != nil {
			return Played{}, err
		}
		out.Review = &r
	}
	return out, nil
}

// follow plays the solution to moment n, a moment where the solver acts,
// as the solver's actions before it, which it returns.
func follow(sv *puzzles.Solving, n int) ([]rules.Action, error) {
	line := sv.Line()
	if n < 0 || n >= len(line) {
		return nil, refused(errs.Conflict, BadStep, fmt.Sprintf("This puzzle's solution has %d plies: there is no moment %d to play at.", len(line), n))
	}
	var mine []rules.Action
	for sv.At() < n {
		a := line[sv.At()]
		mine = append(mine, a)
		if _, err := sv.Act(a); err != nil {
			return nil, errs.Internalf(err, "replaying a puzzle")
		}
	}
	if sv.At() != n || !sv.SolverActs() {
		return nil, refused(errs.Conflict, BadStep, "At this moment of the puzzle the opponent acts, not you: reload the puzzle.")
	}
	return mine, nil
}

// judged is the result of actions, which sv has judged: the reason a
// wrong one fails, and an attempt that ends kept for player. It reads
// what is kept of the puzzle and the player, once.
func (s *Service) judged(ctx context.Context, player string, pz puzzles.Puzzle, sv *puzzles.Solving, actions []rules.Action) (Result, error) {
	stats, err := s.stats(ctx, pz)
	if err != nil {
		return Result{}, err
	}
	p := Puzzle{Puzzle: pz, Solver: sv.Solver(), Stats: stats}
	v := sv.Verdict()
	res := Result{Puzzle: p, Verdict: v, Next: -1}
	if v.Correct && !v.Solved {
		res.Next = sv.At()
	}
	if !v.Correct {
		res.Reason, res.Refutation = s.reason(ctx, p, sv.Game(), actions[v.FailedAt])
	}
	if res.Learner, err = s.learner(ctx, player); err != nil || !res.Done() || player == "" {
		return res, err
	}
	a := Attempt{Player: player, Puzzle: p.ID, At: s.now(), Solved: v.Solved, FailedAt: v.FailedAt, Actions: bcn(actions), Reason: encodeReason(res.Reason), Refutation: bcn(res.Refutation)}
	kept, err := s.store.RecordAttempt(ctx, a, startStats(pz), rate(v.Solved, a.At))
	if err != nil {
		return Result{}, errs.Internalf(err, "keeping an attempt at puzzle %s", p.ID)
	}
	res.Attempt = &kept
	res.Learner.Rating = kept.After
	if kept.Rated {
		res.Learner.Puzzles++
		res.Puzzle.Stats.Rating = kept.PuzzleAfter
		res.Puzzle.Stats.Plays++
		if v.Solved {
			res.Learner.Solved++
			res.Puzzle.Stats.Solved++
		}
	}
	return res, nil
}

// rate rates one attempt as a game between the player and the puzzle,
// the player's deviation first grown by the time since their last rated
// attempt.
func rate(solved bool, at time.Time) RateFunc {
	score := rating.Loss
	if solved {
		score = rating.Win
	}
	return func(l Learner, p PuzzleStats) (rating.Rating, rating.Rating, error) {
		r := l.Rating
		if !r.Valid() {
			r = rating.New()
		}
		if !l.RatedAt.IsZero() {
			r = r.Idle(at.Sub(l.RatedAt))
		}
		return rating.Game(r, p.Rating, score)
	}
}

// bcn writes actions in BCN.
func bcn(actions []rules.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}
