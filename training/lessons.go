package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/rules"
)

// Lessons returns the course, in order. The slice is the service's:
// callers must not change it.
func (s *Service) Lessons() []lessons.Lesson { return s.lessons }

// Lesson returns lesson id and the index of its step n (from 0), refusing
// either when there is none.
func (s *Service) Lesson(id string, n int) (lessons.Lesson, error) {
	for _, l := range s.lessons {
		if l.ID != id {
			continue
		}
		if n < 0 || n >= len(l.Steps) {
			return l, refused(errs.NotFound, NoLesson, fmt.Sprintf("The lesson “%s” has steps 1 to %d.", l.Title, len(l.Steps)))
		}
		return l, nil
	}
	return lessons.Lesson{}, refused(errs.NotFound, NoLesson, "There is no such lesson.")
}

// StepResult is a judged answer at a lesson's step.
type StepResult struct {
	Lesson  lessons.Lesson
	Step    int
	Action  rules.Action
	Verdict lessons.Verdict
}

// TryStep judges in, the learner's ban or move at step n of lesson id,
// and keeps a right answer as player's progress (unless player is ""). A
// wrong answer is a Verdict, not an error; input the rules refuse (not
// legal, the banned pair, not an action, a promotion without its piece)
// is an error, as a game refuses it.
func (s *Service) TryStep(ctx context.Context, player, id string, n int, in games.Input) (StepResult, error) {
	l, err := s.Lesson(id, n)
	if err != nil {
		return StepResult{}, err
	}
	step := l.Steps[n]
	g, err := step.Start()
	if err != nil {
		return StepResult{}, errs.Internalf(err, "lesson %s step %d", id, n+1)
	}
	a, err := in.Action(g)
	if err != nil {
		return StepResult{}, err
	}
	v, err := s.JudgeStep(id, n, a)
	if err != nil {
		return StepResult{}, err
	}
	if v.Right && player != "" {
		if err := s.store.CompleteStep(ctx, player, id, n, s.now()); err != nil {
			return StepResult{}, errs.Internalf(err, "keeping lesson progress")
		}
	}
	return StepResult{Lesson: l, Step: n, Action: a, Verdict: v}, nil
}

// CarrySteps adds the lesson steps player from has done to player to's:
// a browser that took lessons before signing in keeps them in the
// account it signs in to. The puzzle rating stays the account's: it was
// earned by the account's attempts.
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
	return nil
}

// JudgeStep judges action a at step n of lesson id, as lessons.Step.Judge
// does, keeping nothing. A legal action's judgement is worked out once
// and remembered: some goals search the game a few plies deep (up to a
// third of a second), and a step has at most a few dozen legal actions,
// so what is remembered is bounded by the course.
func (s *Service) JudgeStep(id string, n int, a rules.Action) (lessons.Verdict, error) {
	l, err := s.Lesson(id, n)
	if err != nil {
		return lessons.Verdict{}, err
	}
	step := l.Steps[n]
	key := judged{id, n, a}
	if v, ok := s.verdicts.Load(key); ok {
		v := v.(lessons.Verdict)
		g, err := step.Start()
		if err != nil {
			return lessons.Verdict{}, errs.Internalf(err, "lesson %s step %d", id, n+1)
		}
		if err := g.Play(a); err != nil {
			return lessons.Verdict{}, errs.Of(err)
		}
		v.After = g
		return v, nil
	}
	v, err := step.Judge(a)
	if err != nil {
		return lessons.Verdict{}, errs.Of(err)
	}
	kept := v
	kept.After = nil
	s.verdicts.Store(key, kept)
	return v, nil
}

// judged names a judgement JudgeStep remembers.
type judged struct {
	lesson string
	step   int
	action rules.Action
}
