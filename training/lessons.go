package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/rules"
)

// Lesson returns lesson id and the index of its step n (from 0), refusing
// either when there is none.
func (s *Service) Lesson(id string, n int) (lessons.Lesson, error) {
	for _, l := range s.lessons {
		if l.ID != id {
			continue
		}
		if n < 0 || n >= len(l.Steps) {
			return l, refused(errs.NotFound, NoLesson, fmt.Sprintf("The lesson “%s” has steps 1 to %d.", l.Title.String(), len(l.Steps)))
		}
		return l, nil
	}
	return lessons.Lesson{}, refused(errs.NotFound, NoLesson, "There is no such lesson.")
}

// Progress is a lesson with how many of its steps a player has done.
type Progress struct {
	Lesson lessons.Lesson
	Done   int
}

// Course returns player (their rating) and the course, in order, with
// their progress in each lesson.
func (s *Service) Course(ctx context.Context, player string) (Learner, []Progress, error) {
	l, err := s.learner(ctx, player)
	if err != nil {
		return Learner{}, nil, err
	}
	out := make([]Progress, len(s.lessons))
	for i, ls := range s.lessons {
		out[i].Lesson = ls
		for n := range ls.Steps {
			if l.Done(ls.ID, n) {
				out[i].Done++
			}
		}
	}
	return l, out, nil
}

// Resume returns lesson id and the step player takes it up at: the first
// they have not done (the first, once they have done all).
func (s *Service) Resume(ctx context.Context, player, id string) (lessons.Lesson, int, error) {
	ls, err := s.Lesson(id, 0)
	if err != nil {
		return lessons.Lesson{}, 0, err
	}
	l, err := s.learner(ctx, player)
	if err != nil {
		return lessons.Lesson{}, 0, err
	}
	n := 0
	for n < len(ls.Steps) && l.Done(ls.ID, n) {
		n++
	}
	if n == len(ls.Steps) {
		n = 0
	}
	return ls, n, nil
}

// Step is a step of a lesson as a player sees it: what its page shows.
type Step struct {
	Lesson lessons.Lesson
	N      int // the step, from 0
	// Game is the board: the step's position, or — after a right answer
	// — the position the answer led to.
	Game *rules.Game
	// Side is the learner's: the side to act at the step's position.
	Side rules.Color
	// Done says, for each of the lesson's steps, whether the player has
	// done it.
	Done []bool
	// Answer is the answer given and Verdict its judgement (without its
	// After: Game is the board); nil before an answer.
	Answer  rules.Action
	Verdict *lessons.Verdict
}

// Next is the step after this one, from 0; -1 after the lesson's last.
func (s Step) Next() int {
	if s.N+1 < len(s.Lesson.Steps) {
		return s.N + 1
	}
	return -1
}

// Step returns step n (from 0) of lesson id, for player to answer.
func (s *Service) Step(ctx context.Context, player, id string, n int) (Step, error) {
	st, err := s.step(id, n)
	if err != nil {
		return Step{}, err
	}
	return st, s.progress(ctx, player, &st)
}

// Answered returns step n of lesson id after answer a, judged but not
// kept: the page a right or wrong answer leads to.
func (s *Service) Answered(ctx context.Context, player, id string, n int, a rules.Action) (Step, error) {
	st, err := s.step(id, n)
	if err != nil {
		return Step{}, err
	}
	if err := s.answer(&st, a); err != nil {
		return Step{}, err
	}
	return st, s.progress(ctx, player, &st)
}

// TryStep judges in, the learner's ban or move at step n of lesson id,
// and keeps a right answer as player's progress (unless player is ""). A
// wrong answer is a Verdict, not an error; input the rules refuse (not
// legal, the banned pair, not an action, a promotion without its piece)
// is an error, as a game refuses it.
func (s *Service) TryStep(ctx context.Context, player, id string, n int, in games.Input) (Step, error) {
	st, err := s.step(id, n)
	if err != nil {
		return Step{}, err
	}
	a, err := in.Action(st.Game)
	if err != nil {
		return Step{}, err
	}
	if err := s.answer(&st, a); err != nil {
		return Step{}, err
	}
	if st.Verdict.Right && player != "" {
		if err := s.store.CompleteStep(ctx, player, id, n, s.now()); err != nil {
			return Step{}, errs.Internalf(err, "keeping lesson progress")
		}
	}
	return st, s.progress(ctx, player, &st)
}

