package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// gameObject is a game as the API writes it (issue 4).
type gameObject struct {
	ID      string   `json:"id"`
	Variant string   `json:"variant"`
	FEN     string   `json:"fen"`
	Ply     int      `json:"ply"`
	Turn    string   `json:"turn"`
	Phase   string   `json:"phase"`
	Ban     *string  `json:"ban"`
	InCheck bool     `json:"inCheck"`
	Legal   []string `json:"legal"`
	Status  string   `json:"status"`
	Reason  string   `json:"reason"`
	Winner  string   `json:"winner"`
	Result  string   `json:"result"`
	Log     []string `json:"log"`
	PGN     string   `json:"pgn"`
}

// gameJSON describes g, stored under id; tags go to its PGN. Call it with
// the game's lock held.
func gameJSON(id string, g *rules.Game, tags ...rules.Tag) gameObject {
	turn, out := g.Turn(), g.Outcome()
	legal := make([]string, 0, 64)
	for _, a := range g.Legal() {
		legal = append(legal, a.String())
	}
	var ban *string
	if p, ok := g.Ban(); ok {
		s := p.String()
		ban = &s
	}
	log := g.Log()
	if log == nil {
		log = []string{}
	}
	return gameObject{
		ID:      id,
		Variant: g.Variant().ID(),
		FEN:     g.FEN(),
		Ply:     g.Ply(),
		Turn:    turn.Actor.String(),
		Phase:   turn.Phase.String(),
		Ban:     ban,
		InCheck: g.InCheck(),
		Legal:   legal,
		Status:  out.Status.String(),
		Reason:  out.Reason.String(),
		Winner:  out.Winner.String(),
		Result:  out.Result(),
		Log:     log,
		PGN:     g.PGN(tags...),
	}
}

// api serves the JSON API.
type api struct{ s *Server }

// apiRoutes adds the JSON API under g (mounted at /api).
func (s *Server) apiRoutes(g *echo.Group) {
	a := &api{s: s}
	// Use also routes every unknown path under /api through these, so its
	// 404 is JSON too.
	g.Use(s.apiErrors, apiHeaders, bodyLimit(maxBody))
	routes := []struct {
		method, path string
		h            echo.HandlerFunc
	}{
		{http.MethodPost, "/games", a.create},
		{http.MethodGet, "/games/:id", a.get},
		{http.MethodPost, "/games/:id/actions", a.action},
		{http.MethodPost, "/games/:id/undo", a.undo},
		{http.MethodPost, "/games/:id/resign", a.resign},
		{http.MethodPost, "/games/:id/draw", a.draw},
		{http.MethodGet, "/games/:id/pgn", a.pgn},
	}
	for _, r := range routes {
		g.Add(r.method, r.path, r.h)
	}
	// Every other path or method under /api, answered in JSON: Echo would
	// answer a wrong method (405) outside the group's middleware, and a
	// catch-all route takes precedence over its 405 anyway.
	notFound := func(c echo.Context) error {
		path := strings.TrimPrefix(c.Request().URL.Path, "/api")
		var allow []string
		for _, r := range routes {
			if pathMatches(r.path, path) {
				allow = append(allow, r.method)
			}
		}
		if len(allow) == 0 {
			return echo.ErrNotFound
		}
		c.Response().Header().Set("Allow", strings.Join(allow, ", "))
		return apiFail(http.StatusMethodNotAllowed, "method_not_allowed", "This address takes %s, not %s.", strings.Join(allow, " or "), trimText(c.Request().Method))
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

// apiError is a refused request: its status, and the body every API
// failure has.
type apiError struct {
	status int
	Msg    string `json:"error"` // a sentence a person understands
	Code   string `json:"code"`  // a short machine word
}

func (e *apiError) Error() string { return e.Msg }

// MarshalJSON writes the error body. Being a json.Marshaler also lets
// Echo's default error handler write an apiError carried in an
// *echo.HTTPError (see apiHTTPError) as it is.
func (e *apiError) MarshalJSON() ([]byte, error) {
	type body apiError
	return json.Marshal((*body)(e))
}

// apiHTTPError turns err into an *echo.HTTPError that Echo's default error
// handler writes in the API's shape: for middleware that refuses an /api
// request before the API's own middleware runs.
func apiHTTPError(err error) *echo.HTTPError {
	ae := toAPIError(err)
	return &echo.HTTPError{Code: ae.status, Message: ae}
}

func apiFail(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, Code: code, Msg: fmt.Sprintf(format, args...)}
}

// apiStatusCodes names the failures Echo and the shared middleware raise
// as HTTP statuses.
var apiStatusCodes = map[int]struct{ code, msg string }{
	http.StatusBadRequest:            {"bad_request", "The request could not be read."},
	http.StatusForbidden:             {"forbidden", "This request was refused."},
	http.StatusNotFound:              {"not_found", "There is nothing at this address: see the API's paths in the README."},
	http.StatusMethodNotAllowed:      {"method_not_allowed", "This address does not take this method."},
	http.StatusRequestEntityTooLarge: {"too_large", fmt.Sprintf("The request body is larger than the %d KiB this server accepts.", maxBody>>10)},
	http.StatusUnsupportedMediaType:  {"not_json", "The request body must be JSON (Content-Type: application/json)."},
	http.StatusInternalServerError:   {"internal", "Something went wrong on the server; the game is unchanged."},
}

// toAPIError turns any error a handler returns into an apiError.
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var le *limitError
	if errors.As(err, &le) {
		return apiFail(le.status, le.code, "%s", le.msg)
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return apiFail(http.StatusRequestEntityTooLarge, "too_large", "%s", apiStatusCodes[http.StatusRequestEntityTooLarge].msg)
	}
	if errors.Is(err, store.ErrNotFound) {
		return apiFail(http.StatusNotFound, "not_found", "There is no game with this id (games nobody has played for a long time are removed).")
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		sc, ok := apiStatusCodes[he.Code]
		if !ok {
			sc.code = strings.ReplaceAll(strings.ToLower(http.StatusText(he.Code)), " ", "_")
			sc.msg = http.StatusText(he.Code) + "."
		}
		if m, ok := he.Message.(string); ok && m != "" && m != http.StatusText(he.Code) {
			sc.msg = apiSentence(m)
		}
		return apiFail(he.Code, sc.code, "%s", sc.msg)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return apiFail(http.StatusServiceUnavailable, "cancelled", "The request was cancelled before it was served; the game is unchanged.")
	}
	return apiFail(http.StatusInternalServerError, "internal", "%s", apiStatusCodes[http.StatusInternalServerError].msg)
}

