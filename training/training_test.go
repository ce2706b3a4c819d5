package training_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newService(t testing.TB, opts ...training.Option) (*training.Service, *store.Memory, *puzzles.Set) {
	t.Helper()
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() < 25 {
		t.Fatalf("%d shipped puzzles", set.Len())
	}
	st := store.NewMemory()
	return training.New(set, lessons.All(), st, append([]training.Option{training.WithClock(func() time.Time { return now })}, opts...)...), st, set
}

// find returns a shipped puzzle that ok accepts.
func find(t testing.TB, set *puzzles.Set, ok func(puzzles.Puzzle) bool) puzzles.Puzzle {
	t.Helper()
	for _, p := range set.All() {
		if ok(p) {
			return p
		}
	}
	t.Skip("no shipped puzzle of this kind")
	return puzzles.Puzzle{}
}

// solverActions are the solver's actions of p's solution (nil when it
// does not replay).
func solverActions(p puzzles.Puzzle) []rules.Action {
	g, err := p.Start()
	if err != nil {
		return nil
	}
	line, err := p.Line()
	if err != nil {
		return nil
	}
	solver := g.Turn().Actor
	var out []rules.Action
	for _, a := range line {
		if g.Turn().Actor == solver {
			out = append(out, a)
		}
		if g.Play(a) != nil {
			return nil
		}
	}
	return out
}

// wrongFirst is a legal first action of p that is not its solution's and
// does not mate at once.
func wrongFirst(t testing.TB, p puzzles.Puzzle) rules.Action {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	want := solverActions(p)[0]
	for _, a := range g.Legal() {
		if a == want {
			continue
		}
		g.Play(a)
		mate := g.Outcome().Status == rules.Checkmate
		g.Undo()
		if !mate {
			return a
		}
	}
	t.Skip("no wrong first action")
	return rules.Action{}
}

func multi(p puzzles.Puzzle) bool { return len(p.Solution) > 2 }

// TestAttempt: a correct prefix is judged correct and keeps nothing; a
// wrong action ends the attempt with a reason, is kept and rates the
// player down and the puzzle up; trying again is judged but rated no
// more; a solution rates the player up; an attempt of nobody's is judged
// and kept nowhere.
func TestAttempt(t *testing.T) {
	svc, st, set := newService(t)
	ctx := context.Background()
	p := find(t, set, func(p puzzles.Puzzle) bool { return len(solverActions(p)) >= 2 })
	mine := solverActions(p)

	res, err := svc.Attempt(ctx, "ann", p.ID, mine[:1])
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verdict.Correct || res.Verdict.Solved || res.Done() || res.Attempt != nil || res.Next < 1 {
		t.Errorf("a correct prefix: %+v", res)
	}
	if _, ok, _ := st.LastAttempt(ctx, "ann", p.ID); ok {
		t.Error("a prefix was kept")
	}

	wrong := wrongFirst(t, p)
	res, err = svc.Attempt(ctx, "ann", p.ID, []rules.Action{wrong})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict.Correct || res.Verdict.FailedAt != 0 || !strings.HasPrefix(res.Reason.String(), "Not this: ") {
		t.Errorf("a wrong action: %+v", res.Verdict)
	}
	a := res.Attempt
	if a == nil || !a.Rated || a.After.Rating >= a.Before.Rating || a.PuzzleAfter.Rating <= a.PuzzleBefore.Rating || a.Why().String() != res.Reason.String() {
		t.Fatalf("a wrong action's attempt: %+v", a)
	}
	stats, _, _ := st.PuzzleStats(ctx, p.ID)
	if stats.Plays != 1 || stats.Solved != 0 || stats.Rating != a.PuzzleAfter {
		t.Errorf("the puzzle after a failure: %+v", stats)
	}

	res, err = svc.Attempt(ctx, "ann", p.ID, mine)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verdict.Solved || res.Attempt.Rated || res.Attempt.After != a.After {
		t.Errorf("a second attempt: %+v %+v", res.Verdict, res.Attempt)
	}
	if l, _ := st.Learner(ctx, "ann"); l.Rating != a.After || l.Puzzles != 1 || l.Solved != 0 {
		t.Errorf("the learner after a second attempt: %+v", l)
	}

	q := find(t, set, func(q puzzles.Puzzle) bool { return q.ID != p.ID })
	res, err = svc.Attempt(ctx, "bob", q.ID, solverActions(q))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verdict.Solved || !res.Attempt.Rated || res.Attempt.After.Rating <= res.Attempt.Before.Rating || res.Learner.Solved != 1 {
		t.Errorf("a solution: %+v %+v", res.Verdict, res.Attempt)
	}

	res, err = svc.Attempt(ctx, "", q.ID, []rules.Action{wrongFirst(t, q)})
	if err != nil || res.Verdict.Correct || res.Attempt != nil {
		t.Errorf("nobody's attempt: %+v %v", res, err)
	}
	if stats, _, _ := st.PuzzleStats(ctx, q.ID); stats.Plays != 1 {
		t.Errorf("nobody's attempt rated the puzzle: %+v", stats)
	}
}

