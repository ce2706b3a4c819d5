package challenges

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Service keeps the challenges.
type Service struct {
	store   Store
	games   Games
	loader  Loader
	players Players
	blocker Blocker                          // nil: no one is blocked
	notices func(context.Context, Challenge) // nil: no one listens
	now     func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now (time.Now by
// default).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithBlocker makes the service ask b whether a player refuses another's
// challenges.
func WithBlocker(b Blocker) Option { return func(s *Service) { s.blocker = b } }

// WithNotices makes the service tell fn of every challenge made, once
// stored (notifications listen so).
func WithNotices(fn func(context.Context, Challenge)) Option {
	return func(s *Service) { s.notices = fn }
}

// New returns the challenges kept in store, whose games g starts.
func New(store Store, g Games, loader Loader, p Players, opts ...Option) *Service {
	s := &Service{store: store, games: g, loader: loader, players: p, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Terms are what a challenge asks for, as a client gives them.
type Terms struct {
	Variant string // a variant's id; "" is the first variant
	// Clock is the game's time control; none is a game without a clock.
	Clock games.TimeControl
	Color string // "white", "black" or "random" (or ""): the challenger's side
	Rated bool
	FEN   string // "" for the variant's start
}

// caller returns cred's player, who must have a name to challenge or be
// challenged.
func (s *Service) caller(ctx context.Context, cred players.Credential) (players.Player, error) {
	p, err := s.players.Identify(ctx, cred)
	if err != nil {
		return players.Player{}, err
	}
	switch {
	case p.ID == "" && cred == "":
		return players.Player{}, errs.Errorf(errs.Unauthorized, "Challenges need to know who is asking: sign in.")
	case p.ID == "":
		return players.Player{}, players.Unissued()
	case !p.Named():
		return players.Player{}, errs.Errorf(errs.Forbidden, "Only players with a name challenge and are challenged: choose one on your account page first.").WithDetail(errs.NameNeeded)
	}
	return p, nil
}

// Create has cred's player challenge the player called dest on terms.
func (s *Service) Create(ctx context.Context, cred players.Credential, dest string, t Terms) (Challenge, error) {
	p, err := s.caller(ctx, cred)
	if err != nil {
		return Challenge{}, err
	}
	d, err := s.players.Named(ctx, dest)
	if err != nil {
		return Challenge{}, err
	}
	if d.ID == p.ID {
		return Challenge{}, errs.Errorf(errs.Invalid, "You cannot challenge yourself.").WithDetail(errs.OwnChallenge)
	}
	c, err := s.terms(t)
	if err != nil {
		return Challenge{}, err
	}
	if err := s.blocked(ctx, p.ID, d.ID); err != nil {
		return Challenge{}, err
	}
	if c, err = s.add(ctx, p, &d, c); err != nil {
		return Challenge{}, err
	}
	if s.notices != nil {
		s.notices(context.WithoutCancel(ctx), c)
	}
	return c, nil
}

// MaxName bounds an open challenge's name, in bytes.
const MaxName = 100

// CreateOpen has cred's player make an open challenge on terms, named
// name: to no one in particular, which anyone with its link accepts
// (lichess's open challenge). It is never rated.
func (s *Service) CreateOpen(ctx context.Context, cred players.Credential, t Terms, name string) (Challenge, error) {
	p, err := s.caller(ctx, cred)
	if err != nil {
		return Challenge{}, err
	}
	if t.Rated {
		return Challenge{}, errs.Errorf(errs.Invalid, "An open challenge is casual: anyone may accept it.").WithDetail(errs.BadRated)
	}
	name = strings.TrimSpace(name)
	if len(name) > MaxName || !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) {
		return Challenge{}, errs.Errorf(errs.Invalid, "A challenge's name is a line of up to %d bytes.", MaxName).WithDetail(errs.BadName)
	}
	c, err := s.terms(t)
	if err != nil {
		return Challenge{}, err
	}
	c.Anyone, c.Name = true, name
	return s.add(ctx, p, nil, c)
}

// add stores challenge c of p to d (nil: to anyone), made now.
func (s *Service) add(ctx context.Context, p players.Player, d *players.Player, c Challenge) (Challenge, error) {
	now := s.now()
	c.ID, c.Status, c.Created, c.Updated = newID(), Created, now, now
	var err error
	if c.Challenger, err = s.side(ctx, p, c); err != nil {
		return Challenge{}, err
	}
	if d != nil {
		if c.Dest, err = s.side(ctx, *d, c); err != nil {
			return Challenge{}, err
		}
	}
	if err := s.store.AddChallenge(ctx, c, now.Add(-Lifetime), MaxOpen); err != nil {
		return Challenge{}, errs.FromStore(err)
	}
	return c, nil
}

// terms checks t and returns the challenge it asks for.
func (s *Service) terms(t Terms) (Challenge, error) {
	v, err := s.loader.Variant(t.Variant)
	if err != nil {
		return Challenge{}, err
	}
	c := Challenge{Variant: v.ID(), Clock: t.Clock, Rated: t.Rated}
	switch t.Color {
	case "", "random":
	case "white", "black":
		c.Color, _ = rules.ParseColor(t.Color)
	default:
		return Challenge{}, errs.Errorf(errs.Invalid, "%q is not a colour to play: use white, black or random.", rules.Clip(t.Color)).WithDetail(errs.BadColor)
	}
	if t.Clock.Correspondence() {
		// Days a move: only the controls games offers (games.DaysChoices).
		if tc, _, err := games.ParseTimeControl(t.Clock.String()); err != nil || tc != t.Clock {
			return Challenge{}, errs.Errorf(errs.Invalid, "Not a correspondence control: give one of %v days a move, or unlimited.", games.CorrespondenceDays()).WithDetail(errs.BadClock)
		}
	} else if t.Clock.Initial < 0 || t.Clock.Increment < 0 || t.Clock.Initial == 0 && t.Clock.Increment > 0 ||
		t.Clock.Initial > games.MaxInitialMinutes*time.Minute || t.Clock.Increment > games.MaxIncrementSeconds*time.Second {
		return Challenge{}, errs.Errorf(errs.Invalid, "Not a clock: give from %d to %d minutes and up to %d seconds of increment, or no clock.",
			games.MinInitialMinutes, games.MaxInitialMinutes, games.MaxIncrementSeconds).WithDetail(errs.BadClock)
	}
	if c.Rated && !c.Timed() {
		return Challenge{}, errs.Errorf(errs.Invalid, "A rated game needs a clock.").WithDetail(errs.BadClock)
	}
	if t.FEN != "" {
		g, err := s.loader.FromFEN(t.FEN, v.ID())
		if err != nil {
			return Challenge{}, err
		}
		if c.Rated {
			return Challenge{}, errs.Errorf(errs.Invalid, "A game from a position of your own is not rated.").WithDetail(errs.BadFEN)
		}
		if fen := g.FEN(); fen != rules.New(v).FEN() {
			c.FEN = fen
		}
	}
	return c, nil
}

// blocked refuses a challenge dest does not take from challenger.
func (s *Service) blocked(ctx context.Context, challenger, dest string) error {
	if s.blocker == nil {
		return nil
	}
	no, err := s.blocker.Blocks(ctx, challenger, dest)
	if err != nil {
		return errs.FromStore(err)
	}
	if no {
		return errs.Errorf(errs.Forbidden, "This player does not take your challenges.").WithDetail(errs.Blocked)
	}
	return nil
}

// side describes p as c shows them: their rating in c's variant and
// speed.
func (s *Service) side(ctx context.Context, p players.Player, c Challenge) (Side, error) {
	st, err := s.players.Standing(ctx, p.ID, c.Variant, c.Speed())
	if err != nil {
		return Side{}, errs.FromStore(err)
	}
	r := st.At(c.Created)
	e := games.NewEntrant(p, &r)
	return Side{ID: p.ID, Name: p.Name, Rating: e.Rating, Provisional: e.Provisional, Bot: p.Bot}, nil
}

// Challenge returns challenge id, as anyone may see it.
func (s *Service) Challenge(ctx context.Context, id string) (Challenge, error) {
	c, err := s.store.Challenge(ctx, id)
	if err != nil {
		return Challenge{}, errs.FromStore(err)
	}
	return c, nil
}

// Lists are a player's open challenges: those they received (In) and
// made (Out), the latest first.
type Lists struct{ In, Out []Challenge }

// List returns cred's player's open challenges.
func (s *Service) List(ctx context.Context, cred players.Credential) (Lists, error) {
	p, err := s.caller(ctx, cred)
	if err != nil {
		return Lists{}, err
	}
	now := s.now()
	list, err := s.Changed(ctx, p.ID, now.Add(-Lifetime))
	if err != nil {
		return Lists{}, err
	}
	var out Lists
	for _, c := range list {
		switch {
		case !c.Open(now):
		case c.Dest.ID == p.ID:
			out.In = append(out.In, c)
		default:
			out.Out = append(out.Out, c)
		}
	}
	return out, nil
}

// Changed returns the challenges player made or received that changed at
// since or later, the latest first (for the stream of events).
func (s *Service) Changed(ctx context.Context, player string, since time.Time) ([]Challenge, error) {
	list, err := s.store.ChallengesOf(ctx, player, since, listed)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	return list, nil
}

// Accept accepts challenge id for cred's player, its receiver, and
// returns it with the game it started. A challenge is accepted once:
// whoever comes later finds it gone (NotFound, "challenge_gone").
func (s *Service) Accept(ctx context.Context, cred players.Credential, id string) (Challenge, error) {
	return s.AcceptAs(ctx, cred, id, "")
}

// AcceptAs accepts challenge id for cred's player, as Accept does; an
// open challenge (Challenge.Anyone) is accepted so by any player but its
// challenger, with or without a name, as color ("white" or "black": the
// acceptor's side, which its challenger's colour must leave them; "" or
// "random": as the challenge says).
func (s *Service) AcceptAs(ctx context.Context, cred players.Credential, id, color string) (Challenge, error) {
	c, err := s.store.Challenge(ctx, id)
	if err != nil {
		return Challenge{}, errs.FromStore(err)
	}
	var p players.Player
	if c.Anyone {
		p, err = s.players.Identify(ctx, cred)
		switch {
		case err != nil:
			return Challenge{}, err
		case p.ID == "" && cred == "":
			return Challenge{}, errs.Errorf(errs.Unauthorized, "Accepting a challenge needs to know who you are: open its link again.")
		case p.ID == "":
			return Challenge{}, players.Unissued()
		case p.ID == c.Challenger.ID:
			return Challenge{}, errs.Errorf(errs.Invalid, "This challenge is yours: share its link, and whoever opens it plays you.").WithDetail(errs.OwnChallenge)
		}
	} else if p, err = s.caller(ctx, cred); err != nil {
		return Challenge{}, err
	}
	side := c.Color
	switch color {
	case "", "random":
	case "white", "black":
		mine, _ := rules.ParseColor(color)
		if c.Color == mine {
			return Challenge{}, errs.Errorf(errs.Invalid, "Its challenger plays %s: accept it as %s.", mine, mine.Other()).WithDetail(errs.BadColor)
		}
		side = mine.Other()
	default:
		return Challenge{}, errs.Errorf(errs.Invalid, "%q is not a colour to play: use white, black or random.", rules.Clip(color)).WithDetail(errs.BadColor)
	}
	// Blocks are read before the store's transaction, which holds the
	// one connection an SQLite store has.
	if err := s.blocked(ctx, c.Challenger.ID, p.ID); err != nil {
		return Challenge{}, err
	}
	now := s.now()
	build := s.game(now)
	rec, c, err := s.store.AcceptChallenge(ctx, AcceptRequest{ID: id, Dest: p.ID, OpenSince: now.Add(-Lifetime), At: now,
		Game: func(c Challenge, challenger, dest games.Seated) (*games.Record, error) {
			c.Color = side
			return build(c, challenger, dest)
		}})
	if err != nil {
		return Challenge{}, errs.FromStore(err)
	}
	s.games.Started(rec, now)
	return c, nil
}

// game builds the game of an accepted challenge at now.
func (s *Service) game(now time.Time) func(Challenge, games.Seated, games.Seated) (*games.Record, error) {
	return func(c Challenge, challenger, dest games.Seated) (*games.Record, error) {
		rec, err := s.games.PairedGame(c.Variant, c.Clock, c.Rated, c.Color, challenger, dest, now)
		if err != nil {
			return nil, errs.Internalf(err, "starting challenge %s", c.ID)
		}
		if !c.Timed() {
			rec.Clock = nil
		}
		if c.FEN != "" {
			g, err := s.loader.FromFEN(c.FEN, c.Variant)
			if err != nil {
				return nil, err
			}
			rec.Game = g
		}
		return rec, nil
	}
}

// Decline declines challenge id for cred's player, its receiver, for
// reason (one of Reasons; "" is "generic").
func (s *Service) Decline(ctx context.Context, cred players.Credential, id, reason string) (Challenge, error) {
	if reason == "" {
		reason = "generic"
	}
	if !slices.Contains(Reasons(), reason) {
		return Challenge{}, errs.Errorf(errs.Invalid, "%q is not a reason to decline: give one of generic, later, tooFast, tooSlow, timeControl, rated, casual, standard, variant, noBot, onlyBot.", rules.Clip(reason)).WithDetail(errs.BadReason)
	}
	return s.end(ctx, cred, id, Declined, reason)
}

// Cancel cancels challenge id for cred's player, who made it.
func (s *Service) Cancel(ctx context.Context, cred players.Credential, id string) (Challenge, error) {
	return s.end(ctx, cred, id, Canceled, "")
}

// end gives open challenge id the status, for cred's player.
func (s *Service) end(ctx context.Context, cred players.Credential, id string, status Status, reason string) (Challenge, error) {
	p, err := s.caller(ctx, cred)
	if err != nil {
		return Challenge{}, err
	}
	now := s.now()
	c, err := s.store.EndChallenge(ctx, id, p.ID, status, reason, now.Add(-Lifetime), now)
	if err != nil {
		return Challenge{}, errs.FromStore(err)
	}
	return c, nil
}

// Gone is the refusal of a challenge that is not (or no longer) open.
func Gone() *errs.Error {
	return errs.Errorf(errs.NotFound, "No such open challenge: it was accepted, declined, cancelled, or it expired.").WithDetail(errs.ChallengeGone)
}

// TooMany is the refusal of a challenge over MaxOpen.
func TooMany() *errs.Error {
	return errs.Errorf(errs.TooMany, "You have %d challenges open: wait for answers, or cancel some.", MaxOpen).WithDetail(errs.TooManyChallenges)
}
