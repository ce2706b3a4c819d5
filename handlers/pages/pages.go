package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// listSize is how many of a browser's games its list shows.
const listSize = 20

// pages serves the playground: full pages for plain forms (Post/Redirect/
// Get) and #game fragments for htmx requests. Every game has its own
// address, /g/{id}; the forms that act on it post under that address.
type pages struct {
	s     *deps
	files *StaticFiles
}

// pageRoutes adds the playground's pages and fragments.
func (s *deps) pageRoutes(e *echo.Echo) {
	p := &pages{s: s, files: s.files}
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/", p.index)
	e.POST("/new", p.newGame)
	e.POST("/import", p.importGame)
	get("/g/:id", p.onGame(p.game))
	get("/g/:id/delta", p.delta)
	get("/g/:id/export", p.export)
	get("/g/:id/history/:index", p.history)
	get("/g/:id/pgn", p.downloadPGN)
	get("/g/:id/analysis", p.analysisPage)
	get("/g/:id/edit", p.editPosition)
	get("/g/:id/history/:index/edit", p.editPosition)
	e.POST("/g/:id/select", p.onGame(p.selectSquare))
	e.POST("/g/:id/ply", p.onGame(p.ply))
	e.POST("/g/:id/undo", p.onGame(p.undo))
	e.POST("/g/:id/resign", p.onGame(p.resign))
	e.POST("/g/:id/draw", p.onGame(p.draw))
	e.POST("/g/:id/abort", p.onGame(p.abort))
	get("/g/:id/view/:index", p.view)
	get("/new", p.startPage)
	get("/rules", p.rulesPage)
	get("/rules/en", p.rulesPage)
	e.POST("/g/:id/hide", p.hide)
	p.liveRoutes(e)
	p.reviewRoutes(e, get)
	p.accountRoutes(e)
	p.lobbyRoutes(e)
	p.profileRoutes(e)
	e.POST("/settings", p.saveSettings)
	e.POST("/g/:id/branch", p.onGame(p.branch))
	if s.training != nil {
		p.learnRoutes(e)
		p.trainingRoutes(e)
	}
	get("/static/*", p.static)
	get(kit.ImagePrefix+"*", p.image)
	get("/editor", p.editorPage)
	get("/analysis", p.positionAnalysis)
	e.RouteNotFound("/*", p.notFound)
}

// onGame serves a request on game id (its path's) made from the game's
// page: h gets the view options the request carries, and a refusal — h's,
// or of a form that cannot be read — shows the game again with its
// message, at the refusal's status. A browser cannot present another
// credential than its cookie, so "unauthorized" is answered as 403. A
// refusal that leaves no game to show (an unknown game, a limit, a server
// failure, a form that never arrived) gets its error page.
func (p *pages) onGame(h func(c echo.Context, id string, o *views.Options) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		o, err := p.options(c)
		if err == nil {
			err = h(c, id, &o)
		}
		if err == nil {
			return nil
		}
		switch kit.ErrorOf(err).Code {
		case errs.Timeout, errs.NotFound, errs.TooMany, errs.Unavailable, errs.Internal:
			return err
		case errs.Unauthorized:
			err = &errs.Error{Code: errs.Forbidden, Msg: "You are watching this game: only its players can play it, so nothing changed."}
		}
		return kit.Shown(err, func(status int, e *errs.Error) error {
			o.Error = e.Msg
			return p.show(c, id, o, status)
		})
	}
}

// options reads the form (or query) and the view choices: those the
// settings cookie remembers, an auto-flip the request carries, which is
// remembered in turn, and a flip, which is the page's alone (a view of
// one game: its links and forms carry it, no other game's do).
func (p *pages) options(c echo.Context) (views.Options, error) {
	o := views.NoSelection()
	if err := c.Request().ParseForm(); err != nil {
		return o, kit.BodyError(err, "The form could not be read: "+err.Error())
	}
	readSettings(c, &o)
	f := c.Request().Form
	o.Flip = f.Get("flip") == "1"
	if v := f.Get("auto"); v == "0" || v == "1" {
		was := o.Auto
		applySettings(url.Values{"auto": {v}}, &o)
		if o.Auto != was {
			p.s.writeSettings(c, o)
		}
	}
	return o, nil
}

// square reads a square field; optional allows it to be empty.
func square(c echo.Context, field string, optional bool) (rules.Square, error) {
	v := strings.TrimSpace(c.Request().Form.Get(field))
	if v == "" && optional {
		return rules.NoSquare, nil
	}
	if v == "" {
		return rules.NoSquare, kit.Invalidf("The form has no %q square.", field)
	}
	s, err := rules.ParseSquare(v)
	if err != nil || len(v) > 2 {
		return rules.NoSquare, kit.Invalidf("%q is not a square: use a file a–h and a rank 1–8, such as e4.", kit.TrimText(v))
	}
	return s, nil
}

// promotion reads the promotion field: "", or the letter of a piece a
// pawn may become in a variant the service plays (p: it stays a pawn).
func (p *pages) promotion(c echo.Context) (rules.PieceKind, error) {
	k, err := rules.ParsePromotion(c.Request().Form.Get("promotion"), p.s.loader.Variants())
	if err != nil {
		return 0, kit.Invalidf("%s", errs.Sentence(err.Error()))
	}
	return k, nil
}

// seenPly reads the ply the form was made at (0 when it does not say).
func seenPly(c echo.Context) (int, error) {
	v := c.Request().Form.Get("ply")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, kit.Invalidf("%q is not a ply number.", kit.TrimText(v))
	}
	return n, nil
}

// boardInput reads the ply a form posts: typed text, or squares.
func (p *pages) boardInput(c echo.Context) (games.Input, error) {
	var in games.Input
	var err error
	if in.Ply, err = seenPly(c); err != nil {
		return in, err
	}
	if in.Text = strings.TrimSpace(c.Request().Form.Get("text")); in.Text != "" {
		return in, nil
	}
	if in.From, err = square(c, "from", false); err != nil {
		return in, err
	}
	if in.To, err = square(c, "to", false); err != nil {
		return in, err
	}
	in.Promotion, err = p.promotion(c)
	return in, err
}

// notFound answers unknown paths: JSON under /api, a page elsewhere.
func (p *pages) notFound(c echo.Context) error {
	if kit.IsAPI(c) {
		return kit.APINotFound()
	}
	return kit.Titled("Page not found", &errs.Error{Code: errs.NotFound, Msg: "There is nothing at " + kit.TrimText(c.Request().URL.Path) + "."})
}
