package kit

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// requestIDRE is the shape of a request id taken from a trusted proxy.
var requestIDRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID gives every request an id, in X-Request-Id on the response and
// in the request log: the proxy's, when the proxy is trusted and its id is
// plain, else a new random one. A client's own id is never believed, so it
// cannot write into the log. A new id is 16 characters (96 random bits:
// enough to tell requests apart, and short, as it goes with every answer).
func (k *Kit) requestID() echo.MiddlewareFunc {
	set := middleware.RequestIDWithConfig(middleware.RequestIDConfig{Generator: newRequestID})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := set(next)
		return func(c echo.Context) error {
			hdr := c.Request().Header
			if id := hdr.Get(echo.HeaderXRequestID); id != "" && (!k.fromProxy(c.Request()) || !requestIDRE.MatchString(id)) {
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
// logged, and static files served are logged at DEBUG.
func (k *Kit) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:  true, // let Echo's error handler set the status first
		LogMethod:    true,
		LogURIPath:   true,
		LogStatus:    true,
		LogLatency:   true,
		LogRequestID: true,
		LogRemoteIP:  true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			if v.URIPath == HealthPath && v.Status == http.StatusOK {
				return nil
			}
			level := slog.LevelInfo
			switch {
			case v.Status >= http.StatusInternalServerError:
				level = slog.LevelError
			case strings.HasPrefix(v.URIPath, "/static/") && v.Status < http.StatusBadRequest:
				level = slog.LevelDebug // a page view is one line, not one per asset
			}
			k.log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", TrimText(v.Method, 16)),
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

// LogFailure logs a failure of the server's own (not the client's), with
// the request's id so it can be matched with the request's log line. Game
// ids in its text are cut to a prefix (see redactIDs). A game that cannot
// be read is logged at its first failure only, not at every request for
// it; a request that was cancelled or waited too long is logged at INFO
// (the client went away) or WARN (the store was busy), not as an error.
func (k *Kit) LogFailure(c echo.Context, msg string, err error, attrs ...slog.Attr) {
	var rf *readFailure
	if errors.As(err, &rf) && !k.firstFailure(rf.id) {
		return
	}
	level := slog.LevelError
	switch e := ErrorOf(err); {
	case e.Detail == errs.Cancelled, e.Code == errs.Timeout:
		level = slog.LevelInfo
	case e.Code == errs.Unavailable:
		level = slog.LevelWarn
	}
	attrs = append([]slog.Attr{
		slog.String("err", redactIDs(err.Error(), requestIDs(c)...)),
		slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
	}, attrs...)
	k.log.LogAttrs(c.Request().Context(), level, msg, attrs...)
}

// idPrefix is how much of a game id the log keeps: enough to tell games
// apart when reading a log, far too little to play them.
const idPrefix = 6

// shortID is id as the log writes it: its first idPrefix characters and
// "…".
func ShortID(id string) string {
	if r := []rune(id); len(r) > idPrefix {
		return string(r[:idPrefix]) + "…"
	}
	return id
}

// gamePrefixes are the paths under which a path segment is a game id.
var gamePrefixes = []string{"/api/games/", "/g/"}

// logPath is path as the log writes it: a game id under /api/games/ or
// /g/ cut to its first characters, a reset link's token left out, and the
// whole at most 200 characters.
func logPath(path string) string {
	if strings.HasPrefix(path, "/reset/") {
		return "/reset/…" // a reset link's token is a secret
	}
	for _, prefix := range gamePrefixes {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok {
			continue
		}
		id, tail, _ := strings.Cut(rest, "/")
		if tail != "" || strings.HasSuffix(rest, "/") {
			tail = "/" + tail
		}
		path = prefix + ShortID(id) + tail
		break
	}
	return TrimText(path, 200)
}

// requestIDs are the game ids the request names: in its path, and in the
// form fields that name a game, when the form has been read.
func requestIDs(c echo.Context) []string {
	ids := []string{c.Param("id")}
	if f := c.Request().Form; f != nil {
		ids = append(ids, f.Get("game"), f.Get("back"))
	}
	if ck, err := c.Cookie(LegacyCookie); err == nil {
		ids = append(ids, ck.Value)
	}
	return ids
}

// idLikeRE matches what could be a game id in text: a run of the
// characters of a URL-safe base64 id (store.NewID makes 22), long enough.
var idLikeRE = regexp.MustCompile(`[A-Za-z0-9_-]{16,}`)

// redactIDs cuts the game ids in text, such as an error's, to a prefix:
// every occurrence of known (the ids the request names, whatever their
// shape), and every run that looks like a random id (16 or more id
// characters mixing lower case with upper case or digits), leaving words,
// snake_case names and constants such as SQLITE_BUSY whole.
func redactIDs(text string, known ...string) string {
	for _, id := range known {
		if len(id) > idPrefix && ValidID(id) {
			text = strings.ReplaceAll(text, id, ShortID(id))
		}
	}
	return idLikeRE.ReplaceAllStringFunc(text, func(run string) string {
		if strings.ContainsAny(run, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(run, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") {
			return ShortID(run)
		}
		return run
	})
}

// newRequestID is a new random request id: 12 random bytes in URL-safe
// base64, 16 characters.
func newRequestID() string {
	var b [12]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}
