// Package handlers serves Ban Chess over HTTP: it wires the front ends —
// the playground's pages and htmx fragments (package pages), the JSON API
// (package api), lichess's Board and Bot API (package lichess), the live
// streams (package stream) — on the services,
// over the kit they share (package kit), and answers /healthz.
package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/lichess"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/static"
	"github.com/banchess/banchess/tournament"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// Pinger is a store that can say whether it answers (a database can).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Services are the services a Server serves: every page and API call goes
// through them.
type Services struct {
	Games   *games.Service
	Players *players.Service
	Lobby   *lobby.Service
	// Analysis analyses positions and games and reviews games; nil: the
	// engine's analysis and reviews are refused.
	Analysis *analysis.Service
	// Training serves the lessons (/learn), the puzzle trainer
	// (/training), the puzzles' API and the puzzle of the day; nil: they
	// are not served.
	Training *training.Service
	// Chat serves the games' rooms (the game page's chat panel, the
	// chat API, the chat setting); nil: games have no chat.
	Chat *chat.Service
	// Relations serve follows and blocks (/following, the profiles'
	// buttons, /api/rel); nil: they are not served.
	Relations *relations.Service
	// Moderation takes reports and serves the moderators (/report, /mod);
	// nil: not served.
	Moderation *moderation.Service
	// Tournaments run arenas (/tournaments, the tournaments' API); nil:
	// they are not served.
	Tournaments *tournament.Service
	// Challenges serve players' challenges to each other (lichess's
	// API, the profiles' challenge form, /challenges); nil: none.
	Challenges *challenges.Service
	// Notify keeps named players' notifications (/inbox, the bell,
	// /api/notifications); nil: none.
	Notify *notify.Service
}

// Server wires the front ends on the services: the pages (package
// pages), the JSON API (package api) and the live streams (package
// stream), over the kit they share (package kit).
type Server struct {
	svc     Services
	kit     *kit.Kit
	streams *stream.Server
	pages   *pages.Pages
	pinger  Pinger // nil: always healthy
	config
}

// config is what the options set.
type config struct {
	limits       kit.Limits
	trustProxy   bool
	baseURL      string        // scheme://host for absolute links; "": the request's
	gameWait     time.Duration // how long a request may wait to read games
	log          *slog.Logger
	files        *pages.StaticFiles // the assets under /static/
	streamLimits stream.Limits
}

// Option configures a Server.
type Option func(*Server)

// WithLimits sets the rate limits the server enforces (see kit.Limits;
// main passes kit.DefaultLimits). Without it, a Server limits no rates.
func WithLimits(l kit.Limits) Option { return func(s *Server) { s.limits = l } }

// WithTrustProxy makes the server believe the headers a reverse proxy sets
// when the connection comes from a loopback, link-local or private address:
// the client address from X-Forwarded-For, the scheme from
// X-Forwarded-Proto, the host from X-Forwarded-Host (checked against the
// base URL), and X-Request-Id. Without it they are ignored, since
// any client can send them.
func WithTrustProxy(trust bool) Option { return func(s *Server) { s.trustProxy = trust } }

// WithHealthCheck makes /healthz answer 503 while p does not answer.
func WithHealthCheck(p Pinger) Option { return func(s *Server) { s.pinger = p } }

// WithBaseURL makes every absolute link the pages write (the watch link,
// the share link) start with base, a URL such as https://chess.example.com
// (see ParseBaseURL), and refuses (421) a request whose Host, or trusted
// proxy's X-Forwarded-Host, names another host, but for /healthz. Without
// it links start with the scheme and the Host header of the request,
// which any client can set: a page fetched with "Host: evil.example"
// links to http://evil.example/…, so a cache or proxy that keys on
// something else could show other people such links (see WarnHostLinks).
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

// WithStaticFiles serves the assets f holds, compressed once for every
// Server that shares them. Without it a Server has its own.
func WithStaticFiles(f *pages.StaticFiles) Option { return func(s *Server) { s.files = f } }

// WithLogger sends one line per request, and server-side failures, to l.
// Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// WithStreamLimits sets the limits of the live streams (see
// stream.Limits).
func WithStreamLimits(l stream.Limits) Option { return func(s *Server) { s.streamLimits = l } }

