package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// Puzzle Streak: puzzles of rising difficulty (Runs.Puzzles), no
// rating changed; the run ends at the first wrong action, and one puzzle
// of a run may be skipped. Its score is the puzzles solved, its best
// kept per player.

// Streak is a streak run as its page shows it: the run, its puzzle at
// hand (none once over or all solved) and the player's bests.
type Streak struct {
	Run    Run
	Puzzle *Puzzle
	Bests  Bests
	Length int // the run's puzzles
}

// Won reports whether the run is over with every puzzle passed, and each
// solved but the one skipped.
func (s Streak) Won() bool {
	skipped := 0
	if s.Run.Skipped {
		skipped = 1
	}
	return s.Run.Over && s.Run.Pos >= s.Length && s.Run.Score == s.Length-skipped
}

// Streak returns player's streak run id.
func (rs *Runs) Streak(ctx context.Context, player, id string) (Streak, error) {
	r, err := rs.Run(ctx, player, StreakRun, id)
	if err != nil {
		return Streak{}, err
	}
	return rs.streakOf(ctx, r)
}

func (rs *Runs) streakOf(ctx context.Context, r Run) (Streak, error) {
	out := Streak{Run: r, Length: len(rs.Puzzles(r))}
	if !r.Over {
		p, ok, err := rs.Current(ctx, r)
		if err != nil {
			return Streak{}, err
		}
		if ok {
			out.Puzzle = &p
		}
	}
	b, err := rs.Bests(ctx, r.Player, StreakRun)
	out.Bests = b
	return out, err
}

// open returns player's run id of kind, refused once over.
func (rs *Runs) open(ctx context.Context, player string, kind RunKind, id string) (Run, error) {
	r, err := rs.Run(ctx, player, kind, id)
	if err == nil && r.Over {
		err = refused(errs.Conflict, RunOver, "This run is over: start a new one.")
	}
	return r, err
}

// StreakPlayed is an action played in a streak: judged, and the run after it.
type StreakPlayed struct {
	Judged
	Streak Streak
}

// StreakPlay judges in, an action at the streak's puzzle at hand (see
// Service.Play for the moment it is made at), made at puzzle seen (""
// for any: refused as MovedOn when it is not the one at hand): a right
// one that solves the puzzle moves the run on, a wrong one ends it.
func (rs *Runs) StreakPlay(ctx context.Context, player, id, seen string, in games.Input) (StreakPlayed, error) {
	r, err := rs.open(ctx, player, StreakRun, id)
	if err != nil {
		return StreakPlayed{}, err
	}
	was := r
	ps := rs.Puzzles(r)
	if err := atHand(ps, r, seen); err != nil {
		return StreakPlayed{}, err
	}
	if r.Pos >= len(ps) {
		return StreakPlayed{}, rs.endOver(ctx, was, &r)
	}
	j, err := rs.s.judge(ps[r.Pos].ID, in)
	if err != nil {
		return StreakPlayed{}, err
	}
	if err := rs.streakStep(ctx, was, &r, j.Verdict.Correct, j.Verdict.Solved, len(ps)); err != nil {
		return StreakPlayed{}, err
	}
	st, err := rs.streakOf(ctx, r)
	return StreakPlayed{Judged: j, Streak: st}, err
}

// endOver ends a run that has no puzzle left and refuses the action.
func (rs *Runs) endOver(ctx context.Context, was Run, r *Run) error {
	if err := rs.end(ctx, was, r); err != nil {
		return err
	}
	return refused(errs.Conflict, RunOver, "This run is over: start a new one.")
}

// streakStep moves r on after a judged action: solved, the next puzzle
// (the run won after the last); wrong, the end.
func (rs *Runs) streakStep(ctx context.Context, was Run, r *Run, correct, solved bool, length int) error {
	switch {
	case !correct:
		return rs.end(ctx, was, r)
	case solved:
		r.Pos++
		r.Score++
		if r.Pos >= length {
			return rs.end(ctx, was, r)
		}
		return rs.save(ctx, was, *r)
	}
	return nil
}

// StreakSkip skips the streak's puzzle at hand, once a run.
func (rs *Runs) StreakSkip(ctx context.Context, player, id string) (Streak, error) {
	r, err := rs.open(ctx, player, StreakRun, id)
	if err != nil {
		return Streak{}, err
	}
	was := r
	if r.Skipped {
		return Streak{}, refused(errs.Conflict, NoSkip, "You have used this run's skip.")
	}
	r.Skipped = true
	r.Pos++
	if r.Pos >= len(rs.Puzzles(r)) {
		err = rs.end(ctx, was, &r)
	} else {
		err = rs.save(ctx, was, r)
	}
	if err != nil {
		return Streak{}, err
	}
	return rs.streakOf(ctx, r)
}

// StreakResult judges a program's streak run id at once: results answer
// its puzzles in order, from the first; the first wrong one ends the run
// (results after it are not read), one may be a skip. The run ends with
// the puzzles solved as its score.
func (rs *Runs) StreakResult(ctx context.Context, player, id string, results []RunResult) (Streak, error) {
	r, err := rs.open(ctx, player, StreakRun, id)
	if err != nil {
		return Streak{}, err
	}
	was := r
	if err := checkResults(results, rs.Puzzles(r), r.Pos, !r.Skipped); err != nil {
		return Streak{}, err
	}
	for _, res := range results {
		if res.Skip {
			r.Skipped = true
			r.Pos++
			continue
		}
		v, _, err := rs.s.judgeAll(res.Puzzle, res.Actions)
		if err != nil {
			return Streak{}, err
		}
		if !v.Solved {
			break
		}
		r.Pos++
		r.Score++
	}
	if err := rs.end(ctx, was, &r); err != nil {
		return Streak{}, err
	}
	return rs.streakOf(ctx, r)
}

// checkResults refuses results that do not answer ps in order from
// index from, that skip when skips is false or more than once, or whose
// actions cannot be read.
func checkResults(results []RunResult, ps []puzzles.Puzzle, from int, skips bool) error {
	if len(results) == 0 || len(results) > len(ps)-from {
		return refused(errs.Invalid, BadResults, fmt.Sprintf("Give 1 to %d results, one for each puzzle of the run in order.", len(ps)-from))
	}
	for i, res := range results {
		if res.Puzzle != ps[from+i].ID {
			return refused(errs.Invalid, BadResults, fmt.Sprintf("Result %d answers puzzle %q, not the run's puzzle %s.", i+1, rules.Clip(res.Puzzle), ps[from+i].ID))
		}
		if res.Skip {
			if !skips {
				return refused(errs.Invalid, BadResults, fmt.Sprintf("Result %d skips, and a streak has one skip.", i+1))
			}
			skips = false
			continue
		}
		if len(res.Actions) == 0 || len(res.Actions) > MaxActions {
			return refused(errs.Invalid, BadResults, fmt.Sprintf("Result %d gives %d actions: give 1 to %d of the solver's.", i+1, len(res.Actions), MaxActions))
		}
		for _, text := range res.Actions {
			if _, err := rules.ParseAction(text); err != nil {
				return refused(errs.Invalid, BadResults, fmt.Sprintf("Result %d: %q is not an action in BCN.", i+1, rules.Clip(text)))
			}
		}
	}
	return nil
}
