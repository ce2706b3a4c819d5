package games

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/banchess/banchess/errs"
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
	Player      string
	Name        string
	Rating      int
	Provisional bool
	Variant     string
	Clock       TimeControl
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
	// Game is the game the seek was accepted into, Acceptor who accepted
	// it and Accepted when; "" while it is open.
	Game     string
	Acceptor string
	Accepted time.Time
}

// Speed is the class of the seek's clock.
func (k Seek) Speed() rating.Speed { return rating.SpeedOf(k.Clock.Initial, k.Clock.Increment) }

// SeekWindow says which seeks are open: not accepted, their maker seen
// since AliveSince and made since CreatedSince.
type SeekWindow struct{ AliveSince, CreatedSince time.Time }

// Open reports whether k is open in the window.
func (w SeekWindow) Open(k Seek) bool {
	return k.Game == "" && !k.Alive.Before(w.AliveSince) && !k.Created.Before(w.CreatedSince)
}

// How long seeks live, and how the lobby keeps them.
const (
	// SeekAbsence is how long a seek stays once its maker's last lobby
	// page has closed.
	SeekAbsence = 30 * time.Second
	// SeekLifetime is how long a seek stays at most.
	SeekLifetime = 30 * time.Minute
	// MaxCustomSeeks bounds the custom seeks one player has open.
	MaxCustomSeeks = 3
	// pairingMemory is how long an accepted seek is kept, so that its
	// maker's pages learn which game it became.
	pairingMemory = 10 * time.Minute
	// lobbyHeartbeat is how often the makers with a lobby page open here
	// are recorded as present; well within SeekAbsence.
	lobbyHeartbeat = 10 * time.Second
	// lobbySweep is how often seeks past their time are removed.
	lobbySweep = 2 * time.Second
	// lobbyFresh is how long a read of the lobby is shown without asking
	// the store again, when nothing said it changed.
	lobbyFresh = 5 * time.Second
)

// LobbyPlays reports whether the lobby plays the variant of id (see
// WithLobbyVariants).
func (s *Service) LobbyPlays(id string) bool {
	if _, err := s.Variant(id); err != nil {
		return false
	}
	return s.lobbyIDs == nil || slices.Contains(s.lobbyIDs, id)
}

// lobbyNames names the variants the lobby plays, for a refusal.
func (s *Service) lobbyNames() string {
	var names []string
	for _, v := range s.variants {
		if s.LobbyPlays(v.ID()) {
			names = append(names, v.Name())
		}
	}
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return strings.Join(names, "")
}

// Pools are the quick-pairing pools, Ban Chess at each clock.
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
	Open  SeekWindow
	At    time.Time
	Game  func(seek Seek, maker, taker Seated) (*Record, error)
}

// Seated is a player about to sit at a game, with their standing in its
// variant and speed.
type Seated struct {
	Player   Player
	Standing Standing
}

// SeekSettings are what a custom seek is made with, as a client gives
// them.
type SeekSettings struct {
	Variant string // "ban" (or "") or "classic"
	Clock   string // "5+3"
	Color   string // "white", "black" or "random" (or "")
	Rated   bool
}

