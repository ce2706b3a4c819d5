package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
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

	// Who plays and what stands around the board.
	Mode     string      `json:"mode"`     // "hotseat", "invite" or "bot"
	Revision int64       `json:"revision"` // counts the game's changes
	Seats    seatsObject `json:"seats"`
	Clock    *clockJSON  `json:"clock"`   // null for a game without a clock
	Offers   offersJSON  `json:"offers"`  // pending offers, by side
	Rematch  *string     `json:"rematch"` // the rematch game's id, once accepted
	Bot      *botJSON    `json:"bot"`     // the computer's seat; null but at a game against it
}

// botJSON is the computer's seat: its side and level.
type botJSON struct {
	Color string `json:"color"`
	Level int    `json:"level"`
}

// seatsObject says which seats are taken.
type seatsObject struct {
	White bool `json:"white"`
	Black bool `json:"black"`
}

// clockJSON is a clock as it stands when the answer is written.
type clockJSON struct {
	White     int64   `json:"white"` // milliseconds left
	Black     int64   `json:"black"`
	Running   *string `json:"running"` // "white", "black", or null when stopped
	Initial   int64   `json:"initial"` // milliseconds
	Increment int64   `json:"increment"`
}

// offersJSON are the offers pending: each the side that made it, or null.
type offersJSON struct {
	Takeback *string `json:"takeback"`
	Draw     *string `json:"draw"`
	Rematch  *string `json:"rematch"`
}

// sideOrNull writes a side as "white" or "black", no side as null.
func sideOrNull(c rules.Color) *string {
	if c == 0 {
		return nil
	}
	s := c.String()
	return &s
}

// recordJSON describes the game rec holds, with its seats, clock and
// offers as they stand at now. Call it with the game's lock held.
func recordJSON(rec *games.Record, now time.Time, tags ...rules.Tag) gameObject {
	return recordSubset(rec, now, nil, tags...)
}

// recordSubset is recordJSON with only the members in want filled (nil:
// all; see gameSubset).
func recordSubset(rec *games.Record, now time.Time, want fieldSet, tags ...rules.Tag) gameObject {
	obj := gameSubset(rec.ID, rec.Game, want)
	if want.has("pgn") {
		obj.PGN = recordPGN(rec, tags...)
	}
	obj.Mode, obj.Revision = string(rec.Mode), rec.Revision
	obj.Seats = seatsObject{White: rec.White != "", Black: rec.Black != ""}
	obj.Offers = offersJSON{Takeback: sideOrNull(rec.Offers.Takeback), Draw: sideOrNull(rec.Offers.Draw), Rematch: sideOrNull(rec.Offers.Rematch)}
	if rec.Rematch != "" {
		obj.Rematch = &rec.Rematch
	}
	if b := rec.Bot; b != nil {
		obj.Bot = &botJSON{Color: b.Color.String(), Level: b.Level}
	}
	if rec.Clock != nil {
		cv := rec.Clock.At(now)
		obj.Clock = &clockJSON{White: cv.White.Milliseconds(), Black: cv.Black.Milliseconds(), Running: sideOrNull(cv.Running),
			Initial: cv.Control.Initial.Milliseconds(), Increment: cv.Control.Increment.Milliseconds()}
	}
	return obj
}

// gameSubset describes g, stored under id, with only the members in want
// filled (nil: all) but for its PGN, which recordSubset writes: the log,
// which grows with the game, only when asked for. Call it with the game's
// lock held.
func gameSubset(id string, g *rules.Game, want fieldSet) gameObject {
	turn, out := g.Turn(), g.Outcome()
	var legal []string
	if want.has("legal") {
		legal = make([]string, 0, 64)
		for _, a := range g.Legal() {
			legal = append(legal, a.String())
		}
	}
	var ban *string
	if p, ok := g.Ban(); ok {
		s := p.String()
		ban = &s
	}
	var log []string
	if want.has("log") {
		if log = g.Log(); log == nil {
			log = []string{}
		}
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
	}
}

// fieldSet is the game object's members a request asks for with
// ?fields=fen,legal (nil: all of them).
type fieldSet map[string]bool

func (f fieldSet) has(name string) bool { return f == nil || f[name] }

// member is one of the game object's members: its JSON name and value.
type member struct {
	name string
	get  func(*gameObject) any
}

