package handlers

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
)

// Limits bound what one client may ask of the server. A zero field means no
// limit, so Limits{} switches every one off (as the load generator wants).
// Clients are told apart by IP address (IPv6 by its /64 prefix); see
// WithTrustProxy for clients behind a proxy.
type Limits struct {
	// PostsPerSecond is the steady rate of POST requests one client may
	// send, and PostBurst how many it may send at once (zero: twice the
	// rate). Over it: 429 with Retry-After.
	PostsPerSecond float64
	PostBurst      int
	// GamesPerMinute is how many games one client may create in a minute,
	// at once or spread out: new games, imports, links that open a game, a
	// first visit without one, and POST /api/games. Over it: 429 with
	// Retry-After.
	GamesPerMinute int
}

// DefaultLimits are the limits main serves with. Two people playing hot
// seat send a few POSTs a second at most and start a game every few
// minutes, far below them.
func DefaultLimits() Limits {
	return Limits{
		PostsPerSecond: 20,
		PostBurst:      40,
		GamesPerMinute: 30,
	}
}

// tooMany refuses a client that must wait: for wait, in whole seconds
// rounded up (the Retry-After it is answered with), which what, its
// message, is told.
func tooMany(wait time.Duration, detail games.Detail, what string) *games.Error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return &games.Error{Code: games.TooMany, Detail: detail, RetryAfter: time.Duration(secs) * time.Second,
		Msg: fmt.Sprintf("%s Please wait %d %s and try again.", what, secs, unit)}
}

// limitPosts refuses POSTs over the client's rate.
func (s *Server) limitPosts(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodPost {
			return next(c)
		}
		if wait := s.posts.take(clientKey(c.RealIP())); wait > 0 {
			return tooMany(wait, rateLimited,
				"This address has sent more requests than the server takes in a short time, so this one was refused and nothing changed.")
		}
		return next(c)
	}
}

// allowGame spends one of the games the client may create this minute, or
// returns the refusal (code TooMany) to answer with.
func (s *Server) allowGame(c echo.Context) error {
	if wait := s.created.take(clientKey(c.RealIP())); wait > 0 {
		return tooMany(wait, tooManyGames,
			fmt.Sprintf("This address has started %d games in the last minute, the most this server allows.", s.limits.GamesPerMinute))
	}
	return nil
}

// clientKey is what the rate limits count by: the IP address, or for IPv6
// its /64 prefix (one client often holds the whole prefix).
func clientKey(ip string) string {
	parsed := net.ParseIP(ip)
	if parsed == nil || parsed.To4() != nil {
		return ip
	}
	return parsed.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// rateLimiter is a token bucket per key. A bucket left alone long enough
// to fill up again is the same as a new one, so it is dropped: memory
// follows the number of clients seen in that time. A nil *rateLimiter
// limits nothing.
type rateLimiter struct {
	rate  float64       // tokens added a second
	burst float64       // tokens a bucket holds at most
	idle  time.Duration // time to fill an empty bucket
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time // when tokens was counted
}

// maxIdle caps the time a bucket is kept, for very slow rates.
const maxIdle = 24 * time.Hour

// newRateLimiter returns a limiter of perSecond tokens a second with room
// for burst (zero: twice the rate, at least one), or nil when perSecond is
// not a positive finite number.
func newRateLimiter(perSecond float64, burst int, now func() time.Time) *rateLimiter {
	if !(perSecond > 0) || math.IsInf(perSecond, 1) {
		return nil
	}
	if burst <= 0 {
		burst = max(1, int(math.Ceil(2*perSecond)))
	}
	idle := maxIdle
	if secs := float64(burst) / perSecond; secs < maxIdle.Seconds() {
		idle = time.Duration(secs * float64(time.Second))
	}
	return &rateLimiter{rate: perSecond, burst: float64(burst), idle: idle, now: now, buckets: map[string]bucket{}, swept: now()}
}

// take spends a token from key's bucket and returns 0, or, when the bucket
// has none, spends nothing and returns how long until it has one.
func (l *rateLimiter) take(key string) time.Duration {
	if l == nil {
		return 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) >= l.idle {
		l.sweep(now)
	}
	b, ok := l.buckets[key]
	switch {
	case !ok:
		b = bucket{tokens: l.burst, last: now}
	case now.After(b.last):
		b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
		b.last = now
	}
	var wait time.Duration
	if b.tokens >= 1 {
		b.tokens--
	} else {
		wait = min(maxIdle, max(1, time.Duration((1-b.tokens)/l.rate*float64(time.Second))))
	}
	l.buckets[key] = b
	return wait
}

// sweep drops the buckets that have filled up again.
func (l *rateLimiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if now.Sub(b.last) >= l.idle {
			delete(l.buckets, k)
		}
	}
	l.swept = now
}
