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
	l := languageOf(c)
	msg, own := e.Msg, title != ""
	switch {
	case e.Code == errs.Internal:
		return s.stuck(c, status, l.T(errorTitle(e)), msg)
	case own:
	case e.Code == errs.NotFound && e.Detail == "":
		msg = l.T("error.noGame")
	}
	if !own {
		title = l.T(errorTitle(e))
	}
	if kit.IsHX(c) {
		return render(c, status, views.ErrorMain(title, msg))
	}
	return render(c, status, views.ErrorPage(title, msg, s.asset))
}

// errorTitle is the message id of the title of the page that explains a
// refusal.
func errorTitle(e *errs.Error) string {
	switch e.Detail {
	case errs.NoPlayer:
		return "error.title.noPlayer"
	case errs.SeekGone:
		return "error.title.seekGone"
	case errs.BadLogin:
		return "error.title.badLogin"
	case errs.NameNeeded:
		return "error.title.nameNeeded"
	}
	switch e.Code {
	case errs.NotFound:
		return "error.title.notFound"
	case errs.Unauthorized, errs.Forbidden:
		return "error.title.onlyPlayers"
	case errs.TooMany:
		return "error.title.tooMany"
	case errs.TooLarge:
		return "error.title.tooLarge"
	case errs.Timeout:
		return "error.title.timeout"
	case errs.Unavailable:
		return "error.title.unavailable"
	case errs.Internal:
		if e.Detail == errs.Unreadable {
			return "error.title.unreadable"
		}
		return "error.title.internal"
	}
	return "error.title.refused"
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
