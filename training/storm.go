package training

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
)

// Puzzle Storm: StormTime on the clock from the run's start on the
// server, puzzles from easy to hard (Runs.Puzzles); a wrong action costs
// StormPenalty, ends the combo and moves on to the next puzzle; every
// right action adds one to the combo, and a combo reaching a threshold
// adds time (StormBonus). The score is the puzzles solved; the best is
// kept per player, ever and per day.
const (
	StormTime    = 3 * time.Minute
	StormPenalty = 10 * time.Second
	// StormGrace is how late an action or a result may come after the
	// clock's end and still count: the time it takes to reach the
	// server.
	StormGrace = 3 * time.Second
)

// StormBonus returns the time added when the combo reaches combo: 3 s at
// 5, 5 s at 12, 7 s at 20, 10 s at 30 and at every 10 after (as
// lichess's Storm).
func StormBonus(combo int) time.Duration {
	switch {
	case combo == 5:
		return 3 * time.Second
	case combo == 12:
		return 5 * time.Second
	case combo == 20:
		return 7 * time.Second
	case combo >= 30 && combo%10 == 0:
		return 10 * time.Second
	}
	return 0
}

// Clock returns how long the storm run's clock runs: StormTime and the
// time its combos added, less the time its wrong actions took.
func (r Run) Clock() time.Duration { return StormTime + time.Duration(r.BonusMS)*time.Millisecond }

// Remaining returns the time left on the storm run's clock at now.
func (r Run) Remaining(now time.Time) time.Duration { return r.Clock() - now.Sub(r.Started) }

// Storm is a storm run as its page shows it: the run, its puzzle at hand
// (none once over), the time left, and the player's bests.
type Storm struct {
	Run       Run
	Puzzle    *Puzzle
	Remaining time.Duration
	Bests     Bests
}

// Storm returns player's storm run id; a run whose time is up (and its
// grace) ends.
func (rs *Runs) Storm(ctx context.Context, player, id string) (Storm, error) {
	r, err := rs.Run(ctx, player, StormRun, id)
	if err != nil {
		return Storm{}, err
	}
	was := r
	if !r.Over && r.Remaining(rs.s.now()) < -StormGrace {
		if err := rs.end(ctx, was, &r); err != nil {
			return Storm{}, err
		}
	}
	return rs.stormOf(ctx, r)
}

func (rs *Runs) stormOf(ctx context.Context, r Run) (Storm, error) {
	out := Storm{Run: r, Remaining: max(0, r.Remaining(rs.s.now()))}
	if !r.Over {
		p, ok, err := rs.Current(ctx, r)
		if err != nil {
			return Storm{}, err
		}
		if ok {
			out.Puzzle = &p
		}
	} else {
		out.Remaining = 0
	}
	b, err := rs.Bests(ctx, r.Player, StormRun)
	out.Bests = b
	return out, err
}

// StormPlayed is an action played in a storm: judged, and the run
// after it.
type StormPlayed struct {
	Judged
	Storm Storm
	// Late says the action came after the clock's end: not judged, the
	// run over.
	Late bool
}

// StormPlay judges in, an action at the storm's puzzle at hand made at
// puzzle seen (see StreakPlay), at the server's time: after the clock's
// end (and StormGrace) it is not judged and the run ends.
func (rs *Runs) StormPlay(ctx context.Context, player, id, seen string, in games.Input) (StormPlayed, error) {
	r, err := rs.open(ctx, player, StormRun, id)
	if err != nil {
		return StormPlayed{}, err
	}
	was := r
	ps := rs.Puzzles(r)
	if err := atHand(ps, r, seen); err != nil && r.Remaining(rs.s.now()) >= -StormGrace {
		return StormPlayed{}, err
	}
	if r.Remaining(rs.s.now()) < -StormGrace || r.Pos >= len(ps) {
		if err := rs.end(ctx, was, &r); err != nil {
			return StormPlayed{}, err
		}
		st, err := rs.stormOf(ctx, r)
		return StormPlayed{Judged: Judged{Next: -1}, Storm: st, Late: true}, err
	}
	j, err := rs.s.judge(ps[r.Pos].ID, in)
	if err != nil {
		return StormPlayed{}, err
	}
	right := 0
	if j.Verdict.Correct {
		right = 1
	}
	stormStep(&r, j.Verdict, right)
	if r.Pos >= len(ps) || r.Remaining(rs.s.now()) <= 0 {
		err = rs.end(ctx, was, &r)
	} else {
		err = rs.save(ctx, was, r)
	}
	if err != nil {
		return StormPlayed{}, err
	}
	st, err := rs.stormOf(ctx, r)
	return StormPlayed{Judged: j, Storm: st}, err
}

