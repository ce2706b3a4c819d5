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

// The pages serve the playground: full pages for plain forms (Post/
// Redirect/Get) and fragments for htmx requests. Every game has its own
// address, /g/{id}; the forms that act on it post under that address.
// Each capability has a part of its own, and they share core, which
// renders a game's page and its answers.
type (
	core struct{ s *deps } // a game's page, its fragments and deltas, and the forms every part reads
	play struct {
		s    *deps
		core *core
	} // acting at a game: plies, undo, resign, draw, offers, seats, its stream
	create struct {
		s    *deps
		core *core
	} // new games: the home page, the start page, hot seat, with a friend, the computer, imports, the editor
	browse struct {
		s    *deps
		core *core
	} // a game's history, export, analysis board and its lines, the engine's analysis
	lobbyPages struct {
		s    *deps
		core *core
	} // the lobby: seeks, pools, its stream
	accounts struct {
		s    *deps
		core *core
	} // names, sign-in, profiles, leaders, view settings
	trainer struct {
		s    *deps
		core *core
	} // lessons and puzzles
	reviews struct {
		s    *deps
		core *core
	} // a game's review view
	site struct {
		s    *deps
		core *core
	} // static files, position images, the rules, unknown paths
)

// pageRoutes adds the playground's pages and fragments.
func (s *deps) pageRoutes(e *echo.Echo) {
	c := &core{s: s}
	pl, cr, br := &play{s, c}, &create{s, c}, &browse{s, c}
	lb, acc, tr, rv, st := &lobbyPages{s, c}, &accounts{s, c}, &trainer{s, c}, &reviews{s, c}, &site{s, c}
	e.Use(s.withAwaiting)
	e.Use(s.withBell)
	e.Use(withIncoming(s))
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/", cr.index)
	e.POST("/new", cr.newGame)
	e.POST("/import", cr.importGame)
	get("/new", cr.startPage)
	get("/editor", cr.editorPage)
	e.POST("/g/:id/branch", c.onGame(cr.branch))
	get("/g/:id", c.onGame(pl.game))
	e.POST("/g/:id/select", c.onGame(pl.selectSquare))
	e.POST("/g/:id/ply", c.onGame(pl.ply))
	e.POST("/g/:id/undo", c.onGame(pl.undo))
	e.POST("/g/:id/resign", c.onGame(pl.resign))
	e.POST("/g/:id/draw", c.onGame(pl.draw))
	e.POST("/g/:id/abort", c.onGame(pl.abort))
	e.POST("/g/:id/hide", pl.hide)
	pl.liveRoutes(e)
	pl.chatRoutes(e)
	get("/g/:id/delta", br.delta)
	get("/g/:id/export", br.export)
	get("/g/:id/history/:index", br.history)
	get("/g/:id/pgn", br.downloadPGN)
	get("/g/:id/analysis", br.analysisPage)
	get("/g/:id/edit", br.editPosition)
	get("/g/:id/history/:index/edit", br.editPosition)
	get("/g/:id/view/:index", br.view)
	(&forecastPages{s, c}).forecastRoutes(e)
	e.POST("/g/:id/lines/play", br.playLine)
	e.POST("/g/:id/lines/select", br.selectLine)
	e.POST("/g/:id/lines/promote", br.promoteLine)
	e.POST("/g/:id/lines/delete", br.deleteLine)
	get("/analysis", br.positionAnalysis)
	rv.reviewRoutes(e, get)
	acc.accountRoutes(e)
	acc.profileRoutes(e)
	(&people{s, c}).relationRoutes(e)
	(&guards{s, c}).moderationRoutes(e)
	e.POST("/settings", acc.saveSettings)
	lb.lobbyRoutes(e)
	if s.challenges != nil {
		(&challengePages{s, c}).challengeRoutes(e, get)
	}
	if s.training != nil {
		tr.learnRoutes(e)
		tr.trainingRoutes(e)
		(&runPages{s, c}).runRoutes(e, get)
		(&themePages{s, c}).themeRoutes(e, get)
	}
	get("/language", st.languagePage)
	e.POST("/language", st.chooseLanguage)
	if s.tournaments != nil {
		(&arenas{s, c}).tournamentRoutes(e)
	}
	get("/rules", st.rulesPage)
	get("/rules/en", st.rulesPage)
	get("/games", br.turnsPage)
	if s.inbox != nil {
		(&inboxPages{s, c}).inboxRoutes(e, get)
	}
	get("/static/*", st.static)
	get(kit.ImagePrefix+"*", st.image)
	e.RouteNotFound("/*", st.notFound)
}

// onGame serves a request on game id (its path's) made from the game's
// page: h gets the view options the request carries, and a refusal — h's,
// or of a form that cannot be read — shows the game again with its
// message, at the refusal's status. A browser cannot present another
// credential than its cookie, so "unauthorized" is answered as 403. A
// refusal that leaves no game to show (an unknown game, a limit, a server
// failure, a form that never arrived) gets its error page.
func (p *core) onGame(h func(c echo.Context, id string, o *views.Options) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		o, err := p.options(c)
		if err == nil {
			err = h(c, id, &o)
		}
		if err == nil {
			return nil
		}
		if !kit.ShowAgain(err) {
			return err
		}
		if kit.ErrorOf(err).Code == errs.Unauthorized {
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
func (p *core) options(c echo.Context) (views.Options, error) {
	o := views.NoSelection()
	if err := c.Request().ParseForm(); err != nil {
		return o, kit.BodyError(err, "The form could not be read: "+err.Error())
	}
	readSettings(c, &o)
	o.Lang = languageOf(c)
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

// pick answers a square picked on a board (the no-JavaScript way: with
// scripts a pick needs no request), a game's, a lesson's or a puzzle's:
// o's selection becomes the square, or none when the form picks the
// picked square again (the board drops a square with nothing to do). For
// htmx show renders the board with it; else plain sends the browser to
// the board's address with it.
func pick(c echo.Context, o *views.Options, show, plain func() error) error {
	sq, err := square(c, "square", false)
	if err != nil {
		return err
	}
	from, err := square(c, "from", true)
	if err != nil {
		return err
	}
	if sq != from {
		o.Sel = sq
	}
	if kit.IsHX(c) {
		return show()
	}
	return plain()
}

// promotion reads the promotion field: "", or the letter of a piece a
// pawn may become in a variant the service plays (p: it stays a pawn).
func (p *core) promotion(c echo.Context) (rules.PieceKind, error) {
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
func (p *core) boardInput(c echo.Context) (games.Input, error) {
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
func (p *site) notFound(c echo.Context) error {
	return unknownPage(c)
}
