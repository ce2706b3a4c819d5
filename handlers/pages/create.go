package pages

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// create stores g as a new game held by this browser, when it may create
// one now.
func (p *create) create(c echo.Context, g *rules.Game) (string, error) {
	if err := p.s.kit.AllowGame(c); err != nil {
		return "", err
	}
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return "", err
	}
	return p.s.games.Create(c.Request().Context(), cred, g)
}

// open starts a game from a link: /?fen=…, /?pgn=…, or a share link
// /?v=…&fen=…&a=b:e2e4,m:d2d4&end=….
func (p *create) open(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	g, err := p.s.loader.FromLink(c.QueryParams())
	if err != nil {
		return kit.Titled(languageOf(c).T("error.title.badLink"), err)
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	return p.core.created(c, id, o, g, false)
}

// newGame starts a new game of the chosen variant.
func (p *create) newGame(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	switch mode := c.Request().Form.Get("mode"); mode {
	case "", "hotseat":
	case "invite":
		return p.newInvite(c, o)
	case "bot":
		return p.newBot(c, o)
	default:
		return kit.Invalidf("%q is not a way to play: use hotseat, invite or bot.", kit.TrimText(mode))
	}
	g, err := p.s.loader.NewGame(c.Request().Form.Get("variant"))
	if err != nil {
		return err
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "New " + g.Variant().Name() + " game"
	return p.core.created(c, id, o, g, false)
}

// importGame starts a game from a pasted FEN or PGN, of the variant
// chosen beside it ("" lets the text decide), opened at its end or, with
// at=start, at its start. A PGN of several games asks which one first
// (pgn_game). A bad text leaves every game as it was and shows the
// reader's message beside it, on the game the form was posted from.
func (p *create) importGame(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	f := c.Request().Form
	text, variant := strings.TrimSpace(f.Get("text")), f.Get("variant")
	o.Import = views.ImportBox{Text: f.Get("text"), Variant: variant, AtStart: f.Get("at") == "start"}
	var g *rules.Game
	n, err := p.pgnGame(f.Get("pgn_game"), text, &o) // a FEN holds no games to choose from
	if err == nil && o.Import.Games == nil {
		g, err = p.s.loader.Import(text, variant, n)
	}
	if err != nil || g == nil {
		return p.importRefused(c, o, err)
	}
	id, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "Game loaded"
	return p.core.created(c, id, o, g, o.Import.AtStart)
}

// pgnGame reads which game of a PGN to import: the form's choice, or the
// only one. For a PGN of several games and no choice, it sets o's list of
// them to choose from instead.
func (p *create) pgnGame(choice, text string, o *views.Options) (int, error) {
	list, err := p.s.loader.PGNGames(text)
	if err != nil || len(list) < 2 {
		return 0, err
	}
	if choice == "" {
		o.Import.Games = views.ImportChoices(list)
		return 0, nil
	}
	n, err := strconv.Atoi(choice)
	if err != nil || n < 0 || n >= len(list) {
		return 0, kit.Invalidf("%q is not one of the PGN's %d games.", kit.TrimText(choice), len(list))
	}
	return n, nil
}

// importRefused shows the import box again on the page that starts
// games: with the reader's message (err), or with the PGN's games to
// choose from (err nil).
func (p *create) importRefused(c echo.Context, o views.Options, err error) error {
	switch {
	case err == nil:
		return p.showStart(c, o, http.StatusOK)
	case !kit.ShowAgain(err):
		return err
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		o.Import.Error = e.Msg
		return p.showStart(c, o, status)
	})
}

// startPage answers GET /new: the page that starts games.
func (p *create) startPage(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	return p.showStart(c, o, http.StatusOK)
}

// showStart renders the page that starts games with o's import box, at
// status.
func (p *create) showStart(c echo.Context, o views.Options, status int) error {
	s := views.Start{Site: p.s.site(c), Opts: o, Games: p.s.gameLinks(c.Request().Context(), languageOf(c), kit.Player(c), "")}
	return render(c, status, views.StartPage(s))
}

// branch starts a new game (form field variant, Ban Chess by default)
// from the position after the first index plies of game id, which stays
// as it is. Anyone who can see the game may.
func (p *create) branch(c echo.Context, id string, o *views.Options) error {
	f := c.Request().Form
	index, err := strconv.Atoi(f.Get("index"))
	if err != nil {
		return kit.Invalidf("%q is not a ply number.", kit.TrimText(f.Get("index")))
	}
	var g *rules.Game
	var fromErr error
	err = p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, _ games.Seats) {
		g, fromErr = p.s.loader.FromPly(rec.Game, index, f.Get("variant"))
	})
	if err == nil {
		err = fromErr
	}
	if err != nil {
		return err
	}
	nid, err := p.create(c, g)
	if err != nil {
		return err
	}
	o.Announce = "New " + g.Variant().Name() + " game from this position"
	return p.core.created(c, nid, *o, g, false)
}
