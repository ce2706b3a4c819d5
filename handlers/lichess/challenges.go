package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Challenges are the challenges as lichess's API serves them
// (challenges.Service).
type Challenges interface {
	Create(ctx context.Context, cred players.Credential, dest string, t challenges.Terms) (challenges.Challenge, error)
	CreateOpen(ctx context.Context, cred players.Credential, t challenges.Terms, name string) (challenges.Challenge, error)
	List(ctx context.Context, cred players.Credential) (challenges.Lists, error)
	Accept(ctx context.Context, cred players.Credential, id string) (challenges.Challenge, error)
	Decline(ctx context.Context, cred players.Credential, id, reason string) (challenges.Challenge, error)
	Cancel(ctx context.Context, cred players.Credential, id string) (challenges.Challenge, error)
	Changed(ctx context.Context, player string, since time.Time) ([]challenges.Challenge, error)
}

// challengesAPI serves lichess's challenges.
type challengesAPI struct{ s *deps }

// challengeScopes are the scopes that make and answer challenges:
// lichess's challenge:write, and a bot's bot:play (a bot answers its
// challenges with its one token).
func challengeScopes() []players.Scope {
	return []players.Scope{players.ChallengeWrite, players.BotPlay}
}

// readScopes are the scopes that list and cancel challenges: those, and
// a board's.
func readScopes() []players.Scope {
	return []players.Scope{players.ChallengeWrite, players.BotPlay, players.BoardPlay}
}

// register adds the challenges' routes to g.
func (a *challengesAPI) register(g *echo.Group) {
	g.GET("/challenge", a.list, lichessErrors)
	g.POST("/challenge/open", a.open, lichessErrors)
	g.POST("/challenge/:username", a.create, lichessErrors)
	g.POST("/challenge/:id/accept", a.accept, lichessErrors)
	g.POST("/challenge/:id/decline", a.decline, lichessErrors)
	g.POST("/challenge/:id/cancel", a.cancel, lichessErrors)
}

// challengeJSON is lichess's challenge object.
type challengeJSON struct {
	ID               string             `json:"id"`
	URL              string             `json:"url"`
	Status           string             `json:"status"`
	Challenger       challengeUser      `json:"challenger"`
	DestUser         *challengeUser     `json:"destUser"` // null: an open challenge not yet accepted
	Variant          kit.LichessVariant `json:"variant"`
	Rated            bool               `json:"rated"`
	Speed            string             `json:"speed"`
	TimeControl      timeControlJSON    `json:"timeControl"`
	Color            string             `json:"color"`      // the challenger's: white, black or random
	FinalColor       string             `json:"finalColor"` // the challenger's, random drawn once accepted
	Perf             perfJSON           `json:"perf"`
	Direction        string             `json:"direction,omitempty"` // in or out, for the caller
	InitialFen       string             `json:"initialFen,omitempty"`
	DeclineReason    string             `json:"declineReason,omitempty"`
	DeclineReasonKey string             `json:"declineReasonKey,omitempty"`
	GameID           string             `json:"gameId,omitempty"` // ours: the game an accepted challenge started
	// An open challenge's: its name, {} (lichess's open), and the links
	// that accept it as White and as Black.
	Name     string    `json:"name,omitempty"`
	Open     *struct{} `json:"open,omitempty"`
	URLWhite string    `json:"urlWhite,omitempty"`
	URLBlack string    `json:"urlBlack,omitempty"`
}

// challengeUser is a player as a challenge shows them.
type challengeUser struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Rating      int     `json:"rating,omitempty"`
	Title       *string `json:"title"`
	Provisional bool    `json:"provisional,omitempty"`
	Online      bool    `json:"online"`
}

// timeControlJSON is a challenge's clock: {"type":"clock",…},
// {"type":"correspondence","daysPerTurn":3} or {"type":"unlimited"}.
type timeControlJSON struct {
	Type        string `json:"type"`
	Limit       int64  `json:"limit,omitempty"`     // seconds
	Increment   *int64 `json:"increment,omitempty"` // seconds
	Show        string `json:"show,omitempty"`
	DaysPerTurn int    `json:"daysPerTurn,omitempty"`
}

// perfJSON names a challenge's rating.
type perfJSON struct {
	Icon string `json:"icon"`
	Name string `json:"name"`
}

// declineReason is lichess's sentence for its reason key.
func declineReason(key string) string {
	return map[string]string{
		"generic":     "I'm not accepting challenges at the moment.",
		"later":       "This is not the right time for me, please ask again later.",
		"tooFast":     "This time control is too fast for me, please challenge again with a slower game.",
		"tooSlow":     "This time control is too slow for me, please challenge again with a faster game.",
		"timeControl": "I'm not accepting challenges with this time control.",
		"rated":       "Please send me a rated challenge instead.",
		"casual":      "Please send me a casual challenge instead.",
		"standard":    "I'm not accepting variant challenges right now.",
		"variant":     "I'm not willing to play this variant right now.",
		"noBot":       "I'm not accepting challenges from bots.",
		"onlyBot":     "I'm only accepting challenges from bots.",
	}[key]
}