// TestAttemptPastAMateOfItsOwn: an action after a mate the solution does
// not show fails, and the reason says the puzzle was solved.
func TestAttemptPastAMateOfItsOwn(t *testing.T) {
	// White mates by Qb8 and the ban of h8–h7, or at once by Qh1.
	trap := puzzles.Puzzle{ID: "trap", FEN: "7k/5K2/8/8/8/p7/P7/1Q6 w - - 0 1 2", Solution: []string{"m:b1b8", "b:h8h7"},
		Themes: []puzzles.Theme{puzzles.MateIn2}, Rating: 1500}
	set, err := puzzles.NewSet([]puzzles.Puzzle{trap})
	if err != nil {
		t.Fatal(err)
	}
	svc := training.New(set, nil, store.NewMemory(), training.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	mate, _ := rules.ParseAction("m:b1h1")
	res, err := svc.Attempt(ctx, "", trap.ID, []rules.Action{mate})
	if err != nil || !res.Verdict.Solved {
		t.Fatalf("the mate of its own: %+v %v", res.Verdict, err)
	}
	after, _ := rules.ParseAction("b:h8g8")
	res, err = svc.Attempt(ctx, "", trap.ID, []rules.Action{mate, after})
	if err != nil || res.Verdict.FailedAt != 1 || res.Reason.String() != "The puzzle was already solved: there is nothing more to play." {
		t.Errorf("an action after it: %+v %q %v", res.Verdict, res.Reason.String(), err)
	}
}

// TestAttemptRefused: an unknown puzzle, no actions, too many.
func TestAttemptRefused(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	p := set.All()[0]
	for name, c := range map[string]struct {
		id      string
		actions []rules.Action
		detail  errs.Detail
	}{
		"unknown":  {"nope", solverActions(p), training.NoPuzzle},
		"none":     {p.ID, nil, training.BadActions},
		"too many": {p.ID, make([]rules.Action, training.MaxActions+1), training.BadActions},
	} {
		_, err := svc.Attempt(ctx, "ann", c.id, c.actions)
		if e := errs.Of(err); e == nil || e.Detail != c.detail {
			t.Errorf("%s: %v, want %s", name, err, c.detail)
		}
	}
}

// TestNext: the puzzle nearest the learner's rating, of the theme asked,
// one they have not tried while there is one; a theme that is not one is
// refused.
func TestNext(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	first, err := svc.Next(ctx, "ann", "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := set.Near(1500, "", nil)
	if first.ID != want.ID {
		t.Errorf("next %s, want %s (nearest 1500)", first.ID, want.ID)
	}
	if _, err := svc.Attempt(ctx, "ann", first.ID, []rules.Action{wrongFirst(t, first.Puzzle)}); err != nil {
		t.Fatal(err)
	}
	second, err := svc.Next(ctx, "ann", "")
	if err != nil || second.ID == first.ID {
		t.Errorf("after trying %s, next is %s (%v)", first.ID, second.ID, err)
	}
	for _, th := range puzzles.AllThemes() {
		if set.Count(th) == 0 {
			continue
		}
		p, err := svc.Next(ctx, "ann", th)
		if err != nil || !p.Has(th) {
			t.Errorf("theme %s: %s %v (%v)", th, p.ID, p.Themes, err)
		}
	}
	if _, err := training.ParseTheme("mateIn9"); errs.Of(err).Detail != training.BadTheme {
		t.Errorf("theme mateIn9: %v", err)
	}
}

// TestPlay: a board's action at a solver's moment (the board's ply) is
// the attempt of the solution's solver actions before it and this one; a
// moment where the opponent acts is refused, and so is input the rules
// refuse. While the attempt goes on, the page shows the moment after the
// action, the replies ahead; once it ends, its review.
func TestPlay(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	p := find(t, set, multi)
	sol, _ := p.Line()
	mine := solverActions(p)
	g, _ := p.Start()
	start := g.Ply()
	res, err := svc.Play(ctx, "ann", p.ID, games.Input{Text: mine[0].String()})
	if err != nil || !res.Verdict.Correct {
		t.Fatalf("the first action: %+v %v", res.Verdict, err)
	}
	if res.Next < 1 || res.Next >= len(sol) {
		t.Fatalf("next moment %d of %d", res.Next, len(sol))
	}
	if m := res.Moment; m == nil || m.At != 1 || m.Ahead != res.Next || m.Game.Ply() != start+1 || res.Review != nil {
		t.Fatalf("the moment after the first action: %+v", m)
	}
	res, err = svc.Play(ctx, "ann", p.ID, games.Input{Text: mine[1].String(), Ply: start + res.Next})
	if err != nil || !res.Verdict.Correct {
		t.Errorf("the second action: %+v %v", res.Verdict, err)
	}
	if res.Done() && (res.Review == nil || res.Review.Failed != len(sol) || len(res.Review.Steps) != len(sol) || !res.Review.Attempt.Solved) {
		t.Errorf("the review of a solution: %+v", res.Review)
	}
	solver := g.Turn().Actor
	for n, a := range sol {
		if g.Turn().Actor != solver {
			if _, err := svc.Play(ctx, "ann", p.ID, games.Input{Text: a.String(), Ply: start + n}); errs.Of(err).Detail != training.BadStep {
				t.Errorf("moment %d, the opponent's: %v", n, err)
			}
			break
		}
		g.Play(a)
	}
	if _, err := svc.Play(ctx, "ann", p.ID, games.Input{Text: "hello"}); errs.Of(err).Code != errs.Invalid {
		t.Errorf("hello: %v", err)
	}
}

// TestLook: a puzzle's moment where the solver acts waits for them,
// with what they played and the replies since; at a moment of the
// replies, or past the solution, Ahead says where the solver acts next;
// a moment the solution does not have is refused.
func TestLook(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	// A solution from a ban: its moment 1 is the opponent's.
	p := find(t, set, func(p puzzles.Puzzle) bool { return len(p.Solution) >= 4 && strings.HasPrefix(p.Solution[0], "b:") })
	g, _ := p.Start()
	m, err := svc.Look(ctx, "ann", p.ID, training.Where{})
	if err != nil || !m.SolverActs() || m.At != 0 || len(m.Played) != 0 || m.Ahead != 0 || m.Learner.Rating.Rating != 1500 {
		t.Fatalf("the start: %+v %v", m, err)
	}
	m, err = svc.Look(ctx, "ann", p.ID, training.Where{Moment: 1})
	if err != nil || m.SolverActs() || m.At != 1 || m.Ahead <= 1 || m.Game.Ply() != g.Ply()+1 {
		t.Fatalf("moment 1: %+v %v", m, err)
	}
	ahead := m.Ahead
	m, err = svc.Look(ctx, "ann", p.ID, training.Where{Ply: g.Ply() + ahead})
	if err != nil || !m.SolverActs() || m.At != ahead || len(m.Played) != ahead {
		t.Fatalf("moment %d by its ply: %+v %v", ahead, m, err)
	}
	if mine, replies, ok := m.Replied(); !ok || mine.Action.String() != p.Solution[0] || len(replies) != ahead-1 || replies[0].Mine {
		t.Errorf("replied: %+v %+v %v", mine, replies, ok)
	}
	m, err = svc.Look(ctx, "ann", p.ID, training.Where{Moment: len(p.Solution)})
	if err != nil || m.SolverActs() || m.Ahead != len(p.Solution) {
		t.Errorf("the end: %+v %v", m, err)
	}
	for _, w := range []training.Where{{Moment: len(p.Solution) + 1}, {Ply: g.Ply() - 1}} {
		if _, err := svc.Look(ctx, "ann", p.ID, w); errs.Of(err).Code != errs.Invalid {
			t.Errorf("%+v: %v", w, err)
		}
	}
	if _, err := svc.Look(ctx, "ann", "nope", training.Where{}); errs.Of(err).Detail != training.NoPuzzle {
		t.Errorf("nope: %v", err)
	}
}

// TestReview: there is none before an attempt; after a failed one it is
// shown where it went wrong, or at any moment asked for (past the
// solution: at its end), with the solution step by step and the
// puzzle's rating as it stands.
func TestReview(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	p := find(t, set, multi)
	if _, ok, err := svc.Review(ctx, "ann", p.ID, -1, -1); ok || err != nil {
		t.Fatalf("a review before an attempt: %v %v", ok, err)
	}
	wrong := wrongFirst(t, p)
	if _, err := svc.Attempt(ctx, "ann", p.ID, []rules.Action{wrong}); err != nil {
		t.Fatal(err)
	}
	r, ok, err := svc.Review(ctx, "ann", p.ID, -1, -1)
	if err != nil || !ok || r.Failed != 0 || r.Shown != 0 || r.At != 0 || len(r.Steps) != len(p.Solution) || r.Attempt.Solved || r.Stats.Plays != 1 {
		t.Fatalf("the review: %+v %v %v", r, ok, err)
	}
	if !r.Steps[0].Mine || r.Steps[0].Action.String() != p.Solution[0] {
		t.Errorf("the first step: %+v", r.Steps[0])
	}
	for at, want := range map[int]int{1: 1, 99: len(p.Solution)} {
		r, _, err := svc.Review(ctx, "ann", p.ID, at, -1)
		if err != nil || r.Shown != at || r.At != want || len(r.Played) != want || r.Failure != nil {
			t.Errorf("at %d: shown %d at %d (%v)", at, r.Shown, r.At, err)
		}
	}
}

// TestPlyNames: a solution's plies are named as the lessons name
// actions.
func TestPlyNames(t *testing.T) {
	svc, _, set := newService(t)
	ctx := context.Background()
	for _, p := range set.All() {
		m, err := svc.Look(ctx, "", p.ID, training.Where{Moment: len(p.Solution)})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := p.Start()
		for _, ply := range m.Played {
			if want := lessons.Name(g, ply.Action).String(); ply.Name().String() != want {
				t.Errorf("puzzle %s: %q, want %q", p.ID, ply.Name().String(), want)
			}
			g.Play(ply.Action)
		}
	}
}

// TestTryStep: a right answer is kept as the learner's progress, a wrong
// one is judged and not kept, input the rules refuse is refused.
func TestTryStep(t *testing.T) {
	svc, st, _ := newService(t)
	ctx := context.Background()
	res, err := svc.TryStep(ctx, "ann", "ply-order", 0, games.Input{Text: "e4"})
	if err != nil || !res.Verdict.Right {
		t.Fatalf("b:e2e4: %+v %v", res.Verdict, err)
	}
	res, err = svc.TryStep(ctx, "ann", "ply-order", 1, games.Input{Text: "Nf3"})
	if err != nil || res.Verdict.Right || res.Verdict.Text.IsZero() {
		t.Fatalf("Nf3 at step 2: %+v %v", res.Verdict, err)
	}
	l, _ := st.Learner(ctx, "ann")
	if !slices.Equal(l.Steps["ply-order"], []int{0}) {
		t.Errorf("steps done %v", l.Steps)
	}
	if _, err := svc.TryStep(ctx, "ann", "ply-order", 1, games.Input{Text: "e4"}); errs.Of(err).Code != errs.Banned {
		t.Errorf("the banned e4: %v", err)
	}
	if _, err := svc.TryStep(ctx, "ann", "ply-order", 9, games.Input{Text: "e4"}); errs.Of(err).Detail != training.NoLesson {
		t.Errorf("step 10: %v", err)
	}
}

// TestAnswerRemembered: an answer judged again (remembered by the
// service) gets the same verdict and, when right, its own game after it;
// an illegal one is refused every time.
func TestAnswerRemembered(t *testing.T) {
	svc, _, _ := newService(t)
	ctx := context.Background()
	for _, tc := range []struct {
		lesson string
		step   int
		action string
		right  bool
	}{
		{"ply-order", 0, "b:e2e4", true},
		{"ply-order", 1, "m:g1f3", false},
		{"promotion", 0, "b:e7d8", true},
	} {
		a, err := rules.ParseAction(tc.action)
		if err != nil {
			t.Fatal(err)
		}
		first, err := svc.Answered(ctx, "", tc.lesson, tc.step, a)
		if err != nil {
			t.Fatalf("%s at %s/%d: %v", tc.action, tc.lesson, tc.step+1, err)
		}
		again, err := svc.Answered(ctx, "", tc.lesson, tc.step, a)
		if err != nil {
			t.Fatalf("%s at %s/%d again: %v", tc.action, tc.lesson, tc.step+1, err)
		}
		v, w := first.Verdict, again.Verdict
		if v.Right != tc.right || w.Right != tc.right || v.Text.String() != w.Text.String() || v.Played.String() != w.Played.String() {
			t.Errorf("%s at %s/%d: %+v, then %+v", tc.action, tc.lesson, tc.step+1, v, w)
		}
		if again.Game == first.Game || again.Game.FEN() != first.Game.FEN() {
			t.Errorf("%s at %s/%d: the board is not its own copy of the same position", tc.action, tc.lesson, tc.step+1)
		}
		if last, ok := again.Game.LastAction(); tc.right != (ok && last == a) {
			t.Errorf("%s at %s/%d: the board's last action %v, right %v", tc.action, tc.lesson, tc.step+1, last, tc.right)
		}
	}
	banned, _ := rules.ParseAction("m:e2e4")
	for range 2 {
		if _, err := svc.Answered(ctx, "", "ply-order", 1, banned); errs.Of(err).Code != errs.Banned {
			t.Errorf("the banned e4: %v", err)
		}
	}
}

// TestSteps: the course lists each lesson with the steps done; a lesson
// resumes at its first step not done; a step's page says which are done
// and, after a right answer, shows the position it led to and leads on.
func TestSteps(t *testing.T) {
	svc, _, _ := newService(t)
	ctx := context.Background()
	if _, err := svc.TryStep(ctx, "ann", "ply-order", 0, games.Input{Text: "e4"}); err != nil {
		t.Fatal(err)
	}
	_, course, err := svc.Course(ctx, "ann")
	if err != nil || len(course) != len(lessons.All()) || course[0].Lesson.ID != "ply-order" || course[0].Done != 1 || course[1].Done != 0 {
		t.Fatalf("the course: %+v %v", course, err)
	}
	if _, n, err := svc.Resume(ctx, "ann", "ply-order"); err != nil || n != 1 {
		t.Errorf("ply-order resumes at %d (%v), want 1", n, err)
	}
	st, err := svc.Step(ctx, "ann", "ply-order", 1)
	if err != nil || !slices.Equal(st.Done, []bool{true, false, false, false}) || st.Verdict != nil || st.Side != st.Game.Turn().Actor {
		t.Fatalf("step 2: %+v %v", st, err)
	}
	st, err = svc.TryStep(ctx, "ann", "ply-order", 1, games.Input{Text: "d4"})
	if err != nil || !st.Verdict.Right || !st.Done[1] || st.Next() != 2 || st.Game.Ply() == st.Game.StartPly() {
		t.Fatalf("a right answer at step 2: %+v %v", st, err)
	}
	last, err := svc.Step(ctx, "ann", "ply-order", 3)
	if err != nil || last.Next() != -1 {
		t.Errorf("after the last step: %d %v", last.Next(), err)
	}
}

// fakeEngine answers every analysis with its line, or fails.
type fakeEngine struct {
	res engine.Result
	err error
}

func (f fakeEngine) Analyse(context.Context, *rules.Game, engine.Limits) (engine.Result, error) {
	return f.res, f.err
}

// TestReasons: a wrong action's reason is the engine's line when it
// answers, and a proof over the rules when it does not.
func TestReasons(t *testing.T) {
	ctx := context.Background()
	_, _, set := newService(t)
	p := find(t, set, func(p puzzles.Puzzle) bool { return p.Kind() == puzzles.MateIn2 })
	wrong := wrongFirst(t, p)
	g, _ := p.Start()
	g.Play(wrong)
	reply := g.Legal()[0]

	withEngine, _, _ := newService(t, training.WithAnalyser(fakeEngine{res: engine.Result{PV: []rules.Action{reply}, Best: reply, Score: -120}}))
	res, err := withEngine.Attempt(ctx, "", p.ID, []rules.Action{wrong})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Reason.String(), "Best play: ") || !strings.Contains(res.Reason.String(), "there is no mate") {
		t.Errorf("with the engine: %q", res.Reason.String())
	}
	busy, _, _ := newService(t, training.WithAnalyser(fakeEngine{err: errors.New("busy")}))
	res, err = busy.Attempt(ctx, "", p.ID, []rules.Action{wrong})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Reason.String(), "mate") || strings.Contains(res.Reason.String(), "Best play") {
		t.Errorf("without the engine: %q", res.Reason.String())
	}
}