// newSeekID returns a fresh seek id (96 random bits, URL-safe).
func newSeekID() string {
	var b [12]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// seekWindow is the window of open seeks at now.
func seekWindow(now time.Time) SeekWindow {
	return SeekWindow{AliveSince: now.Add(-SeekAbsence), CreatedSince: now.Add(-SeekLifetime)}
}

// seeker returns cred's player, who must have been issued it.
func (s *Service) seeker(ctx context.Context, cred Credential) (Player, error) {
	p, err := s.Identify(ctx, cred)
	if err != nil {
		return Player{}, err
	}
	if p.ID == "" {
		if cred == "" {
			return Player{}, errs.Errorf(errs.Unauthorized, "The lobby needs to know who is asking: send your credential.")
		}
		return Player{}, unissued()
	}
	return p, nil
}

// AddSeek adds a custom seek by cred's player to the lobby.
func (s *Service) AddSeek(ctx context.Context, cred Credential, st SeekSettings) (Seek, error) {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return Seek{}, err
	}
	v, err := s.Variant(st.Variant)
	if err != nil {
		return Seek{}, err
	}
	if !s.LobbyPlays(v.ID()) {
		return Seek{}, errs.Errorf(errs.Invalid, "The lobby plays %s, not %s.", s.lobbyNames(), v.Name()).WithDetail(errs.UnsupportedVariant)
	}
	tc, ok, err := ParseTimeControl(st.Clock)
	if err != nil {
		return Seek{}, err
	}
	if !ok {
		return Seek{}, errs.Errorf(errs.Invalid, "A seek needs a clock, such as 5+3.").WithDetail(errs.BadClock)
	}
	var color rules.Color
	switch st.Color {
	case "", "random":
	case "white", "black":
		color, _ = rules.ParseColor(st.Color)
	default:
		return Seek{}, errs.Errorf(errs.Invalid, "%q is not a colour to play: use white, black or random.", rules.Clip(st.Color)).WithDetail(errs.BadColor)
	}
	if st.Rated && !p.Named() {
		return Seek{}, nameNeeded()
	}
	k, err := s.newSeek(ctx, p, v.ID(), tc, "")
	if err != nil {
		return Seek{}, err
	}
	k.Color, k.Rated = color, st.Rated
	if err := s.store.AddSeek(ctx, k, seekWindow(k.Created), MaxCustomSeeks); err != nil {
		return Seek{}, errs.FromStore(err)
	}
	s.Notice(NoticeLobby)
	return k, nil
}

func nameNeeded() *errs.Error {
	return errs.Errorf(errs.Forbidden, "Only players with a name play rated games: choose one on your account page first.").WithDetail(errs.NameNeeded)
}

// newSeek describes a seek by p of variant at tc, in pool ("" for none).
func (s *Service) newSeek(ctx context.Context, p Player, variant string, tc TimeControl, pool string) (Seek, error) {
	now := s.now()
	k := Seek{ID: newSeekID(), Player: p.ID, Name: p.Name, Variant: variant, Clock: tc, Pool: pool, Created: now, Alive: now}
	if p.Named() {
		st, err := s.store.Standing(ctx, p.ID, variant, k.Speed())
		if err != nil {
			return Seek{}, errs.FromStore(err)
		}
		r := st.At(now)
		e := entrantOf(p, &r)
		k.Rating, k.Provisional = e.Rating, e.Provisional
	}
	return k, nil
}

// JoinPool puts cred's player in the quick-pairing pool named pool: paired
// at once with a player waiting there, it returns the new game's id; else
// the player waits, and it returns their seek.
func (s *Service) JoinPool(ctx context.Context, cred Credential, pool string) (string, Seek, error) {
	if !slices.Contains(Pools(), pool) {
		return "", Seek{}, errs.Errorf(errs.Invalid, "%q is not a pool: choose one of %s.", rules.Clip(pool), strings.Join(Pools(), ", ")).WithDetail(errs.BadPool)
	}
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return "", Seek{}, err
	}
	tc, _, _ := ParseTimeControl(pool)
	wait, err := s.newSeek(ctx, p, (rules.BanChess{}).ID(), tc, pool)
	if err != nil {
		return "", Seek{}, err
	}
	wait.Rated = p.Named()
	return s.pair(ctx, PairRequest{Taker: p.ID, Pool: pool, Wait: wait})
}

// AcceptSeek accepts seek id for cred's player and returns the game it
// starts. A seek is accepted once: whoever comes later finds it gone
// (NotFound, detail "seek_gone").
func (s *Service) AcceptSeek(ctx context.Context, cred Credential, id string) (string, error) {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return "", err
	}
	game, _, err := s.pair(ctx, PairRequest{Taker: p.ID, Seek: id})
	return game, err
}

// pair has the store pair as req asks, and starts the game's clock.
func (s *Service) pair(ctx context.Context, req PairRequest) (string, Seek, error) {
	req.At = s.now()
	req.Open, req.Game = seekWindow(req.At), s.pairedGame(req.At)
	rec, k, err := s.store.Pair(ctx, req)
	if err != nil {
		return "", Seek{}, errs.FromStore(err)
	}
	if rec == nil {
		s.Notice(NoticeLobby)
		return "", k, nil
	}
	s.timers.set(rec.ID, flagTimerOf(rec, req.At), s.checkClock)
	s.Notice(NoticePaired(k.Player, k.Acceptor))
	return rec.ID, k, nil
}

