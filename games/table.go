package games

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// recordState is a record as a change is told from no change: its game's
// revision (rules.Game counts its own changes), and every other field as
// the store keeps it — the record's own fields by value, its Table as the
// JSON the store writes. No list of fields to keep up to date: a field
// added to Record is compared as soon as it exists (and one that cannot be
// compared does not compile), one added to Table as soon as it is stored.
// ply, over and actor are what settle needs of the game before a change.
type recordState struct {
	gameRev uint64
	fields  Record // without Game, Table, Revision and Updated, which a change sets itself
	table   string // Table as JSON
	ply     int
	over    bool
	actor   rules.Color
}

func (r *Record) state() recordState {
	fields := *r
	fields.Game, fields.Table, fields.Revision, fields.Updated = nil, Table{}, 0, time.Time{}
	table, err := json.Marshal(&r.Table)
	if err != nil { // not seen: the store's save fails the same way and says so
		table = []byte("unencodable: " + err.Error())
	}
	g := r.Game
	return recordState{gameRev: g.Revision(), fields: fields, table: string(table), ply: g.Ply(), over: g.Outcome().Over(), actor: g.Turn().Actor}
}

// clockDue reports whether rec's clock ends its game at now: the running
// side's time is out, or the side to act let its first turn pass.
func clockDue(rec *Record, now time.Time) bool {
	return !rec.Game.Outcome().Over() && (rec.Clock.Expired(now) || rec.Clock.Idle(now))
}

// endIfDue ends rec's game when its clock says so at now (clockDue): a
// flag falls, or the game is aborted. It returns the refusal to give an
// action that came too late, or nil when the game goes on.
func endIfDue(rec *Record, now time.Time) error {
	if !clockDue(rec, now) {
		return nil
	}
	c, g := rec.Clock, rec.Game
	if c.Expired(now) {
		if g.FlagFall(c.Running) != nil {
			return nil
		}
		c.run(0, now)
		return errs.Errorf(errs.GameOver, "Time ran out, so the game is over and nothing was played.")
	}
	actor := g.Turn().Actor
	if g.Abort() != nil {
		return nil
	}
	c.FirstBy = time.Time{}
	return errs.Errorf(errs.GameOver, "%s did not make a first %s in time, so the game was aborted and nothing was played.", actor.Name(), g.Turn().Phase)
}

// flagTimer says when a game's clock would next end it, if ever: its
// flag falls, or its side to act lets its first turn pass.
type flagTimer struct {
	running bool
	left    time.Duration
}

func flagTimerOf(rec *Record, now time.Time) flagTimer {
	c := rec.Clock
	if c == nil || rec.Game.Outcome().Over() {
		return flagTimer{}
	}
	if c.Running != 0 {
		return flagTimer{running: true, left: c.Left(c.Running, now)}
	}
	left, ok := c.FirstActionLeft(now)
	return flagTimer{running: ok, left: left}
}

// flagTimers end games whose clock runs out while no one acts, so that
// their watchers see the flag fall.
type flagTimers struct {
	mu     sync.Mutex
	timers map[string]*time.Timer
	at     map[string]time.Time // when each timer fires
	closed bool
}

// set arms game id's timer to run check when its clock would run out (or
// stops it, for a clock that does not run).
func (t *flagTimers) set(id string, ft flagTimer, check func(id string)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if old := t.timers[id]; old != nil {
		old.Stop()
		delete(t.timers, id)
		delete(t.at, id)
	}
	if !ft.running || t.closed {
		return
	}
	if t.timers == nil {
		t.timers, t.at = map[string]*time.Timer{}, map[string]time.Time{}
	}
	// A little after the time runs out, so that the check finds it out.
	wait := ft.left + 20*time.Millisecond
	t.timers[id], t.at[id] = time.AfterFunc(wait, func() { check(id) }), time.Now().Add(wait)
}

// soon arms game id's timer to run check at once, a read having found its
// clock due, unless it is about to fire anyway (so that reads in a row do
// not keep putting it off).
func (t *flagTimers) soon(id string, check func(id string)) {
	t.mu.Lock()
	wait := time.Until(t.at[id]) // a timer that fired already is not due
	due := t.timers[id] != nil && wait >= 0 && wait <= 20*time.Millisecond
	t.mu.Unlock()
	if !due {
		t.set(id, flagTimer{running: true}, check)
	}
}

// stop stops every timer.
func (t *flagTimers) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, tm := range t.timers {
		tm.Stop()
		delete(t.timers, id)
	}
	t.closed = true
}

// Close stops the service's clock timers and the computer's searches.
func (s *Service) Close() {
	s.timers.stop()
	if s.computer != nil {
		s.computer.Close()
	}
}

// checkClock ends game id if its clock ran out, and otherwise arms its
// timer again.
func (s *Service) checkClock(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = s.Clocks().end(ctx, id) // flagged (no timer armed), or the game is gone
}

// sameSecret reports whether a secret presented is the one kept, in time
// that does not depend on how much of it is right.
func sameSecret(presented, kept string) bool {
	return subtle.ConstantTimeCompare([]byte(presented), []byte(kept)) == 1
}

