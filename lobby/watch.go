package lobby

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// Notices are what servers sharing a store tell each other, through it
// (PostgreSQL's NOTIFY, in the transaction of the change), and what a
// server tells itself: see Service.Notice.
const (
	// NoticeLobby says the lobby's seeks changed.
	NoticeLobby = "lobby"
	// noticePaired starts the notices NoticePaired makes.
	noticePaired = "paired:"
)

// NoticePaired says players a and b were paired into a game (the lobby
// changed too).
func NoticePaired(a, b string) string { return noticePaired + a + ":" + b }

// Notice acts on a notice from a server sharing the store (this one
// included): it wakes the lobby's watchers. The notice "" says notices
// may have been missed (the connection that carries them was lost): every
// lobby watcher is woken, as if paired.
func (s *Service) Notice(n string) {
	switch {
	case n == "":
		s.seeks.invalidate()
		s.watchers.wake(func(string) bool { return true })
	case n == NoticeLobby:
		s.seeks.invalidate()
		s.watchers.wake(nil)
	case strings.HasPrefix(n, noticePaired):
		a, b, _ := strings.Cut(strings.TrimPrefix(n, noticePaired), ":")
		s.seeks.invalidate()
		s.watchers.wake(func(p string) bool { return p == a || p == b })
	}
}

// watchers wakes the lobby's watchers, and counts which players have a
// lobby page open here, whose seeks stay alive.
type watchers struct {
	mu      sync.Mutex
	watches map[*Watch]struct{}
	present map[string]int // open watches by player
	// left and came hear of a player's last lobby page here closing, and
	// of their first opening.
	left, came func(player string)
}

// LobbyWatch is one watcher of the lobby: a lobby page's stream or an
// API client's.
type Watch struct {
	feed   *watchers
	player string
	c      chan struct{}
	mu     sync.Mutex
	paired bool
}

// C receives when the lobby may have changed since the last receive.
func (w *Watch) C() <-chan struct{} { return w.c }

// Paired reports, once, whether the watcher's player may have been paired
// into a game since the last call: then Service.Pairings says.
func (w *Watch) Paired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.paired
	w.paired = false
	return p
}

// Watch starts watching the lobby for cred's player (anyone, with no
// credential); while it watches, the player's seeks stay alive. Close it
// when done.
func (s *Service) Watch(ctx context.Context, cred players.Credential) (*Watch, error) {
	player, err := s.players.PlayerID(ctx, cred)
	if err != nil {
		return nil, err
	}
	f := &s.watchers
	w := &Watch{feed: f, player: player, c: make(chan struct{}, 1), paired: true}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.watches == nil {
		f.watches, f.present = map[*Watch]struct{}{}, map[string]int{}
	}
	f.watches[w] = struct{}{}
	if player != "" {
		f.present[player]++
		if f.present[player] == 1 && f.came != nil {
			// Their seeks are this server's now: a player whose server
			// died keeps them by coming back here in time.
			f.came(player)
		}
	}
	return w, nil
}

// Close ends the watch. When it was its player's last lobby page here,
// their seeks' absence starts now.
func (w *Watch) Close() {
	f := w.feed
	f.mu.Lock()
	if _, ok := f.watches[w]; !ok {
		f.mu.Unlock()
		return
	}
	delete(f.watches, w)
	last := false
	if w.player != "" {
		f.present[w.player]--
		if last = f.present[w.player] <= 0; last {
			delete(f.present, w.player)
		}
	}
	left := f.left
	f.mu.Unlock()
	if last && left != nil {
		left(w.player)
	}
}

// wake signals every watch; those whose player paired says (if not nil)
// also learn they may have been paired.
func (f *watchers) wake(paired func(player string) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.watches {
		if paired != nil && w.player != "" && paired(w.player) {
			w.mu.Lock()
			w.paired = true
			w.mu.Unlock()
		}
		select {
		case w.c <- struct{}{}:
		default:
		}
	}
}

// presentPlayers lists the players with a lobby page open here.
func (f *watchers) presentPlayers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.present))
	for p := range f.present {
		out = append(out, p)
	}
	return out
}

// Run keeps the lobby until ctx ends: it records that this server is
// alive, at once and every Liveness.Beat; it records, every
// lobbyHeartbeat, that the players with a lobby page open here are
// present (their seeks stay alive); and it removes the seeks past their
// time, their server's death included, every lobbySweep (or half the
// Liveness.Timeout, if sooner), telling the lobby's watchers. A server
// runs it once.
func (s *Service) Run(ctx context.Context) {
	s.beat(ctx)
	live := time.NewTicker(s.live.beat())
	defer live.Stop()
	present := time.NewTicker(lobbyHeartbeat)
	defer present.Stop()
	every := lobbySweep
	if t := s.live.timeout(); t > 0 && t/2 < every {
		every = t / 2
	}
	sweep := time.NewTicker(every)
	defer sweep.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-live.C:
			s.beat(ctx)
		case <-present.C:
			if players := s.watchers.presentPlayers(); len(players) > 0 {
				s.touchSeeks(ctx, players)
			}
		case <-sweep.C:
			s.Sweep(ctx)
		}
	}
}

// beat records that this server is alive now (unless its liveness is
// off: Liveness.Timeout negative).
func (s *Service) beat(ctx context.Context) {
	if s.live.timeout() == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, s.live.beat())
	defer cancel()
	if s.store.Beat(ctx, s.live.Instance, s.now()) == nil { // a beat missed is made up by the next; a few missed end this server's seeks
		s.beating.Store(true)
	}
}

// instance is the server the seeks made or kept alive here record: this
// one once it has beaten, none before (a lobby that never beats, as in
// tests that do not Run it, leaves its seeks to SeekAbsence alone).
func (s *Service) instance() string {
	if s.beating.Load() {
		return s.live.Instance
	}
	return ""
}

// Sweep removes the seeks past their time, and tells the lobby's
// watchers when one that was open went. A server sweeping is alive: it
// beats first, so that a beat held up never ends its own seeks.
func (s *Service) Sweep(ctx context.Context) {
	s.beat(ctx)
	now := s.now()
	n, err := s.store.SweepSeeks(ctx, s.window(now), now.Add(-PairingMemory))
	if err == nil && n > 0 {
		s.Notice(NoticeLobby)
	}
}

// touchSeeks records that players are present now, within a few seconds.
func (s *Service) touchSeeks(ctx context.Context, players []string) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = s.store.TouchSeeks(ctx, players, s.now(), s.instance()) // a failure shortens the seeks' lives at worst
	s.seeks.invalidate()
}

// Touch records that cred's player has a lobby page open now (a page
// without scripts, which reloads itself instead of holding a stream).
func (s *Service) Touch(ctx context.Context, cred players.Credential) error {
	player, err := s.players.PlayerID(ctx, cred)
	if err != nil || player == "" {
		return err
	}
	if err := s.store.TouchSeeks(ctx, []string{player}, s.now(), s.instance()); err != nil {
		return errs.FromStore(err)
	}
	s.seeks.invalidate()
	return nil
}
