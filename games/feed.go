package games

import (
	"sync"
	"sync/atomic"
)

// Feed tells the watchers of a game that it changed, with the revision it
// changed to, and keeps who is watching: which seats are connected and
// how many spectators. A watcher is woken, not sent the change: it learns
// the game's latest revision from the feed (Watch.Revision), never from
// the store, so a slow watcher skips states but never misses the latest,
// and holds no queue. It is safe for concurrent use.
type Feed struct {
	mu      sync.Mutex
	watched map[string]*watchers
}

// watchers are the watches of one game, and who they are.
type watchers struct {
	all          map[*Watch]struct{}
	revision     atomic.Int64 // the latest revision published or read; unknownRevision after a lost feed
	white, black int          // watches by a holder of the seat
	spectators   int          // watches by no seat's holder
}

// count adds n watches by a viewer holding seats.
func (ws *watchers) count(seats Seats, n int) {
	if seats.White {
		ws.white += n
	}
	if seats.Black {
		ws.black += n
	}
	if !seats.Any() {
		ws.spectators += n
	}
}

// unknownRevision is a game's revision when the feed may have missed
// changes (PublishAll): its watchers read it once from the store.
const unknownRevision = -1

// NewFeed returns a feed with no watchers.
func NewFeed() *Feed { return &Feed{watched: map[string]*watchers{}} }

// Watch is one watcher of one game: a page's stream or an API stream.
type Watch struct {
	feed   *Feed
	id     string
	seats  Seats
	seated bool      // counted among the game's watchers (Seat)
	game   *watchers // its game's
	c      chan struct{}
}

// C receives when the game may have changed since the last receive (its
// state, or who is watching it).
func (w *Watch) C() <-chan struct{} { return w.c }

// Presence is who watches a game now.
type Presence struct {
	// White and Black say whether a holder of the seat watches it.
	White, Black bool
	// Spectators counts the watchers who hold no seat.
	Spectators int
}

// Watch starts watching game id, by a viewer not yet seated: it hears
// every change published from now on, but counts among the game's
// watchers (and wakes the others) only once Seat says who it is and what
// revision it read. Close ends it.
func (f *Feed) Watch(id string) *Watch {
	w := &Watch{feed: f, id: id, c: make(chan struct{}, 1)}
	f.mu.Lock()
	ws := f.watched[id]
	if ws == nil {
		ws = &watchers{all: map[*Watch]struct{}{}}
		ws.revision.Store(unknownRevision)
		f.watched[id] = ws
	}
	ws.all[w] = struct{}{}
	w.game = ws
	f.mu.Unlock()
	return w
}

// Seat counts the watch as a viewer holding seats, who read revision rev
// of the game after the watch began (so no later change is missed), and
// tells the other watchers, since who is watching changed.
func (w *Watch) Seat(seats Seats, rev int64) {
	f := w.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := w.game.all[w]; !ok {
		return
	}
	if w.seated {
		w.game.count(w.seats, -1)
	}
	w.seats, w.seated = seats, true
	w.game.count(seats, 1)
	w.game.learn(rev)
	w.game.wake()
}

// Revision is the game's latest revision the feed knows of, and whether
// it knows one: after PublishAll it does not until a watcher reads the
// game and says so (Learn).
func (w *Watch) Revision() (int64, bool) {
	rev := w.game.revision.Load()
	return rev, rev != unknownRevision
}

// Learn tells the feed of revision rev of the game, read from the store.
func (w *Watch) Learn(rev int64) { w.game.learn(rev) }

// learn raises the game's revision to rev, if rev is later.
func (ws *watchers) learn(rev int64) bool {
	for {
		cur := ws.revision.Load()
		if rev <= cur && cur != unknownRevision {
			return false
		}
		if ws.revision.CompareAndSwap(cur, rev) {
			return true
		}
	}
}

// Close stops the watch and tells the others.
func (w *Watch) Close() {
	f := w.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	ws := f.watched[w.id]
	if ws == nil {
		return
	}
	if _, ok := ws.all[w]; !ok {
		return
	}
	delete(ws.all, w)
	if w.seated {
		ws.count(w.seats, -1)
	}
	if len(ws.all) == 0 {
		delete(f.watched, w.id)
		return
	}
	ws.wake()
}

// Publish tells the watchers of game id that it changed to revision rev:
// it wakes them when rev is later than the revision they know (a server
// hears its own changes again from PostgreSQL, and wakes no one twice).
func (f *Feed) Publish(id string, rev int64) {
	f.mu.Lock()
	if ws := f.watched[id]; ws != nil && ws.learn(rev) {
		ws.wake()
	}
	f.mu.Unlock()
}

// Wake wakes the watchers of game id though the game did not change:
// something shown with it did (its chat). Their revision stays.
func (f *Feed) Wake(id string) {
	f.mu.Lock()
	if ws := f.watched[id]; ws != nil {
		ws.wake()
	}
	f.mu.Unlock()
}

// PublishAll wakes every watcher of every game, whose revisions it
// forgets: changes may have been missed (a store that reports other
// servers' changes lost touch), so each game's watchers read it once.
func (f *Feed) PublishAll() {
	f.mu.Lock()
	for _, ws := range f.watched {
		ws.revision.Store(unknownRevision)
		ws.wake()
	}
	f.mu.Unlock()
}

// Presence says who watches game id.
func (f *Feed) Presence(id string) Presence {
	f.mu.Lock()
	defer f.mu.Unlock()
	ws := f.watched[id]
	if ws == nil {
		return Presence{}
	}
	return Presence{White: ws.white > 0, Black: ws.black > 0, Spectators: ws.spectators}
}

// wake signals every watch, without blocking: a watch already signalled
// stays so. Called with the feed's lock held.
func (ws *watchers) wake() {
	for w := range ws.all {
		select {
		case w.c <- struct{}{}:
		default:
		}
	}
}
