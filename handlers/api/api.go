// Package api serves the JSON API under /api: games and their actions,
// the lobby, accounts and tokens, puzzles, analysis and reviews, and the
// games' and lobby's event streams, every failure answered as
// {"error","code"} by the kit.
package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// The API's parts, one for each capability, each with what it serves.
type (
	gamesAPI    struct{ s *deps } // games: creating, reading, acting, offers, streams
	accountsAPI struct{ s *deps } // accounts, tokens and players
	lobbyAPI    struct{ s *deps } // seeks, pools and the lobby's stream
	puzzlesAPI  struct{ s *deps } // puzzles and attempts
	analysisAPI struct{ s *deps } // the engine's analysis and reviews
	chatAPI     struct{ s *deps } // the games' chat
)

// apiEndpoint is one of the API's routes: a method, a path, a handler.
type apiEndpoint struct {
	method, path string
	h            echo.HandlerFunc
}

// Register adds the JSON API under g (mounted at /api).
func Register(g *echo.Group, d Deps) {
	s := &deps{kit: d.Kit, games: d.Kit.Games(), loader: d.Loader, players: d.Players, lobby: d.Lobby, analysis: d.Analysis,
		training: d.Training, chat: d.Chat, relations: d.Relations, tournaments: d.Tournaments, streams: d.Streams, baseURL: d.BaseURL}
	s.inbox = d.Notify
	gm, acc, lb, pz, an, ch := &gamesAPI{s}, &accountsAPI{s}, &lobbyAPI{s}, &puzzlesAPI{s}, &analysisAPI{s}, &chatAPI{s}
	// Use also routes every unknown path under /api through these, so its
	// 404 is JSON too.
	g.Use(s.kit.AnswerErrors, apiHeaders, kit.BodyLimit(kit.MaxBody), unescapeParams)
	routes := []apiEndpoint{
		{http.MethodPost, "/games", gm.create},
		{http.MethodGet, "/games", gm.ongoing},
		{http.MethodGet, "/games/:id", gm.get},
		{http.MethodPost, "/games/:id/actions", gm.action},
		{http.MethodPost, "/games/:id/undo", gm.undo},
		{http.MethodPost, "/games/:id/resign", gm.resign},
		{http.MethodPost, "/games/:id/draw", gm.draw},
		{http.MethodPost, "/games/:id/abort", gm.abort},
		{http.MethodGet, "/games/:id/pgn", gm.pgn},
		{http.MethodPost, "/games/:id/join", gm.join},
		{http.MethodPost, "/games/:id/offers", gm.offer},
		{http.MethodPost, "/games/:id/offers/accept", gm.answerOffer(true)},
		{http.MethodPost, "/games/:id/offers/decline", gm.answerOffer(false)},
		{http.MethodGet, "/games/:id/events", gm.events},
		{http.MethodGet, "/games/:id/premove", gm.premove},
		{http.MethodPut, "/games/:id/premove", gm.setPremove},
		{http.MethodDelete, "/games/:id/premove", gm.cancelPremove},
		{http.MethodGet, "/games/:id/forecasts", gm.forecasts},
		{http.MethodPut, "/games/:id/forecasts", gm.setForecasts},
		{http.MethodPost, "/games/:id/forecasts", gm.setForecasts},
		{http.MethodGet, "/games/:id/chat", ch.lines},
		{http.MethodPost, "/games/:id/chat", ch.post},
		{http.MethodGet, "/games/:id/analysis", an.gameAnalysis},
		{http.MethodPost, "/games/:id/review", an.requestReview},
		{http.MethodGet, "/games/:id/review", an.gameReview},
		{http.MethodGet, "/analysis", an.analysis},
		{http.MethodPost, "/account", acc.register},
		{http.MethodGet, "/account", acc.account},
		{http.MethodPost, "/token", acc.newToken},
		{http.MethodDelete, "/token", acc.dropToken},
		{http.MethodPost, "/account/recovery-codes", acc.newRecoveryCodes},
		{http.MethodPost, "/account/recover", acc.recover},
		{http.MethodPost, "/account/delete", acc.deleteAccount},
		{http.MethodGet, "/players/:name", acc.playerPublic},
		{http.MethodGet, "/seeks", lb.seeks},
		{http.MethodPost, "/seeks", lb.addSeek},
		{http.MethodPost, "/seeks/:id/accept", lb.acceptSeek},
		{http.MethodDelete, "/seeks/:id", lb.cancelSeek},
		{http.MethodPost, "/pools/:pool", lb.joinPool},
		{http.MethodGet, "/lobby/events", lb.lobbyEvents},
	}
	routes = append(routes, pz.puzzleRoutes()...)
	routes = append(routes, (&runsAPI{pz}).runRoutes()...)
	routes = append(routes, (&relationsAPI{s}).relationRoutes()...)
	routes = append(routes, (&tournamentsAPI{s: s}).tournamentRoutes()...)
	routes = append(routes, (&notificationsAPI{s}).notificationRoutes()...)
	for _, r := range routes {
		g.Add(r.method, r.path, r.h)
	}
	// Every other path or method under /api, answered in JSON: Echo would
	// answer a wrong method (405) outside the group's middleware, and a
	// catch-all route takes precedence over its 405 anyway.
	notFound := func(c echo.Context) error {
		path := strings.TrimPrefix(c.Request().URL.Path, "/api")
		var allow []string
		// Every route under /api, this package's and lichess's alike.
		for _, r := range c.Echo().Routes() {
			pattern, ok := strings.CutPrefix(r.Path, "/api/")
			if ok && r.Method != echo.RouteNotFound && !slices.Contains(allow, r.Method) && pathMatches("/"+pattern, path) {
				allow = append(allow, r.Method)
			}
		}
		if len(allow) == 0 {
			return kit.APINotFound()
		}
		slices.Sort(allow) // Echo lists its routes in no fixed order
		c.Response().Header().Set("Allow", strings.Join(allow, ", "))
		return &errs.Error{Code: errs.MethodNotAllowed, Msg: fmt.Sprintf("This address takes %s, not %s.", strings.Join(allow, " or "), kit.TrimText(c.Request().Method))}
	}
	g.RouteNotFound("", notFound)
	g.RouteNotFound("/*", notFound)
}