// gameMembers are the game object's members, in its order (read-only).
var gameMembers = []member{
	{"id", func(o *gameObject) any { return o.ID }},
	{"variant", func(o *gameObject) any { return o.Variant }},
	{"fen", func(o *gameObject) any { return o.FEN }},
	{"ply", func(o *gameObject) any { return o.Ply }},
	{"turn", func(o *gameObject) any { return o.Turn }},
	{"phase", func(o *gameObject) any { return o.Phase }},
	{"ban", func(o *gameObject) any { return o.Ban }},
	{"inCheck", func(o *gameObject) any { return o.InCheck }},
	{"legal", func(o *gameObject) any { return o.Legal }},
	{"status", func(o *gameObject) any { return o.Status }},
	{"reason", func(o *gameObject) any { return o.Reason }},
	{"winner", func(o *gameObject) any { return o.Winner }},
	{"result", func(o *gameObject) any { return o.Result }},
	{"log", func(o *gameObject) any { return o.Log }},
	{"pgn", func(o *gameObject) any { return o.PGN }},
	{"mode", func(o *gameObject) any { return o.Mode }},
	{"revision", func(o *gameObject) any { return o.Revision }},
	{"seats", func(o *gameObject) any { return o.Seats }},
	{"clock", func(o *gameObject) any { return o.Clock }},
	{"offers", func(o *gameObject) any { return o.Offers }},
	{"rematch", func(o *gameObject) any { return o.Rematch }},
	{"bot", func(o *gameObject) any { return o.Bot }},
}

// fieldsOf reads the fields query parameter: a comma-separated list of the
// game object's members ("compact": all but log and pgn, which grow with
// the game); nil when absent.
func fieldsOf(c echo.Context) (fieldSet, error) {
	raw, ok := c.QueryParams()["fields"]
	if !ok {
		return nil, nil
	}
	want := fieldSet{}
	for _, v := range raw {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			switch {
			case name == "compact":
				for _, m := range gameMembers {
					want[m.name] = m.name != "log" && m.name != "pgn"
				}
			case slices.ContainsFunc(gameMembers, func(m member) bool { return m.name == name }):
				want[name] = true
			default:
				return nil, apiFail(http.StatusBadRequest, "bad_fields", "%q is not a member of the game object: ask for some of id, variant, fen, ply, turn, phase, ban, inCheck, legal, status, reason, winner, result, log, pgn, mode, revision, seats, clock, offers, rematch and bot, or for compact.", trimText(name))
			}
		}
	}
	return want, nil
}

