// Package lobby is where strangers meet: custom seeks anyone may accept,
// quick-pairing pools, and the pairing that starts a game between two
// players (through the games service), kept by a store that two servers
// racing cannot both apply.
package lobby

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// LobbyStore keeps the lobby's seeks and pairs players, in transactions
// that two servers racing cannot both apply.
type Store interface {
	// AddSeek stores custom seek s, unless its player has limits.PerPlayer
	// custom seeks open already or its address limits.PerAddress seeks of
	// any kind (Conflict, detail "too_many_seeks"). (A pool's seeks are
	// added by Pair, under the same limit per address.)
	AddSeek(ctx context.Context, s Seek, open SeekWindow, limits SeekLimits) error
	// Seeks returns the open seeks, oldest first.
	Seeks(ctx context.Context, open SeekWindow) ([]Seek, error)
	// CancelSeek removes player's open seek id (NotFound when player has
	// no open seek of that id).
	CancelSeek(ctx context.Context, id, player string) error
	// Pair pairs players (see PairRequest): it returns the game it
	// created and the seek accepted, or for a pool with no one else
	// waiting, no game and the seek that now waits.
	Pair(ctx context.Context, req PairRequest) (*games.Record, Seek, error)
	// TouchSeeks records that players had a lobby page open at at, on
	// server instance: their open seeks are alive, and now that server's.
	TouchSeeks(ctx context.Context, players []string, at time.Time, instance string) error
	// Beat records that server instance is alive at at.
	Beat(ctx context.Context, instance string, at time.Time) error
	// SweepSeeks removes the seeks no longer open (their server's
	// liveness included), and those accepted before acceptedBefore, and
	// counts the open ones removed.
	SweepSeeks(ctx context.Context, open SeekWindow, acceptedBefore time.Time) (int, error)
	// Pairings returns the seeks player made or accepted that were
	// accepted at since or later.
	Pairings(ctx context.Context, player string, since time.Time) ([]Seek, error)
}

// Games are what the lobby needs of the games service: the games
// pairings start.
type Games interface {
	PairedGame(variant string, tc games.TimeControl, rated bool, side rules.Color, maker, taker games.Seated, now time.Time) (*games.Record, error)
	Started(rec *games.Record, now time.Time)
}

// Variants are the variants games plays (games.Loader).
type Variants interface {
	Variants() []rules.Variant
	Variant(id string) (rules.Variant, error)
}

// Players are what the lobby needs to know of players: whose a
// credential is, and their standing.
type Players interface {
	PlayerID(ctx context.Context, cred players.Credential) (string, error)
	Identify(ctx context.Context, cred players.Credential) (players.Player, error)
	Standing(ctx context.Context, id, variant string, speed rating.Speed) (players.Standing, error)
}

// Service keeps the lobby: seeks, pools and pairings.
type Service struct {
	store    Store
	games    Games
	known    Variants
	players  Players
	now      func() time.Time
	seeks    seekCache
	variants []string // the variants the lobby plays; nil: all
	watchers watchers
	live     Liveness    // Instance set
	beating  atomic.Bool // this server has beaten: its seeks record it
	blocks   Blocks      // nil: no one blocks anyone
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now; the default is
// time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithVariants makes the lobby's seeks and pairings of the variants of
// ids only; by default the lobby plays every variant games plays.
func WithVariants(ids ...string) Option { return func(s *Service) { s.variants = ids } }

// Blocks say whom a player is never paired with (relations.BlockList).
type Blocks interface {
	// Shunned returns the players player blocks or is blocked by.
	Shunned(ctx context.Context, player string) ([]string, error)
}

// WithBlocks makes the lobby never pair two players one of whom blocks
// the other: a pool passes over the other's seek, and accepting it is
// refused (Forbidden, detail blocked).
func WithBlocks(b Blocks) Option { return func(s *Service) { s.blocks = b } }

// New returns the lobby kept in store, pairing players' into games' of
// known's variants.
func New(store Store, games Games, known Variants, players Players, opts ...Option) *Service {
	s := &Service{store: store, games: games, known: known, players: players, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if s.live.Instance == "" {
		s.live.Instance = "server:" + newSeekID()
	}
	touch := func(player string) { go s.touchSeeks(context.Background(), []string{player}) }
	s.watchers.left, s.watchers.came = touch, touch
	return s
}

// Plays reports whether the lobby plays the variant of id (see
// WithVariants).
func (s *Service) Plays(id string) bool {
	if _, err := s.known.Variant(id); err != nil {
		return false
	}
	return s.variants == nil || slices.Contains(s.variants, id)
}

// lobbyNames names the variants the lobby plays, for a refusal.
func (s *Service) lobbyNames() string {
	var names []string
	for _, v := range s.known.Variants() {
		if s.Plays(v.ID()) {
			names = append(names, v.Name())
		}
	}
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return strings.Join(names, "")
}

// View returns the lobby as it stands. Many pages asking at once share
// one read of the store.
func (s *Service) View(ctx context.Context) (View, error) {
	seeks, err := s.seeks.read(ctx, s.now(), func(ctx context.Context, now time.Time) ([]Seek, error) {
		return s.store.Seeks(ctx, s.window(now))
	})
	if err != nil {
		return View{}, errs.FromStore(err)
	}
	w := s.window(s.now())
	v := View{Waiting: map[string]int{}}
	for _, k := range seeks {
		if !w.Open(k) {
			continue
		}
		v.Seeks = append(v.Seeks, k)
		if k.Pool != "" {
			v.Waiting[k.Pool]++
		}
	}
	return v, nil
}

// Pairings returns the seeks cred's player made or accepted that were
// accepted at since or later: the games the lobby paired them into.
func (s *Service) Pairings(ctx context.Context, cred players.Credential, since time.Time) ([]Seek, error) {
	player, err := s.players.PlayerID(ctx, cred)
	if err != nil || player == "" {
		return nil, err
	}
	list, err := s.store.Pairings(ctx, player, since)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	return list, nil
}

// PoolVariant is the variant the quick-pairing pools play: the first the
// lobby plays (see WithVariants), in the order games' variants are given.
func (s *Service) PoolVariant() rules.Variant {
	vs := s.known.Variants()
	for _, v := range vs {
		if s.Plays(v.ID()) {
			return v
		}
	}
	return vs[0]
}

// SeeksFor returns page n (from 1) of v's custom seeks as viewer p sees
// them: p's own first, then nearest p's rating in each seek's variant and
// speed (a player without a name, or new there, counts as a new player's
// rating); see View.Nearest.
func (s *Service) SeeksFor(ctx context.Context, v View, p players.Player, n int) (SeekPage, error) {
	type class struct {
		variant string
		speed   rating.Speed
	}
	ratings := map[class]int{}
	if p.Named() {
		now := s.now()
		for _, k := range v.Custom() {
			c := class{k.Variant, k.Speed()}
			if _, ok := ratings[c]; ok {
				continue
			}
			st, err := s.players.Standing(ctx, p.ID, c.variant, c.speed)
			if err != nil {
				return SeekPage{}, errs.FromStore(err)
			}
			ratings[c] = int(math.Round(st.At(now).Rating))
		}
	}
	mine := func(k Seek) int {
		if r, ok := ratings[class{k.Variant, k.Speed()}]; ok {
			return r
		}
		return rating.DefaultRating
	}
	return v.Nearest(p.ID, mine, n), nil
}
