package pages

import (
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/views"
)

// errorPage answers refusal e, outside the API, with a page of status:
// one that offers ways on for the server's own failure (stuck), else one
// that explains it under title ("" for the refusal's own).
func (s *deps) errorPage(c echo.Context, status int, e *errs.Error, title string) error {
	msg, own := e.Msg, title != ""
	switch {
	case e.Code == errs.Internal:
		return s.stuck(c, status, errorTitle(e), msg)
	case own:
	case e.Code == errs.NotFound && e.Detail == "":
		msg = "There is no game at this address: it may have been removed after a long time unplayed."
	}
	if !own {
		title = errorTitle(e)
	}
	if kit.IsHX(c) {
		return render(c, status, views.ErrorMain(title, msg))
	}
	return render(c, status, views.ErrorPage(title, msg, s.asset))
}

// errorTitle heads the page that explains a refusal.
func errorTitle(e *errs.Error) string {
	switch e.Detail {
	case errs.NoPlayer:
		return "No such player"
	case errs.SeekGone:
		return "This seek is gone"
	case errs.BadLogin:
		return "Sign-in failed"
	case errs.NameNeeded:
		return "A name is needed"
	}
	switch e.Code {
	case errs.NotFound:
		return "No such game"
	case errs.Unauthorized, errs.Forbidden:
		return "Only the players can do this"
	case errs.TooMany:
		return "Too many requests"
	case errs.TooLarge:
		return "Request too large"
	case errs.Timeout:
		return "Request timed out"
	case errs.Unavailable:
		return "Server busy"
	case errs.Internal:
		if e.Detail == errs.Unreadable {
			return "This game could not be read"
		}
		return "Something went wrong"
	}
	return "This request was refused"
}

// stuck answers a request the server failed (a game it could not read, a
// store that failed) with a page that offers ways on: a new game, and the
// browser's games, not only a link back that may fail the same way.
func (s *deps) stuck(c echo.Context, status int, title, msg string) error {
	info := views.Info{Site: s.site(c)}
	if id := c.Param("id"); kit.ValidID(id) {
		info.ID = id
	}
	if kit.IsHX(c) {
		return render(c, status, views.StuckMain(title, msg, info.Site))
	}
	info.Games = s.gameLinks(c.Request().Context(), languageOf(c), kit.Player(c), c.Param("id"))
	return render(c, status, views.StuckPage(title, msg, info))
}
