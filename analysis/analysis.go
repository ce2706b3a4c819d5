// Package analysis is the engine's word on positions and games: an
// analysis of a position or of a game at any ply, and a whole game's
// review, run in the background, one at a time on each server, kept by
// the store and resumed by another server when its own dies.
package analysis

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Games are what analysis needs of the games service: games read by id.
type Games interface {
	View(ctx context.Context, id string, cred players.Credential, fn games.ViewFunc) error
}

// Positions read the positions given to analyse (games.Loader).
type Positions interface {
	FromFEN(fen, variant string) (*rules.Game, error)
	Variants() []rules.Variant
}

// Service analyses positions and games, and reviews games.
type Service struct {
	games     Games
	positions Positions
	store     ReviewStore // nil: no reviews
	analyser  Analyser    // nil: no analysis
	now       func() time.Time
	reviews   reviewer
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithReviewSettings tunes reviews.
func WithReviewSettings(rs ReviewSettings) Option {
	return func(s *Service) { s.reviews.settings = rs }
}

// New returns a service analysing games' games and the positions
// positions reads with a (nil: no analysis), and keeping reviews in store
// (nil: no reviews). Close stops its reviews.
func New(games Games, positions Positions, store ReviewStore, a Analyser, opts ...Option) *Service {
	s := &Service{games: games, positions: positions, store: store, analyser: a, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Close stops the reviews this server runs (another server may then
// resume them).
func (s *Service) Close() { s.stopReviews() }

// Analyser is the engine as the service needs it; engine.Pool implements
// it. It may keep g only for the call. Analyse may refuse when the engine
// is busy (engine.ErrBusy); Play, the computer's ply in a game, waits for
// it ahead of analyses.
type Analyser interface {
	Analyse(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error)
	Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error)
}

// MaxAnalysisBudget is the longest an analysis may be asked to think.
const MaxAnalysisBudget = 10 * time.Second

// DefaultAnalysisBudget is the time an analysis thinks when not told.
const DefaultAnalysisBudget = time.Second

// AnalysisRequest says how hard to think: Budget bounds the time (0: the
// default), Level (1–8, 0: the strongest) and Depth (moves, 0: no bound)
// bound the search further.
type Request struct {
	Budget time.Duration
	Level  int
	Depth  int
	// Ply, for a game, analyses the position where that ply was to be
	// played (a view of its history); 0 is the position now.
	Ply int
}

// limits checks the request and turns it into the engine's limits.
func (r Request) limits() (engine.Limits, error) {
	switch {
	case r.Budget < 0 || r.Budget > MaxAnalysisBudget:
		return engine.Limits{}, errs.Errorf(errs.Invalid, "The budget must be from 1 ms to %d ms.", MaxAnalysisBudget.Milliseconds()).WithDetail(errs.BadBudget)
	case r.Level < 0 || r.Level > engine.Levels:
		return engine.Limits{}, errs.Errorf(errs.Invalid, "The level must be from 1 to %d.", engine.Levels).WithDetail(errs.BadLevel)
	case r.Depth < 0 || r.Depth > 64:
		return engine.Limits{}, errs.Errorf(errs.Invalid, "The depth must be from 1 to 64 moves.").WithDetail(errs.BadDepth)
	}
	budget := r.Budget
	if budget == 0 {
		budget = DefaultAnalysisBudget
	}
	lim := engine.Limits{}
	if r.Level > 0 {
		lim, _ = engine.Level(r.Level, budget)
	}
	lim.Time = budget
	if r.Depth > 0 {
		lim.Depth = r.Depth
	}
	return lim, nil
}

// AnalysePosition analyses a position given in extended FEN.
func (s *Service) AnalysePosition(ctx context.Context, fen, variant string, req Request) (engine.Result, error) {
	g, err := s.positions.FromFEN(fen, variant)
	if err != nil {
		return engine.Result{}, err
	}
	return s.analyse(ctx, g, req)
}

// AnalyseGame analyses game id as it stands (or at req.Ply), knowing its
// history (for the repetition rule). The game is copied under its lock and searched
// without it, so the search holds up no ply.
func (s *Service) AnalyseGame(ctx context.Context, id string, req Request) (engine.Result, error) {
	var g *rules.Game
	var over rules.Outcome
	var err error
	if verr := s.games.View(ctx, id, "", func(rec *games.Record, _ games.Seats) {
		if err = rec.MayAnalyse(); err != nil {
			return
		}
		// A resignation or agreed draw is no ply: the copy would not know it.
		actions := rec.Game.BCN()
		if req.Ply != 0 {
			n := req.Ply - rec.Game.StartPly()
			if n < 0 || n > len(actions) {
				err = errs.Errorf(errs.Invalid, "This game's plies run from %d to %d.", rec.Game.StartPly(), rec.Game.Ply()).WithDetail(errs.BadPly)
				return
			}
			if n < len(actions) {
				actions = actions[:n] // a ply before the end: the game went on
			} else if over = rec.Game.Outcome(); over.Over() {
				return
			}
		} else if over = rec.Game.Outcome(); over.Over() {
			return
		}
		if g, err = rules.Replay(rec.Game.Variant(), rec.Game.StartFEN(), actions); err != nil {
			err = errs.Internalf(err, "copying game %s", id)
		}
	}); verr != nil {
		return engine.Result{}, verr
	}
	switch {
	case err != nil:
		return engine.Result{}, err
	case over.Over():
		return engine.Result{}, gameOver(over)
	}
	return s.analyse(ctx, g, req)
}

// analyse runs the analyser on g, which the call owns.
func (s *Service) analyse(ctx context.Context, g *rules.Game, req Request) (engine.Result, error) {
	lim, err := req.limits()
	if err != nil {
		return engine.Result{}, err
	}
	if s.analyser == nil {
		return engine.Result{}, errs.Internalf(errors.New("no analyser"), "analysis")
	}
	if o := g.Outcome(); o.Over() {
		return engine.Result{}, gameOver(o)
	}
	res, err := s.analyser.Analyse(ctx, g, lim)
	var busy *engine.BusyError
	switch {
	case errors.Is(err, engine.ErrPreempted):
		return res, nil // cut short for the computer's plies: what it found so far
	case errors.Is(err, engine.ErrVariant):
		return engine.Result{}, games.UnsupportedVariant("The engine plays %s only", g.Variant(), s.positions.Variants())
	case errors.As(err, &busy):
		return engine.Result{}, engineBusy(busy)
	case errors.Is(err, engine.ErrBusy):
		return engine.Result{}, engineBusy(&engine.BusyError{Reason: engine.QueueFull, Wait: time.Second})
	case err != nil:
		return engine.Result{}, errs.Of(err)
	}
	return res, nil
}

// engineBusy refuses an analysis the engine would not take now, saying
// when to try again.
func engineBusy(busy *engine.BusyError) *errs.Error {
	secs := seconds(busy.Wait)
	var e *errs.Error
	switch busy.Reason {
	case engine.ClientBusy:
		e = errs.Errorf(errs.TooMany, "An analysis of yours is running already: the engine takes one at a time from each player. Try again in %d s.", secs).WithDetail(errs.AnalysisRunning)
	case engine.ClientRate:
		e = errs.Errorf(errs.TooMany, "You have used your share of the engine for now. Try again in %d s.", secs).WithDetail(errs.AnalysisRate)
	default:
		e = errs.Errorf(errs.TooMany, "The engine is busy with other analyses. Try again in %d s.", secs).WithDetail(errs.EngineBusy)
	}
	e.RetryAfter = time.Duration(secs) * time.Second
	return e
}

// gameOver refuses to analyse a finished game.
func gameOver(o rules.Outcome) *errs.Error {
	return errs.Errorf(errs.GameOver, "The game is over (%s): there is nothing to analyse.", o)
}

// seconds rounds d up to whole seconds, at least 1.
func seconds(d time.Duration) int { return max(1, int(math.Ceil(d.Seconds()))) }
