package handlers

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/views"
)

// maxBody is the largest request body accepted: room for a long PGN.
const maxBody = 256 << 10

// contentSecurityPolicy allows only the server's own scripts, styles and
// images: no inline script, no inline style, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// middleware returns the middleware every route shares: a request id, the
// request log, panic recovery, security headers, the POST rate limit, a body limit and cross-origin POST
// protection.
func (s *Server) middleware() []echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return []echo.MiddlewareFunc{
		s.requestID(),
		s.requestLog(),
		middleware.Recover(),
		securityHeaders,
		compress(),
		s.limitPosts,
		bodyLimit(maxBody),
		crossOrigin(cop),
	}
}

// compressMin is the smallest answer compressed as it is answered: whole
// pages and fragments (15 KB and more), not a ply's delta or an API answer
// (a few KB), for which gzip cost more CPU than it saves on a fast network
// (docs/performance.md: 140–200 µs more a ply on loopback).
const compressMin = 8 << 10

// compressLevel is the gzip level of answers compressed as they are
// answered: the fastest, which cost less CPU under load than the default.
const compressLevel = gzip.BestSpeed

// compress gzips answers of compressMin bytes or more to clients that
// accept it (pages and fragments); static files come precompressed.
func compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     compressLevel,
		MinLength: compressMin,
		Skipper:   func(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/static/") },
	})
}

// securityHeaders sets the headers every response carries.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		return next(c)
	}
}

// bodyLimit refuses bodies over limit bytes: at once when the length is
// declared, and on reading otherwise (http.MaxBytesError).
func bodyLimit(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.ContentLength > limit {
				return refuse(c, http.StatusRequestEntityTooLarge, "Request too large",
					fmt.Sprintf("The request body is larger than the %d KiB this server accepts.", limit>>10))
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
				return refuse(c, http.StatusForbidden, "Cross-origin request refused",
					"This request came from another site, so it was refused.")
			}
			return next(c)
		}
	}
}

// isAPI reports whether the request is for the JSON API, whose errors are
// JSON (by Echo's error handler) rather than pages.
func isAPI(c echo.Context) bool {
	p := c.Request().URL.Path
	return p == "/api" || strings.HasPrefix(p, "/api/")
}

// refuse answers a request the server will not serve: JSON for the API, an
// HTML error page (or fragment, for htmx) otherwise. A 503 says when to
// try again (Retry-After).
func refuse(c echo.Context, status int, title, msg string) error {
	retryLater(c, status)
	if isAPI(c) {
		return apiHTTPError(echo.NewHTTPError(status, msg))
	}
	if isHX(c) {
		return render(c, status, views.ErrorMain(title, msg))
	}
	return render(c, status, views.ErrorPage(title, msg, assetVersion()))
}

// refuseError answers a refusal raised outside a handler's own flow (a
// limit in middleware): JSON for the API, a page otherwise.
func refuseError(c echo.Context, e *games.Error) error {
	if isAPI(c) {
		return apiHTTPError(e)
	}
	return refuse(c, httpStatus(e), errorTitle(e), e.Msg)
}

// formError explains an error from parsing a form.
func formError(err error) *games.Error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &games.Error{Code: games.Invalid, Detail: "too_large", Msg: fmt.Sprintf("The request body is larger than the %d KiB this server accepts.", maxBody>>10)}
	}
	if bodyTimedOut(err) {
		return &games.Error{Code: games.Invalid, Detail: "timeout", Msg: slowBodyMsg, Err: err}
	}
	return &games.Error{Code: games.Invalid, Msg: "The form could not be read: " + err.Error()}
}

// slowBodyMsg answers a request whose body did not arrive in time.
const slowBodyMsg = "The request did not arrive in time (the connection was too slow or stalled), so nothing changed. Please try again."

// bodyTimedOut reports whether err, from reading a request's body, is the
// server giving up on it: the connection's read deadline (the server's
// ReadTimeout) passed, or the request was cancelled meanwhile. The client
// is slow or gone, and the answer is 408, not a server failure.
func bodyTimedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// errorHandler answers the errors no handler answered itself (Echo's own,
// such as a wrong method, and any a handler returns unexplained): outside
// /api as an HTML page, where Echo would write JSON, and under /api as def
// does. A request whose body timed out is 408; any other error that is not
// an HTTP status is the server's failure, and logged.
func (s *Server) errorHandler(def echo.HTTPErrorHandler) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		if isAPI(c) {
			def(err, c)
			return
		}
		status, title, msg := http.StatusInternalServerError, "Something went wrong", "Something went wrong on the server; nothing changed. Please try again."
		var he *echo.HTTPError
		switch {
		case errors.As(err, &he):
			status, title, msg = he.Code, http.StatusText(he.Code), "This request was refused."
			if m, ok := he.Message.(string); ok && m != "" && m != http.StatusText(he.Code) {
				msg = games.Sentence(m)
			}
		case bodyTimedOut(err):
			status, title, msg = http.StatusRequestTimeout, "Request timed out", slowBodyMsg
		default:
			s.logFailure(c, "request failed", err)
		}
		if rerr := refuse(c, status, title, msg); rerr != nil {
			def(err, c)
		}
	}
}
