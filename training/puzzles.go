package training

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// MaxActions bounds the actions an attempt may give: more than any
// puzzle's solver plays.
const MaxActions = 16

// Puzzle is a puzzle with what training keeps of it.
type Puzzle struct {
	puzzles.Puzzle
	Solver rules.Color
	Stats  PuzzleStats // its rating as it stands (the starting one until rated)
}

// Puzzle returns puzzle id.
func (s *Service) Puzzle(ctx context.Context, id string) (Puzzle, error) {
	p, ok := s.set.ByID(id)
	if !ok {
		return Puzzle{}, refused(errs.NotFound, NoPuzzle, "There is no puzzle with this id.")
	}
	return s.withStats(ctx, p)
}

// withStats adds to p its solver and what is kept of it.
func (s *Service) withStats(ctx context.Context, p puzzles.Puzzle) (Puzzle, error) {
	solver, err := p.Solver()
	if err != nil {
		return Puzzle{}, errs.Internalf(err, "puzzle %s", p.ID)
	}
	stats, ok, err := s.store.PuzzleStats(ctx, p.ID)
	if err != nil {
		return Puzzle{}, errs.Internalf(err, "reading puzzle %s", p.ID)
	}
	if !ok {
		stats = startStats(p)
	}
	return Puzzle{Puzzle: p, Solver: solver, Stats: stats}, nil
}

// startStats is what a puzzle never rated stands at.
func startStats(p puzzles.Puzzle) PuzzleStats {
	return PuzzleStats{ID: p.ID, Rating: rating.Rating{Rating: float64(p.Rating), Deviation: PuzzleDeviation, Volatility: rating.DefaultVolatility}}
}

// ParseTheme reads a theme as the API and the addresses name it ("" for
// any).
func ParseTheme(text string) (puzzles.Theme, error) {
	t := puzzles.Theme(text)
	if text == "" || t.Known() {
		return t, nil
	}
	var names []string
	for _, k := range puzzles.AllThemes() {
		names = append(names, string(k))
	}
	return "", refused(errs.Invalid, BadTheme, fmt.Sprintf("%q is not a puzzle theme: choose one of %s.", rules.Clip(text), strings.Join(names, ", ")))
}

// Next returns a puzzle for player, of theme t ("" for any): the one
// nearest their rating among those they have not attempted (among all,
// once they have attempted every one).
func (s *Service) Next(ctx context.Context, player string, t puzzles.Theme) (Puzzle, error) {
	if t != "" && s.set.Count(t) == 0 || s.set.Len() == 0 {
		return Puzzle{}, refused(errs.NotFound, NoPuzzle, "There is no puzzle of this theme.")
	}
	l, err := s.Learner(ctx, player)
	if err != nil {
		return Puzzle{}, err
	}
	var done []string
	if player != "" {
		if done, err = s.store.Attempted(ctx, player); err != nil {
			return Puzzle{}, errs.Internalf(err, "listing attempts")
		}
		slices.Sort(done)
	}
	seen := func(p puzzles.Puzzle) bool {
		_, found := slices.BinarySearch(done, p.ID)
		return found
	}
	r := int(math.Round(l.Rating.Rating))
	p, ok := s.set.Near(r, t, seen)
	if !ok {
		p, _ = s.set.Near(r, t, nil)
	}
	return s.withStats(ctx, p)
}

// Count returns how many puzzles have theme t.
func (s *Service) Count(t puzzles.Theme) int { return s.set.Count(t) }

// LastAttempt returns player's last finished attempt at puzzle id; ok is
// false for none (and for nobody, "").
func (s *Service) LastAttempt(ctx context.Context, player, id string) (Attempt, bool, error) {
	if player == "" {
		return Attempt{}, false, nil
	}
	a, ok, err := s.store.LastAttempt(ctx, player, id)
	if err != nil {
		return Attempt{}, false, errs.Internalf(err, "reading an attempt")
	}
	return a, ok, nil
}

// Daily returns the puzzle of the day.
func (s *Service) Daily(ctx context.Context) (Puzzle, error) {
	p, ok := s.set.Daily(s.now())
	if !ok {
		return Puzzle{}, refused(errs.NotFound, NoPuzzle, "There are no puzzles.")
	}
	return s.withStats(ctx, p)
}

