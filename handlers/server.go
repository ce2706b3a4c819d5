// Package handlers serves Ban Chess over HTTP: the playground's pages and
// htmx fragments, and the JSON API, all through the games layer.
package handlers

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// GameService is what the handlers need of the games layer (see package
// games): every page and API call goes through it.
type GameService interface {
	Create(ctx context.Context, cred games.Credential, g *rules.Game) (string, error)
	View(ctx context.Context, id string, cred games.Credential, fn games.ViewFunc) error
	Play(ctx context.Context, id string, cred games.Credential, in games.Input, then games.ViewFunc) error
	Undo(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) (games.Undone, error)
	Resign(ctx context.Context, id string, cred games.Credential, side rules.Color, then games.ViewFunc) error
	Draw(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error
	Games(ctx context.Context, cred games.Credential, limit int) ([]games.Summary, error)
	Hide(ctx context.Context, id string, cred games.Credential) error
	Claim(ctx context.Context, id string, cred games.Credential) (bool, error)

	NewGame(variant string) (*rules.Game, error)
	FromFEN(fen, variant string) (*rules.Game, error)
	FromPGN(pgn, variant string) (*rules.Game, error)
	FromText(text, variant string) (*rules.Game, error)
	FromLink(q url.Values) (*rules.Game, error)
	Link(g *rules.Game) string
}

// Pinger is a store that can say whether it answers (a database can).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Server holds what the handlers share.
type Server struct {
	games      GameService
	pinger     Pinger // nil: always healthy
	now        func() time.Time
	limits     Limits
	trustProxy bool
	log        *slog.Logger
	posts      *rateLimiter // POSTs per client; nil: no limit
	created    *rateLimiter // games created per client; nil: no limit
}

// Option configures a Server.
type Option func(*Server)

// WithLimits sets the rate limits the server enforces (see Limits; main
// passes DefaultLimits). Without it, a Server limits no rates.
func WithLimits(l Limits) Option { return func(s *Server) { s.limits = l } }

// WithTrustProxy makes the server believe the headers a reverse proxy sets
// when the connection comes from a loopback, link-local or private address:
// the client address from X-Forwarded-For, the scheme from
// X-Forwarded-Proto, and X-Request-Id. Without it they are ignored, since
// any client can send them.
func WithTrustProxy(trust bool) Option { return func(s *Server) { s.trustProxy = trust } }

// WithHealthCheck makes /healthz answer 503 while p does not answer.
func WithHealthCheck(p Pinger) Option { return func(s *Server) { s.pinger = p } }

// WithLogger sends one line per request, and server-side failures, to l.
// Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// New returns a Server on the games service svc. now gives the time (for
// PGN dates and the rate limits); nil means time.Now.
func New(svc GameService, now func() time.Time, opts ...Option) *Server {
	if now == nil {
		now = time.Now
	}
	s := &Server{games: svc, now: now}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.posts = newRateLimiter(s.limits.PostsPerSecond, s.limits.PostBurst, now)
	s.created = newRateLimiter(float64(s.limits.GamesPerMinute)/60, s.limits.GamesPerMinute, now)
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
