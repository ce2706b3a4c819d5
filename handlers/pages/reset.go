package pages

import (
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// issueResetLink issues, for a moderator, a one-time reset link for the
// player the form names and shows it on /mod, once: answered, not
// redirected to, so that the link is in no address and no cache. To
// anyone else it answers as an unknown page.
func (p *guards) issueResetLink(c echo.Context) error {
	ctx, cred := c.Request().Context(), kit.Player(c)
	if _, mod, err := p.s.moderation.Moderator(ctx, cred); err != nil || !mod {
		if err != nil {
			return err
		}
		return unknownPage(c)
	}
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	token, e, err := p.s.moderation.IssueResetLink(ctx, cred, f.Get("player"), f.Get("why"))
	if err != nil {
		return kit.Shown(guarded(c, err), func(status int, e *errs.Error) error {
			return p.showMod(c, status, "", e.Msg)
		})
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	link := p.s.kit.Origin(c) + "/reset/" + token
	return p.renderMod(c, http.StatusOK, views.Mod{Done: languageOf(c).T("mod.done.reset"), ResetLink: link, ResetFor: e.PlayerName})
}

// resetRoutes adds the pages of the moderators' reset links.
func (p *accounts) resetRoutes(e *echo.Echo) {
	e.Match([]string{http.MethodGet, http.MethodHead}, "/reset/:token", p.resetPage)
	e.POST("/reset/:token", p.reset)
}

// resetPage shows the form of a reset link, or says it is unknown, used
// or expired.
func (p *accounts) resetPage(c echo.Context) error {
	token := c.Param("token")
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	name, err := p.s.players.ResetLinkPlayer(c.Request().Context(), token)
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			return render(c, status, views.ResetPage(views.Reset{Asset: p.s.asset, Error: e.Msg}))
		})
	}
	return render(c, http.StatusOK, views.ResetPage(views.Reset{Asset: p.s.asset, Token: token, Name: name}))
}

// reset sets the new password with a reset link: the browser is signed
// in as its player, and every other device is signed out.
func (p *accounts) reset(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	token := c.Param("token")
	ctx := c.Request().Context()
	in, err := p.s.players.ResetPassword(ctx, players.ResetIn{Token: token, Password: f.Get("password"), Kind: players.Cookie})
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			name, _ := p.s.players.ResetLinkPlayer(ctx, token)
			r := views.Reset{Asset: p.s.asset, Error: e.Msg, Name: name}
			if name != "" {
				r.Token = token
			}
			return render(c, status, views.ResetPage(r))
		})
	}
	if cred := kit.Player(c); cred != "" {
		_ = p.s.players.SignOut(ctx, cred) // the anonymous player the browser was, if any
	}
	p.s.kit.SetPlayer(c, in.Credential)
	p.s.kit.SetDevice(c, in.Device)
	return c.Redirect(http.StatusSeeOther, "/account?done=recovered")
}

// deleteAccount deletes the browser's player's account once the form's
// password is theirs, and forgets the browser's credential; refused, the
// account page again with the reason.
func (p *accounts) deleteAccount(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	ctx, cred := c.Request().Context(), kit.Player(c)
	if err := p.s.players.DeleteAccount(ctx, cred, f.Get("password")); err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			pl, ierr := p.s.players.Identify(ctx, cred)
			if ierr != nil {
				return ierr
			}
			a, aerr := p.accountView(c, pl)
			if aerr != nil {
				return aerr
			}
			a.DeleteError = e.Msg
			return render(c, status, views.AccountPage(a))
		})
	}
	kit.DropPlayer(c)
	return c.Redirect(http.StatusSeeOther, "/?deleted=1")
}
