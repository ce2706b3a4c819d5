package games

import (
	"context"
	"errors"
	"time"

	"github.com/banchess/banchess/errs"
)

// DueGames are the games a store finds by when their clock ends them
// (Record.Due), so that any server ends a game on time: the flag timers
// live in the server that last played the game, and die with it.
type DueGames interface {
	// ClaimDue returns up to limit games in play whose clock was due at
	// now or before (Record.Due), and claims them until until: another
	// claim, by any server sharing the store, passes over them until
	// then. A game's next save forgets the claim.
	ClaimDue(ctx context.Context, now, until time.Time, limit int) ([]string, error)
}

// ClockSweep is how often every server looks for games its clocks should
// have ended, and how long it holds a game it claimed.
type ClockSweep struct {
	// Every is how often (DefaultClockSweep when 0; negative: never).
	Every time.Duration
	// Lease is how long the server that claimed a due game has to end it
	// before another may (DefaultClockLease when 0).
	Lease time.Duration
}

// The defaults of ClockSweep: a game whose server died ends within about
// a second of its time; a server that claimed a game and died with it
// leaves it to the others 5 s later.
const (
	DefaultClockSweep = time.Second
	DefaultClockLease = 5 * time.Second
	// clockSweepBatch bounds the games one claim takes.
	clockSweepBatch = 100
)

// WithClockSweep sets how the service's Clocks look for games due.
func WithClockSweep(c ClockSweep) Option { return func(s *Service) { s.sweep = c } }

// every is how often the sweep runs; 0: never.
func (c ClockSweep) every() time.Duration {
	switch {
	case c.Every < 0:
		return 0
	case c.Every == 0:
		return DefaultClockSweep
	}
	return c.Every
}

func (c ClockSweep) lease() time.Duration {
	if c.Lease <= 0 {
		return DefaultClockLease
	}
	return c.Lease
}

// Clocks end the games whose clocks are due, whichever server armed their
// flag timers: the service's sweep (see Run).
type Clocks struct{ s *Service }

// Clocks returns the service's sweep of the games whose clocks are due.
func (s *Service) Clocks() Clocks { return Clocks{s} }

// Run ends the games in due whose clock ran out or whose first action is
// overdue, on any server, every ClockSweep.Every until ctx ends; failed
// (if not nil) hears of each sweep that failed. Each server sharing the
// store runs it once: a game is ended by one of them, through the same
// change a flag timer makes (its result and ratings recorded once, its
// watchers told).
func (c Clocks) Run(ctx context.Context, due DueGames, failed func(error)) {
	every := c.s.sweep.every()
	if every == 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := c.Sweep(ctx, due); err != nil && ctx.Err() == nil && failed != nil {
			failed(err)
		}
	}
}

// Sweep claims the games in due whose clock is due now, clockSweepBatch
// at a time until none is left, and ends each (see Run); it counts the
// games it ended. A game claimed but not yet due by this server's clock
// (clocks of servers differ a little) gets a flag timer here.
func (c Clocks) Sweep(ctx context.Context, due DueGames) (int, error) {
	s := c.s
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n := 0
	var failed error
	for {
		now := s.now()
		ids, err := due.ClaimDue(ctx, now, now.Add(s.sweep.lease()), clockSweepBatch)
		if err != nil {
			return n, errs.Internalf(err, "claiming the games whose clocks are due")
		}
		for _, id := range ids {
			ended, err := c.end(ctx, id)
			switch {
			case ended:
				n++
			case err != nil && failed == nil && codeOf(err) != errs.Conflict && codeOf(err) != errs.NotFound:
				failed = err // another server's change (a conflict), or a game gone, is no failure
			}
		}
		if len(ids) < clockSweepBatch || ctx.Err() != nil {
			return n, failed
		}
	}
}

// end ends game id if its clock says so now, and otherwise arms its flag
// timer for when it would; it reports whether it ended the game.
func (c Clocks) end(ctx context.Context, id string) (bool, error) {
	s := c.s
	err := s.update(ctx, id, "", nil, func(*Record, Seats) error { return nil })
	if codeOf(err) == errs.GameOver {
		return true, nil // the refusal an action would have had: the clock ended the game
	}
	if err != nil {
		return false, err
	}
	var ft flagTimer
	if err := s.store.View(ctx, id, func(rec *Record) error { ft = flagTimerOf(rec, s.now()); return nil }); err != nil {
		return false, errs.FromStore(err)
	}
	s.timers.set(id, ft, s.checkClock)
	return false, nil
}

// codeOf is err's code, when it is an *errs.Error ("" otherwise).
func codeOf(err error) errs.Code {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
