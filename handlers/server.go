// Package handlers serves Ban Chess over HTTP: the playground's pages and
// htmx fragments, and the JSON API, all on games kept in a GameStore.
package handlers

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/rules"
)

// GameStore keeps games under ids, each behind its own lock.
type GameStore interface {
	// Create stores a new game and returns its id.
	Create(ctx context.Context, g *rules.Game) (string, error)
	// Update runs fn on the game under its lock; fn leaves the game unchanged
	// when it returns an error. An unknown id gives an error wrapping
	// store.ErrNotFound.
	Update(ctx context.Context, id string, fn func(*rules.Game) error) error
	// View runs fn on the game under its lock; fn does not change the game.
	View(ctx context.Context, id string, fn func(*rules.Game) error) error
}

// Server holds what the handlers share.
type Server struct {
	store GameStore
	now   func() time.Time
}

// New returns a Server on store. now gives the time (for PGN dates); nil
// means time.Now.
func New(store GameStore, now func() time.Time) *Server {
	if now == nil {
		now = time.Now
	}
	return &Server{store: store, now: now}
}

// Register adds every route and the shared middleware to e.
func (s *Server) Register(e *echo.Echo) {
	e.Use(s.middleware()...)
	s.pageRoutes(e)
	s.apiRoutes(e.Group("/api"))
}
