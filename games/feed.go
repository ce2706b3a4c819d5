package games

import (
	"sync"
)

// Feed tells the watchers of a game that it changed, and keeps who is
// watching: which seats are connected and how many spectators. A watcher
// is woken, not sent the change: it reads the game as it stands, so a
// slow watcher skips states but never misses the latest, and holds no
// queue. It is safe for concurrent use.
type Feed struct {
	mu      sync.Mutex
	watched map[string]*watchers
}

// watchers are the watches of one game, and who they are.
type watchers struct {
	all          map[*Watch]struct{}
	white, black int // watches by a holder of the seat
	spectators   int // watches by no seat's holder
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

// NewFeed returns a feed with no watchers.
func NewFeed() *Feed { return &Feed{watched: map[string]*watchers{}} }

// Watch is one watcher of one game: a page's stream or an API stream.
type Watch struct {
	feed  *Feed
	id    string
	seats Seats
	c     chan struct{}
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

// Watch starts watching game id, by a viewer holding seats; Close ends it.
// The other watchers are told, since who is watching changed.
func (f *Feed) Watch(id string, seats Seats) *Watch {
	w := &Watch{feed: f, id: id, seats: seats, c: make(chan struct{}, 1)}
	f.mu.Lock()
	ws := f.watched[id]
	if ws == nil {
		ws = &watchers{all: map[*Watch]struct{}{}}
		f.watched[id] = ws
	}
	ws.all[w] = struct{}{}
	ws.count(seats, 1)
	ws.wake()
	f.mu.Unlock()
	return w
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
	ws.count(w.seats, -1)
	if len(ws.all) == 0 {
		delete(f.watched, w.id)
		return
	}
	ws.wake()
}

// Publish wakes every watcher of game id: it changed.
func (f *Feed) Publish(id string) {
	f.mu.Lock()
	if ws := f.watched[id]; ws != nil {
		ws.wake()
	}
	f.mu.Unlock()
}

// PublishAll wakes every watcher of every game: changes may have been
// missed (a store that reports other servers' changes lost touch).
func (f *Feed) PublishAll() {
	f.mu.Lock()
	for _, ws := range f.watched {
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
