// Package games is the application layer between the front ends (pages,
// API, terminal) and the rules and the store: it creates games from what
// users give (new, FEN, PGN, share link), applies their actions with the
// ply they saw, decides who may act (seats held by credentials), and
// speaks one error type with a code that every front end formats.
package games

import (
	"context"
	"time"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Store keeps what the service serves: games.
type Store = GameStore

// Players are who holds seats: whose a credential is, and what a game
// records of a player who sits (see package players).
type Players interface {
	// PlayerID returns the id of the player cred was issued to, "" when
	// none was.
	PlayerID(ctx context.Context, cred players.Credential) (string, error)
	// Identify returns the player cred was issued to, the zero Player
	// when none was.
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	// Player returns the player of id.
	Player(ctx context.Context, id string) (players.Player, error)
	// Standing returns the player's standing in variant at speed.
	Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error)
}

// GameStore keeps game records, each behind its own lock. Errors for an
// unknown id are *Error with Code NotFound. A save that finishes a game
// between two players records its Result (ResultOf) in the same
// transaction, exactly once.
type GameStore interface {
	// Create stores rec under a new id, which it sets, committed before it
	// returns.
	Create(ctx context.Context, rec *Record) error
	// Update runs fn on the record under its lock and commits what fn
	// changed before returning; fn leaves the record unchanged when it
	// returns an error.
	Update(ctx context.Context, id string, fn func(*Record) error) error
	// View runs fn on the record under its lock; fn changes nothing.
	View(ctx context.Context, id string, fn func(*Record) error) error
	// List returns up to limit of the games holder holds a seat in and has
	// not hidden, the most recently updated first.
	List(ctx context.Context, holder string, limit int) ([]Summary, error)
}

// Seats are the seats of one game a request's credential holds.
type Seats struct {
	White bool `json:"white,omitempty"`
	Black bool `json:"black,omitempty"`
}

// Has reports whether the seat of side is held.
func (s Seats) Has(side rules.Color) bool {
	return side == rules.White && s.White || side == rules.Black && s.Black
}

// Any reports whether any seat is held: false for a spectator.
func (s Seats) Any() bool { return s.White || s.Black }

// Side returns the one side held, or no Color when none or both are.
func (s Seats) Side() rules.Color {
	switch {
	case s.White && !s.Black:
		return rules.White
	case s.Black && !s.White:
		return rules.Black
	}
	return 0
}

// Both reports whether both seats are held, as at a hot-seat game.
func (s Seats) Both() bool { return s.White && s.Black }

// ViewFunc describes a game for a front end to render: a copy of its
// record taken under the game's lock (Record.Clone), given once the lock
// is released, and the seats the request holds in it.
type ViewFunc func(rec *Record, seats Seats)

