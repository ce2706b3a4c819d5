package pages

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// lobbyRoutes adds the lobby: its page, the part of it that changes, its
// live stream, and its forms.
func (p *lobbyPages) lobbyRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/lobby", p.lobby)
	get("/lobby/list", p.lobbyList)
	e.GET("/lobby/events", p.lobbyEvents)
	e.POST("/lobby/seek", p.makeSeek)
	e.POST("/lobby/pool", p.joinPool)
	e.POST("/lobby/accept", p.acceptSeek)
	e.POST("/lobby/cancel", p.cancelSeek)
}

// lobbyPath is the lobby's address for a page that waits since now.
func (s *deps) lobbyPath() string {
	return "/lobby?since=" + strconv.FormatInt(s.now().UnixMilli(), 10)
}

// lobby shows the lobby. A viewer paired since the page's since goes to
// the game; one with a seek open is counted present (the page reloads
// itself without scripts, and holds a stream with them).
func (p *lobbyPages) lobby(c echo.Context) error {
	ctx := c.Request().Context()
	// The browser gets its player here, so that its seeks come back with
	// it (see seekingPlayer).
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return err
	}
	since := kit.LobbySince(c, p.s.now())
	if game, err := p.s.pairedGame(ctx, cred, since); err != nil || game != "" {
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, kit.GamePath(game))
	}
	l, err := p.lobbyView(ctx, cred, since, seekPageOf(c))
	if err != nil {
		return err
	}
	l.Choice = seekChoiceOf(c)
	if l.Waiting {
		if err := p.s.lobby.Touch(ctx, cred); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.LobbyPage(l))
}

// pairedGame returns the last game cred's player was paired into since
// since, or "".
func (s *deps) pairedGame(ctx context.Context, cred players.Credential, since time.Time) (string, error) {
	list, err := s.lobby.Pairings(ctx, cred, since)
	if err != nil || len(list) == 0 {
		return "", err
	}
	return list[len(list)-1].Game, nil
}

// lobbyList answers the part of the lobby that changes, for a live page.
func (p *lobbyPages) lobbyList(c echo.Context) error {
	l, err := p.lobbyView(c.Request().Context(), kit.Player(c), p.s.now(), seekPageOf(c))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LobbyLive(l))
}

// seekPageOf is the page of seeks a lobby request asks for (its query's
// page, from 1); a page that is not a number is the first.
func seekPageOf(c echo.Context) int {
	n, err := strconv.Atoi(c.QueryParam("page"))
	if err != nil {
		return 1
	}
	return n
}

// lobbyView describes the lobby for the viewer holding cred, with page n
// of the custom seeks (nearest the viewer's rating first).
func (p *lobbyPages) lobbyView(ctx context.Context, cred players.Credential, since time.Time, n int) (views.Lobby, error) {
	v, err := p.s.lobby.View(ctx)
	if err != nil {
		return views.Lobby{}, err
	}
	me, err := p.s.players.Identify(ctx, cred)
	if err != nil {
		return views.Lobby{}, err
	}
	l := views.Lobby{Asset: p.s.asset, Variants: p.s.lobbyVariants(), Named: me.Named(), Since: since.UnixMilli(), PoolVariant: p.s.lobby.PoolVariant().Name()}
	l.Events, l.Key = "/lobby/events?since="+l.SinceText(), lobbyKey(v)
	mine := map[string]string{}
	for _, k := range v.Of(me.ID) {
		mine[k.Pool] = k.ID
		l.Waiting = true
	}
	for _, pool := range lobby.Pools() {
		tc, _, _ := games.ParseTimeControl(pool)
		l.Pools = append(l.Pools, views.Pool{Name: pool, Speed: string(rating.SpeedOf(tc.Initial, tc.Increment)),
			Waiting: v.Waiting[pool], Seek: mine[pool]})
	}
	page, err := p.s.lobby.SeeksFor(ctx, v, me, n)
	if err != nil {
		return views.Lobby{}, err
	}
	for _, k := range page.Seeks {
		l.Seeks = append(l.Seeks, seekRow(k, me.ID))
	}
	l.SeekPage, l.SeekPages, l.SeekFrom, l.SeekTotal = page.Number, page.Pages, page.From, page.Total
	return l, nil
}