// gameAnswer writes obj with only the members in want (all when nil).
func gameAnswer(c echo.Context, status int, obj gameObject, want fieldSet) error {
	if want == nil {
		return c.JSON(status, obj)
	}
	out := make(map[string]any, len(want))
	for _, m := range gameMembers {
		if want[m.name] {
			out[m.name] = m.get(&obj)
		}
	}
	return c.JSON(status, out)
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
		{http.MethodPost, "/games/:id/join", a.join},
		{http.MethodPost, "/games/:id/offers", a.offer},
		{http.MethodPost, "/games/:id/offers/accept", a.answerOffer(true)},
		{http.MethodPost, "/games/:id/offers/decline", a.answerOffer(false)},
		{http.MethodGet, "/games/:id/events", a.events},
		{http.MethodGet, "/games/:id/analysis", a.gameAnalysis},
		{http.MethodGet, "/analysis", a.analysis},
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
	var ge *games.Error
	if errors.As(err, &ge) {
		code := string(ge.Detail)
		if code == "" {
			code = string(ge.Code)
		}
		return apiFail(httpStatus(ge), code, "%s", ge.Msg)
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return apiFail(http.StatusRequestEntityTooLarge, "too_large", "%s", apiStatusCodes[http.StatusRequestEntityTooLarge].msg)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		sc, ok := apiStatusCodes[he.Code]
		if !ok {
			sc.code = strings.ReplaceAll(strings.ToLower(http.StatusText(he.Code)), " ", "_")
			sc.msg = http.StatusText(he.Code) + "."
		}
		if m, ok := he.Message.(string); ok && m != "" && m != http.StatusText(he.Code) {
			sc.msg = games.Sentence(m)
		}
		return apiFail(he.Code, sc.code, "%s", sc.msg)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return toAPIError(games.ErrorOf(err))
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
			retryLater(c, ae.status)
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

// pgnTags are the tags the API's PGN carries: today's date and the host of
// the base URL (WithBaseURL), else the host the request named (or
// "banchess" when it named none we would print).
func (a *api) pgnTags(c echo.Context) []rules.Tag {
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

// apiBot reads the member "bot", "color:level" (the object form
// {"color":…,"level":…} arrives so): the computer's colour and level.
func apiBot(v string) (*games.BotSettings, error) {
	color, level, _ := strings.Cut(v, ":")
	side, err := botColor(color)
	if err != nil {
		return nil, apiFail(http.StatusBadRequest, "bad_bot", "%s", games.ErrorOf(err).Msg)
	}
	n, err := parseBotLevel(level)
	if err != nil {
		return nil, apiFail(http.StatusBadRequest, "bad_level", "%s", games.ErrorOf(err).Msg)
	}
	return &games.BotSettings{Color: side.Other(), Level: n}, nil
}

var siteRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]-]{1,255}$`)

// createdGame is the answer to a new game: the game, and the token that
// holds its seats.
type createdGame struct {
	gameObject
	Token string `json:"token"`
	// Invite is the link that gives a game with a friend's free seat (a
	// browser opens it; a program joins with InviteCode), "" otherwise.
	Invite     string `json:"invite,omitempty"`
	InviteCode string `json:"inviteCode,omitempty"`
}

// create starts a game: new, from a FEN, or from a PGN. The caller's
// bearer token, if it sends one, holds the new game's seats; otherwise a
// new token does. Either way the answer carries it.
func (a *api) create(c echo.Context) error {
	f, err := readFields(c, "variant", "fen", "pgn", "mode", "color", "clock", "bot")
	if err != nil {
		return err
	}
	var settings games.InviteSettings
	var bot *games.BotSettings
	if v, ok := f["bot"]; ok {
		if bot, err = apiBot(v); err != nil {
			return err
		}
		if m := f["mode"]; m != "" && m != "bot" {
			return apiFail(http.StatusBadRequest, "bad_mode", `"bot" starts a game against the computer: send no "mode", or "mode":"bot".`)
		}
		f["mode"] = "bot"
	}
	switch f["mode"] {
	case "bot":
		if bot == nil {
			return apiFail(http.StatusBadRequest, "bad_bot", `A game against the computer needs "bot":{"color":"white"|"black","level":1..8}.`)
		}
		if _, ok := f["clock"]; ok {
			return apiFail(http.StatusBadRequest, "bad_mode", `"clock" is for a game with a friend: send "mode":"invite" with it.`)
		}
		if _, ok := f["color"]; ok {
			return apiFail(http.StatusBadRequest, "bad_mode", `Say the computer's colour in "bot", not "color".`)
		}
	case "", "hotseat":
		if _, ok := f["color"]; ok {
			return apiFail(http.StatusBadRequest, "bad_mode", `"color" is for a game with a friend: send "mode":"invite" with it.`)
		}
		if _, ok := f["clock"]; ok {
			return apiFail(http.StatusBadRequest, "bad_mode", `"clock" is for a game with a friend: send "mode":"invite" with it.`)
		}
	case "invite":
		switch v := f["color"]; v {
		case "", "random":
		case "white", "black":
			settings.Color, _ = rules.ParseColor(v)
		default:
			return apiFail(http.StatusBadRequest, "bad_color", `%q is not a colour to play: use "white", "black" or "random".`, trimText(v))
		}
		tc, ok, err := games.ParseTimeControl(f["clock"])
		if err != nil {
			return err
		}
		if ok {
			settings.Clock = &tc
		}
	default:
		return apiFail(http.StatusBadRequest, "bad_mode", `%q is not a mode: use "hotseat" (one token plays both sides), "invite" (a game with a friend or a program, who joins) or "bot" (against the computer).`, trimText(f["mode"]))
	}
	fen, hasFEN := f["fen"]
	pgn, hasPGN := f["pgn"]
	var g *rules.Game
	switch {
	case hasFEN && hasPGN:
		return apiFail(http.StatusBadRequest, "fen_and_pgn", "Give a FEN or a PGN, not both.")
	case hasFEN:
		g, err = a.s.games.FromFEN(fen, f["variant"])
	case hasPGN:
		g, err = a.s.games.FromPGN(pgn, f["variant"]) // no variant: the PGN decides
	default:
		g, err = a.s.games.NewGame(f["variant"])
	}
	if err != nil {
		return err
	}
	if err := a.s.allowGame(c); err != nil {
		return err
	}
	token := bearer(c)
	if !token.Valid() {
		token = games.NewCredential()
	}
	ctx := c.Request().Context()
	obj := createdGame{Token: string(token)}
	var id string
	switch f["mode"] {
	case "bot":
		id, _, err = a.s.games.CreateBot(ctx, token, g, *bot)
	case "invite":
		var code string
		id, code, _, err = a.s.games.CreateInvite(ctx, token, g, settings)
		obj.Invite = a.s.origin(c) + gamePath(id) + "?invite=" + code
		obj.InviteCode = code
	default:
		id, err = a.s.games.Create(ctx, token, g)
	}
	if err != nil {
		return err
	}
	tags := a.pgnTags(c)
	if err := a.s.games.View(ctx, id, token, func(rec *games.Record, _ games.Seats) {
		obj.gameObject = recordJSON(rec, a.s.now(), tags...)
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/games/"+id)
	return c.JSON(http.StatusCreated, obj)
}

// trimText shortens input that a message echoes to rules.MaxQuote
// characters, or to max when given, as for a log (see rules.ClipTo).
func trimText(s string, max ...int) string {
	if len(max) > 0 {
		return rules.ClipTo(s, max[0])
	}
	return rules.Clip(s)
}

// get answers the game.
func (a *api) get(c echo.Context) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	want, err := fieldsOf(c)
	if err != nil {
		return err
	}
	var obj gameObject
	if err := a.s.games.View(c.Request().Context(), id, "", func(rec *games.Record, _ games.Seats) {
		obj = recordSubset(rec, a.s.now(), want, tags...)
	}); err != nil {
		return err
	}
	return gameAnswer(c, http.StatusOK, obj, want)
}

