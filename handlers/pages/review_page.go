package pages

import (
	"net/http"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/views"
)

// reviewRoutes adds the game's review view, its request form, and the
// analysis board's forms.
func (p *reviews) reviewRoutes(e *echo.Echo, get func(string, echo.HandlerFunc)) {
	get("/g/:id/review", p.reviewPage)
	get("/g/:id/review/:index", p.reviewPage)
	e.POST("/g/:id/review", p.requestReview)
}

// reviewPage shows game id's review view (GET /g/{id}/review, at the
// game's end, or /g/{id}/review/{index}, after index plies): the game's
// history view at that position with the review beside it — where it
// stands, or, done, the evaluation graph, the marks in the list, the
// better line and each side's summary. Without a review it offers the
// request form to a viewer who may ask for one.
func (p *reviews) reviewPage(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	index := -1
	if v := c.Param("index"); v != "" {
		if index, err = strconv.Atoi(v); err != nil || index < 0 {
			return kit.Titled(o.Lang.T("review.noSuchPly"), kit.Invalidf("%q is not a ply number.", kit.TrimText(v)))
		}
	}
	return p.showReview(c, c.Param("id"), index, o, http.StatusOK, "")
}

// showReview renders game id's review view after index plies (< 0: the
// game's end) at status, with msg (a refusal of the request) when not
// "".
func (p *reviews) showReview(c echo.Context, id string, index int, o views.Options, status int, msg string) error {
	ctx := c.Request().Context()
	st, err := p.s.analysis.Review(ctx, id)
	switch e := kit.ErrorOf(err); {
	case err == nil:
	case e.Detail == errs.NoReview:
	case e.Code == errs.NotFound, e.Code == errs.Internal, e.Code == errs.Unavailable, e.Code == errs.Timeout:
		return err
	default: // why the game has none: locked, nothing to review, another variant
		if msg == "" {
			msg = sayRefusal(c, e)
		}
	}
	var m views.Game
	var viewErr error
	err = p.s.games.View(ctx, id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
		g := rec.Game
		last := len(g.Actions())
		if index < 0 {
			index = last
		}
		info := p.core.gameInfo(c, rec, seats, o)
		if m, viewErr = views.NewHistoryView(g, index, info, o); viewErr != nil {
			return
		}
		var request templ.SafeURL
		if info.Perm.Analyse && last > 0 {
			request = templ.SafeURL(kit.GamePath(id) + "/review")
		}
		v := views.NewReviewView(g, id, o, st, index, request)
		v.Message = msg
		m = views.WithReview(m, v, index, last)
	})
	switch {
	case err != nil:
		return err
	case viewErr != nil:
		return noSuchPly(c, errs.Sentence(viewErr.Error()))
	}
	m.Title = o.Lang.T("review.tabTitle", "Title", m.Title)
	if kit.IsHX(c) { // a step or the panel asking again: the main element
		return render(c, status, views.Fragment(m))
	}
	return render(c, status, views.Page(m))
}

// requestReview asks for a review of game id (POST /g/{id}/review, the
// review view's and the game page's form) and answers with its review
// view; a refusal (the server's queue full, a live game) is shown there
// with its status.
func (p *reviews) requestReview(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	ctx := c.Request().Context()
	player, err := p.s.players.PlayerID(ctx, kit.Player(c))
	if err != nil {
		return err
	}
	by := analysis.Requester{Player: player, Addr: kit.ClientKey(c.RealIP())}
	if _, err := p.s.analysis.RequestReview(ctx, id, by); err != nil {
		e := kit.ErrorOf(err)
		if e.Code == errs.NotFound || e.Code == errs.Internal {
			return err
		}
		return p.showReview(c, id, -1, o, kit.Status(e.Code), e.Msg)
	}
	return c.Redirect(http.StatusSeeOther, o.ReviewURL(id, -1))
}
