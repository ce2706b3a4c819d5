package training_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
)

// runService is a service whose clock *clock reads.
func runService(t *testing.T) (*training.Runs, *time.Time, *puzzles.Set) {
	t.Helper()
	clock := now
	svc, _, set := newService(t, training.WithClock(func() time.Time { return clock }))
	return svc.Runs(), &clock, set
}

// bcnOf writes the solver's actions of p in BCN.
func bcnOf(t *testing.T, p puzzles.Puzzle) []string {
	t.Helper()
	var out []string
	for _, a := range solverActions(p) {
		out = append(out, a.String())
	}
	if len(out) == 0 {
		t.Fatalf("puzzle %s does not replay", p.ID)
	}
	return out
}

// playAll plays p's solution through play, as a page does: each action
// at the moment the one before led to; it returns the last judgement.
func playAll(t *testing.T, p puzzles.Puzzle, play func(games.Input) (training.Judged, error)) training.Judged {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var j training.Judged
	for _, a := range bcnOf(t, p) {
		if j, err = play(games.Input{Text: a, Ply: g.StartPly() + n}); err != nil {
			t.Fatalf("puzzle %s, %s: %v", p.ID, a, err)
		}
		if !j.Verdict.Correct {
			t.Fatalf("puzzle %s: %s judged wrong", p.ID, a)
		}
		n = j.Next
	}
	if !j.Verdict.Solved {
		t.Fatalf("puzzle %s not solved by its solution", p.ID)
	}
	return j
}

// wrongIn is an input of a wrong first action of p.
func wrongIn(t *testing.T, p puzzles.Puzzle) games.Input {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	return games.Input{Text: wrongFirst(t, p).String(), Ply: g.StartPly()}
}

func detailOf(err error) errs.Detail {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Detail
	}
	return ""
}

// TestStreak: a run's puzzles rise in rating and are distinct; a solved
// puzzle moves the run on, the one skip passes a puzzle (a second is
// refused), the first wrong action ends the run and keeps its score as
// the best, which a worse run leaves; a run over refuses actions, and
// another player's run is nobody's.
func TestStreak(t *testing.T) {
	rs, _, _ := runService(t)
	ctx := context.Background()
	r, err := rs.Start(ctx, "ann", training.StreakRun)
	if err != nil {
		t.Fatal(err)
	}
	ps := rs.Puzzles(r)
	if len(ps) != training.StreakLength {
		t.Fatalf("%d puzzles in a streak", len(ps))
	}
	seen := map[string]bool{}
	for i, p := range ps {
		if seen[p.ID] || i > 0 && p.Rating < ps[i-1].Rating {
			t.Fatalf("puzzle %d (%s, %d) repeats or is easier than the one before", i, p.ID, p.Rating)
		}
		seen[p.ID] = true
	}
	if ps[0].Rating > 800 || ps[len(ps)-1].Rating < 1500 {
		t.Errorf("a streak runs from %d to %d", ps[0].Rating, ps[len(ps)-1].Rating)
	}
	play := func(g games.Input) (training.Judged, error) {
		sp, err := rs.StreakPlay(ctx, "ann", r.ID, "", g)
		return sp.Judged, err
	}
	playAll(t, ps[0], play)
	st, err := rs.Streak(ctx, "ann", r.ID)
	if err != nil || st.Run.Score != 1 || st.Run.Pos != 1 || st.Puzzle == nil || st.Puzzle.ID != ps[1].ID {
		t.Fatalf("after one solved: %+v, %v", st, err)
	}
	if _, err := rs.StreakPlay(ctx, "ann", r.ID, ps[0].ID, wrongIn(t, ps[1])); detailOf(err) != training.MovedOn {
		t.Fatalf("an action made at the puzzle before: %v", err)
	}
	if st, err = rs.StreakSkip(ctx, "ann", r.ID); err != nil || st.Run.Pos != 2 || st.Run.Score != 1 || !st.Run.Skipped {
		t.Fatalf("skip: %+v, %v", st.Run, err)
	}
	if _, err := rs.StreakSkip(ctx, "ann", r.ID); detailOf(err) != training.NoSkip {
		t.Fatalf("a second skip: %v", err)
	}
	if _, err := rs.Streak(ctx, "bob", r.ID); detailOf(err) != training.NoRun {
		t.Fatalf("bob reads ann's run: %v", err)
	}
	sp, err := rs.StreakPlay(ctx, "ann", r.ID, "", wrongIn(t, ps[2]))
	if err != nil || sp.Verdict.Correct || !sp.Streak.Run.Over || sp.Streak.Run.Score != 1 || sp.Streak.Bests.Best != 1 {
		t.Fatalf("a wrong action: %+v, %v", sp.Streak, err)
	}
	if _, err := rs.StreakPlay(ctx, "ann", r.ID, "", wrongIn(t, ps[2])); detailOf(err) != training.RunOver {
		t.Fatalf("playing a run over: %v", err)
	}
	r2, err := rs.Start(ctx, "ann", training.StreakRun)
	if err != nil {
		t.Fatal(err)
	}
	sp, err = rs.StreakPlay(ctx, "ann", r2.ID, "", wrongIn(t, rs.Puzzles(r2)[0]))
	if err != nil || !sp.Streak.Run.Over || sp.Streak.Run.Score != 0 || sp.Streak.Bests.Best != 1 {
		t.Fatalf("a worse run: %+v, %v", sp.Streak, err)
	}
}