// New returns a Server on svc. now gives the time (for PGN dates and the
// rate limits); nil means time.Now.
func New(svc Services, now func() time.Time, opts ...Option) *Server {
	s := &Server{svc: svc, config: config{gameWait: kit.DefaultGameWait}}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.svc.Analysis == nil {
		s.svc.Analysis = analysis.New(svc.Games, svc.Games.Loader(), nil, nil) // refuses analyses, keeps no reviews
	}
	s.kit = kit.New(svc.Games, svc.Players, kit.Config{Now: now, Limits: s.limits, TrustProxy: s.trustProxy, BaseURL: s.baseURL, Log: s.log, GameWait: s.gameWait})
	s.streams = stream.New(s.streamLimits, s.kit.Games(), svc.Lobby)
	s.pages = pages.New(s.pagesDeps())
	return s
}

// Register adds every route and the shared middleware to e, and sets e's
// IPExtractor (the connection's address, or with WithTrustProxy the
// client X-Forwarded-For names) and its HTTPErrorHandler (the kit's).
func (s *Server) Register(e *echo.Echo) {
	if s.trustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	e.HTTPErrorHandler = s.kit.ErrorHandler(e.DefaultHTTPErrorHandler)
	e.Use(s.kit.Middleware()...)
	s.healthRoutes(e)
	s.pages.Register(e)
	g := e.Group("/api")
	api.Register(g, s.apiDeps())
	ld := lichess.Deps{Kit: s.kit, Players: s.svc.Players, Loader: s.svc.Games.Loader(), Streams: s.streams, Lobby: s.svc.Lobby}
	if s.svc.Challenges != nil {
		ld.Challenges = s.svc.Challenges
	}
	if s.svc.Chat != nil {
		ld.Chat = s.svc.Chat
	}
	lichess.Register(g, ld)
}

// WarnHostLinks logs a warning when the server, without a base URL,
// listens at addr, an address other machines reach: its absolute links
// then follow each request's Host header, which any client sets. At a
// loopback address only this machine can ask.
func (s *Server) WarnHostLinks(addr net.Addr) {
	if s.baseURL != "" {
		return
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		host = addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() || host == "localhost" {
		return
	}
	s.log.Warn("no --base-url: the watch and share links, the previews' images and the PGN's Site take each request's Host header, which any client sets; set --base-url to the address players use",
		"addr", addr.String())
}

// CloseStreams ends every open stream cleanly and returns once they have
// ended (see stream.Server.Close).
func (s *Server) CloseStreams() { s.streams.Close() }

// OpenStreams counts the streams open now.
func (s *Server) OpenStreams() int { return s.streams.Open() }

// pagesDeps are what the pages serve.
func (s *Server) pagesDeps() pages.Deps {
	images, err := boardimage.NewRenderer(static.FS, 0)
	if err != nil { // the embedded art is unreadable: serve all but images
		s.log.Error("position images are off", "err", err)
	}
	d := pages.Deps{Kit: s.kit, Loader: s.svc.Games.Loader(), Players: s.svc.Players, Lobby: s.svc.Lobby,
		Analysis: s.svc.Analysis, Streams: s.streams, Files: s.files, Images: images,
		ImagesPerSecond: s.limits.ImagesPerSecond, ImageBurst: s.limits.ImageBurst,
		Variants: views.VariantsOf(s.svc.Games.Loader().Variants(), engine.Supports)}
	if s.svc.Training != nil { // a nil *training.Service is no Training
		d.Training = s.svc.Training
	}
	if s.svc.Chat != nil {
		d.Chat = s.svc.Chat
	}
	if s.svc.Relations != nil {
		d.Relations = s.svc.Relations
	}
	if s.svc.Moderation != nil {
		d.Moderation = s.svc.Moderation
	}
	if s.svc.Tournaments != nil {
		d.Tournaments = s.svc.Tournaments
	}
	if s.svc.Challenges != nil {
		d.Challenges = s.svc.Challenges
	}
	if s.svc.Notify != nil {
		d.Notify = s.svc.Notify
	}
	return d
}

// apiDeps are what the API serves.
func (s *Server) apiDeps() api.Deps {
	d := api.Deps{Kit: s.kit, Loader: s.svc.Games.Loader(), Players: s.svc.Players, Lobby: s.svc.Lobby,
		Analysis: s.svc.Analysis, Streams: s.streams, BaseURL: s.baseURL}
	if s.svc.Training != nil { // a nil *training.Service is no Training
		d.Training = s.svc.Training
	}
	if s.svc.Chat != nil {
		d.Chat = s.svc.Chat
	}
	if s.svc.Relations != nil {
		d.Relations = s.svc.Relations
	}
	if s.svc.Tournaments != nil {
		d.Tournaments = s.svc.Tournaments
	}
	if s.svc.Notify != nil {
		d.Notify = s.svc.Notify
	}
	return d
}
