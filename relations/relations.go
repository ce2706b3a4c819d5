// Package relations keeps what players choose about one another: whom
// they follow (their list of followed players shows who is online and
// who is playing now) and whom they block (the blocked player's chat is
// hidden from them, the lobby never pairs the two, and challenges between
// them are refused: Service.Blocks). Only players with a name follow and
// block, and only players with a name are followed and blocked.
package relations

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
)

// The limits on relations.
const (
	// MaxFollows bounds the players one follows (lichess's is 400).
	MaxFollows = 400
	// MaxBlocks bounds the players one blocks.
	MaxBlocks = 500
	// PlayingWithin is how recently a game between two players, not over,
	// has changed for its players to be playing it now.
	PlayingWithin = 15 * time.Minute
	// OnlineWithin is how recently a player's game changed, or their lobby
	// page was open, for them to be online.
	OnlineWithin = 5 * time.Minute
)

// Store keeps follows and blocks by player id.
type Store interface {
	// Follow records that follower follows followed, at at (nothing
	// changes when they do already).
	Follow(ctx context.Context, follower, followed string, at time.Time) error
	// Unfollow forgets that follower follows followed.
	Unfollow(ctx context.Context, follower, followed string) error
	// Following returns up to limit of the players follower follows, the
	// latest followed first.
	Following(ctx context.Context, follower string, limit int) ([]string, error)
	// Block records that blocker blocks blocked, at at, and forgets that
	// blocker follows blocked, in one step.
	Block(ctx context.Context, blocker, blocked string, at time.Time) error
	// Unblock forgets that blocker blocks blocked.
	Unblock(ctx context.Context, blocker, blocked string) error
	// Blocking returns up to limit of the players blocker blocks, the
	// latest blocked first.
	Blocking(ctx context.Context, blocker string, limit int) ([]string, error)
	// Shunned returns the players who block player or whom player blocks.
	Shunned(ctx context.Context, player string) ([]string, error)
	// Relation says whether a follows b and whether a blocks b.
	Relation(ctx context.Context, a, b string) (follows, blocks bool, err error)
}

// Players are what relations need of players: whose a credential is, and
// players by name and id.
type Players interface {
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Named(ctx context.Context, name string) (players.Player, error)
	Player(ctx context.Context, id string) (players.Player, error)
	Closed(ctx context.Context, id string) (bool, error)
}

// Games lists a player's games, the most recently changed first
// (games.Store's List).
type Games interface {
	List(ctx context.Context, holder string, limit int) ([]games.Summary, error)
}

// Lobby shows the lobby's open seeks, whose makers have a lobby page open
// (lobby.Service).
type Lobby interface {
	View(ctx context.Context) (lobby.View, error)
}