// TestStreakResult: a program's results are read whole first (a bad one
// changes nothing); then the run scores up to the first wrong answer,
// one skip passing a puzzle; it is posted once.
func TestStreakResult(t *testing.T) {
	rs, _, _ := runService(t)
	ctx := context.Background()
	r, err := rs.Start(ctx, "ann", training.StreakRun)
	if err != nil {
		t.Fatal(err)
	}
	ps := rs.Puzzles(r)
	wrong := wrongIn(t, ps[3]).Text
	results := []training.RunResult{
		{Puzzle: ps[0].ID, Actions: bcnOf(t, ps[0])},
		{Puzzle: ps[1].ID, Skip: true},
		{Puzzle: ps[2].ID, Actions: bcnOf(t, ps[2])},
		{Puzzle: ps[3].ID, Actions: []string{wrong}},
		{Puzzle: ps[4].ID, Actions: bcnOf(t, ps[4])},
	}
	for name, bad := range map[string][]training.RunResult{
		"out of order": {results[2]},
		"two skips":    {{Puzzle: ps[0].ID, Skip: true}, {Puzzle: ps[1].ID, Skip: true}},
		"not BCN":      {{Puzzle: ps[0].ID, Actions: []string{"e4!!"}}},
		"none":         nil,
	} {
		if _, err := rs.StreakResult(ctx, "ann", r.ID, bad); detailOf(err) != training.BadResults {
			t.Errorf("%s: %v, want %s", name, err, training.BadResults)
		}
	}
	st, err := rs.StreakResult(ctx, "ann", r.ID, results)
	if err != nil || st.Run.Score != 2 || !st.Run.Over || st.Bests.Best != 2 {
		t.Fatalf("result: %+v, %v; want 2 solved", st, err)
	}
	if _, err := rs.StreakResult(ctx, "ann", r.ID, results); detailOf(err) != training.RunOver {
		t.Fatalf("posted twice: %v", err)
	}
}

// TestStormBonus: lichess's thresholds.
func TestStormBonus(t *testing.T) {
	want := map[int]time.Duration{5: 3 * time.Second, 12: 5 * time.Second, 20: 7 * time.Second, 30: 10 * time.Second, 40: 10 * time.Second, 50: 10 * time.Second, 60: 10 * time.Second, 70: 10 * time.Second, 80: 10 * time.Second}
	for combo := 1; combo <= 80; combo++ {
		if got := training.StormBonus(combo); got != want[combo] {
			t.Errorf("StormBonus(%d) = %v, want %v", combo, got, want[combo])
		}
	}
}