// lobbyVariants are the variants the server plays that the lobby plays.
func (s *deps) lobbyVariants() []views.Variant {
	var out []views.Variant
	for _, v := range s.variants {
		if s.lobby.Plays(v.ID) {
			out = append(out, v)
		}
	}
	return out
}

// seekRow describes seek k to the viewer, player me.
func seekRow(k lobby.Seek, me string) views.SeekRow {
	row := views.SeekRow{ID: k.ID, Name: k.Name, Variant: variantName(k.Variant), Clock: k.Clock.String(), Color: "random", Rated: k.Rated, Mine: k.Player == me}
	if k.Color != 0 {
		row.Color = k.Color.String()
	}
	row.Rating = games.Entrant{Name: k.Name, Rating: k.Rating, Provisional: k.Provisional}.RatingText()
	return row
}

// variantName is a variant's name, or its id when it has none.
func variantName(id string) string {
	if v, err := rules.VariantByID(id); err == nil {
		return v.Name()
	}
	return id
}

// SeekCookie remembers the settings of the browser's last seek, which
// the lobby's seek form shows chosen again (lichess keeps a player's
// last setup too). A preference, never a credential.
const SeekCookie = "banchess_seek"

// seekChoiceOf is what the browser's seek form shows chosen: its last
// seek's settings, as SeekCookie keeps them, or the defaults (rated,
// for a viewer who may play rated games).
func seekChoiceOf(c echo.Context) views.SeekChoice {
	choice := views.SeekChoice{Rated: true}
	ck, err := c.Cookie(SeekCookie)
	if err != nil {
		return choice
	}
	v, err := url.ParseQuery(ck.Value)
	if err != nil {
		return choice
	}
	return seekChoice(v)
}

// seekChoice reads a seek's settings from a seek form, or from
// SeekCookie.
func seekChoice(f url.Values) views.SeekChoice {
	rated, err := ratedField(f)
	return views.SeekChoice{Variant: f.Get("variant"), Clock: f.Get("clock"), Color: f.Get("color"), Rated: rated && err == nil}
}

// rememberSeek keeps the settings of seek form f in SeekCookie.
func (s *deps) rememberSeek(c echo.Context, f url.Values) {
	v := url.Values{}
	for _, k := range []string{"variant", "clock", "color"} {
		v.Set(k, kit.TrimText(f.Get(k)))
	}
	v.Set("rated", "0")
	if ch := seekChoice(f); ch.Rated {
		v.Set("rated", "1")
	}
	c.SetCookie(&http.Cookie{
		Name:     SeekCookie,
		Value:    v.Encode(),
		Path:     "/",
		MaxAge:   int(settingsMaxAge.Seconds()),
		HttpOnly: true,
		Secure:   s.kit.Scheme(c) == "https",
		SameSite: http.SameSiteLaxMode,
	})
}

// lobbyRefused shows the lobby again with the message of a refused form;
// its seek form shows choice chosen. A bound on the seeks from the
// client's address shows the lobby too: the seeks open are there to
// accept.
func (p *lobbyPages) lobbyRefused(c echo.Context, err error, choice views.SeekChoice) error {
	if !kit.ShowAgain(err) && kit.ErrorOf(err).Detail != errs.SeeksFromAddress {
		return err
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		l, lerr := p.lobbyView(c.Request().Context(), kit.Player(c), p.s.now(), seekPageOf(c))
		if lerr != nil {
			return lerr
		}
		l.Error, l.Choice = e.Msg, choice
		return render(c, status, views.LobbyPage(l))
	})
}

