package handlers

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// api serves the JSON API.
type api struct{ s *Server }

// apiRoutes adds the JSON API under g (mounted at /api).
func (s *Server) apiRoutes(g *echo.Group) {
	a := &api{s: s}
	// Use also routes every unknown path under /api through these, so its
	// 404 is JSON too.
	g.Use(s.answerErrors, apiHeaders, bodyLimit(maxBody))
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
			return apiNotFound()
		}
		c.Response().Header().Set("Allow", strings.Join(allow, ", "))
		return &games.Error{Code: methodNotAllowed, Msg: fmt.Sprintf("This address takes %s, not %s.", strings.Join(allow, " or "), trimText(c.Request().Method))}
	}
	g.RouteNotFound("", notFound)
	g.RouteNotFound("/*", notFound)
}

// apiNotFound refuses a path under /api that names nothing.
func apiNotFound() error {
	return &games.Error{Code: games.NotFound, Msg: "There is nothing at this address: see the API's paths in the README."}
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

var siteRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]-]{1,255}$`)

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
	return gameAnswer(c, obj, want)
}

// action plays one ban or move: BCN ("b:e2e4", "m:e7e8q"), or anything
// else the typed-input grammar reads (squares, SAN). "ply", when given,
// is the ply the client saw: a game that has moved on refuses (409).
func (a *api) action(c echo.Context) error {
	var req actionRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Action.val) == "" {
		return &games.Error{Code: games.Invalid, Detail: games.NotBCN, Msg: `The body names no action: send {"action":"b:e2e4"} (a ban) or {"action":"m:e2e4"} (a move).`}
	}
	in := games.Input{Text: req.Action.val}
	if req.Ply.ok {
		var err error
		if in.Ply, err = strconv.Atoi(string(req.Ply.val)); err != nil || in.Ply < 1 {
			return invalidJSON(`"ply" must be a ply number (1 or more), the ply the client saw.`)
		}
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		return a.s.games.Play(ctx, id, cred, in, then)
	})
}

// undo takes back the last ply (or a resignation or agreed draw).
func (a *api) undo(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		_, err := a.s.games.Undo(ctx, id, cred, then)
		return err
	})
}

// resign ends the game: the given side resigns.
func (a *api) resign(c echo.Context) error {
	var req resignRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	side, ok := colorField(req.Color.val, false)
	switch {
	case !req.Color.ok:
		return &games.Error{Code: games.Invalid, Detail: badColor, Msg: `Say who resigns: {"color":"white"} or {"color":"black"}.`}
	case !ok:
		return &games.Error{Code: games.Invalid, Detail: badColor, Msg: fmt.Sprintf(`%q is not a side: use "white" or "black".`, trimText(req.Color.val))}
	}
	return a.write(c, func(ctx context.Context, id string, cred games.Credential, then games.ViewFunc) error {
		return a.s.games.Resign(ctx, id, cred, side, then)
	})
}

// draw ends the game as a draw by agreement.
func (a *api) draw(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
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
	return gameAnswer(c, obj, want)
}

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

// member is one of the game object's members: its JSON name, and the
// index of its field.
type member struct {
	name  string
	field int
}

// gameMembers are the game object's members, in its order, as its struct
// tags name them (read-only).
var gameMembers = func() []member {
	t := reflect.TypeFor[gameObject]()
	ms := make([]member, t.NumField())
	for i := range ms {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		ms[i] = member{name: name, field: i}
	}
	return ms
}()

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
			case memberNamed(name):
				want[name] = true
			default:
				names := make([]string, len(gameMembers))
				for i, m := range gameMembers {
					names[i] = m.name
				}
				return nil, &games.Error{Code: games.Invalid, Detail: badFields,
					Msg: fmt.Sprintf("%q is not a member of the game object: ask for some of %s, or for compact.", trimText(name), strings.Join(names, ", "))}
			}
		}
	}
	return want, nil
}

// memberNamed reports whether the game object has a member of that name.
func memberNamed(name string) bool {
	for _, m := range gameMembers {
		if m.name == name {
			return true
		}
	}
	return false
}

// gameAnswer writes obj with only the members in want (all when nil).
func gameAnswer(c echo.Context, obj gameObject, want fieldSet) error {
	if want == nil {
		return c.JSON(http.StatusOK, obj)
	}
	v := reflect.ValueOf(obj)
	out := make(map[string]any, len(want))
	for _, m := range gameMembers {
		if want[m.name] {
			out[m.name] = v.Field(m.field).Interface()
		}
	}
	return c.JSON(http.StatusOK, out)
}

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
	var req createRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	mode, err := req.mode()
	if err != nil {
		return err
	}
	var g *rules.Game
	switch {
	case req.FEN.ok && req.PGN.ok:
		return &games.Error{Code: games.Invalid, Detail: fenAndPGN, Msg: "Give a FEN or a PGN, not both."}
	case req.FEN.ok:
		g, err = a.s.games.FromFEN(req.FEN.val, req.Variant.val)
	case req.PGN.ok:
		g, err = a.s.games.FromPGN(req.PGN.val, req.Variant.val) // no variant: the PGN decides
	default:
		g, err = a.s.games.NewGame(req.Variant.val)
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
	switch {
	case mode.bot != nil:
		id, _, err = a.s.games.CreateBot(ctx, token, g, *mode.bot)
	case mode.invite != nil:
		var code string
		id, code, _, err = a.s.games.CreateInvite(ctx, token, g, *mode.invite)
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

// gameMode is who plays a new game: a game with a friend (invite), one
// against the computer (bot), or, with neither, a hot-seat game.
type gameMode struct {
	invite *games.InviteSettings
	bot    *games.BotSettings
}

// mode reads who plays the game req creates: its "mode", and the members
// that go with one ("color" and "clock" with a friend, "bot" against the
// computer, which needs no "mode").
func (req *createRequest) mode() (gameMode, error) {
	only := func(format string, args ...any) (gameMode, error) {
		return gameMode{}, &games.Error{Code: games.Invalid, Detail: badMode, Msg: fmt.Sprintf(format, args...)}
	}
	if req.Bot.ok {
		bot, err := req.Bot.val.settings()
		switch {
		case err != nil:
			return gameMode{}, err
		case req.Mode.val != "" && req.Mode.val != "bot":
			return only(`"bot" starts a game against the computer: send no "mode", or "mode":"bot".`)
		case req.Clock.ok:
			return only(`"clock" is for a game with a friend: send "mode":"invite" with it.`)
		case req.Color.ok:
			return only(`Say the computer's colour in "bot", not "color".`)
		}
		return gameMode{bot: bot}, nil
	}
	switch req.Mode.val {
	case "bot":
		return gameMode{}, &games.Error{Code: games.Invalid, Detail: badBot, Msg: `A game against the computer needs "bot":{"color":"white"|"black","level":1..8}.`}
	case "", "hotseat":
		switch {
		case req.Color.ok:
			return only(`"color" is for a game with a friend: send "mode":"invite" with it.`)
		case req.Clock.ok:
			return only(`"clock" is for a game with a friend: send "mode":"invite" with it.`)
		}
		return gameMode{}, nil
	case "invite":
	default:
		return only(`%q is not a mode: use "hotseat" (one token plays both sides), "invite" (a game with a friend or a program, who joins) or "bot" (against the computer).`, trimText(req.Mode.val))
	}
	var settings games.InviteSettings
	var ok bool
	if settings.Color, ok = colorField(req.Color.val, true); !ok {
		return gameMode{}, &games.Error{Code: games.Invalid, Detail: badColor,
			Msg: fmt.Sprintf(`%q is not a colour to play: use "white", "black" or "random".`, trimText(req.Color.val))}
	}
	tc, ok, err := games.ParseTimeControl(req.Clock.val)
	if err != nil {
		return gameMode{}, err
	}
	if ok {
		settings.Clock = &tc
	}
	return gameMode{invite: &settings}, nil
}

// settings reads the computer's colour and level.
func (b botRequest) settings() (*games.BotSettings, error) {
	side, ok := colorField(string(b.Color.val), false)
	if !ok {
		return nil, &games.Error{Code: games.Invalid, Detail: badBot,
			Msg: fmt.Sprintf("%q is not the computer's colour: use white or black.", trimText(string(b.Color.val)))}
	}
	n, err := parseBotLevel(string(b.Level.val))
	if err != nil {
		return nil, err
	}
	return &games.BotSettings{Color: side.Other(), Level: n}, nil
}
