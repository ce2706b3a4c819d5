package tournament

import (
	"context"
	"strings"
	"sync"
)

// noticeTournament starts the notice a store sends the servers sharing it
// when a tournament is made or changes (NoticeTournament).
const noticeTournament = "tournament:"

// NoticeTournament is the notice that tournament id was made or changed:
// PostgreSQL's NOTIFY carries it to every server sharing the store, in the
// transaction of the change, and Notice acts on it there.
func NoticeTournament(id string) string { return noticeTournament + id }

// Notice hears a notice from the servers sharing the store (this one
// included): a tournament that changed (NoticeTournament) is read again
// when next asked for, and its streams here are woken (Changed); ""
// (notices may have been missed) does so for every tournament. Other
// notices are not the tournaments'.
func (s *Service) Notice(n string) {
	if n == "" {
		s.reads.forgetAll()
		s.startedNow.forget()
		s.changes.wakeAll()
		return
	}
	id, ok := strings.CutPrefix(n, noticeTournament)
	if !ok || id == "" {
		return
	}
	s.changed(id)
}

// changed forgets what this server read of tournament id and wakes its
// streams here.
func (s *Service) changed(id string) {
	s.reads.forget(id)
	s.startedNow.forget()
	s.changes.wake(id)
}

// Changed returns a channel closed at tournament id's next change, made
// on this server or noticed from another: a stream waits on it, and asks
// again for the next.
func (s *Service) Changed(id string) <-chan struct{} { return s.changes.nextOf(id) }

// changes are the channels Changed hands out, one a tournament, closed
// and forgotten at its change.
type changes struct {
	mu   sync.Mutex
	next map[string]chan struct{}
}

func (c *changes) nextOf(id string) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next = map[string]chan struct{}{}
	}
	ch, ok := c.next[id]
	if !ok {
		ch = make(chan struct{})
		c.next[id] = ch
	}
	return ch
}

func (c *changes) wake(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.next[id]; ok {
		close(ch)
		delete(c.next, id)
	}
}

func (c *changes) wakeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, ch := range c.next {
		close(ch)
		delete(c.next, id)
	}
}

// noticing is a Store whose tournaments' changes this server hears of at
// once (changed), whatever the store tells other servers.
type noticing struct {
	Store
	changed func(id string)
}

func (n noticing) CreateTournament(ctx context.Context, t *Tournament) error {
	err := n.Store.CreateTournament(ctx, t)
	if err == nil {
		n.changed(t.ID)
	}
	return err
}

func (n noticing) UpdateTournament(ctx context.Context, id string, fn func(*Tournament) error) error {
	err := n.Store.UpdateTournament(ctx, id, fn)
	if err == nil {
		n.changed(id)
	}
	return err
}
