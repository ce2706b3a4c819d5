// Package training is the application layer of /learn and /training: the
// lessons a player takes and the steps they have done, the puzzles they
// solve, judged by package puzzles, with a reason for every wrong action,
// and their puzzle rating and each puzzle's (Glicko-2, package rating),
// kept by a Store. Front ends name the player by a key: the holder of the
// browser's cookie or the API client's token (later, the player's account);
// "" is nobody, whose attempts are judged but neither kept nor rated.
package training

import (
	"context"
	"sync"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// The details of training's refusals, beside errs.Detail's.
const (
	BadTheme   errs.Detail = "bad_theme"   // Invalid: not a puzzle theme
	NoPuzzle   errs.Detail = "no_puzzle"   // NotFound: no puzzle has this id, or none has the theme
	NoLesson   errs.Detail = "no_lesson"   // NotFound: no lesson or step has this id
	BadActions errs.Detail = "bad_actions" // Invalid: an attempt's actions cannot be read
	BadStep    errs.Detail = "bad_step"    // Conflict: the page shows a moment of the puzzle that is not the solver's to act
)

// PuzzleDeviation is the rating deviation a puzzle starts with: its
// starting rating is the generator's estimate, surer than a new player's
// 350 but not settled.
const PuzzleDeviation = 150

// Analyser searches a position; engine.Pool implements it. It may keep g
// only for the call.
type Analyser interface {
	Analyse(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error)
}

// Service is training for every player.
type Service struct {
	set      *puzzles.Set
	lessons  []lessons.Lesson
	store    Store
	analyser Analyser
	now      func() time.Time
	verdicts sync.Map // judged → lessons.Verdict without its After: JudgeStep's
}

// Option configures a Service.
type Option func(*Service)

// WithAnalyser lets the service explain a wrong action by the engine's
// line against it; without it the reasons come from the rules alone.
func WithAnalyser(a Analyser) Option { return func(s *Service) { s.analyser = a } }

// WithClock makes the service read the time from now (the rating's idle
// time, the puzzle of the day, the time of attempts).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns training over the puzzles of set and the lessons of course,
// keeping progress and ratings in store.
func New(set *puzzles.Set, course []lessons.Lesson, store Store, opts ...Option) *Service {
	s := &Service{set: set, lessons: course, store: store, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// learner returns what is kept of player (nothing for "": a new
// learner).
func (s *Service) learner(ctx context.Context, player string) (Learner, error) {
	if player == "" {
		return Learner{Rating: rating.New()}, nil
	}
	l, err := s.store.Learner(ctx, player)
	if err != nil {
		return Learner{}, errs.Internalf(err, "reading learner")
	}
	if l.Rating == (rating.Rating{}) {
		l.Rating = rating.New()
	}
	return l, nil
}

// refused is a refusal of code, with its detail.
func refused(code errs.Code, detail errs.Detail, msg string) *errs.Error {
	return &errs.Error{Code: code, Detail: detail, Msg: msg}
}