// TestStorm: right actions build the combo, whose thresholds add time; a
// wrong action costs 10 s, ends the combo and moves on; an action after
// the clock's end (and its grace) is not judged and ends the run, its
// score kept as the best of ever and of the day.
func TestStorm(t *testing.T) {
	rs, clock, _ := runService(t)
	ctx := context.Background()
	r, err := rs.Start(ctx, "ann", training.StormRun)
	if err != nil {
		t.Fatal(err)
	}
	ps := rs.Puzzles(r)
	play := func(g games.Input) (training.Judged, error) {
		sp, err := rs.StormPlay(ctx, "ann", r.ID, "", g)
		return sp.Judged, err
	}
	combo, k := 0, 0
	for ; combo < 5; k++ {
		playAll(t, ps[k], play)
		combo += len(bcnOf(t, ps[k]))
	}
	st, err := rs.Storm(ctx, "ann", r.ID)
	if err != nil || st.Run.Score != k || st.Run.Combo != combo || st.Run.BonusMS != 3000 {
		t.Fatalf("after %d solved, combo %d: %+v, %v; want 3 s added", k, combo, st.Run, err)
	}
	if st.Remaining != 3*time.Minute+3*time.Second {
		t.Errorf("remaining %v at the start", st.Remaining)
	}
	*clock = clock.Add(time.Minute)
	sp, err := rs.StormPlay(ctx, "ann", r.ID, "", wrongIn(t, ps[k]))
	if err != nil || sp.Storm.Run.Combo != 0 || sp.Storm.Run.BonusMS != -7000 || sp.Storm.Run.Pos != k+1 || sp.Storm.Remaining != 2*time.Minute-7*time.Second {
		t.Fatalf("a wrong action: %+v (remaining %v), %v", sp.Storm.Run, sp.Storm.Remaining, err)
	}
	*clock = now.Add(3*time.Minute - 7*time.Second + training.StormGrace + time.Millisecond)
	sp, err = rs.StormPlay(ctx, "ann", r.ID, "", wrongIn(t, ps[k+1]))
	if err != nil || !sp.Late || !sp.Storm.Run.Over || sp.Storm.Run.Score != k || sp.Storm.Bests != (training.Bests{Best: k, Today: k}) {
		t.Fatalf("an action too late: %+v, %v", sp, err)
	}
	if _, err := rs.StormPlay(ctx, "ann", r.ID, "", wrongIn(t, ps[k+1])); detailOf(err) != training.RunOver {
		t.Fatalf("playing a run over: %v", err)
	}
}

// TestStormResult: a program's answers are replayed on the server's
// clock: a time later than the post is refused (nothing changed), a
// wrong answer costs 10 s, answers after the clock's end do not count,
// and a result posted late is capped by its lateness.
func TestStormResult(t *testing.T) {
	rs, clock, _ := runService(t)
	ctx := context.Background()
	r, err := rs.Start(ctx, "ann", training.StormRun)
	if err != nil {
		t.Fatal(err)
	}
	ps := rs.Puzzles(r)
	results := []training.RunResult{
		{Puzzle: ps[0].ID, Actions: bcnOf(t, ps[0]), At: 1000},
		{Puzzle: ps[1].ID, Actions: []string{wrongIn(t, ps[1]).Text}, At: 2000},
		{Puzzle: ps[2].ID, Actions: bcnOf(t, ps[2]), At: 169_000},
		{Puzzle: ps[3].ID, Actions: bcnOf(t, ps[3]), At: 171_000}, // past 3 min − 10 s: no combo reached 5
	}
	*clock = now.Add(10 * time.Second)
	if _, _, err := rs.StormResult(ctx, "ann", r.ID, results); detailOf(err) != training.BadResults {
		t.Fatalf("answers later than the post: %v", err)
	}
	*clock = now.Add(172 * time.Second) // within the grace of the clock's end, 170 s
	st, counted, err := rs.StormResult(ctx, "ann", r.ID, results)
	if err != nil || counted != 3 || st.Run.Score != 2 || st.Run.BonusMS != -10000 || !st.Run.Over || st.Bests.Best != 2 {
		t.Fatalf("result: %+v, counted %d, %v; want 3 counted, 2 solved", st.Run, counted, err)
	}

	late, err := rs.Start(ctx, "ann", training.StormRun)
	if err != nil {
		t.Fatal(err)
	}
	ps = rs.Puzzles(late)
	*clock = now.Add(10 * time.Minute)
	st, counted, err = rs.StormResult(ctx, "ann", late.ID, []training.RunResult{{Puzzle: ps[0].ID, Actions: bcnOf(t, ps[0]), At: 1000}})
	if err != nil || counted != 0 || st.Run.Score != 0 {
		t.Fatalf("a result 7 minutes late: %+v, counted %d, %v; want capped to nothing", st.Run, counted, err)
	}
}

