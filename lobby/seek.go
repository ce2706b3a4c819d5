package lobby

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// Seek is an offer to play in the lobby: a custom seek anyone may accept,
// or a player waiting in a quick-pairing pool for the next to come.
type Seek struct {
	ID string
	// Player is the maker's id; Name, Rating and Provisional describe them
	// as the lobby shows them (the rating in the seek's variant and speed;
	// none for an anonymous player).
	Player string
	// Address is the client address the seek was made from (never
	// shown): the lobby bounds the seeks open from one address.
	Address     string
	Name        string
	Rating      int
	Provisional bool
	Variant     string
	Clock       games.TimeControl
	// Color is the maker's side; no Color is random.
	Color rules.Color
	// Rated asks for a rated game. In a pool it says the maker could play
	// one: the game is rated when both players have a name.
	Rated bool
	// Pool is the quick-pairing pool the maker waits in ("5+3"); "" for a
	// custom seek.
	Pool    string
	Created time.Time
	// Alive is when the maker last had a lobby page open (or made it).
	Alive time.Time
	// Instance is the server that made the seek or last found its maker
	// present (see Liveness): once that server stops beating, the seek
	// ends. "" for a seek kept by no server's liveness.
	Instance string
	// Game is the game the seek was accepted into, Acceptor who accepted
	// it and Accepted when; "" while it is open.
	Game     string
	Acceptor string
	Accepted time.Time
}

// Speed is the class of the seek's clock.
func (k Seek) Speed() rating.Speed { return k.Clock.Speed() }

// SeekWindow says which seeks are open: not accepted, their maker seen
// since AliveSince and made since CreatedSince, and their server alive:
// it beat since BeatSince, or the seek was kept alive since (a server
// beats first as it starts). A zero BeatSince asks nothing of servers.
//
// A correspondence seek (days a move) is open, wherever its maker is,
// while made since DaysSince: its maker need not wait in the lobby.
type SeekWindow struct{ AliveSince, CreatedSince, BeatSince, DaysSince time.Time }

// Open reports whether k is open in the window by its own times; whether
// its server is alive is the store's to say (see Live).
func (w SeekWindow) Open(k Seek) bool {
	if k.Clock.Correspondence() {
		return k.Game == "" && !k.Created.Before(w.DaysSince)
	}
	return k.Game == "" && !k.Alive.Before(w.AliveSince) && !k.Created.Before(w.CreatedSince)
}

// Live reports whether k's server is alive in the window, that server
// having last beat at beat (zero: never heard of). A correspondence seek
// needs none.
func (w SeekWindow) Live(k Seek, beat time.Time) bool {
	return k.Instance == "" || k.Clock.Correspondence() || !k.Alive.Before(w.BeatSince) || !beat.Before(w.BeatSince)
}

// How long seeks live, and how the lobby keeps them.
const (
	// SeekAbsence is how long a seek stays once its maker's last lobby
	// page has closed.
	SeekAbsence = 30 * time.Second
	// SeekLifetime is how long a seek stays at most.
	SeekLifetime = 30 * time.Minute
	// DaysSeekLifetime is how long a correspondence seek stays at most,
	// its maker in the lobby or not.
	DaysSeekLifetime = 7 * 24 * time.Hour
	// MaxCustomSeeks bounds the custom seeks one player has open.
	MaxCustomSeeks = 3
	// MaxAddressSeeks bounds the seeks (custom and waiting in pools) open
	// from one client address, whoever makes them: a household or a club
	// behind one address seeks side by side, a script with many accounts
	// does not fill the lobby (issue 45: 486 seeks in 10 s from four).
	MaxAddressSeeks = 10
	// SeeksPerPage bounds the custom seeks a page of the lobby lists.
	SeeksPerPage = 50
	// PairingMemory is how long an accepted seek is kept, so that its
	// maker's pages learn which game it became.
	PairingMemory = 10 * time.Minute
	// DefaultBeat is how often a server records that it is alive
	// (Liveness.Beat).
	DefaultBeat = time.Second
	// DefaultInstanceTimeout is how long a server may go unheard before
	// its seeks end (Liveness.Timeout): several beats, so that a busy
	// database or a pause of the collector ends no one's seeks.
	DefaultInstanceTimeout = 5 * time.Second
	// lobbyHeartbeat is how often the makers with a lobby page open here
	// are recorded as present; well within SeekAbsence.
	lobbyHeartbeat = 10 * time.Second
	// lobbySweep is how often seeks past their time are removed.
	lobbySweep = 2 * time.Second
	// lobbyFresh is how long a read of the lobby is shown without asking
	// the store again, when nothing said it changed.
	lobbyFresh = 5 * time.Second
)

// Pools are the quick-pairing pools: the lobby's first variant
// (Service.PoolVariant) at each clock.
func Pools() []string { return []string{"3+2", "5+3", "10+5", "15+10"} }

// PairRequest asks a store to pair a player, in one transaction: to accept
// seek Seek, or with Pool to take the oldest open seek in that pool made
// by another player, or if there is none to add Wait (or, if the player
// waits there already, keep their seek alive). Game builds the game from
// the seek and both players; its refusal changes nothing. Once paired,
// the seek records the game, and both players' other open seeks go.
type PairRequest struct {
	Taker string
	Seek  string
	Pool  string
	Wait  Seek
	// Limits bound the seeks open from Wait's address.
	Limits SeekLimits
	Open   SeekWindow
	At     time.Time
	Game   func(seek Seek, maker, taker games.Seated) (*games.Record, error)
	// Avoid are the players Taker is never paired with (blocks): a pool
	// passes over their seeks.
	Avoid []string
}

