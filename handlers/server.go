// Package handlers serves Ban Chess over HTTP: the playground's pages and
// htmx fragments, and the JSON API, all on games kept in a GameStore.
package handlers

import (
	"context"
	"log/slog"
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
	store      GameStore
	now        func() time.Time
	limits     Limits
	trustProxy bool
	log        *slog.Logger
	posts      *rateLimiter // POSTs per client; nil: no limit
	games      *rateLimiter // games created per client; nil: no limit
}

// Option configures a Server.
type Option func(*Server)

// WithLimits sets the limits the server enforces (see Limits; main passes
// DefaultLimits). Without it, a Server bounds input as DefaultLimits does
// but limits no rates.
func WithLimits(l Limits) Option { return func(s *Server) { s.limits = l } }

// WithTrustProxy makes the server believe the headers a reverse proxy sets
// when the connection comes from a loopback, link-local or private address:
// the client address from X-Forwarded-For, the scheme from
// X-Forwarded-Proto, and X-Request-Id. Without it they are ignored, since
// any client can send them.
func WithTrustProxy(trust bool) Option { return func(s *Server) { s.trustProxy = trust } }

// WithLogger sends one line per request, and server-side failures, to l.
// Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// New returns a Server on store. now gives the time (for PGN dates and the
// rate limits); nil means time.Now.
func New(store GameStore, now func() time.Time, opts ...Option) *Server {
	if now == nil {
		now = time.Now
	}
	in := DefaultLimits()
	s := &Server{store: store, now: now, limits: Limits{MaxPlies: in.MaxPlies, MaxFENBytes: in.MaxFENBytes}}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.posts = newRateLimiter(s.limits.PostsPerSecond, s.limits.PostBurst, now)
	s.games = newRateLimiter(float64(s.limits.GamesPerMinute)/60, s.limits.GamesPerMinute, now)
	return s
}

// Register adds every route and the shared middleware to e, and sets e's
// IPExtractor: the connection's address, or with WithTrustProxy the
// client X-Forwarded-For names.
func (s *Server) Register(e *echo.Echo) {
	if s.trustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	e.Use(s.middleware()...)
	s.healthRoutes(e)
	s.pageRoutes(e)
	s.apiRoutes(e.Group("/api"))
}