// TestRefutation: a wrong action's refutation is the engine's line up to
// and including the opponent's first action — after a wrong move, the
// solver's best ban first; after a wrong ban, the opponent's move — kept
// with the attempt; the review where it went wrong plays the wrong
// action and the refutation on its board, or as many of them as asked.
// Without the engine's line there is none, and the board shows the
// wrong action alone.
func TestRefutation(t *testing.T) {
	ctx := context.Background()
	_, _, set := newService(t)
	for _, first := range []rules.Phase{rules.PhaseMove, rules.PhaseBan} {
		p := find(t, set, func(p puzzles.Puzzle) bool {
			g, err := p.Start()
			return err == nil && g.Turn().Phase == first && p.Kind() != puzzles.MateIn1
		})
		wrong := wrongFirst(t, p)
		g, _ := p.Start()
		start := g.Ply()
		g.Play(wrong)
		var pv []rules.Action // three plies of legal play after the wrong action
		for range 3 {
			a := g.Legal()[0]
			pv = append(pv, a)
			g.Play(a)
		}
		want := pv[:1] // after a ban, the opponent's move
		if first == rules.PhaseMove {
			want = pv[:2] // after a move, the solver's ban, then the opponent's move
		}
		svc, _, _ := newService(t, training.WithAnalyser(fakeEngine{res: engine.Result{PV: pv, Best: pv[0], Score: -120}}))
		res, err := svc.Attempt(ctx, "ann", p.ID, []rules.Action{wrong})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Refutation, want) || res.Attempt == nil || !slices.Equal(res.Attempt.Refutation, puzzlesBCN(want)) {
			t.Errorf("%s first: refutation %v, kept %+v, want %v", first, res.Refutation, res.Attempt, want)
		}
		r, ok, err := svc.Review(ctx, "ann", p.ID, -1, -1)
		if err != nil || !ok || len(r.Failure) != 1+len(want) || r.FailureShown != len(r.Failure) || r.Game.Ply() != start+1+len(want) {
			t.Fatalf("%s first: the review %+v %v %v", first, r.Failure, ok, err)
		}
		if !r.Failure[0].Mine || r.Failure[0].Action != wrong || r.Failure[len(r.Failure)-1].Mine || r.Failure[len(r.Failure)-1].Action != want[len(want)-1] {
			t.Errorf("%s first: the failure %+v", first, r.Failure)
		}
		r, _, _ = svc.Review(ctx, "ann", p.ID, -1, 1)
		if r.FailureShown != 1 || r.Game.Ply() != start+1 {
			t.Errorf("%s first: one ply of the failure shows %d at ply %d", first, r.FailureShown, r.Game.Ply())
		}

		busy, _, _ := newService(t, training.WithAnalyser(fakeEngine{err: errors.New("busy")}))
		res, err = busy.Attempt(ctx, "ann", p.ID, []rules.Action{wrong})
		if err != nil || res.Refutation != nil {
			t.Errorf("%s first, the engine busy: %v %v", first, res.Refutation, err)
		}
		if r, _, _ := busy.Review(ctx, "ann", p.ID, -1, -1); len(r.Failure) != 1 || r.Game.Ply() != start+1 {
			t.Errorf("%s first, the engine busy: the failure %+v", first, r.Failure)
		}
	}
}