// challengeOf is c as lichess shows it to viewer (its direction; none
// for "").
func (s *deps) challengeOf(c challenges.Challenge, viewer, origin string, now time.Time) challengeJSON {
	v, err := s.loader.Variant(c.Variant)
	out := challengeJSON{ID: c.ID, URL: origin + "/challenges#" + c.ID, Status: string(c.StatusAt(now)),
		Challenger: userOf(c.Challenger), Rated: c.Rated, Speed: string(c.Speed()),
		Color: "random", FinalColor: "random", GameID: c.Game}
	if c.Dest.ID != "" {
		d := userOf(c.Dest)
		out.DestUser = &d
	}
	if c.Anyone {
		out.URL, out.Name, out.Open = origin+"/challenges/"+c.ID, c.Name, &struct{}{}
		out.URLWhite, out.URLBlack = out.URL+"?color=white", out.URL+"?color=black"
	}
	if err == nil {
		out.Variant = kit.LichessVariantOf(v)
		out.Perf = perfJSON{Name: v.Name()}
	}
	switch {
	case c.Clock.Unlimited():
		out.TimeControl = timeControlJSON{Type: "unlimited"}
	case c.Clock.Correspondence():
		out.TimeControl = timeControlJSON{Type: "correspondence", DaysPerTurn: c.Clock.Days}
	case c.Timed():
		inc := int64(c.Clock.Increment / time.Second)
		out.TimeControl = timeControlJSON{Type: "clock", Limit: int64(c.Clock.Initial / time.Second), Increment: &inc, Show: c.Clock.String()}
	default:
		out.TimeControl, out.Speed = timeControlJSON{Type: "unlimited"}, "correspondence"
	}
	if c.Color != 0 {
		out.Color, out.FinalColor = c.Color.String(), c.Color.String()
	}
	switch viewer {
	case c.Dest.ID:
		out.Direction = "in"
	case c.Challenger.ID:
		out.Direction = "out"
	}
	if c.FEN != "" {
		out.InitialFen = c.FEN
	}
	if c.Status == challenges.Declined {
		out.DeclineReasonKey, out.DeclineReason = c.Reason, declineReason(c.Reason)
	}
	return out
}

func userOf(s challenges.Side) challengeUser {
	u := challengeUser{ID: strings.ToLower(s.Name), Name: s.Name, Rating: s.Rating, Provisional: s.Provisional, Online: true}
	if s.Bot {
		bot := "BOT"
		u.Title = &bot
	}
	return u
}

// params reads a request's fields as lichess takes them: a form
// (application/x-www-form-urlencoded) or a JSON object, whose values
// become their text; the query's fields too, the body's first.
func params(c echo.Context) (url.Values, error) {
	out := url.Values{}
	for k, v := range c.QueryParams() {
		out[k] = v
	}
	r := c.Request()
	ct, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if ct != "application/json" {
		form, err := c.FormParams()
		if err != nil {
			return nil, kit.BodyError(err, "The request body could not be read as a form.")
		}
		for k, v := range form {
			out[k] = v
		}
		return out, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, kit.BodyError(err, "The request body could not be read.")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return out, nil
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, errs.Errorf(errs.Invalid, "The request body must be a form or a JSON object.").WithDetail(errs.BadJSON)
	}
	for k, v := range obj {
		switch v := v.(type) {
		case string:
			out.Set(k, v)
		case float64:
			out.Set(k, strconv.FormatFloat(v, 'f', -1, 64))
		case bool:
			out.Set(k, strconv.FormatBool(v))
		case map[string]any: // {"clock":{"limit":300}} as clock.limit
			for kk, vv := range v {
				out.Set(k+"."+kk, fmt.Sprint(vv))
			}
		}
	}
	return out, nil
}

// seconds reads a whole number of seconds from 0 to most.
func seconds(p url.Values, name string, most int) (time.Duration, error) {
	v := p.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > most {
		return 0, errs.Errorf(errs.Invalid, "%s must be a whole number of seconds from 0 to %d, not %q.", name, most, rules.Clip(v)).WithDetail(errs.BadClock)
	}
	return time.Duration(n) * time.Second, nil
}

