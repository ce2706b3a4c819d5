// Package kit is what every front end of the handlers shares: the one
// path by which a failure becomes an answer (WriteError, by the refusal's
// code), the middleware every route goes through (security headers,
// compression, the request log, rate limits, body limits, cross-origin
// protection), the player's credentials (the browser's cookie, an API
// client's bearer token), and reads of games that give up in time.
package kit

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/players"
)

// The paths the kit's middleware treats apart: static files and images
// are not rate limited as reads, and the health check is not logged when
// it passes.
const (
	StaticPrefix = "/static/"
	// ImagePrefix starts the address of a position's image: /img/{extended
	// FEN}.svg or .png, the FEN URL-escaped (or with its spaces as
	// underscores).
	ImagePrefix = "/img/"
	HealthPath  = "/healthz"
)

// Players are what the kit needs of the players service: whose a
// credential is, and a new player's credential for a browser without one.
type Players interface {
	PlayerID(ctx context.Context, cred players.Credential) (string, error)
	NewPlayer(ctx context.Context, kind players.CredentialKind) (players.Credential, players.Player, error)
}

// Kit holds what the front ends share.
type Kit struct {
	games      *Games
	players    Players
	now        func() time.Time
	limits     Limits
	trustProxy bool
	baseURL    string
	log        *slog.Logger
	posts      *ratelimit.Limiter // POSTs per client; nil: no limit
	created    *ratelimit.Limiter // games created per client; nil: no limit
	reads      *ratelimit.Limiter // plies replayed to read games, per client; nil: no limit
	// errorPage renders a refusal outside the API as a page (see
	// WithErrorPage); nil: a plain text answer.
	errorPage ErrorPage
	// errorWords says a refusal outside the API in the viewer's language
	// (see SetErrorWords); nil: its English message.
	errorWords ErrorWords

	failedMu sync.Mutex
	failed   map[string]bool // games whose read failure was logged
}

// ErrorPage renders refusal e, a request's outside the API, as a page of
// status under title (a page's own, or "" for the refusal's).
type ErrorPage func(c echo.Context, status int, e *errs.Error, title string) error

// Config is what a Kit is made with.
type Config struct {
	Now        func() time.Time // nil: time.Now
	Limits     Limits
	TrustProxy bool
	// BaseURL is scheme://host for absolute links, and the only host
	// requests may name (but /healthz); "": the request's, any.
	BaseURL string
	Log     *slog.Logger // nil: nothing is logged
	// GameWait bounds how long a request waits to read games (see Games);
	// 0 is DefaultGameWait.
	GameWait time.Duration
}

// New returns the kit of the front ends of games and players.
func New(svc *games.Service, players Players, c Config) *Kit {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.GameWait <= 0 {
		c.GameWait = DefaultGameWait
	}
	l := c.Limits
	return &Kit{
		games:      &Games{Service: svc, wait: c.GameWait},
		players:    players,
		now:        c.Now,
		limits:     l,
		trustProxy: c.TrustProxy,
		baseURL:    c.BaseURL,
		log:        c.Log,
		posts:      ratelimit.New(l.PostsPerSecond, float64(l.PostBurst), c.Now),
		created:    ratelimit.New(float64(l.GamesPerMinute)/60, float64(l.GamesPerMinute), c.Now),
		reads:      ratelimit.New(l.ReadPliesPerSecond, float64(l.ReadPlyBurst), c.Now),
		failed:     map[string]bool{},
	}
}

// SetErrorPage makes refusals outside the API answered by page.
func (k *Kit) SetErrorPage(page ErrorPage) { k.errorPage = page }

// ErrorWords is refusal e's message in the language of request c's
// viewer (the English message when no translation has it).
type ErrorWords func(c echo.Context, e *errs.Error) string

// SetErrorWords makes refusals outside the API worded by words: the one
// place a refusal shown to people is translated (the API's stay English).
func (k *Kit) SetErrorWords(words ErrorWords) { k.errorWords = words }

// Games returns the games service as the front ends read it: reads give
// up after the game wait.
func (k *Kit) Games() *Games { return k.games }

// Now is the time on the kit's clock.
func (k *Kit) Now() time.Time { return k.now() }

// Log is where the kit logs.
func (k *Kit) Log() *slog.Logger { return k.log }