// newInviteCode returns a fresh secret for an invite link (128 random bits).
func newInviteCode() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// randomColor picks White or Black at random.
func randomColor() rules.Color {
	var b [1]byte
	rand.Read(b[:])
	if b[0]&1 == 0 {
		return rules.White
	}
	return rules.Black
}

// pace keeps the clock of a game between two players in step with the
// game at now: it waits until both seats are taken, both players have
// come (Awaiting) and each side has made
// its first action, then runs for the side to act; while it waits for a
// first action, that action is due wait after its turn came (FirstBy;
// played: a ply was just played or taken back, so a turn came now). A
// game's end stops it.
func (c *Clock) pace(rec *Record, played bool, now time.Time, wait time.Duration) {
	g := rec.Game
	switch {
	case g.Outcome().Over() || rec.White == "" || rec.Black == "" || c.Awaiting.Any():
		c.run(0, now)
		c.FirstBy = time.Time{}
	case opened(g):
		if c.Running == 0 {
			c.run(g.Turn().Actor, now)
		}
		c.FirstBy = time.Time{}
	default:
		c.run(0, now)
		switch wait = c.Control.firstWait(wait); {
		case wait == 0: // unlimited: a first action is never overdue
			c.FirstBy = time.Time{}
		case played || c.FirstBy.IsZero():
			c.FirstBy = now.Add(wait)
		}
	}
}

// InviteSettings are what a game between two players is created with.
type InviteSettings struct {
	// Color is the creator's side; no Color picks one at random.
	Color rules.Color
	// Clock is the time control; nil for a game without a clock.
	Clock *TimeControl
}

// CreateInvite stores g as a new game between two players: cred holds the
// seat of the side settings name, the other is free for whoever presents
// the returned invite code first. It returns the game's id, the code and
// the creator's side.
func (s *Service) CreateInvite(ctx context.Context, cred players.Credential, g *rules.Game, settings InviteSettings) (id, code string, side rules.Color, err error) {
	holder, err := s.creator(ctx, cred)
	if err != nil {
		return "", "", 0, err
	}
	side = settings.Color
	if side != rules.White && side != rules.Black {
		side = randomColor()
	}
	now := s.now()
	rec := &Record{Game: g, Mode: Invite, Created: now, Updated: now, Revision: 1}
	rec.InviteCode = newInviteCode()
	if settings.Clock != nil {
		rec.Clock = NewClock(*settings.Clock)
	}
	if side == rules.White {
		rec.White = holder
	} else {
		rec.Black = holder
	}
	rec.seat(side, s.entrant(ctx, holder, rec))
	if err := s.store.Create(ctx, rec); err != nil {
		return "", "", 0, errs.Of(err)
	}
	return rec.ID, rec.InviteCode, side, nil
}

// Join gives cred the free seat of game id when code is its invite code,
// and returns the seats cred holds afterwards. A player already seated is
// refused (Conflict, detail AlreadySeated: the link is for their
// opponent); once both seats are held, the code opens nothing (Conflict,
// detail SeatTaken). A clock waits for each side's first action
// (Clock.Turn).
func (s *Service) Join(ctx context.Context, id string, cred players.Credential, code string) (Seats, error) {
	holder, err := s.holder(ctx, cred)
	if err != nil {
		return Seats{}, err
	}
	var seats Seats
	err = s.update(ctx, id, cred, nil, func(rec *Record, held Seats) error {
		seats = held
		if err := rec.mayJoin(held, code); err != nil {
			return err
		}
		if holder == "" {
			return errs.Errorf(errs.Unauthorized, "Joining a game needs a player to hold the seat.")
		}
		if rec.White == "" {
			rec.White, seats.White = holder, true
			rec.seat(rules.White, s.entrant(ctx, holder, rec))
		} else {
			rec.Black, seats.Black = holder, true
			rec.seat(rules.Black, s.entrant(ctx, holder, rec))
		}
		return nil
	})
	return seats, err
}

// Offer is a kind of offer one player makes the other in a game between
// two players.
type Offer string

// The offers.
const (
	OfferTakeback Offer = "takeback"
	OfferDraw     Offer = "draw"
	OfferRematch  Offer = "rematch"
)

// ParseOffer reads an offer's name.
func ParseOffer(s string) (Offer, error) {
	switch o := Offer(s); o {
	case OfferTakeback, OfferDraw, OfferRematch:
		return o, nil
	}
	return "", (&errs.Error{Code: errs.Invalid, Msg: errs.Sentence("\"" + rules.Clip(s) + "\" is not an offer: use takeback, draw or rematch")}).WithDetail(errs.BadOffer)
}

func (o Offer) pending(offers *Offers) *rules.Color {
	switch o {
	case OfferTakeback:
		return &offers.Takeback
	case OfferDraw:
		return &offers.Draw
	}
	return &offers.Rematch
}