// pairedGame builds the game of a pairing at now: maker and taker at their
// sides (the maker's colour, or random), the clock waiting for each
// side's first action (Clock.pace), rated as the
// seek asks (a pool's when both have a name).
func (s *Service) pairedGame(now time.Time) func(Seek, Seated, Seated) (*Record, error) {
	return func(k Seek, maker, taker Seated) (*Record, error) {
		if maker.Player.ID == taker.Player.ID {
			return nil, errs.Errorf(errs.Conflict, "This is your own seek: wait for another player to accept it.").WithDetail(errs.OwnSeek)
		}
		rated := k.Rated
		switch {
		case k.Pool != "":
			rated = maker.Player.Named() && taker.Player.Named()
		case rated && !taker.Player.Named():
			return nil, nameNeeded()
		}
		v, err := s.Variant(k.Variant)
		if err != nil {
			return nil, errs.Internalf(err, "pairing seek %s", k.ID)
		}
		g := rules.New(v)
		side := k.Color
		if side != rules.White && side != rules.Black {
			side = randomColor()
		}
		rec := &Record{Game: g, Mode: Invite, Created: now, Updated: now, Revision: 1}
		rec.Rated = rated
		rec.Clock = NewClock(k.Clock)
		for _, sat := range []struct {
			side   rules.Color
			seated Seated
		}{{side, maker}, {side.Other(), taker}} {
			r := sat.seated.Standing.At(now)
			rec.seat(sat.side, entrantOf(sat.seated.Player, &r))
			if sat.side == rules.White {
				rec.White = sat.seated.Player.ID
			} else {
				rec.Black = sat.seated.Player.ID
			}
		}
		rec.Clock.pace(rec, true, now, s.firstWait) // its seats are taken: the first turn comes now
		return rec, nil
	}
}

// CancelSeek removes cred's player's open seek id.
func (s *Service) CancelSeek(ctx context.Context, cred Credential, id string) error {
	p, err := s.seeker(ctx, cred)
	if err != nil {
		return err
	}
	if err := s.store.CancelSeek(ctx, id, p.ID); err != nil {
		return errs.FromStore(err)
	}
	s.Notice(NoticeLobby)
	return nil
}

// LobbyView is the lobby as it stands: the open seeks, oldest first (pool
// seeks among them), and the players waiting in each pool.
type LobbyView struct {
	Seeks   []Seek
	Waiting map[string]int
}

// Custom returns the view's custom seeks.
func (v LobbyView) Custom() []Seek {
	var out []Seek
	for _, k := range v.Seeks {
		if k.Pool == "" {
			out = append(out, k)
		}
	}
	return out
}

// Of returns player's open seeks.
func (v LobbyView) Of(player string) []Seek {
	var out []Seek
	for _, k := range v.Seeks {
		if k.Player == player && player != "" {
			out = append(out, k)
		}
	}
	return out
}

// Lobby returns the lobby as it stands. Many pages asking at once share
// one read of the store.
func (s *Service) Lobby(ctx context.Context) (LobbyView, error) {
	seeks, err := s.lobby.read(ctx, s.now(), func(ctx context.Context, now time.Time) ([]Seek, error) {
		return s.store.Seeks(ctx, seekWindow(now))
	})
	if err != nil {
		return LobbyView{}, errs.FromStore(err)
	}
	w := seekWindow(s.now())
	v := LobbyView{Waiting: map[string]int{}}
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
func (s *Service) Pairings(ctx context.Context, cred Credential, since time.Time) ([]Seek, error) {
	player, err := s.holder(ctx, cred)
	if err != nil || player == "" {
		return nil, err
	}
	list, err := s.store.Pairings(ctx, player, since)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	return list, nil
}

// lobbyCache is the lobby's seeks as last read, shared by every page.
type lobbyCache struct {
	gen     atomic.Uint64 // counts the changes heard of
	mu      sync.Mutex    // held while reading, so a crowd of readers reads once
	seeks   []Seek
	at      time.Time
	readGen uint64 // gen when seeks were read
}

// read returns the seeks, read with fetch unless a read made since the
// last change heard of, and fresh, is at hand.
func (c *lobbyCache) read(ctx context.Context, now time.Time, fetch func(context.Context, time.Time) ([]Seek, error)) ([]Seek, error) {
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
func (c *lobbyCache) invalidate() { c.gen.Add(1) }