// terms reads a challenge's terms from lichess's fields: rated,
// clock.limit and clock.increment (seconds; neither: no clock) or days
// (a correspondence game), color,
// variant (lichess's key: banchess, standard…), fen.
func (s *deps) terms(p url.Values) (challenges.Terms, error) {
	var t challenges.Terms
	switch r := p.Get("rated"); r {
	case "", "false":
	case "true":
		t.Rated = true
	default:
		return t, errs.Errorf(errs.Invalid, "rated must be true or false, not %q.", rules.Clip(r)).WithDetail(errs.BadRated)
	}
	if d := p.Get("days"); d != "" {
		// Correspondence: days a move, as lichess's days field (one of
		// games.CorrespondenceDays), and no clock fields with it.
		tc, _, err := games.ParseTimeControl(d + "d")
		if err != nil || !tc.Correspondence() || p.Has("clock.limit") || p.Has("clock.increment") {
			return t, errs.Errorf(errs.Invalid, "days must be one of %v (and no clock.limit with it), not %q.", games.CorrespondenceDays(), rules.Clip(d)).WithDetail(errs.BadClock)
		}
		t.Clock = tc
		return s.termsRest(p, t)
	}
	limit, err := seconds(p, "clock.limit", games.MaxInitialMinutes*60)
	if err != nil {
		return t, err
	}
	inc, err := seconds(p, "clock.increment", games.MaxIncrementSeconds)
	if err != nil {
		return t, err
	}
	if limit%time.Minute != 0 || p.Has("clock.limit") && limit == 0 {
		return t, errs.Errorf(errs.Invalid, "clock.limit must be whole minutes here (60, 180, 300…), not %s.", limit).WithDetail(errs.BadClock)
	}
	t.Clock = games.TimeControl{Initial: limit, Increment: inc}
	return s.termsRest(p, t)
}

// termsRest reads the terms besides the clock: color, variant, fen.
func (s *deps) termsRest(p url.Values, t challenges.Terms) (challenges.Terms, error) {
	t.Color, t.FEN = p.Get("color"), p.Get("fen")
	v, err := s.variantOf(p.Get("variant"))
	if err != nil {
		return t, err
	}
	t.Variant = v.ID()
	return t, nil
}

// create challenges the player of the path's name.
func (a *challengesAPI) create(c echo.Context) error {
	who, err := a.s.authorize(c, challengeScopes()...)
	if err != nil {
		return err
	}
	p, err := params(c)
	if err != nil {
		return err
	}
	t, err := a.s.terms(p)
	if err != nil {
		return err
	}
	ch, err := a.s.challenges.Create(c.Request().Context(), who.cred, c.Param("username"), t)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a.s.challengeOf(ch, who.player.ID, a.s.kit.Origin(c), a.s.kit.Now()))
}

// open makes the caller's open challenge (lichess's): to no one in
// particular, on the terms given (never rated) and named by name; the
// answer's url, urlWhite and urlBlack are the links that accept it.
func (a *challengesAPI) open(c echo.Context) error {
	who, err := a.s.authorize(c, challengeScopes()...)
	if err != nil {
		return err
	}
	p, err := params(c)
	if err != nil {
		return err
	}
	t, err := a.s.terms(p)
	if err != nil {
		return err
	}
	ch, err := a.s.challenges.CreateOpen(c.Request().Context(), who.cred, t, p.Get("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a.s.challengeOf(ch, who.player.ID, a.s.kit.Origin(c), a.s.kit.Now()))
}

// list answers the caller's open challenges, in and out.
func (a *challengesAPI) list(c echo.Context) error {
	who, err := a.s.authorize(c, readScopes()...)
	if err != nil {
		return err
	}
	l, err := a.s.challenges.List(c.Request().Context(), who.cred)
	if err != nil {
		return err
	}
	origin, now := a.s.kit.Origin(c), a.s.kit.Now()
	out := struct {
		In  []challengeJSON `json:"in"`
		Out []challengeJSON `json:"out"`
	}{In: []challengeJSON{}, Out: []challengeJSON{}}
	for _, ch := range l.In {
		out.In = append(out.In, a.s.challengeOf(ch, who.player.ID, origin, now))
	}
	for _, ch := range l.Out {
		out.Out = append(out.Out, a.s.challengeOf(ch, who.player.ID, origin, now))
	}
	return c.JSON(http.StatusOK, out)
}

// accept accepts the path's challenge: the game starts (gameStart on both
// players' streams of events).
func (a *challengesAPI) accept(c echo.Context) error {
	who, err := a.s.authorize(c, challengeScopes()...)
	if err != nil {
		return err
	}
	if _, err := a.s.challenges.Accept(c.Request().Context(), who.cred, c.Param("id")); err != nil {
		return err
	}
	return ok(c)
}

// decline declines the path's challenge, for the reason given (lichess's
// key; none: generic).
func (a *challengesAPI) decline(c echo.Context) error {
	who, err := a.s.authorize(c, challengeScopes()...)
	if err != nil {
		return err
	}
	p, err := params(c)
	if err != nil {
		return err
	}
	if _, err := a.s.challenges.Decline(c.Request().Context(), who.cred, c.Param("id"), p.Get("reason")); err != nil {
		return err
	}
	return ok(c)
}

// cancel cancels the caller's challenge of the path.
func (a *challengesAPI) cancel(c echo.Context) error {
	who, err := a.s.authorize(c, readScopes()...)
	if err != nil {
		return err
	}
	if _, err := a.s.challenges.Cancel(c.Request().Context(), who.cred, c.Param("id")); err != nil {
		return err
	}
	return ok(c)
}