// TestRefutationLater: a wrong action after right ones is drawn where it
// was tried, the solution played up to there, and then its refutation.
func TestRefutationLater(t *testing.T) {
	ctx := context.Background()
	_, _, set := newService(t)
	p := find(t, set, func(p puzzles.Puzzle) bool { return len(solverActions(p)) >= 2 })
	mine := solverActions(p)
	line, _ := p.Line()
	g, _ := p.Start()
	start := g.Ply()
	failed := slices.Index(line, mine[1]) // the moment of the solver's second action
	for _, a := range line[:failed] {
		g.Play(a)
	}
	var wrong rules.Action
	for _, a := range g.Legal() {
		if a != mine[1] && g.Play(a) == nil {
			over := g.Outcome().Over()
			g.Undo()
			if !over {
				wrong = a
				break
			}
		}
	}
	refuted := 1 // after a wrong ban, the opponent's move
	if wrong.Phase == rules.PhaseMove {
		refuted = 2 // after a wrong move, the solver's ban, then the opponent's move
	}
	svc, _, _ := newService(t, training.WithAnalyser(firstLegal{}))
	if _, err := svc.Attempt(ctx, "ann", p.ID, []rules.Action{mine[0], wrong}); err != nil {
		t.Fatal(err)
	}
	r, _, err := svc.Review(ctx, "ann", p.ID, -1, -1)
	if err != nil || r.Failed != failed || len(r.Failure) != 1+refuted || r.Failure[0].Action != wrong || r.Game.Ply() != start+failed+1+refuted {
		t.Errorf("the review: failed at %d (want %d), failure %+v, ply %d: %v", r.Failed, failed, r.Failure, r.Game.Ply(), err)
	}
}