// apiErrors writes every failure under /api, including Echo's own and a
// panic, as {"error": …, "code": …}, and logs the server's own failures.
func (s *Server) apiErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("panic: %v", r)
			}
			if err == nil || c.Response().Committed {
				return
			}
			ae := toAPIError(err)
			if ae.status == http.StatusInternalServerError {
				s.logFailure(c, "request failed", err)
			}
			err = c.JSON(ae.status, ae)
		}()
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

// apiSentence capitalises msg when it starts with a word and ends it with a
// full stop.
func apiSentence(msg string) string {
	if len(msg) > 1 && msg[0] >= 'a' && msg[0] <= 'z' && msg[1] >= 'a' && msg[1] <= 'z' {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// pgnTags are the tags the API's PGN carries: today's date and the host the
// request named (or "banchess" when it named none we would print).
func (a *api) pgnTags(c echo.Context) []rules.Tag {
	site := c.Request().Host
	if !siteRE.MatchString(site) {
		site = "banchess"
	}
	return []rules.Tag{{Name: "Date", Value: a.s.now().Format("2006.01.02")}, {Name: "Site", Value: site}}
}

var siteRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]-]{1,255}$`)

// create starts a game: new, from a FEN, or from a PGN.
func (a *api) create(c echo.Context) error {
	f, err := readFields(c, "variant", "fen", "pgn")
	if err != nil {
		return err
	}
	_, hasFEN := f["fen"]
	_, hasPGN := f["pgn"]
	// No variant is Ban Chess, except that a PGN decides for itself.
	var v rules.Variant
	if id := f["variant"]; id != "" || !hasPGN {
		if v, err = variant(id); err != nil {
			return err
		}
	}
	var g *rules.Game
	switch {
	case hasFEN && hasPGN:
		return apiFail(http.StatusBadRequest, "fen_and_pgn", "Give a FEN or a PGN, not both.")
	case hasFEN:
		if err := a.s.limits.checkFEN(f["fen"]); err != nil {
			return apiFail(http.StatusBadRequest, "fen_too_long", "%s", apiSentence(err.Error()))
		}
		if g, err = rules.FromFEN(f["fen"], v); err != nil {
			return apiFail(http.StatusBadRequest, "bad_fen", "%s", apiSentence(err.Error()))
		}
	case hasPGN:
		if g, err = rules.FromPGN(f["pgn"], a.s.limits.pgnOptions(v)); err != nil {
			code := "bad_pgn"
			if errors.Is(err, rules.ErrTooManyPlies) {
				code = "too_many_plies"
			}
			return apiFail(http.StatusBadRequest, code, "%s", apiSentence(err.Error()))
		}
	default:
		g = rules.New(v)
	}
	if err := a.s.allowGame(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := a.s.store.Create(ctx, g)
	if err != nil {
		return err
	}
	var obj gameObject
	tags := a.pgnTags(c)
	if err := a.s.store.View(ctx, id, func(g *rules.Game) error {
		obj = gameJSON(id, g, tags...)
		return nil
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/games/"+id)
	return c.JSON(http.StatusCreated, obj)
}

// variant reads a variant id: "" is Ban Chess.
func variant(id string) (rules.Variant, error) {
	var ids []string
	for _, v := range rules.Variants() {
		if v.ID() == id {
			return v, nil
		}
		ids = append(ids, fmt.Sprintf("%q", v.ID()))
	}
	if id == "" {
		return rules.BanChess{}, nil
	}
	return nil, apiFail(http.StatusBadRequest, "bad_variant", "%q is not a variant: use %s.", trimText(id), strings.Join(ids, " or "))
}

// trimText shortens echoed input to max runes (32 when not given).
func trimText(s string, max ...int) string {
	n := 32
	if len(max) > 0 {
		n = max[0]
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// get answers the game.
func (a *api) get(c echo.Context) error {
	return a.view(c, func(*rules.Game) error { return nil })
}

// action plays one ban or move, written in BCN.
func (a *api) action(c echo.Context) error {
	f, err := readFields(c, "action")
	if err != nil {
		return err
	}
	text, ok := f["action"]
	if !ok {
		return apiFail(http.StatusBadRequest, "not_bcn", `The body names no action: send {"action":"b:e2e4"} (a ban) or {"action":"m:e2e4"} (a move).`)
	}
	act, err := rules.ParseAction(text)
	if err != nil {
		return apiRulesError(err)
	}
	return a.update(c, func(g *rules.Game) error { return g.Play(act) })
}

// undo takes back the last ply (or a resignation or agreed draw).
func (a *api) undo(c echo.Context) error {
	if _, err := readFields(c); err != nil {
		return err
	}
	return a.update(c, (*rules.Game).Undo)
}

// resign ends the game: the given side resigns.
func (a *api) resign(c echo.Context) error {
	f, err := readFields(c, "color")
	if err != nil {
		return err
	}
	var side rules.Color
	switch f["color"] {
	case "white":
		side = rules.White
	case "black":
		side = rules.Black
	default:
		if _, ok := f["color"]; !ok {
			return apiFail(http.StatusBadRequest, "bad_color", `Say who resigns: {"color":"white"} or {"color":"black"}.`)
		}
		return apiFail(http.StatusBadRequest, "bad_color", `%q is not a side: use "white" or "black".`, trimText(f["color"]))
	}
	return a.update(c, func(g *rules.Game) error { return g.Resign(side) })
}

// draw ends the game as a draw by agreement.
func (a *api) draw(c echo.Context) error {
	if _, err := readFields(c); err != nil {
		return err
	}
	return a.update(c, (*rules.Game).AgreeDraw)
}

// pgn answers the game as a PGN file.
func (a *api) pgn(c echo.Context) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	var text string
	if err := a.s.store.View(c.Request().Context(), id, func(g *rules.Game) error {
		text = g.PGN(tags...)
		return nil
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+id+`.pgn"`)
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(text))
}

