package kit

import (
	"compress/gzip"
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// fromProxy reports whether r came through a trusted proxy, whose headers
// (X-Forwarded-Proto, X-Request-Id) may be believed: WithTrustProxy is on
// and the connection is from a loopback, link-local or private address, the
// addresses Echo's X-Forwarded-For extractor trusts.
func (k *Kit) fromProxy(r *http.Request) bool {
	if !k.trustProxy {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsPrivate())
}

// Scheme is the Scheme the client used: https when the connection is TLS
// or when a trusted proxy says so (X-Forwarded-Proto and the like). Without
// a trusted proxy those headers are anyone's to send.
func (k *Kit) Scheme(c echo.Context) string {
	if c.Request().TLS != nil {
		return "https"
	}
	if k.fromProxy(c.Request()) {
		return c.Scheme()
	}
	return "http"
}

// maxBody is the largest request body accepted: room for a long PGN.
const MaxBody = 256 << 10

// contentSecurityPolicy allows only the server's own scripts, styles and
// images: no inline script, no inline style, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Middleware returns the middleware every route shares: a request id, the
// request log, panic recovery, security headers, compression, the answer
// to every failure after it (answerErrors), the Host check (with a base
// URL), the POST rate limit, the budget of reads, the client for the
// engine, a body limit and cross-origin POST protection.
func (k *Kit) Middleware() []echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return []echo.MiddlewareFunc{
		k.requestID(),
		k.requestLog(),
		middleware.Recover(),
		k.securityHeaders,
		compress(),
		k.boundGameWrites, // outside AnswerErrors: a refusal is answered within the bound
		k.AnswerErrors,
		k.checkHost,
		k.limitPosts,
		k.meterReads,
		searchClient,
		BodyLimit(MaxBody),
		crossOrigin(cop),
	}
}

// CompressMin is the smallest answer compressed as it is answered: whole
// pages and fragments (15 KB and more), not a ply's delta or an API answer
// (a few KB), for which gzip cost more CPU than it saves on a fast network
// (docs/performance.md: 140–200 µs more a ply on loopback).
const CompressMin = 8 << 10

// compressLevel is the gzip level of answers compressed as they are
// answered: the fastest, which cost less CPU under load than the default.
const compressLevel = gzip.BestSpeed

// compress gzips answers of compressMin bytes or more to clients that
// accept it (pages and fragments); static files come precompressed, and
// live streams (server-sent events, whose path ends in /events) go as
// they are: a gzip writer holds about a megabyte for as long as its
// answer lasts, which for a stream is hours, and a browser's EventSource
// accepts gzip. A stream's events are a revision or a game object, sent
// once each.
func compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     compressLevel,
		MinLength: CompressMin,
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return strings.HasPrefix(p, "/static/") || strings.HasSuffix(p, "/events")
		},
	})
}

// strictTransportSecurity tells a browser to reach the site only over
// HTTPS for a year. Not includeSubDomains: the server does not know
// what else is served under its host's name (served at the apex, that
// would be every subdomain of the domain); a proxy that does may add it.
const strictTransportSecurity = "max-age=31536000"

// securityHeaders sets the headers answers carry: every one nosniff, over
// HTTPS (TLS, or a trusted proxy's X-Forwarded-Proto: see Scheme)
// Strict-Transport-Security, and a document (a page, or an SVG image,
// which a browser may open as one) the policy of what it may load and
// run, and who may frame or open it. A fragment for htmx, an API answer,
// a stream or a file carries no more: the policy that governs them is the
// page's that asked for them, and the headers were a third of a ply's
// answer. Over plain HTTP no Strict-Transport-Security is sent: a browser
// ignores it there, and the server may well not be served over HTTPS.
func (k *Kit) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		h := res.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if k.Scheme(c) == "https" {
			h.Set("Strict-Transport-Security", strictTransportSecurity)
		}
		res.Before(func() {
			if isDocument(c) {
				h.Set("Content-Security-Policy", contentSecurityPolicy)
				h.Set("X-Frame-Options", "DENY")
				h.Set("Referrer-Policy", "same-origin")
				h.Set("Cross-Origin-Opener-Policy", "same-origin")
				h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
			}
		})
		return next(c)
	}
}

// isDocument reports whether c's answer is one a browser shows as a
// document: HTML that is not a fragment for htmx, or an SVG image.
func isDocument(c echo.Context) bool {
	ct := c.Response().Header().Get(echo.HeaderContentType)
	switch {
	case strings.HasPrefix(ct, "image/svg+xml"):
		return true
	case !strings.HasPrefix(ct, "text/html"):
		return false
	}
	return !IsHX(c)
}

// bodyLimit refuses bodies over limit bytes: at once when the length is
// declared, and on reading otherwise (http.MaxBytesError).
func BodyLimit(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.ContentLength > limit {
				return tooLarge(limit)
			}
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
			return next(c)
		}
	}
}

// crossOrigin refuses cross-site state-changing requests (by Sec-Fetch-Site
// or Origin). Requests without either header, as curl sends, pass: they are
// not from a browser.
func crossOrigin(cop *http.CrossOriginProtection) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return Titled("Cross-origin request refused", &errs.Error{Code: errs.Forbidden, Msg: "This request came from another site, so it was refused."})
			}
			return next(c)
		}
	}
}

// gameWritePaths start the paths of the POSTs that change or make games:
// a game's actions and forms, new games and imports, and the lobby's
// pairings (each starts a game).
var gameWritePaths = []string{"/g/", "/api/games", "/new", "/import", "/lobby/", "/api/seeks", "/api/pools/", "/api/board/game/", "/api/bot/game/"}

// boundGameWrites gives a request that changes or makes games the game
// wait (GameWait) to be served, as a read of a game has: its wait for the
// game's lock, the database's connections and its save end by then, and
// it is answered 503 busy, the game unchanged (a save is not begun past
// the deadline, and one under way is rolled back at it). Sign-ins and
// sign-ups, whose wait is for the password hasher, are not bounded here.
func (k *Kit) boundGameWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodPost && req.Method != http.MethodDelete || !gameWrite(req.URL.Path) {
			return next(c)
		}
		ctx, cancel := context.WithTimeout(req.Context(), k.games.wait)
		defer cancel()
		c.SetRequest(req.WithContext(ctx))
		return next(c)
	}
}

// gameWrite reports whether a POST to path changes or makes games.
func gameWrite(path string) bool {
	for _, p := range gameWritePaths {
		if strings.HasPrefix(path, p) || path == strings.TrimSuffix(p, "/") {
			return true
		}
	}
	return false
}
