package kit

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/labstack/echo/v4"
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
	// ImagesPerSecond is the steady rate of position images (/img/…) one
	// client may ask for, and ImageBurst how many at once (zero: twice the
	// rate). Over it: 429 with Retry-After.
	ImagesPerSecond float64
	ImageBurst      int
	// ReadPliesPerSecond is what one client's requests may cost in reads
	// of games not in memory, in plies replayed a second (a game is read
	// back by replaying it, about 7 µs a ply), and ReadPlyBurst how many
	// at once (zero: twice the rate). A request is refused (429 with
	// Retry-After) while its client is over; what it read is counted
	// after it. Games in memory cost nothing.
	ReadPliesPerSecond float64
	ReadPlyBurst       int
}

// DefaultLimits are the limits main serves with. Two people playing hot
// seat send a few POSTs a second at most and start a game every few
// minutes, far below them.
func DefaultLimits() Limits {
	return Limits{
		PostsPerSecond:  20,
		PostBurst:       40,
		GamesPerMinute:  30,
		ImagesPerSecond: 5,
		ImageBurst:      30,
		// 20,000 plies a second is about 14% of a core; 60,000 at once,
		// thirty games of 2,000 plies read back.
		ReadPliesPerSecond: 20_000,
		ReadPlyBurst:       60_000,
	}
}

// tooMany refuses a client that must wait: for wait, in whole seconds
// rounded up (the Retry-After it is answered with), which what, its
// message, is told.
func TooMany(wait time.Duration, detail errs.Detail, what string) *errs.Error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return &errs.Error{Code: errs.TooMany, Detail: detail, RetryAfter: time.Duration(secs) * time.Second,
		Msg: fmt.Sprintf("%s Please wait %d %s and try again.", what, secs, unit)}
}

// limitPosts refuses POSTs over the client's rate.
func (k *Kit) limitPosts(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodPost {
			return next(c)
		}
		if wait := k.posts.Take(ClientKey(c.RealIP()), 1); wait > 0 {
			return TooMany(wait, errs.RateLimited,
				"This address has sent more requests than the server takes in a short time, so this one was refused and nothing changed.")
		}
		return next(c)
	}
}

// AllowGame spends one of the games the client may create this minute, or
// returns the refusal (code TooMany) to answer with.
func (k *Kit) AllowGame(c echo.Context) error {
	if wait := k.created.Take(ClientKey(c.RealIP()), 1); wait > 0 {
		return TooMany(wait, errs.TooManyGames,
			fmt.Sprintf("This address has started %d games in the last minute, the most this server allows.", k.limits.GamesPerMinute))
	}
	return nil
}

// RematchAllowance spends one of the games the client may start this
// minute on a request that accepts a rematch (accepts) — its answer, or an
// offer of one the opponent made already — so that a chain of resign,
// offer, accept is bounded as new games are. It returns then wrapped to
// note whether the game has a rematch afterwards, and settle, to call once
// the request is done, which gives the game back when none was started.
func (k *Kit) RematchAllowance(c echo.Context, offer games.Offer, accepts bool, then games.ViewFunc) (games.ViewFunc, func(), error) {
	if offer != games.OfferRematch || !accepts {
		return then, func() {}, nil
	}
	if err := k.AllowGame(c); err != nil {
		return nil, nil, err
	}
	started := false
	noting := func(rec *games.Record, seats games.Seats) {
		started = rec.Rematch != ""
		if then != nil {
			then(rec, seats)
		}
	}
	key := ClientKey(c.RealIP())
	return noting, func() {
		if !started {
			k.created.Refund(key, 1)
		}
	}, nil
}

// AcceptsOffer reports whether cred's offer of offer in game id accepts
// the one its opponent has made (see games.Service.MakeOffer).
func (k *Kit) AcceptsOffer(ctx context.Context, id string, cred players.Credential, offer games.Offer) bool {
	accepts := false
	k.games.View(ctx, id, cred, func(rec *games.Record, seats games.Seats) {
		by := rec.Offers.Rematch
		accepts = offer == games.OfferRematch && by != 0 && seats.Any() && !seats.Has(by)
	})
	return accepts
}

// clientKey is what the rate limits count by: the IP address, or for IPv6
// its /64 prefix (one client often holds the whole prefix).
func ClientKey(ip string) string {
	parsed := net.ParseIP(ip)
	if parsed == nil || parsed.To4() != nil {
		return ip
	}
	return parsed.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// searchClient names the request's client (clientKey) on its context for
// the engine, which shares its workers fairly among clients and bounds
// each one's analyses (engine.WithClient): an analysis asked for, and the
// computer's ply a request makes due, count as the client's. Static files
// and images search nothing.
func searchClient(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if p := r.URL.Path; !strings.HasPrefix(p, StaticPrefix) && !strings.HasPrefix(p, ImagePrefix) {
			c.SetRequest(r.WithContext(engine.WithClient(r.Context(), ClientKey(c.RealIP()))))
		}
		return next(c)
	}
}

// meterReads charges each request's reads of games not in memory to its
// client's budget (Limits.ReadPliesPerSecond), and refuses the requests of
// a client over it: one reading long games in rotation would otherwise
// replay them as fast as it asks.
func (k *Kit) meterReads(next echo.HandlerFunc) echo.HandlerFunc {
	if k.reads == nil {
		return next
	}
	return func(c echo.Context) error {
		r := c.Request()
		if p := r.URL.Path; strings.HasPrefix(p, StaticPrefix) || strings.HasPrefix(p, ImagePrefix) || p == HealthPath {
			return next(c)
		}
		key := ClientKey(c.RealIP())
		if wait := k.reads.Take(key, 0); wait > 0 {
			return TooMany(wait, errs.TooManyReads, "This address has asked for more long games not in the server's memory than it reads for one client in a short time.")
		}
		m := &games.ReadMeter{}
		c.SetRequest(r.WithContext(games.WithReadMeter(r.Context(), m)))
		err := next(c)
		k.reads.Charge(key, float64(m.Plies()))
		return err
	}
}