// action plays one ban or move: BCN ("b:e2e4", "m:e7e8q"), or anything
// else the typed-input grammar reads (squares, SAN). "ply", when given,
// is the ply the client saw: a game that has moved on refuses (409).
func (a *api) action(c echo.Context) error {
	f, err := readFields(c, "action", "ply")
	if err != nil {
		return err
	}
	text, ok := f["action"]
	if !ok || strings.TrimSpace(text) == "" {
		return apiFail(http.StatusBadRequest, "not_bcn", `The body names no action: send {"action":"b:e2e4"} (a ban) or {"action":"m:e2e4"} (a move).`)
	}
	in := games.Input{Text: text}
	if v, ok := f["ply"]; ok {
		if in.Ply, err = strconv.Atoi(v); err != nil || in.Ply < 1 {
			return apiFail(http.StatusBadRequest, "bad_json", `"ply" must be a ply number (1 or more), the ply the client saw.`)
		}
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		return a.s.games.Play(ctx, id, cred, in, then)
	})
}

// undo takes back the last ply (or a resignation or agreed draw).
func (a *api) undo(c echo.Context) error {
	if _, err := readFields(c); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		_, err := a.s.games.Undo(ctx, id, cred, then)
		return err
	})
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
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		return a.s.games.Resign(ctx, id, cred, side, then)
	})
}

// draw ends the game as a draw by agreement.
func (a *api) draw(c echo.Context) error {
	if _, err := readFields(c); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		return a.s.games.Draw(ctx, id, cred, then)
	})
}

// pgn answers the game as a PGN file.
func (a *api) pgn(c echo.Context) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	var text string
	if err := a.s.games.View(c.Request().Context(), id, "", func(rec *games.Record, _ games.Seats) {
		text = recordPGN(rec, tags...)
	}); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="banchess-`+id+`.pgn"`)
	return c.Blob(http.StatusOK, "application/x-chess-pgn", []byte(text))
}

// write runs one change to the game in the path for the request's bearer
// token and answers the game after it, described under the same lock.
func (a *api) write(c echo.Context, change func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error) error {
	id, tags := c.Param("id"), a.pgnTags(c)
	want, err := fieldsOf(c)
	if err != nil {
		return err
	}
	var obj gameObject
	err = change(c.Request().Context(), id, bearer(c), func(rec *games.Record, _ games.Seats) {
		obj = recordSubset(rec, a.s.now(), want, tags...)
	})
	if err != nil {
		return err
	}
	return gameAnswer(c, http.StatusOK, obj, want)
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
		return nil, apiFail(http.StatusUnsupportedMediaType, "not_json", "The request body must be JSON, sent with Content-Type: application/json (it came as %q).", trimText(ct))
	}
	return decodeFields(body, names)
}
