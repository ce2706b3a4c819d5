package pages

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/views"
)

// openPath is the path of open challenge id's link.
func openPath(id string) string { return "/challenges/" + id }

// createOpen makes the browser's player's open challenge on the form's
// terms, and shows their challenges page, which lists its link and
// follows them to the game once someone accepts it.
func (p *challengePages) createOpen(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	t := challenges.Terms{Variant: f.Get("variant"), Color: f.Get("color")}
	if clock := f.Get("clock"); clock != "" {
		tc, _, err := games.ParseTimeControl(clock)
		if err != nil {
			return err
		}
		t.Clock = tc
	}
	since := p.s.now()
	if _, err := p.s.challenges.CreateOpen(c.Request().Context(), kit.Player(c), t, f.Get("name")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/challenges?since="+strconv.FormatInt(since.UnixMilli(), 10))
}

// openPage is an open challenge's link: its terms and Accept (the
// query's color is the side the acceptor asks for). The browser gets its
// player here, so that a guest's Accept is theirs. A challenge accepted
// takes its players to their game.
func (p *challengePages) openPage(c echo.Context) error {
	v, err := p.openView(c, c.Param("id"), c.QueryParam("color"))
	if err != nil {
		return err
	}
	switch {
	case v.Game != "" && kit.IsHX(c): // its maker's page, read again
		c.Response().Header().Set("HX-Redirect", kit.GamePath(v.Game))
		return c.NoContent(http.StatusNoContent)
	case v.Game != "":
		return c.Redirect(http.StatusSeeOther, kit.GamePath(v.Game))
	case kit.IsHX(c):
		return c.NoContent(http.StatusNoContent)
	}
	return render(c, http.StatusOK, views.OpenChallengePage(v))
}

// openView is the page of open challenge id for the browser's player,
// with the side color the link asks for.
func (p *challengePages) openView(c echo.Context, id, color string) (views.OpenChallenge, error) {
	ctx := c.Request().Context()
	ch, err := p.s.challenges.Challenge(ctx, id)
	if err != nil {
		return views.OpenChallenge{}, err
	}
	if !ch.Anyone {
		return views.OpenChallenge{}, challenges.Gone()
	}
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return views.OpenChallenge{}, err
	}
	me, err := p.s.players.Identify(ctx, cred)
	if err != nil {
		return views.OpenChallenge{}, err
	}
	row := challengeRow(ch, ch.Challenger, ch.Color.Other())
	if color != "white" && color != "black" {
		color = ""
	} else if ch.Color == 0 {
		row.Color = color
	}
	origin := p.s.kit.Origin(c)
	v := views.OpenChallenge{Asset: p.s.asset, ID: ch.ID, Name: ch.Name, Color: color, Row: row,
		Mine: me.ID == ch.Challenger.ID, Gone: !ch.Open(p.s.now()), Link: origin + openPath(ch.ID),
		Game: ch.Game}
	if ch.Game != "" && me.ID != ch.Challenger.ID && me.ID != ch.Dest.ID {
		v.Game = ""
	}
	if ch.Color == 0 {
		v.LinkWhite, v.LinkBlack = v.Link+"?color=white", v.Link+"?color=black"
	}
	return v, nil
}

// refusedOpen shows a refused acceptance: on the open challenge's page
// for an open challenge, else on the challenges page.
func (p *challengePages) refusedOpen(c echo.Context, err error) error {
	ch, cerr := p.s.challenges.Challenge(c.Request().Context(), c.Param("id"))
	if cerr != nil || !ch.Anyone {
		return p.refused(c, err)
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		v, verr := p.openView(c, ch.ID, c.FormValue("color"))
		if verr != nil {
			return verr
		}
		v.Error = e.Msg
		return render(c, status, views.OpenChallengePage(v))
	})
}