// Result is a judged attempt.
type Result struct {
	Puzzle  Puzzle
	Verdict puzzles.Verdict
	// Line is what was played: the solution as far as the attempt went,
	// the solver's actions with the replies, then the wrong action (if
	// it was legal) or the solver's own mate.
	Line []rules.Action
	// Next is the index in the solution of the solver's next action after
	// a correct unfinished attempt (the replies before it played); -1
	// once the attempt is over.
	Next int
	// Reason says, for a wrong action, why not.
	Reason string
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
	p, err := s.Puzzle(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if len(actions) == 0 || len(actions) > MaxActions {
		return Result{}, refused(errs.Invalid, BadActions, fmt.Sprintf("An attempt gives 1 to %d of the solver's actions.", MaxActions))
	}
	v, err := p.Judge(actions)
	if err != nil {
		return Result{}, errs.Internalf(err, "judging puzzle %s", id)
	}
	res := Result{Puzzle: p, Verdict: v, Next: -1}
	var wrongPlayed bool
	if res.Line, res.Next, wrongPlayed, err = line(p, actions); err != nil {
		return Result{}, errs.Internalf(err, "replaying puzzle %s", id)
	}
	if !v.Correct {
		before := res.Line
		if wrongPlayed {
			before = before[:len(before)-1]
		}
		res.Reason = s.reason(ctx, p, before, actions[v.FailedAt])
	}
	if res.Learner, err = s.Learner(ctx, player); err != nil || !res.Done() || player == "" {
		return res, err
	}
	a := Attempt{Player: player, Puzzle: id, At: s.now(), Solved: v.Solved, FailedAt: v.FailedAt, Actions: bcn(actions), Reason: res.Reason}
	kept, err := s.store.RecordAttempt(ctx, a, startStats(p.Puzzle), rate(v.Solved, a.At))
	if err != nil {
		return Result{}, errs.Internalf(err, "keeping an attempt at puzzle %s", id)
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

// line replays an attempt: the solution while the solver's actions
// follow it, with the replies, then the action that left it when it is
// legal (wrongPlayed: a wrong action, or a mate of the solver's own).
// next is the index of the solver's next action after a correct
// unfinished attempt, else -1.
func line(p Puzzle, actions []rules.Action) (out []rules.Action, next int, wrongPlayed bool, err error) {
	g, err := p.Start()
	if err != nil {
		return nil, -1, false, err
	}
	sol, err := p.Line()
	if err != nil {
		return nil, -1, false, err
	}
	given := 0
	for i, want := range sol {
		if g.Turn().Actor == p.Solver {
			if given == len(actions) {
				return out, i, false, nil
			}
			a := actions[given]
			given++
			if a != want {
				if g.Play(a) == nil {
					return append(out, a), -1, true, nil
				}
				return out, -1, false, nil
			}
		}
		if err := g.Play(want); err != nil {
			return nil, -1, false, err
		}
		out = append(out, want)
	}
	return out, -1, false, nil
}

// bcn writes actions in BCN.
func bcn(actions []rules.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}

// Play judges in, a board's or a typed action of the solver at the moment
// n plies into puzzle id's solution, as the attempt of the solution's
// solver actions before it and this one (see Attempt). n must be a
// moment where the solver acts; input the rules refuse is refused as a
// game refuses it, and changes nothing.
func (s *Service) Play(ctx context.Context, player, id string, n int, in games.Input) (Result, error) {
	p, err := s.Puzzle(ctx, id)
	if err != nil {
		return Result{}, err
	}
	g, done, err := p.At(n)
	if err != nil {
		return Result{}, err
	}
	a, err := in.Action(g)
	if err != nil {
		return Result{}, err
	}
	if err := g.Play(a); err != nil {
		return Result{}, errs.Of(err)
	}
	return s.Attempt(ctx, player, id, append(done, a))
}

// At returns the game n plies into the solution, at a moment where the
// solver acts, and the solver's actions that led there.
func (p Puzzle) At(n int) (*rules.Game, []rules.Action, error) {
	sol, err := p.Line()
	if err != nil {
		return nil, nil, errs.Internalf(err, "puzzle %s", p.ID)
	}
	g, err := p.Start()
	if err != nil {
		return nil, nil, errs.Internalf(err, "puzzle %s", p.ID)
	}
	if n < 0 || n >= len(sol) {
		return nil, nil, refused(errs.Conflict, BadStep, fmt.Sprintf("This puzzle's solution has %d plies: there is no moment %d to play at.", len(sol), n))
	}
	var mine []rules.Action
	for _, a := range sol[:n] {
		if g.Turn().Actor == p.Solver {
			mine = append(mine, a)
		}
		if err := g.Play(a); err != nil {
			return nil, nil, errs.Internalf(err, "puzzle %s", p.ID)
		}
	}
	if g.Turn().Actor != p.Solver {
		return nil, nil, refused(errs.Conflict, BadStep, "At this moment of the puzzle the opponent acts, not you: reload the puzzle.")
	}
	return g, mine, nil
}
