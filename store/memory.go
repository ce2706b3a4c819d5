// Package store keeps games on the server, each under an unguessable id and
// behind its own lock.
package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/banchess/banchess/rules"
)

// ErrNotFound is returned for an id that names no game.
var ErrNotFound = errors.New("no such game")

// Memory keeps games in memory. It is safe for concurrent use; the games it
// holds are only ever touched under their own lock.
type Memory struct {
	mu    sync.RWMutex
	games map[string]*entry
}

type entry struct {
	mu   sync.Mutex
	game *rules.Game
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{games: make(map[string]*entry)} }

// NewID returns a fresh unguessable game id (128 random bits, URL-safe).
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return an error)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Create stores g under a new id.
func (m *Memory) Create(ctx context.Context, g *rules.Game) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	id := NewID()
	m.mu.Lock()
	m.games[id] = &entry{game: g}
	m.mu.Unlock()
	return id, nil
}

// Update runs fn on the game under its lock: no two calls for one game
// interleave. fn must leave the game unchanged when it returns an error.
func (m *Memory) Update(ctx context.Context, id string, fn func(*rules.Game) error) error {
	return m.with(ctx, id, fn)
}

// View runs fn on the game under its lock; fn must not change the game.
func (m *Memory) View(ctx context.Context, id string, fn func(*rules.Game) error) error {
	return m.with(ctx, id, fn)
}

func (m *Memory) with(ctx context.Context, id string, fn func(*rules.Game) error) error {
	m.mu.RLock()
	e := m.games[id]
	m.mu.RUnlock()
	if e == nil {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.game)
}