// Service creates and plays games on a Store: seats, clocks, offers and
// every action.
type Service struct {
	store  Store
	now    func() time.Time
	loader *Loader
	feed   *Feed
	timers flagTimers
	// firstWait is how long a side may take over its first action in a
	// game between two players with a clock (FirstActionWait).
	firstWait time.Duration
	sweep     ClockSweep // how Clocks look for games due
	computer  Computer   // nil: no games against the computer
	players   Players
	changes   Changes // nil: no one listens (WithChanges)
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now (for created and
// updated times); the default is time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithLoader makes the service make and play games of l's variants,
// within l's limits (default: NewLoader(DefaultLimits()), every variant
// of rules.Variants). Tests add a variant of their own so.
func WithLoader(l *Loader) Option { return func(s *Service) { s.loader = l } }

// Loader returns the loader the service makes games with: its variants,
// the default first, and what it reads them from.
func (s *Service) Loader() *Loader { return s.loader }

// WithFirstActionWait gives each side of a game between two players with
// a clock d for its first action, instead of FirstActionWait.
func WithFirstActionWait(d time.Duration) Option { return func(s *Service) { s.firstWait = d } }

// WithFeed makes the service tell f's watchers of every change; the
// default is a feed of its own.
func WithFeed(f *Feed) Option { return func(s *Service) { s.feed = f } }

// New returns a service keeping its games in store, whose seats are held
// by players'. Close stops its clock timers.
func New(store Store, players Players, opts ...Option) *Service {
	s := &Service{store: store, players: players, now: time.Now, feed: NewFeed(), firstWait: FirstActionWait}
	for _, o := range opts {
		o(s)
	}
	if s.loader == nil {
		s.loader = NewLoader(DefaultLimits())
	}
	return s
}

// Create stores g as a new hot-seat game whose two seats cred holds, and
// returns its id.
func (s *Service) Create(ctx context.Context, cred players.Credential, g *rules.Game) (string, error) {
	holder, err := s.creator(ctx, cred)
	if err != nil {
		return "", err
	}
	now := s.now()
	rec := &Record{Game: g, White: holder, Black: holder, Mode: HotSeat, Created: now, Updated: now, Revision: 1}
	if err := s.store.Create(ctx, rec); err != nil {
		return "", errs.Of(err)
	}
	return rec.ID, nil
}

// View runs fn on the game id under its lock, with the seats cred holds,
// and changes nothing: one read. What a look at a game sets going happens
// after it, outside the read: a clock that ran out is flagged by its timer
// (armed to fire now: a restart lost it, or it is about to fire), a player
// the clock waits for arrives (a change of their own, as when their stream
// opens), and at a game against the computer whose search was lost (a
// restart), the computer starts thinking again. Their changes reach the
// game's watchers as any change does.
func (s *Service) View(ctx context.Context, id string, cred players.Credential, fn ViewFunc) error {
	holder, err := s.holder(ctx, cred)
	if err != nil {
		return err
	}
	expired, arrived := false, false
	var turn *ComputerTurn
	var view *Record
	var seats Seats
	err = s.store.View(ctx, id, func(rec *Record) error {
		seats = seatsOf(rec, holder)
		expired = clockDue(rec, s.now())
		arrived = rec.Clock.awaits(seats)
		turn = s.resume(id, rec, engine.ClientOf(ctx))
		view = rec.Clone()
		return nil
	})
	if err != nil {
		return errs.FromStore(err)
	}
	fn(view, seats)
	if turn != nil {
		s.tellComputer(id, turn)
	}
	if expired {
		s.timers.soon(id, s.checkClock)
	}
	if arrived {
		go s.arrive(context.WithoutCancel(ctx), id, cred)
	}
	return nil
}

// arrive notes that the player holding cred has come to game id, whose
// clock waits for its players (see Clock.Awaiting).
func (s *Service) arrive(ctx context.Context, id string, cred players.Credential) error {
	return s.update(ctx, id, cred, nil, func(rec *Record, seats Seats) error {
		if !rec.Game.Outcome().Over() {
			rec.Clock.arrive(seats)
		}
		return nil
	})
}

// Games lists up to limit games cred holds a seat in, the most recently
// played first, without those it hid.
func (s *Service) Games(ctx context.Context, cred players.Credential, limit int) ([]Summary, error) {
	holder, err := s.holder(ctx, cred)
	if err != nil || holder == "" {
		return nil, err
	}
	list, err := s.store.List(ctx, holder, limit)
	if err != nil {
		return nil, errs.Internalf(err, "listing games")
	}
	return list, nil
}

// Hide removes game id from cred's list of games; the game itself stays
// as it is, for its other player and its watchers.
func (s *Service) Hide(ctx context.Context, id string, cred players.Credential) error {
	holder, err := s.holder(ctx, cred)
	if err != nil {
		return err
	}
	var rev int64 // the revision it made, if it changed the game
	err = s.store.Update(ctx, id, func(rec *Record) error {
		seats := seatsOf(rec, holder)
		if err := rec.mayHide(seats); err != nil {
			return err
		}
		wh, bh := rec.WhiteHidden || seats.White, rec.BlackHidden || seats.Black
		if wh != rec.WhiteHidden || bh != rec.BlackHidden {
			rec.WhiteHidden, rec.BlackHidden = wh, bh
			rec.Revision++
			rev = rec.ShownRevision()
		}
		return nil
	})
	if err != nil {
		return errs.FromStore(err)
	}
	s.publish(id, rev)
	return nil
}

// publish tells game id's watchers of revision rev, if it made one (not 0).
func (s *Service) publish(id string, rev int64) {
	if rev != 0 {
		s.feed.Publish(id, rev)
	}
}

// Claim gives cred both seats of game id when no one holds either: a game
// stored before games had seats, which only the browser whose cookie named
// it knew. It reports whether cred holds a seat afterwards.
func (s *Service) Claim(ctx context.Context, id string, cred players.Credential) (bool, error) {
	holder, err := s.holder(ctx, cred)
	if err != nil || holder == "" {
		return false, err
	}
	held := false
	var rev int64
	err = s.store.Update(ctx, id, func(rec *Record) error {
		if rec.White == "" && rec.Black == "" {
			rec.White, rec.Black, rec.Mode = holder, holder, HotSeat
			rec.Revision++
			rev = rec.ShownRevision()
		}
		held = seatsOf(rec, holder).Any()
		return nil
	})
	if err != nil {
		return false, errs.FromStore(err)
	}
	s.publish(id, rev)
	return held, nil
}

// update runs fn on game id under its lock with the seats cred holds; when
// fn changed the record it keeps the clock and the offers in step, counts
// the revision and stamps the update time. Once the change is committed
// and the lock released, then (if any) describes the game after it, on a
// copy taken under the lock, and watchers are told. A clock
// that ends the game (a flag falls, or a first action came too late: see
// endIfDue) ends it first, and fn is not run.
func (s *Service) update(ctx context.Context, id string, cred players.Credential, then ViewFunc, fn func(*Record, Seats) error) error {
	holder, err := s.holder(ctx, cred)
	if err != nil {
		return err
	}
	changed := false
	var ended error
	var rev int64
	var timer flagTimer
	var turn *ComputerTurn
	var view *Record
	var viewSeats Seats
	quiet := false
	var change *Change
	err = s.store.Update(ctx, id, func(rec *Record) error {
		now := s.now()
		seats := seatsOf(rec, holder)
		before, premoves, forecasts := rec.state(), rec.Premoves, rec.Forecasts.clone()
		if ended = endIfDue(rec, now); ended == nil {
			if err := fn(rec, seats); err != nil {
				return errs.Of(err)
			}
		}
		if changed = rec.state() != before; changed {
			quiet = rec.onlyPremoved(before, premoves, forecasts)
			s.settle(rec, before, now)
			if quiet {
				rec.Premoves.Secret++ // counted, never shown
			}
			playPremoves(rec, func(before recordState) { s.settle(rec, before, now) })
			forecaster, ply := rec.Holder(rec.Game.Turn().Actor), rec.Game.Ply()
			playForecasts(rec, func(before recordState) { s.settle(rec, before, now) })
			if rec.Game.Ply() == ply {
				forecaster = ""
			}
			if s.changes != nil && !quiet {
				change = changeOf(id, holder, rec, before, forecaster)
			}
		}
		timer, rev = flagTimerOf(rec, now), rec.ShownRevision()
		if changed {
			turn = s.computerTurn(id, rec, now, engine.ClientOf(ctx))
		}
		if then != nil {
			rec.Game.KeepMovetext() // the clone writes its PGN from the ply before
			view, viewSeats = rec.Clone(), seats
		}
		return nil
	})
	if err != nil {
		return errs.FromStore(err)
	}
	if then != nil {
		then(view, viewSeats)
	}
	if changed && !quiet { // a queued premove is its player's secret
		s.publish(id, rev)
		s.timers.set(id, timer, s.checkClock)
		s.tellComputer(id, turn)
		if change != nil {
			s.changes(context.WithoutCancel(ctx), *change)
		}
	}
	return ended
}

// settle follows a change to rec made at now: the clock charges the side
// whose time ran and runs for the side to act, with the increment after a
// move (between two players, from each side's first action: Clock.pace);
// offers lapse (a takeback at any ply, a draw when its maker plays, both
// at the end), and so does the news of a declined one; the revision
// counts it and the update time is now.
func (s *Service) settle(rec *Record, before recordState, now time.Time) {
	g := rec.Game
	over := g.Outcome().Over()
	played := g.Ply() != before.ply || over != before.over
	if played {
		rec.Offers.Takeback = 0
		rec.Declined = Offers{}
		if over || g.Ply() == before.ply+1 && rec.Offers.Draw == before.actor {
			rec.Offers.Draw = 0
		}
	}
	if c := rec.Clock; c != nil && played && (c.Running != 0 || rec.Mode == Invite) {
		running := c.Running != 0 // else a game between two players waits for its first actions
		if running {
			c.charge(now)
		}
		n := g.Ply() - g.StartPly()
		if last, ok := g.LastAction(); ok && g.Ply() == before.ply+1 {
			if running && last.Phase == rules.PhaseMove {
				c.addIncrement(before.actor)
			}
			c.mark(n, before.actor, now)
		} else {
			c.mark(n, 0, now) // taken back: forget the plies after
		}
		if running {
			next := g.Turn().Actor
			if over {
				next = 0
			}
			c.run(next, now)
			c.refill()
		}
	}
	if c := rec.Clock; c != nil && rec.Mode == Invite {
		c.pace(rec, played, now, s.firstWait)
	}
	rec.Revision++
	rec.Updated = now
}

// creator returns the holder for a new game's seats: cred's player, who
// must have been issued it.
func (s *Service) creator(ctx context.Context, cred players.Credential) (string, error) {
	holder, err := s.holder(ctx, cred)
	switch {
	case err != nil:
		return "", err
	case holder != "":
		return holder, nil
	case cred == "":
		return "", errs.Errorf(errs.Unauthorized, "A new game needs a player to hold its seats.")
	}
	return "", players.Unissued()
}

// holder returns the id of the player cred was issued to, or "" when it
// was not issued (or was revoked): it holds nothing.
func (s *Service) holder(ctx context.Context, cred players.Credential) (string, error) {
	return s.players.PlayerID(ctx, cred)
}

func seatsOf(rec *Record, holder string) Seats {
	w, b := rec.Seats(holder)
	return Seats{White: w, Black: b}
}