// TestThemesAndDifficulty: the themes count their puzzles and the
// player's first attempts (a retry changes nothing); a harder difficulty
// chooses a puzzle nearer the rating plus 300.
func TestThemesAndDifficulty(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	p := find(t, set, func(p puzzles.Puzzle) bool { return p.Kind() != puzzles.MateIn1 && len(p.Themes) >= 1 })
	if _, err := svc.Attempt(ctx, "ann", p.ID, solverActions(p)); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Attempt(ctx, "ann", p.ID, []rules.Action{wrongFirst(t, p)}); err != nil {
		t.Fatal(err)
	}
	ts, err := svc.Themes(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, th := range ts {
		if th.Count != set.Count(th.Theme) {
			t.Errorf("%s: %d puzzles, the set has %d", th.Theme, th.Count, set.Count(th.Theme))
		}
		if th.Theme == p.Themes[0] {
			found = true
			if th.Tried != 1 || th.Solved != 1 || th.Change <= 0 || th.SolvedShare() != 1 {
				t.Errorf("%s after one solved (and a retry failed): %+v", th.Theme, th)
			}
		} else if !slices.Contains(p.Themes, th.Theme) && th.Tried != 0 {
			t.Errorf("%s: %+v", th.Theme, th)
		}
	}
	if !found {
		t.Errorf("theme %s not listed", p.Themes[0])
	}
	for _, d := range training.Difficulties() {
		q, err := svc.NextAt(ctx, "bob", "", d)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := set.Near(1500+d.Offset(), "", nil)
		if q.ID != want.ID {
			t.Errorf("%s: puzzle %s (%d), want %s (%d)", d, q.ID, q.Rating, want.ID, want.Rating)
		}
	}
	if _, err := training.ParseDifficulty("hardest"); detailOf(err) != training.BadDifficulty {
		t.Errorf("a bad difficulty: %v", err)
	}
}

// TestRunActionsAtOnce: actions sent at once at the same puzzle are
// judged one at a time: one is judged, the others are refused as the run
// moved on (none of its penalty lost, none judged at the next puzzle).
func TestRunActionsAtOnce(t *testing.T) {
	rs, _, _ := runService(t)
	ctx := context.Background()
	r, err := rs.Start(ctx, "ann", training.StormRun)
	if err != nil {
		t.Fatal(err)
	}
	p := rs.Puzzles(r)[0]
	in := wrongIn(t, p)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, errs[i] = rs.StormPlay(ctx, "ann", r.ID, p.ID, in) })
	}
	wg.Wait()
	judged := 0
	for _, err := range errs {
		switch {
		case err == nil:
			judged++
		case detailOf(err) != training.MovedOn:
			t.Errorf("an action: %v", err)
		}
	}
	st, err := rs.Storm(ctx, "ann", r.ID)
	if err != nil || judged != 1 || st.Run.Pos != 1 || st.Run.BonusMS != -10000 {
		t.Errorf("%d judged; the run %+v, %v", judged, st.Run, err)
	}
}

// TestCarryBests: signing in carries the browser's best streak to the
// account where it beats the account's, and never lowers it.
func TestCarryBests(t *testing.T) {
	svc, _, _ := newService(t)
	rs, ctx := svc.Runs(), context.Background()
	r, err := rs.Start(ctx, "browser", training.StreakRun)
	if err != nil {
		t.Fatal(err)
	}
	ps := rs.Puzzles(r)
	playAll(t, ps[0], func(g games.Input) (training.Judged, error) {
		sp, err := rs.StreakPlay(ctx, "browser", r.ID, "", g)
		return sp.Judged, err
	})
	if _, err := rs.StreakPlay(ctx, "browser", r.ID, "", wrongIn(t, ps[1])); err != nil {
		t.Fatal(err)
	}
	if err := svc.CarrySteps(ctx, "browser", "account"); err != nil {
		t.Fatal(err)
	}
	if b, err := rs.Bests(ctx, "account", training.StreakRun); err != nil || b != (training.Bests{Best: 1, Today: 1}) {
		t.Errorf("the account's bests: %+v, %v", b, err)
	}
	if b, _ := rs.Bests(ctx, "account", training.StormRun); b != (training.Bests{}) {
		t.Errorf("the account's storm: %+v", b)
	}
}