// view runs fn on the game and answers it.
func (a *api) view(c echo.Context, fn func(*rules.Game) error) error {
	return a.with(c, a.s.store.View, fn)
}

// update runs fn on the game under its lock and answers the game after it;
// an error from fn leaves the game unchanged.
func (a *api) update(c echo.Context, fn func(*rules.Game) error) error {
	return a.with(c, a.s.store.Update, fn)
}

func (a *api) with(c echo.Context, op func(context.Context, string, func(*rules.Game) error) error, fn func(*rules.Game) error) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	var obj gameObject
	err := op(c.Request().Context(), id, func(g *rules.Game) error {
		if err := fn(g); err != nil {
			return apiRulesError(err)
		}
		obj = gameJSON(id, g, tags...)
		return nil
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, obj)
}

// apiRulesError maps a refusal from the rules to its status and code.
func apiRulesError(err error) error {
	msg := apiSentence(err.Error())
	switch {
	case errors.Is(err, rules.ErrSyntax):
		return apiFail(http.StatusBadRequest, "not_bcn", "%s", msg)
	case errors.Is(err, rules.ErrIllegal):
		return apiFail(http.StatusUnprocessableEntity, "illegal", "%s", msg)
	case errors.Is(err, rules.ErrGameOver):
		return apiFail(http.StatusConflict, "game_over", "%s", msg)
	case errors.Is(err, rules.ErrNothingToUndo):
		return apiFail(http.StatusConflict, "nothing_to_undo", "There is nothing to undo: the game is at its start.")
	}
	return err
}

// readFields reads a request body that is empty or a JSON object whose
// members, all strings, are among names (exact spelling, each at most once).
func readFields(c echo.Context, names ...string) (map[string]string, error) {
	r := c.Request()
	body, err := readAll(r)
	if err != nil {
		return nil, err
	}
	fields := map[string]string{}
	if len(strings.TrimSpace(string(body))) == 0 {
		return fields, nil
	}
	if ct := r.Header.Get(echo.HeaderContentType); !isJSONType(ct) {
		return nil, apiFail(http.StatusUnsupportedMediaType, "not_json", "The request body must be JSON, sent with Content-Type: application/json (it came as %q).", trimText(ct, 64))
	}
	return decodeFields(body, names)
}
