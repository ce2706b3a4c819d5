package tournament

import (
	"context"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Service creates tournaments, takes players in and out, and runs them
// (Run): pairing, scoring and ending each, on whichever server holds it.
type Service struct {
	store    Store
	games    GameStore
	starter  Games
	players  Players
	variants Variants
	now      func() time.Time
	owner    string // this server's name in claims
	every    time.Duration
	lease    time.Duration
	pairers  map[Kind]Pairer
	schedule Schedule
	berserk  func(ctx context.Context, game string, cred players.Credential) error
	started  func(ctx context.Context, t *Tournament) // nil: no one listens
	// scheduledAt is the start (unix ms) of the schedule's tournament
	// last known created.
	scheduledAt atomic.Int64
	reads       reads       // the latest read of each tournament (ReadFor)
	startedNow  startedList // the latest list of the started (ReadFor)
	changes     changes     // what streams wait on (Changed)
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithOwner names this server in the claims on tournaments (default: a
// random name).
func WithOwner(name string) Option { return func(s *Service) { s.owner = name } }

// WithPairer runs tournaments of kind with p (an arena's is ArenaPairer).
func WithPairer(kind Kind, p Pairer) Option { return func(s *Service) { s.pairers[kind] = p } }

// WithSchedule makes the server create tournaments of its own (Schedule).
func WithSchedule(sc Schedule) Option { return func(s *Service) { s.schedule = sc } }

// WithStarted makes the tick tell fn of each tournament it starts
// (notifications listen so).
func WithStarted(fn func(ctx context.Context, t *Tournament)) Option {
	return func(s *Service) { s.started = fn }
}

// WithBerserk makes Berserk call fn (games.Clocks.Berserk).
func WithBerserk(fn func(ctx context.Context, game string, cred players.Credential) error) Option {
	return func(s *Service) { s.berserk = fn }
}

// WithTick sets how often Run pairs (default DefaultTick) and how long
// a claim on a tournament lasts (default DefaultLease).
func WithTick(every, lease time.Duration) Option {
	return func(s *Service) { s.every, s.lease = every, lease }
}

// The defaults of WithTick: a player whose game ended is paired within
// about a second; a server that died leaves its tournaments to the
// others 10 s later.
const (
	DefaultTick  = time.Second
	DefaultLease = 10 * time.Second
)

// New returns a service keeping tournaments in store and their games in
// gs, started by g, for players of p, in the variants of v.
func New(store Store, gs GameStore, g Games, p Players, v Variants, opts ...Option) *Service {
	s := &Service{store: store, games: gs, starter: g, players: p, variants: v, now: time.Now, owner: newOwner(),
		every: DefaultTick, lease: DefaultLease, pairers: map[Kind]Pairer{Arena: ArenaPairer{}}}
	for _, o := range opts {
		o(s)
	}
	s.store = noticing{Store: store, changed: s.changed}
	return s
}

// Settings are what a tournament is created with.
type Settings struct {
	Kind    Kind      `json:"kind"` // "" is Arena
	Name    string    `json:"name"`
	Variant string    `json:"variant"` // "" is the first variant
	Clock   string    `json:"clock"`   // "3+2"
	Minutes int       `json:"minutes"` // an arena's
	Rated   bool      `json:"rated"`
	Starts  time.Time `json:"startsAt"` // zero: now
	// A Swiss event's rounds, and its interval between rounds in seconds
	// (see Tournament.Interval).
	Rounds   int `json:"rounds"`
	Interval int `json:"interval"`
}

// MaxNameRunes bounds a tournament's name.
const MaxNameRunes = 40

// MaxAhead is how far ahead a tournament may be set to start.
const MaxAhead = 7 * 24 * time.Hour

// settle checks st and makes the tournament it describes, created at now
// by creator ("" for the schedule).
func (s *Service) settle(st Settings, creator string, now time.Time) (*Tournament, error) {
	if st.Kind == "" {
		st.Kind = Arena
	}
	if _, ok := s.pairers[st.Kind]; !ok && st.Kind != Swiss {
		return nil, errs.Errorf(errs.Invalid, "%q is not a kind of tournament this server runs: it runs arenas and Swiss events.", rules.Clip(string(st.Kind))).WithDetail(errs.BadKind)
	}
	name := strings.TrimSpace(st.Name)
	if name == "" || utf8.RuneCountInString(name) > MaxNameRunes || !utf8.ValidString(name) {
		return nil, errs.Errorf(errs.Invalid, "A tournament needs a name of 1 to %d characters.", MaxNameRunes).WithDetail(errs.BadTournamentName)
	}
	variant := st.Variant
	if variant == "" {
		variant = s.variants.Variants()[0].ID()
	}
	v, err := s.variants.Variant(variant)
	if err != nil {
		return nil, err
	}
	tc, ok, err := games.ParseTimeControl(st.Clock)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errs.Errorf(errs.Invalid, "A tournament needs a clock, such as 3+2.").WithDetail(errs.BadClock)
	}
	if err := st.checkFormat(); err != nil {
		return nil, err
	}
	starts := st.Starts
	switch {
	case starts.IsZero():
		starts = now
	case starts.Before(now.Add(-time.Minute)) || starts.After(now.Add(MaxAhead)):
		return nil, errs.Errorf(errs.Invalid, "A tournament starts from now to a week ahead.").WithDetail(errs.BadStart)
	}
	t := &Tournament{Kind: st.Kind, Name: name, Variant: v.ID(), Clock: tc, Minutes: st.Minutes, Rated: st.Rated,
		Starts: starts.UTC().Truncate(time.Second), Status: Created, Creator: creator}
	if st.Kind == Swiss {
		t.Minutes, t.Rounds, t.Interval = 0, st.Rounds, st.Interval
	}
	return t, nil
}

// checkFormat checks the settings of st's kind: an arena's minutes, a
// Swiss event's rounds and interval.
func (st Settings) checkFormat() error {
	if st.Kind != Swiss {
		if st.Minutes < MinMinutes || st.Minutes > MaxMinutes {
			return errs.Errorf(errs.Invalid, "An arena lasts from %d to %d minutes, not %d.", MinMinutes, MaxMinutes, st.Minutes).WithDetail(errs.BadDuration)
		}
		return nil
	}
	if st.Rounds < MinRounds || st.Rounds > MaxRounds {
		return errs.Errorf(errs.Invalid, "A Swiss tournament has from %d to %d rounds, not %d.", MinRounds, MaxRounds, st.Rounds).WithDetail(errs.BadRounds)
	}
	if st.Interval < 0 || st.Interval > MaxInterval {
		return errs.Errorf(errs.Invalid, "A Swiss tournament's interval between rounds is from 0 to %d seconds, not %d.", MaxInterval, st.Interval).WithDetail(errs.BadInterval)
	}
	return nil
}

// Create creates a tournament by cred's player, who must have a name.
func (s *Service) Create(ctx context.Context, cred players.Credential, st Settings) (*Tournament, error) {
	p, err := s.named(ctx, cred, "create tournaments")
	if err != nil {
		return nil, err
	}
	t, err := s.settle(st, p.ID, s.now())
	if err != nil {
		return nil, err
	}
	if err := s.store.CreateTournament(ctx, t); err != nil {
		return nil, errs.FromStore(err)
	}
	return t, nil
}

// named returns cred's player, who must have a name to do what.
func (s *Service) named(ctx context.Context, cred players.Credential, what string) (players.Player, error) {
	p, err := s.players.Identify(ctx, cred)
	if err != nil {
		return p, err
	}
	switch {
	case p.ID == "" && cred == "":
		return p, errs.Errorf(errs.Unauthorized, "Tournaments need to know who is asking: send your credential.")
	case p.ID == "":
		return p, players.Unissued()
	case !p.Named():
		return p, errs.Errorf(errs.Forbidden, "Only players with a name %s: choose one on your account page first.", what).WithDetail(errs.NameNeeded)
	}
	return p, nil
}

// Tournament returns the tournament of id, as read within ReadFor.
func (s *Service) Tournament(ctx context.Context, id string) (*Tournament, error) {
	now := s.now()
	if t, ok := s.reads.get(id, now); ok {
		return t, nil
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	s.reads.put(t, now)
	return t, nil
}

// Viewer returns the id of cred's player, "" for none.
func (s *Service) Viewer(ctx context.Context, cred players.Credential) (string, error) {
	if cred == "" {
		return "", nil
	}
	p, err := s.players.Identify(ctx, cred)
	return p.ID, err
}

// Lists are the tournaments to show: those playing now, those to come,
// and the latest finished.
type Lists struct {
	Now, Upcoming, Finished []*Tournament
}

// ListSize bounds each of Lists.
const ListSize = 30

// List returns the tournaments now, to come and finished.
func (s *Service) List(ctx context.Context) (Lists, error) {
	var l Lists
	for _, x := range []struct {
		status Status
		to     *[]*Tournament
	}{{Started, &l.Now}, {Created, &l.Upcoming}, {Finished, &l.Finished}} {
		ts, err := s.store.Tournaments(ctx, x.status, ListSize)
		if err != nil {
			return l, errs.FromStore(err)
		}
		*x.to = ts
	}
	return l, nil
}

// Join enters cred's player in tournament id, or brings them back after
// they withdrew: they are paired from its start until its last pairing.
func (s *Service) Join(ctx context.Context, id string, cred players.Credential) error {
	p, err := s.named(ctx, cred, "play in tournaments")
	if err != nil {
		return err
	}
	t, err := s.Tournament(ctx, id)
	if err != nil {
		return err
	}
	st, err := s.players.Standing(ctx, p.ID, t.Variant, t.Speed())
	if err != nil {
		return err
	}
	now := s.now()
	r := st.At(now)
	return s.update(ctx, id, func(t *Tournament) error {
		if !t.Open(now) {
			return over()
		}
		if pl := t.Player(p.ID); pl != nil {
			pl.Paused = false
			return nil
		}
		t.Players = append(t.Players, Player{ID: p.ID, Name: p.Name, Rating: int(r.Rating + 0.5), Joined: now, Free: now})
		return nil
	})
}

// Withdraw pauses cred's player in tournament id: they are paired no
// more (their game on, if any, plays to its end) until they join again.
func (s *Service) Withdraw(ctx context.Context, id string, cred players.Credential) error {
	who, err := s.Viewer(ctx, cred)
	if err != nil {
		return err
	}
	return s.update(ctx, id, func(t *Tournament) error {
		if t.Status == Finished {
			return over()
		}
		if pl := t.Player(who); pl != nil {
			pl.Paused = true
		}
		return nil
	})
}

func over() error {
	return errs.Errorf(errs.Conflict, "The tournament is over.").WithDetail(errs.TournamentOver)
}

// Berserk halves cred's player's time at game, an arena's, before
// their first action (games.Clocks.Berserk); a berserk win of at least
// BerserkMoves scores a point more.
func (s *Service) Berserk(ctx context.Context, game string, cred players.Credential) error {
	if s.berserk == nil {
		return errs.Errorf(errs.Invalid, "Only a tournament's games may be berserked.").WithDetail(errs.NotTournamentGame)
	}
	var tid string
	if err := s.games.View(ctx, game, func(rec *games.Record) error { tid = rec.Tournament; return nil }); err != nil {
		return errs.FromStore(err)
	}
	if tid != "" {
		if t, err := s.Tournament(ctx, tid); err == nil && t.Kind == Swiss {
			return errs.Errorf(errs.Invalid, "Berserk is for arenas: a Swiss game is played on its full clock.").WithDetail(errs.NotTournamentGame)
		}
	}
	return s.berserk(ctx, game, cred)
}

// Results returns player's latest limit places in finished tournaments.
func (s *Service) Results(ctx context.Context, player string, limit int) ([]Result, error) {
	r, err := s.store.TournamentResults(ctx, player, limit)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	return r, nil
}

// update changes tournament id in the store.
func (s *Service) update(ctx context.Context, id string, fn func(*Tournament) error) error {
	defer s.reads.forget(id)
	if err := s.store.UpdateTournament(ctx, id, fn); err != nil {
		return errs.FromStore(err)
	}
	return nil
}
