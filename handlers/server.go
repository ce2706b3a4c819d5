// Package handlers serves Ban Chess over HTTP: the playground's pages and
// htmx fragments, and the JSON API, all through the games layer.
package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/static"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// Pinger is a store that can say whether it answers (a database can).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Server holds what the handlers share.
type Server struct {
	kit        *kit.Kit
	games      *kit.Games
	loader     *games.Loader
	players    *players.Service
	lobby      *lobby.Service
	analysis   *analysis.Service
	asset      string          // the static files' version, for cache busting
	variants   []views.Variant // the variants the service plays, as the pages offer them
	pinger     Pinger          // nil: always healthy
	now        func() time.Time
	limits     kit.Limits
	trustProxy bool
	log        *slog.Logger
	imageRate  *ratelimit.Limiter   // images asked for per client; nil: no limit
	baseURL    string               // scheme://host for absolute links; "": the request's
	gameWait   time.Duration        // how long a request may wait to read games
	images     *boardimage.Renderer // draws /img/…; nil: /img answers 503
	files      *StaticFiles         // the assets under /static/
	training   *training.Service    // lessons and puzzles; nil: /learn, /training and /api/puzzles are not served

	streamLimits stream.Limits
	streams      *stream.Server // the live streams open

}

// Option configures a Server.
type Option func(*Server)

// WithLimits sets the rate limits the server enforces (see Limits; main
// passes DefaultLimits). Without it, a Server limits no rates.
func WithLimits(l kit.Limits) Option { return func(s *Server) { s.limits = l } }

// WithTrustProxy makes the server believe the headers a reverse proxy sets
// when the connection comes from a loopback, link-local or private address:
// the client address from X-Forwarded-For, the scheme from
// X-Forwarded-Proto, and X-Request-Id. Without it they are ignored, since
// any client can send them.
func WithTrustProxy(trust bool) Option { return func(s *Server) { s.trustProxy = trust } }

// WithHealthCheck makes /healthz answer 503 while p does not answer.
func WithHealthCheck(p Pinger) Option { return func(s *Server) { s.pinger = p } }

// WithBaseURL makes every absolute link the pages write (the watch link,
// the share link) start with base, a URL such as https://chess.example.com
// (see ParseBaseURL). Without it they start with the scheme and the Host
// header of the request, which any client can set: a page fetched with
// "Host: evil.example" links to http://evil.example/…, so a cache or proxy
// that keys on something else could show other people such links.
func WithBaseURL(base string) Option {
	return func(s *Server) { s.baseURL = strings.TrimSuffix(base, "/") }
}

// WithGameWait bounds how long a request waits to read a game or list the
// browser's games (the game's lock, while a ply on it is being saved, or
// the database) before it gives up with 503 and Retry-After. The default,
// DefaultGameWait, is well within the WriteTimeout main serves with.
func WithGameWait(d time.Duration) Option {
	return func(s *Server) {
		if d > 0 {
			s.gameWait = d
		}
	}
}

// ParseBaseURL checks a base URL for WithBaseURL and returns it as
// scheme://host[:port]: http or https, a host, and nothing after it (the
// server's paths start at /). "" gives "".
func ParseBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("base URL %q: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("base URL %q: it must start with https:// or http://", raw)
	case u.Host == "" || u.Opaque != "":
		return "", fmt.Errorf("base URL %q: it names no host", raw)
	case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || (u.Path != "" && u.Path != "/"):
		return "", fmt.Errorf("base URL %q: give only the scheme and host, such as https://chess.example.com", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// WithTraining serves the lessons (/learn), the puzzle trainer
// (/training), the puzzles' API and the puzzle of the day with t.
func WithTraining(t *training.Service) Option { return func(s *Server) { s.training = t } }

// WithStaticFiles serves the assets f holds, compressed once for every
// Server that shares them. Without it a Server has its own.
func WithStaticFiles(f *StaticFiles) Option { return func(s *Server) { s.files = f } }

// WithLogger sends one line per request, and server-side failures, to l.
// Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// Services are the services a Server serves: every page and API call goes
// through them.
type Services struct {
	Games   *games.Service
	Players *players.Service
	Lobby   *lobby.Service
	// Analysis analyses positions and games and reviews games; nil: the
	// engine's analysis and reviews are not served.
	Analysis *analysis.Service
}

// New returns a Server on svc. now gives the time (for PGN dates and the rate
// limits); nil means time.Now.
func New(svc Services, now func() time.Time, opts ...Option) *Server {
	if now == nil {
		now = time.Now
	}
	s := &Server{loader: svc.Games.Loader(), players: svc.Players, lobby: svc.Lobby, analysis: svc.Analysis, now: now, asset: assetVersion(), variants: views.VariantsOf(svc.Games.Loader().Variants(), engine.Supports), gameWait: kit.DefaultGameWait}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.kit = kit.New(svc.Games, svc.Players, kit.Config{Now: now, Limits: s.limits, TrustProxy: s.trustProxy, BaseURL: s.baseURL, Log: s.log, GameWait: s.gameWait})
	s.kit.SetErrorPage(s.errorPage)
	s.games = s.kit.Games()
	if s.analysis == nil {
		s.analysis = analysis.New(svc.Games, svc.Games.Loader(), nil, nil) // refuses analyses, keeps no reviews
	}
	if s.files == nil {
		s.files = NewStaticFiles()
	}
	s.streams = stream.New(s.streamLimits, s.games, svc.Lobby)
	images, err := boardimage.NewRenderer(static.FS, 0)
	if err != nil { // the embedded art is unreadable: serve all but images
		s.log.Error("position images are off", "err", err)
	}
	s.images = images
	s.imageRate = ratelimit.New(s.limits.ImagesPerSecond, float64(s.limits.ImageBurst), now)
	return s
}

// Register adds every route and the shared middleware to e, and sets e's
// IPExtractor (the connection's address, or with WithTrustProxy the
// client X-Forwarded-For names) and its HTTPErrorHandler (writeError).
func (s *Server) Register(e *echo.Echo) {
	if s.trustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	e.HTTPErrorHandler = s.kit.ErrorHandler(e.DefaultHTTPErrorHandler)
	e.Use(s.kit.Middleware()...)
	s.healthRoutes(e)
	s.pageRoutes(e)
	api.Register(e.Group("/api"), s.apiDeps())
}

// WithStreamLimits sets the limits of the live streams (see
// stream.Limits).
func WithStreamLimits(l stream.Limits) Option { return func(s *Server) { s.streamLimits = l } }

// CloseStreams ends every open stream cleanly and returns once they have
// ended (see stream.Server.Close).
func (s *Server) CloseStreams() { s.streams.Close() }

// OpenStreams counts the streams open now.
func (s *Server) OpenStreams() int { return s.streams.Open() }

// apiDeps are what the API serves.
func (s *Server) apiDeps() api.Deps {
	d := api.Deps{Kit: s.kit, Loader: s.loader, Players: s.players, Lobby: s.lobby,
		Analysis: s.analysis, Streams: s.streams, BaseURL: s.baseURL}
	if s.training != nil { // a nil *training.Service is no Training
		d.Training = s.training
	}
	return d
}