// SeekSettings are what a custom seek is made with, as a client gives
// them.
type SeekSettings struct {
	Variant string // "ban" (or "") or "classic"
	Clock   string // "5+3"
	Color   string // "white", "black" or "random" (or "")
	Rated   bool
	// Address is the client address the seek comes from ("" if unknown).
	Address string
}

// SeekLimits bound the open seeks a new seek may join: its player's
// custom seeks, and every seek from its address ("" for none known).
type SeekLimits struct {
	PerPlayer  int
	PerAddress int
}

// seekLimits are the lobby's bounds on open seeks.
func seekLimits() SeekLimits {
	return SeekLimits{PerPlayer: MaxCustomSeeks, PerAddress: MaxAddressSeeks}
}

// newSeekID returns a fresh seek id (96 random bits, URL-safe).
func newSeekID() string {
	var b [12]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// window is the window of open seeks at now.
func (s *Service) window(now time.Time) SeekWindow {
	w := SeekWindow{AliveSince: now.Add(-SeekAbsence), CreatedSince: now.Add(-SeekLifetime), DaysSince: now.Add(-DaysSeekLifetime)}
	if t := s.live.timeout(); t > 0 {
		w.BeatSince = now.Add(-t)
	}
	return w
}

// Liveness is how a server tells the others sharing its store that it is
// alive, so that the seeks whose makers' lobby pages it held end within
// seconds of its death, rather than linger for SeekAbsence to be paired
// into games no one plays.
type Liveness struct {
	// Instance names this server (a fresh random name when "").
	Instance string
	// Beat is how often the server records that it is alive
	// (DefaultBeat when 0).
	Beat time.Duration
	// Timeout is how long a server may go unheard before its seeks end
	// (DefaultInstanceTimeout when 0; negative: never, the seeks then
	// lasting SeekAbsence after their makers' last page).
	Timeout time.Duration
}

func (l Liveness) beat() time.Duration {
	if l.Beat <= 0 {
		return DefaultBeat
	}
	return l.Beat
}

func (l Liveness) timeout() time.Duration {
	switch {
	case l.Timeout < 0:
		return 0
	case l.Timeout == 0:
		return DefaultInstanceTimeout
	}
	return l.Timeout
}

// WithLiveness sets how the server beats, and how long the others wait
// for a beat (see Liveness).
func WithLiveness(l Liveness) Option { return func(s *Service) { s.live = l } }

// LobbyView is the lobby as it stands: the open seeks, oldest first (pool
// seeks among them), and the players waiting in each pool.
type View struct {
	Seeks   []Seek
	Waiting map[string]int
}

// Custom returns the view's custom seeks.
func (v View) Custom() []Seek {
	var out []Seek
	for _, k := range v.Seeks {
		if k.Pool == "" {
			out = append(out, k)
		}
	}
	return out
}

// SeekPage is one page of the custom seeks, as a viewer sees them.
type SeekPage struct {
	Seeks []Seek
	// Number is the page's number (from 1) of Pages (at least 1); its first
	// seek is the From-th (from 1) of Total, the custom seeks on every
	// page.
	Number, Pages, From, Total int
}

// Nearest returns page n (from 1; past the last, the last) of the custom
// seeks, SeeksPerPage a page, for the viewer player me whose rating in a
// seek's variant and speed is mine(k): me's own seeks first, then the
// others by how far their maker's rating is from the viewer's (an
// anonymous maker counts as a new player), the oldest first among equals.
func (v View) Nearest(me string, mine func(Seek) int, n int) SeekPage {
	custom := v.Custom()
	dist := func(k Seek) int {
		if k.Player == me && me != "" {
			return -1
		}
		r := k.Rating
		if r == 0 {
			r = rating.DefaultRating
		}
		return abs(r - mine(k))
	}
	slices.SortStableFunc(custom, func(a, b Seek) int { return cmp.Compare(dist(a), dist(b)) })
	pages := max(1, (len(custom)+SeeksPerPage-1)/SeeksPerPage)
	n = min(max(n, 1), pages)
	from := (n - 1) * SeeksPerPage
	return SeekPage{Seeks: custom[from:min(len(custom), from+SeeksPerPage)], Number: n, Pages: pages, From: from + 1, Total: len(custom)}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Of returns player's open seeks.
func (v View) Of(player string) []Seek {
	var out []Seek
	for _, k := range v.Seeks {
		if k.Player == player && player != "" {
			out = append(out, k)
		}
	}
	return out
}

// seekCache is the lobby's seeks as last read, shared by every page.
type seekCache struct {
	gen     atomic.Uint64 // counts the changes heard of
	mu      sync.Mutex    // held while reading, so a crowd of readers reads once
	seeks   []Seek
	at      time.Time
	readGen uint64 // gen when seeks were read
}

// read returns the seeks, read with fetch unless a read made since the
// last change heard of, and fresh, is at hand.
func (c *seekCache) read(ctx context.Context, now time.Time, fetch func(context.Context, time.Time) ([]Seek, error)) ([]Seek, error) {
	gen := c.gen.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && c.readGen == gen && now.Sub(c.at) < lobbyFresh && !now.Before(c.at) {
		return c.seeks, nil
	}
	seeks, err := fetch(ctx, now)
	if err != nil {
		return nil, err
	}
	c.seeks, c.at, c.readGen = seeks, now, gen
	return seeks, nil
}

// invalidate says the lobby changed: the next read asks the store.
func (c *seekCache) invalidate() { c.gen.Add(1) }