// MakeOffer offers the opponent a takeback, a draw or a rematch. Making
// the offer the opponent made already accepts it.
func (s *Service) MakeOffer(ctx context.Context, id string, cred players.Credential, offer Offer, then ViewFunc) error {
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		if err := rec.mayOffer(seats, offer); err != nil {
			return refuse(cred, err)
		}
		side := rec.sideOf(seats)
		switch pending := offer.pending(&rec.Offers); *pending {
		case side.Other():
			return s.accept(ctx, rec, offer)
		case 0:
			*pending = side
			*offer.pending(&rec.Declined) = 0
		}
		return nil // made already, or made now
	})
}

// AnswerOffer accepts or declines the offer the opponent made.
func (s *Service) AnswerOffer(ctx context.Context, id string, cred players.Credential, offer Offer, accept bool, then ViewFunc) error {
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		if err := rec.mayAnswer(seats, offer); err != nil {
			return refuse(cred, err)
		}
		if !accept {
			pending := offer.pending(&rec.Offers)
			*offer.pending(&rec.Declined), *pending = *pending, 0
			return nil
		}
		return s.accept(ctx, rec, offer)
	})
}

// accept carries out an offer made by the opponent of whoever accepts.
func (s *Service) accept(ctx context.Context, rec *Record, offer Offer) error {
	if err := rec.mayAccept(offer); err != nil {
		return err
	}
	g := rec.Game
	pending := offer.pending(&rec.Offers)
	switch offer {
	case OfferTakeback:
		// Back to the offerer's last move, which they play again.
		keep := lastMoveBy(g, *pending)
		for g.Ply()-g.StartPly() > keep {
			if err := g.Undo(); err != nil {
				return err
			}
		}
		if !opened(g) {
			rec.Offers.Draw = 0 // back before a side's first action: no draw, only an abort
		}
	case OfferDraw:
		if err := g.AgreeDraw(); err != nil {
			return err
		}
	case OfferRematch:
		if rec.Rematch != "" {
			break
		}
		next := rules.New(g.Variant())
		now := s.now()
		re := &Record{Game: next, Mode: Invite, White: rec.Black, Black: rec.White, Created: now, Updated: now, Revision: 1}
		re.Rated = rec.Rated
		if c := rec.Clock; c != nil {
			// As in any game, the clock starts when both players have come
			// to it: each, here, by opening it.
			re.Clock = NewClock(c.Control)
			re.Clock.Awaiting = Seats{White: true, Black: true}
		}
		// The ratings as they stand after this game.
		re.WhitePlayer, re.BlackPlayer = s.entrant(ctx, re.White, re), s.entrant(ctx, re.Black, re)
		if err := s.store.Create(ctx, re); err != nil {
			return errs.Internalf(err, "creating the rematch")
		}
		rec.Rematch = re.ID
	}
	*pending = 0
	return nil
}

// Abort calls game id off, with no result: cred holds a seat of a game
// between two players, and a side has yet to make its first action.
func (s *Service) Abort(ctx context.Context, id string, cred players.Credential, then ViewFunc) error {
	return s.update(ctx, id, cred, then, func(rec *Record, seats Seats) error {
		if err := rec.mayAbort(seats); err != nil {
			return refuse(cred, err)
		}
		return rec.Game.Abort()
	})
}

// Watch starts watching game id for a viewer with cred; the watch's
// channel receives when the game changes or who watches it does, and its
// Revision is the game's latest (read here once, then from the feed). Close
// the watch when done. A player the game's clock waits for has come to it
// (see Clock.Awaiting).
func (s *Service) Watch(ctx context.Context, id string, cred players.Credential) (*Watch, error) {
	holder, err := s.holder(ctx, cred)
	if err != nil {
		return nil, err
	}
	// Watching before reading: a change committed after the read is heard.
	w := s.feed.Watch(id)
	var seats Seats
	var rev int64
	arrived := false
	err = s.store.View(ctx, id, func(rec *Record) error {
		seats, rev = seatsOf(rec, holder), rec.ShownRevision()
		arrived = rec.Clock.awaits(seats)
		return nil
	})
	if err != nil {
		w.Close()
		return nil, errs.FromStore(err)
	}
	w.Seat(seats, rev)
	if arrived { // a player its clock waits for has come (see Clock.Awaiting)
		_ = s.arrive(ctx, id, cred)
	}
	return w, nil
}

// Presence says who watches game id now (on this server).
func (s *Service) Presence(id string) Presence { return s.feed.Presence(id) }

// entrant describes holder as rec's game records a player who sits: their
// name, and their rating in its variant and speed when it has a clock. A
// failure to read them leaves them out: they are for show.
func (s *Service) entrant(ctx context.Context, holder string, rec *Record) Entrant {
	p, err := s.players.Player(ctx, holder)
	if err != nil || !p.Named() {
		return Entrant{}
	}
	if rec.Clock == nil {
		return NewEntrant(p, nil)
	}
	st, err := s.players.Standing(ctx, holder, rec.Game.Variant().ID(), rec.Clock.Control.Speed())
	if err != nil {
		return NewEntrant(p, nil)
	}
	r := st.At(s.now())
	return NewEntrant(p, &r)
}
