package handlers

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// requestIDRE is the shape of a request id taken from a trusted proxy.
var requestIDRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID gives every request an id, in X-Request-Id on the response and
// in the request log: the proxy's, when the proxy is trusted and its id is
// plain, else a new random one. A client's own id is never believed, so it
// cannot write into the log.
func (s *Server) requestID() echo.MiddlewareFunc {
	set := middleware.RequestID()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := set(next)
		return func(c echo.Context) error {
			hdr := c.Request().Header
			if id := hdr.Get(echo.HeaderXRequestID); id != "" && (!s.fromProxy(c.Request()) || !requestIDRE.MatchString(id)) {
				hdr.Del(echo.HeaderXRequestID)
			}
			return h(c)
		}
	}
}

// requestLog logs one line per request: method, path (without the query,
// and with API game ids cut to a prefix: an id is the key to its game),
// status, latency, request id and client IP. slog quotes every value, so
// user text in a path cannot forge a line. A healthy /healthz is not
// logged.
func (s *Server) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:  true, // let Echo's error handler set the status first
		LogMethod:    true,
		LogURIPath:   true,
		LogStatus:    true,
		LogLatency:   true,
		LogRequestID: true,
		LogRemoteIP:  true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			if v.URIPath == healthPath && v.Status == http.StatusOK {
				return nil
			}
			level := slog.LevelInfo
			if v.Status >= http.StatusInternalServerError {
				level = slog.LevelError
			}
			s.log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", trimText(v.Method, 16)),
				slog.String("path", logPath(v.URIPath)),
				slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency),
				slog.String("request_id", v.RequestID),
				slog.String("ip", v.RemoteIP),
			)
			return nil
		},
	})
}

// logFailure logs a failure of the server's own (not the client's), with
// the request's id so it can be matched with the request's log line.
func (s *Server) logFailure(c echo.Context, msg string, err error) {
	s.log.ErrorContext(c.Request().Context(), msg, "err", err,
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
}

// idPrefix is how much of a game id the log keeps: enough to tell games
// apart when reading a log, far too little to play them.
const idPrefix = 6

// logPath is path as the log writes it: a game id under /api/games/ cut to
// its first characters, and the whole at most 200 characters.
func logPath(path string) string {
	const games = "/api/games/"
	if rest, ok := strings.CutPrefix(path, games); ok {
		id, tail, _ := strings.Cut(rest, "/")
		if r := []rune(id); len(r) > idPrefix {
			id = string(r[:idPrefix]) + "…"
		}
		if tail != "" || strings.HasSuffix(rest, "/") {
			tail = "/" + tail
		}
		path = games + id + tail
	}
	return trimText(path, 200)
}