// step is step n of lesson id at its position, before an answer.
func (s *Service) step(id string, n int) (Step, error) {
	l, err := s.Lesson(id, n)
	if err != nil {
		return Step{}, err
	}
	g, err := l.Steps[n].Start()
	if err != nil {
		return Step{}, errs.Internalf(err, "lesson %s step %d", id, n+1)
	}
	return Step{Lesson: l, N: n, Game: g, Side: g.Turn().Actor}, nil
}

// progress adds to st the steps player has done.
func (s *Service) progress(ctx context.Context, player string, st *Step) error {
	l, err := s.learner(ctx, player)
	if err != nil {
		return err
	}
	st.Done = make([]bool, len(st.Lesson.Steps))
	for i := range st.Done {
		st.Done[i] = l.Done(st.Lesson.ID, i)
	}
	return nil
}

// answer judges a at st, as lessons.Step.Judge does, and moves st's
// board to where a right answer leads. A legal action's judgement is
// worked out once and remembered: some goals search the game a few plies
// deep (up to a third of a second), and a step has at most a few dozen
// legal actions, so what is remembered is bounded by the course.
func (s *Service) answer(st *Step, a rules.Action) error {
	key := judged{st.Lesson.ID, st.N, a}
	v, known := s.verdicts.Load(key)
	if !known {
		fresh, err := st.Lesson.Steps[st.N].Judge(a)
		if err != nil {
			return errs.Of(err)
		}
		if fresh.Right {
			st.Game = fresh.After
		}
		fresh.After = nil
		s.verdicts.Store(key, fresh)
		v = fresh
	}
	verdict := v.(lessons.Verdict)
	if known && verdict.Right {
		if err := st.Game.Play(a); err != nil {
			return errs.Of(err)
		}
	}
	st.Answer, st.Verdict = a, &verdict
	return nil
}

// CarrySteps adds the lesson steps player from has done to player to's:
// a browser that took lessons before signing in keeps them in the
// account it signs in to; and so its best streak and storm (ever and
// today), where they beat the account's. The puzzle rating stays the
// account's: it was earned by the account's attempts.
func (s *Service) CarrySteps(ctx context.Context, from, to string) error {
	if from == "" || to == "" || from == to {
		return nil
	}
	l, err := s.store.Learner(ctx, from)
	if err != nil {
		return errs.Internalf(err, "reading the lessons of %s", from)
	}
	for lesson, steps := range l.Steps {
		for _, n := range steps {
			if err := s.store.CompleteStep(ctx, to, lesson, n, s.now()); err != nil {
				return errs.Internalf(err, "keeping lesson progress")
			}
		}
	}
	return s.carryBests(ctx, from, to)
}

// carryBests keeps player from's best runs as player to's where they
// beat them: ever, and today's.
func (s *Service) carryBests(ctx context.Context, from, to string) error {
	today := day(s.now())
	for _, k := range []RunKind{StreakRun, StormRun} {
		b, err := s.store.Bests(ctx, from, k, today)
		if err != nil {
			return errs.Internalf(err, "reading best scores")
		}
		for _, d := range []struct {
			day   string
			score int
		}{{"", b.Best}, {today, b.Today}} {
			if d.score == 0 {
				continue
			}
			if err := s.store.RecordScore(ctx, to, k, d.day, d.score); err != nil {
				return errs.Internalf(err, "keeping a best score")
			}
		}
	}
	return nil
}

// judged names a judgement answer remembers.
type judged struct {
	lesson string
	step   int
	action rules.Action
}