// pathMatches reports whether path fits the route pattern, where a :name
// segment stands for any non-empty segment.
func pathMatches(pattern, path string) bool {
	ps, ss := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(ss) {
		return false
	}
	for i := range ps {
		if strings.HasPrefix(ps[i], ":") && ss[i] != "" || ps[i] == ss[i] {
			continue
		}
		return false
	}
	return true
}

// unescapeParams unescapes the path's parameters (a pool's name, a
// player's) when Echo took them from the path as it was sent: it routes on
// URL.RawPath when that is set, as it is when the path was escaped in a
// way of its own (/api/pools/3%2B2, pool 3+2); otherwise on URL.Path,
// unescaped already (/api/pools/3+2: in a path + is itself, not a space),
// which must not be unescaped twice (3%252B2 names "3%2B2", no pool).
// net/http has refused a path with a bad escape already; a parameter that
// still fails to unescape is left as it came, and refused as no such
// thing.
func unescapeParams(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().URL.RawPath == "" {
			return next(c)
		}
		vals := c.ParamValues()
		for i, v := range vals {
			if u, err := url.PathUnescape(v); err == nil {
				vals[i] = u
			}
		}
		c.SetParamValues(vals...)
		return next(c)
	}
}

// apiHeaders marks every API response as not to be cached: games change.
func apiHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// pgnTags are the tags the API's PGN carries: today's date and the host of
// the base URL (WithBaseURL), else the host the request named (or
// "banchess" when it named none we would print).
func (a *gamesAPI) pgnTags(c echo.Context) []rules.Tag {
	site := c.Request().Host
	if base, ok := strings.CutPrefix(a.s.baseURL, "https://"); ok {
		site = base
	} else if base, ok := strings.CutPrefix(a.s.baseURL, "http://"); ok {
		site = base
	}
	if !siteRE.MatchString(site) {
		site = "banchess"
	}
	return []rules.Tag{{Name: "Date", Value: a.s.now().Format("2006.01.02")}, {Name: "Site", Value: site}}
}

var siteRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]-]{1,255}$`)

// get answers the game.
func (a *gamesAPI) get(c echo.Context) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	want, err := fieldsOf(c)
	if err != nil {
		return err
	}
	var obj Game
	ctx := c.Request().Context()
	if err := a.s.games.View(ctx, id, "", func(rec *games.Record, _ games.Seats) {
		obj = rated(ctx, a.s.players, rec, tags, func(tags ...rules.Tag) Game { return recordSubset(rec, a.s.now(), want, tags...) })
	}); err != nil {
		return err
	}
	return gameAnswer(c, obj, want)
}

// action plays one ban or move: BCN ("b:e2e4", "m:e7e8q"), or anything
// else the typed-input grammar reads (squares, SAN). "ply", when given,
// is the ply the client saw: a game that has moved on refuses (409).
func (a *gamesAPI) action(c echo.Context) error {
	var req actionRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Action.val) == "" {
		return &errs.Error{Code: errs.Invalid, Detail: errs.NotBCN, Msg: `The body names no action: send {"action":"b:e2e4"} (a ban) or {"action":"m:e2e4"} (a move).`}
	}
	in := games.Input{Text: req.Action.val}
	if req.Ply.ok {
		var err error
		if in.Ply, err = strconv.Atoi(string(req.Ply.val)); err != nil || in.Ply < 1 {
			return invalidJSON(`"ply" must be a ply number (1 or more), the ply the client saw.`)
		}
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		return a.s.games.Play(ctx, id, cred, in, then)
	})
}

// undo takes back the last ply (or a resignation or agreed draw).
func (a *gamesAPI) undo(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		_, err := a.s.games.Undo(ctx, id, cred, func(_ games.Undone, rec *games.Record, seats games.Seats) { then(rec, seats) })
		return err
	})
}

// resign ends the game: the given side resigns.
func (a *gamesAPI) resign(c echo.Context) error {
	var req resignRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	side, ok := kit.ColorField(req.Color.val, false)
	switch {
	case !req.Color.ok:
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadColor, Msg: `Say who resigns: {"color":"white"} or {"color":"black"}.`}
	case !ok:
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadColor, Msg: fmt.Sprintf(`%q is not a side: use "white" or "black".`, kit.TrimText(req.Color.val))}
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		return a.s.games.Resign(ctx, id, cred, side, then)
	})
}

// abort calls a game between two players off, with no result.
func (a *gamesAPI) abort(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		return a.s.games.Abort(ctx, id, cred, then)
	})
}

// draw ends the game as a draw by agreement.
func (a *gamesAPI) draw(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error {
		return a.s.games.Draw(ctx, id, cred, then)
	})
}

// pgn answers the game as a PGN file.
func (a *gamesAPI) pgn(c echo.Context) error {
	id := c.Param("id")
	text, err := a.s.games.PGN(c.Request().Context(), id, "", a.s.analysis, a.s.players, a.pgnTags(c)...)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+id+`.pgn"`)
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(text))
}

// write runs one change to the game in the path for the request's bearer
// token and answers the game after it, described under the same lock.
func (a *gamesAPI) write(c echo.Context, change func(ctx context.Context, id string, cred players.Credential, then games.ViewFunc) error) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	want, err := fieldsOf(c)
	if err != nil {
		return err
	}
	var obj Game
	err = change(c.Request().Context(), id, kit.Bearer(c), func(rec *games.Record, _ games.Seats) {
		obj = recordSubset(rec, a.s.now(), want, tags...)
	})
	if e := errs.Of(err); err != nil && e.Code == errs.Conflict && e.Detail == "" {
		// Out of date (another ply came first): here is the game as it
		// stands, as the message says.
		if a.s.games.View(c.Request().Context(), id, kit.Bearer(c), func(rec *games.Record, _ games.Seats) {
			obj = recordSubset(rec, a.s.now(), want, tags...)
		}) == nil {
			return &kit.WithGame{Err: err, Game: gameValue(obj, want)}
		}
	}
	if err != nil {
		return err
	}
	return gameAnswer(c, obj, want)
}
