package tournament

import (
	"slices"
	"sync"
	"time"
)

// ReadFor is how long a tournament read stays the answer to the reads of
// its page, its standings and its streams on this server: reading one
// means decoding it whole (some 300 KB for 200 players after 20 games
// each), and every open page asks every few seconds. This server's own
// changes are seen at once; other servers' within ReadFor.
const ReadFor = time.Second

// reads keeps the latest read of each tournament, for ReadFor.
type reads struct {
	mu   sync.Mutex
	last map[string]read
}

type read struct {
	t  *Tournament
	at time.Time
}

// get returns a copy of tournament id as read within ReadFor of now.
func (r *reads) get(id string, now time.Time) (*Tournament, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.last[id]
	if !ok || now.Sub(c.at) >= ReadFor || now.Before(c.at) {
		return nil, false
	}
	return c.t.clone(), true
}

// put keeps t, read at now.
func (r *reads) put(t *Tournament, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]read{}
	}
	for id, c := range r.last { // forget the stale, so the map stays small
		if now.Sub(c.at) >= ReadFor {
			delete(r.last, id)
		}
	}
	r.last[t.ID] = read{t.clone(), now}
}

// forget drops tournament id's read: this server changed it.
func (r *reads) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.last, id)
}

// clone copies t so that neither copy's changes reach the other.
func (t *Tournament) clone() *Tournament {
	c := *t
	c.Players, c.Pairings, c.Byes = slices.Clone(t.Players), slices.Clone(t.Pairings), slices.Clone(t.Byes)
	return &c
}

// with calls fn with the read of tournament id within ReadFor of now,
// without copying it (fn must not keep or change it); false if there is
// none.
func (r *reads) with(id string, now time.Time, fn func(*Tournament)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.last[id]
	if !ok || now.Sub(c.at) >= ReadFor || now.Before(c.at) {
		return false
	}
	fn(c.t)
	return true
}

// forgetAll drops every read: changes may have been missed.
func (r *reads) forgetAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.last)
}

// startedList keeps the latest list of the started tournaments, for
// ReadFor: every player's lobby stream asks for it each second.
type startedList struct {
	mu  sync.Mutex
	ids []string
	at  time.Time
}

// forget drops the list: a tournament may have started or finished.
func (l *startedList) forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids, l.at = nil, time.Time{}
}
