// Package store keeps games on the server, each under an unguessable id and
// behind its own lock: in memory (Memory), in an SQLite database (SQLite),
// or in a PostgreSQL database that several servers share (Postgres). All
// implement games.Store.
package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"

	"github.com/banchess/banchess/analysis"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/notify"
)

// notFound is the error for an id that names no game.
func notFound(id string) error {
	return &errs.Error{Code: errs.NotFound, Msg: "There is no game with this id (games nobody has played for a long time are removed).",
		Err: fmt.Errorf("game %q is not stored", trimID(id))}
}

// trimID shortens an id for error text: a request can send any length.
func trimID(id string) string {
	if len(id) > 32 {
		return id[:32] + "…"
	}
	return id
}

// Memory keeps games in memory. It is safe for concurrent use; the games it
// holds are only ever touched under their own lock.
type Memory struct {
	mu       sync.RWMutex
	games    map[string]*entry
	accounts memoryPlayers
	// reviews are the games' reviews, by game id (see reviews.go).
	reviews map[string]analysis.StoredReview
	// claims are the games due that a sweep claimed, by id (see due.go).
	claims map[string]dueClaim

	memoryTraining                  // training's learners, puzzles and attempts
	chat           memoryChat       // the games' chat (Chat)
	relations      memoryRelations  // follows and blocks (Relations)
	safety         memorySafety     // recovery codes and closed accounts (Safety)
	moderation     memoryModeration // moderators, reports, mutes, the log (Moderation)
	tournaments    memoryTournaments
	challenges     memoryChallenges
	notify         *notify.Memory // notifications (Notifications)
}

type entry struct {
	lock gameLock
	rec  *games.Record
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	m := &Memory{games: make(map[string]*entry), reviews: make(map[string]analysis.StoredReview), claims: map[string]dueClaim{}}
	m.accounts.init()
	m.safety.a, m.safety.m = &m.accounts, m
	m.challenges.m = m
	m.notify = notify.NewMemory()
	return m
}

// NewID returns a fresh game id (128 random bits, URL-safe).
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Create stores rec under a new id.
func (m *Memory) Create(ctx context.Context, rec *games.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rec.ID = NewID()
	m.mu.Lock()
	m.games[rec.ID] = &entry{lock: newGameLock(), rec: rec}
	m.mu.Unlock()
	return nil
}

// Update runs fn on the record under its lock: no two calls for one game
// interleave. fn must leave the record unchanged when it returns an error.
// A change that finishes a game between two players records its result.
func (m *Memory) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	return withGame(ctx, m, id, func(rec *games.Record) error {
		over := rec.Game.Outcome().Over()
		if err := fn(rec); err != nil {
			return err
		}
		if !over && rec.Game.Outcome().Over() {
			return m.accounts.record(rec)
		}
		return nil
	})
}

// View runs fn on the record under its lock; fn must not change it.
func (m *Memory) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	return withGame(ctx, m, id, fn)
}

func withGame(ctx context.Context, m *Memory, id string, fn func(*games.Record) error) error {
	m.mu.RLock()
	e := m.games[id]
	m.mu.RUnlock()
	if e == nil {
		return notFound(id)
	}
	if err := e.lock.lock(ctx); err != nil {
		return err
	}
	defer e.lock.unlock()
	return fn(e.rec)
}

// List returns up to limit of holder's games that it has not hidden, the
// most recently updated first. No one ("") holds a game.
func (m *Memory) List(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if holder == "" || limit <= 0 {
		return nil, nil
	}
	m.mu.RLock()
	entries := make([]*entry, 0, len(m.games))
	for _, e := range m.games {
		entries = append(entries, e)
	}
	m.mu.RUnlock()
	var out []games.Summary
	for _, e := range entries {
		if err := e.lock.lock(ctx); err != nil {
			return nil, err
		}
		if listed(e.rec, holder) {
			out = append(out, e.rec.Summary())
		}
		e.lock.unlock()
	}
	slices.SortFunc(out, newestFirst)
	return out[:min(len(out), limit)], nil
}

// listed reports whether rec belongs in holder's list of games.
func listed(rec *games.Record, holder string) bool {
	return rec.White == holder && !rec.WhiteHidden || rec.Black == holder && !rec.BlackHidden
}

// newestFirst orders summaries by update time, newest first, then by
// creation and id so the order is stable.
func newestFirst(a, b games.Summary) int {
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	if c := b.Created.Compare(a.Created); c != 0 {
		return c
	}
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}