// Service keeps follows and blocks. It is safe for concurrent use.
type Service struct {
	store   Store
	players Players
	games   Games
	lobby   Lobby
	now     func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a service keeping its relations in store, reading players
// from p, who plays what from g and who is in the lobby from l (nil: no
// one is seen there).
func New(store Store, p Players, g Games, l Lobby, opts ...Option) *Service {
	s := &Service{store: store, players: p, games: g, lobby: l, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Relation is what a player chose about another.
type Relation struct {
	Follows, Blocks bool
}

// Followed is a followed player as their follower's list shows them.
type Followed struct {
	ID, Name string
	// Online says the player was seen lately: a game of theirs changed
	// within OnlineWithin, or they have a lobby page open.
	Online bool
	// Playing is the game between two players they are playing now (not
	// over, changed within PlayingWithin), "" for none.
	Playing string
	// Closed says a moderator closed their account.
	Closed bool
}

// named returns cred's player, who must have a name to follow or block.
func (s *Service) named(ctx context.Context, cred players.Credential) (players.Player, error) {
	var p players.Player
	var err error
	if cred != "" {
		if p, err = s.players.Identify(ctx, cred); err != nil {
			return players.Player{}, err
		}
	}
	switch {
	case p.ID == "":
		return players.Player{}, errs.Errorf(errs.Unauthorized, "Sign in first: only players with a name follow and block others.")
	case !p.Named():
		return players.Player{}, errs.Errorf(errs.Forbidden, "Only players with a name follow and block others: choose one on your account page first.").WithDetail(errs.NameNeeded)
	}
	return p, nil
}

// pair reads cred's player and the player named name, refusing the
// player themself.
func (s *Service) pair(ctx context.Context, cred players.Credential, name string) (players.Player, players.Player, error) {
	p, err := s.named(ctx, cred)
	if err != nil {
		return p, players.Player{}, err
	}
	other, err := s.players.Named(ctx, name)
	if err != nil {
		return p, other, err
	}
	if other.ID == p.ID {
		return p, other, errs.Errorf(errs.Invalid, "That is you: follow and block other players.").WithDetail(errs.SelfRelation)
	}
	return p, other, nil
}

// Relation returns what cred's player chose about the player named name
// (nothing for a player without a name, or for themself).
func (s *Service) Relation(ctx context.Context, cred players.Credential, name string) (Relation, error) {
	p, other, err := s.pair(ctx, cred, name)
	if err != nil {
		if p.Named() && errs.Of(err).Detail != errs.SelfRelation {
			return Relation{}, err
		}
		return Relation{}, nil
	}
	f, b, err := s.store.Relation(ctx, p.ID, other.ID)
	if err != nil {
		return Relation{}, errs.FromStore(fmt.Errorf("reading a relation: %w", err))
	}
	return Relation{Follows: f, Blocks: b}, nil
}

// Follow makes cred's player follow the player named name. It refuses a
// player without a name, the player themself, and a follow over
// MaxFollows (Conflict, TooManyRelations).
func (s *Service) Follow(ctx context.Context, cred players.Credential, name string) error {
	p, other, err := s.pair(ctx, cred, name)
	if err != nil {
		return err
	}
	list, err := s.store.Following(ctx, p.ID, MaxFollows)
	if err != nil {
		return errs.FromStore(fmt.Errorf("reading whom a player follows: %w", err))
	}
	if len(list) >= MaxFollows && !slices.Contains(list, other.ID) {
		return errs.Errorf(errs.Conflict, "You follow %d players, the most there may be: unfollow one first.", MaxFollows).WithDetail(errs.TooManyRelations)
	}
	if err := s.store.Follow(ctx, p.ID, other.ID, s.now()); err != nil {
		return errs.FromStore(fmt.Errorf("following a player: %w", err))
	}
	return nil
}

// Unfollow makes cred's player stop following the player named name.
func (s *Service) Unfollow(ctx context.Context, cred players.Credential, name string) error {
	p, other, err := s.pair(ctx, cred, name)
	if err != nil {
		return err
	}
	if err := s.store.Unfollow(ctx, p.ID, other.ID); err != nil {
		return errs.FromStore(fmt.Errorf("unfollowing a player: %w", err))
	}
	return nil
}

// Block makes cred's player block the player named name (and stop
// following them). It refuses as Follow does, over MaxBlocks.
func (s *Service) Block(ctx context.Context, cred players.Credential, name string) error {
	p, other, err := s.pair(ctx, cred, name)
	if err != nil {
		return err
	}
	list, err := s.store.Blocking(ctx, p.ID, MaxBlocks)
	if err != nil {
		return errs.FromStore(fmt.Errorf("reading whom a player blocks: %w", err))
	}
	if len(list) >= MaxBlocks && !slices.Contains(list, other.ID) {
		return errs.Errorf(errs.Conflict, "You block %d players, the most there may be: unblock one first.", MaxBlocks).WithDetail(errs.TooManyRelations)
	}
	if err := s.store.Block(ctx, p.ID, other.ID, s.now()); err != nil {
		return errs.FromStore(fmt.Errorf("blocking a player: %w", err))
	}
	return nil
}

// Unblock makes cred's player stop blocking the player named name.
func (s *Service) Unblock(ctx context.Context, cred players.Credential, name string) error {
	p, other, err := s.pair(ctx, cred, name)
	if err != nil {
		return err
	}
	if err := s.store.Unblock(ctx, p.ID, other.ID); err != nil {
		return errs.FromStore(fmt.Errorf("unblocking a player: %w", err))
	}
	return nil
}

// Blocking returns the players cred's player blocks, the latest blocked
// first.
func (s *Service) Blocking(ctx context.Context, cred players.Credential) ([]players.Player, error) {
	p, err := s.named(ctx, cred)
	if err != nil {
		return nil, err
	}
	ids, err := s.store.Blocking(ctx, p.ID, MaxBlocks)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading whom a player blocks: %w", err))
	}
	return s.playersOf(ctx, ids)
}

// playersOf reads the players of ids, leaving out those gone.
func (s *Service) playersOf(ctx context.Context, ids []string) ([]players.Player, error) {
	out := make([]players.Player, 0, len(ids))
	for _, id := range ids {
		p, err := s.players.Player(ctx, id)
		if err != nil && errs.Of(err).Code == errs.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Following returns the players cred's player follows, the latest
// followed first, each with whether they are online and what they play
// now.
func (s *Service) Following(ctx context.Context, cred players.Credential) ([]Followed, error) {
	p, err := s.named(ctx, cred)
	if err != nil {
		return nil, err
	}
	ids, err := s.store.Following(ctx, p.ID, MaxFollows)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading whom a player follows: %w", err))
	}
	list, err := s.playersOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	inLobby := map[string]bool{}
	if s.lobby != nil && len(list) > 0 {
		v, err := s.lobby.View(ctx)
		if err != nil {
			return nil, err
		}
		for _, k := range v.Seeks {
			inLobby[k.Player] = true
		}
	}
	now := s.now()
	out := make([]Followed, len(list))
	for i, f := range list {
		out[i] = Followed{ID: f.ID, Name: f.Name, Online: inLobby[f.ID]}
		if err := s.seen(ctx, &out[i], now); err != nil {
			return nil, err
		}
		if out[i].Closed, err = s.players.Closed(ctx, f.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// recentGames is how many of a followed player's latest games are looked
// at for the one they play now.
const recentGames = 5

// seen fills in whether f is playing now, and online for it.
func (s *Service) seen(ctx context.Context, f *Followed, now time.Time) error {
	list, err := s.games.List(ctx, f.ID, recentGames)
	if err != nil {
		return errs.FromStore(fmt.Errorf("reading a followed player's games: %w", err))
	}
	for _, g := range list {
		if g.Updated.After(now.Add(-OnlineWithin)) {
			f.Online = true
		}
		if f.Playing == "" && g.Mode == games.Invite && g.Result == "*" && g.Updated.After(now.Add(-PlayingWithin)) {
			f.Playing, f.Online = g.ID, true
		}
	}
	return nil
}

// BlockList answers who blocks whom, for the services that keep blocked
// players apart (the lobby, the chat, challenges). It reads only the
// store, so that they can be given it before the Service is made.
type BlockList struct{ store Store }

// NewBlockList returns the blocks store keeps.
func NewBlockList(store Store) BlockList { return BlockList{store: store} }

// Blocks reports whether player a blocks player b or b blocks a (by
// their ids): then their chat is hidden from the blocker, the lobby does
// not pair them, and neither challenges the other.
func (l BlockList) Blocks(ctx context.Context, a, b string) (bool, error) {
	if a == "" || b == "" || a == b {
		return false, nil
	}
	_, ab, err := l.store.Relation(ctx, a, b)
	if err == nil && !ab {
		_, ab, err = l.store.Relation(ctx, b, a)
	}
	if err != nil {
		return false, errs.FromStore(fmt.Errorf("reading a block: %w", err))
	}
	return ab, nil
}

// Shunned returns the players player blocks or is blocked by (by id):
// the lobby pairs player with none of them.
func (l BlockList) Shunned(ctx context.Context, player string) ([]string, error) {
	if player == "" {
		return nil, nil
	}
	list, err := l.store.Shunned(ctx, player)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading a player's blocks: %w", err))
	}
	return list, nil
}

// Hidden returns the players whose chat is hidden from player (by id):
// those player blocks.
func (l BlockList) Hidden(ctx context.Context, player string) ([]string, error) {
	if player == "" {
		return nil, nil
	}
	list, err := l.store.Blocking(ctx, player, MaxBlocks)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("reading a player's blocks: %w", err))
	}
	return list, nil
}