// stormStep moves r on after a puzzle's actions judged v, right of them
// right: each right one adds to the combo (and its bonus); a wrong one
// costs StormPenalty and ends the combo; a puzzle solved scores; solved
// or failed, the next puzzle is at hand.
func stormStep(r *Run, v puzzles.Verdict, right int) {
	for range right {
		r.Combo++
		r.BonusMS += StormBonus(r.Combo).Milliseconds()
	}
	switch {
	case !v.Correct:
		r.BonusMS -= StormPenalty.Milliseconds()
		r.Combo = 0
		r.Pos++
	case v.Solved:
		r.Score++
		r.Pos++
	}
}

// StormEnd ends player's storm run id (the clock ran out on the page, or
// the player stopped); ending a run over changes nothing.
func (rs *Runs) StormEnd(ctx context.Context, player, id string) (Storm, error) {
	r, err := rs.Run(ctx, player, StormRun, id)
	if err != nil {
		return Storm{}, err
	}
	was := r
	if !r.Over {
		if err := rs.end(ctx, was, &r); err != nil {
			return Storm{}, err
		}
	}
	return rs.stormOf(ctx, r)
}

// StormResult judges a program's storm run id at once: results answer
// its puzzles in order, each at its time from the run's start (At, in
// milliseconds: never decreasing, none later than the post itself and
// StormGrace). They are replayed on the clock: a wrong answer costs
// StormPenalty, combos add time, and answers after the clock's end do not
// count. A result posted later than the clock's end and StormGrace is
// capped: the time it is late is taken off the clock's end, as if the
// answers had taken it. The run ends with the puzzles solved as its
// score; counted says how many results counted.
func (rs *Runs) StormResult(ctx context.Context, player, id string, results []RunResult) (st Storm, counted int, err error) {
	r, err := rs.open(ctx, player, StormRun, id)
	if err != nil {
		return Storm{}, 0, err
	}
	was := r
	if err := checkResults(results, rs.Puzzles(r), r.Pos, false); err != nil {
		return Storm{}, 0, err
	}
	elapsed := rs.s.now().Sub(r.Started).Milliseconds()
	var last int64
	for i, res := range results {
		if res.At < last || res.At > elapsed+StormGrace.Milliseconds() {
			return Storm{}, 0, refused(errs.Invalid, BadResults, fmt.Sprintf("Result %d's time, %d ms, is not between the result before it's (%d ms) and now (%d ms after the run's start).", i+1, res.At, last, elapsed))
		}
		last = res.At
	}
	verdicts := make([]puzzles.Verdict, len(results))
	rights := make([]int, len(results))
	for i, res := range results {
		if verdicts[i], rights[i], err = rs.s.judgeAll(res.Puzzle, res.Actions); err != nil {
			return Storm{}, 0, err
		}
	}
	replayed, n := replayStorm(r, results, verdicts, rights, math.MaxInt64)
	if late := elapsed - (replayed.Clock() + StormGrace).Milliseconds(); late > 0 {
		replayed, n = replayStorm(r, results, verdicts, rights, replayed.Clock().Milliseconds()-late)
	}
	if err := rs.end(ctx, was, &replayed); err != nil {
		return Storm{}, 0, err
	}
	st, err = rs.stormOf(ctx, replayed)
	return st, n, err
}

// replayStorm plays judged results on run r's clock, stopping at the
// first answered after the clock's end or after cutoff (ms from the
// start), or that leaves its puzzle unsolved without a
// wrong action; it returns the run after them and how many counted.
func replayStorm(r Run, results []RunResult, verdicts []puzzles.Verdict, rights []int, cutoff int64) (Run, int) {
	for i, res := range results {
		if res.At > min(r.Clock().Milliseconds(), cutoff) {
			return r, i
		}
		if verdicts[i].Correct && !verdicts[i].Solved {
			return r, i
		}
		stormStep(&r, verdicts[i], rights[i])
	}
	return r, len(results)
}