// firstLegal is an engine whose best line is the first legal action,
// three plies deep.
type firstLegal struct{}

func (firstLegal) Analyse(_ context.Context, g *rules.Game, _ engine.Limits) (engine.Result, error) {
	var pv []rules.Action
	for range 3 {
		legal := g.Legal()
		if len(legal) == 0 || g.Play(legal[0]) != nil {
			break
		}
		pv = append(pv, legal[0])
	}
	for range pv {
		g.Undo()
	}
	if len(pv) == 0 {
		return engine.Result{}, engine.ErrNoAction
	}
	return engine.Result{PV: pv, Best: pv[0], Score: -300}, nil
}

// puzzlesBCN writes actions in BCN.
func puzzlesBCN(as []rules.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	return out
}

// TestAttemptWhy: a failed attempt keeps its reason as a message, read
// back from the store and said in whatever language reads it; a reason
// kept in English before reasons were messages is shown as it stands.
func TestAttemptWhy(t *testing.T) {
	ctx := context.Background()
	svc, st, set := newService(t)
	p := set.All()[0]
	res, err := svc.Attempt(ctx, "ann", p.ID, []rules.Action{wrongFirst(t, p)})
	if err != nil {
		t.Fatal(err)
	}
	kept, ok, err := st.LastAttempt(ctx, "ann", p.ID)
	if err != nil || !ok {
		t.Fatalf("no attempt kept: %v", err)
	}
	why := kept.Why()
	de := i18n.Builtin().Named("de")
	if why.ID != "reason.notThis" || why.String() != res.Reason.String() || de.Say(why) == why.String() || !strings.HasPrefix(de.Say(why), "Nicht das: ") {
		t.Errorf("the reason kept: %q, in German %q", why.String(), de.Say(why))
	}
	if got := training.WhyNot(why); got.IsZero() || strings.HasPrefix(got.String(), "Not this") {
		t.Errorf("why not, without the action: %q", got.String())
	}
	old := training.Attempt{Reason: "Not this: Nf3. It does not win the material: the opponent keeps it."}
	if got := old.Why().String(); got != old.Reason || de.Say(old.Why()) != old.Reason {
		t.Errorf("a reason kept in English: %q", got)
	}
	if (training.Attempt{}).Why().String() != "" {
		t.Error("a solved attempt has a reason")
	}
}