// makeSeek adds a custom seek: variant, clock, color, rated (1 or 0).
// The lobby's seek form then shows the same settings chosen (a refused
// seek's page too), for the next seek.
func (p *lobbyPages) makeSeek(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	choice := seekChoice(f)
	st := lobby.SeekSettings{Variant: f.Get("variant"), Clock: f.Get("clock"), Color: f.Get("color"), Address: kit.ClientKey(c.RealIP())}
	if st.Rated, err = ratedField(f); err != nil {
		return p.lobbyRefused(c, err, choice)
	}
	next := p.s.lobbyPath()
	cred, err := seekingPlayer(c)
	if err == nil {
		_, err = p.s.lobby.AddSeek(c.Request().Context(), cred, st)
	}
	if err != nil {
		return p.lobbyRefused(c, err, choice)
	}
	p.s.rememberSeek(c, f)
	return c.Redirect(http.StatusSeeOther, next)
}

// seekingPlayer is the credential of the browser making a seek: the
// player cookie the lobby's page set. A post without it is refused rather
// than given a new player: each such post would make one, and its seek,
// anew (issue 45: one address made 139 seeks in 5 s without a cookie).
func seekingPlayer(c echo.Context) (players.Credential, error) {
	if cred := kit.Player(c); cred != "" {
		return cred, nil
	}
	return "", errs.Errorf(errs.Unauthorized, "Your browser did not send back this site's cookie, so the lobby cannot tell who is seeking: allow cookies for this site, open the lobby again and seek from there.").WithDetail(errs.NoCookie)
}

// ratedField reads a form's rated: "1" (or "true", "on") or "0" (or
// "false", or nothing).
func ratedField(f url.Values) (bool, error) {
	switch v := f.Get("rated"); v {
	case "1", "true", "on":
		return true, nil
	case "", "0", "false":
		return false, nil
	default:
		return false, &errs.Error{Code: errs.Invalid, Detail: errs.BadRated, Msg: "\"" + kit.TrimText(v) + "\" is not a yes or no for rated: use 1 or 0."}
	}
}

// joinPool puts the browser's player in the pool the form names: to the
// game at once when someone waited there, else back to the lobby to wait.
func (p *lobbyPages) joinPool(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	next := p.s.lobbyPath()
	game, err := p.paired(c, func(ctx context.Context, cred players.Credential) (string, error) {
		game, _, err := p.s.lobby.JoinPool(ctx, cred, f.Get("pool"), kit.ClientKey(c.RealIP()))
		return game, err
	})
	if err != nil {
		return p.lobbyRefused(c, err, seekChoiceOf(c))
	}
	if game == "" {
		return c.Redirect(http.StatusSeeOther, next)
	}
	return c.Redirect(http.StatusSeeOther, kit.GamePath(game))
}

// paired runs pair, which may start a game, for the browser's player, when
// it may start one now.
func (p *lobbyPages) paired(c echo.Context, pair func(context.Context, players.Credential) (string, error)) (string, error) {
	if err := p.s.kit.AllowGame(c); err != nil {
		return "", err
	}
	cred, err := seekingPlayer(c)
	if err != nil {
		return "", err
	}
	return pair(c.Request().Context(), cred)
}

// acceptSeek accepts the seek the form names and goes to its game.
func (p *lobbyPages) acceptSeek(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	game, err := p.paired(c, func(ctx context.Context, cred players.Credential) (string, error) {
		return p.s.lobby.AcceptSeek(ctx, cred, f.Get("seek"))
	})
	if err != nil {
		return p.lobbyRefused(c, err, seekChoiceOf(c))
	}
	return c.Redirect(http.StatusSeeOther, kit.GamePath(game))
}

// cancelSeek removes the browser's player's seek the form names.
func (p *lobbyPages) cancelSeek(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	if err := p.s.lobby.CancelSeek(c.Request().Context(), kit.Player(c), f.Get("seek")); err != nil {
		return p.lobbyRefused(c, err, seekChoiceOf(c))
	}
	return c.Redirect(http.StatusSeeOther, "/lobby")
}
