package pages

import (
	"net/http"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// recoveryRoutes adds the recovery codes' form and the recovery page
// (also at /account/recover, the address).
func (p *accounts) recoveryRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	e.POST("/account/recovery-codes", p.newRecoveryCodes)
	for _, path := range []string{"/recover", "/account/recover"} {
		get(path, p.recoverPage)
		e.POST(path, p.recover)
	}
}

// accountView is the account page of the browser's player, pl.
func (p *accounts) accountView(c echo.Context, pl players.Player) (views.Account, error) {
	a := views.Account{Asset: p.s.asset, Name: pl.Name, Scopes: players.ScopeNames()}
	if pl.ID == "" {
		return a, nil
	}
	var err error
	if a.Chat, err = p.accountChat(c); err != nil {
		return a, err
	}
	if pl.Named() {
		left, err := p.s.players.RecoveryCodesLeft(c.Request().Context(), kit.Player(c))
		if err != nil {
			return a, err
		}
		a.Recovery = &views.AccountRecovery{Left: left}
	}
	return a, nil
}

// showCodes answers the account page with codes, just made, shown once:
// the page is answered, not redirected to, so that the codes are in no
// address and no cache.
func (p *accounts) showCodes(c echo.Context, pl players.Player, done string, codes []string) error {
	a, err := p.accountView(c, pl)
	if err != nil {
		return err
	}
	a.Done, a.Recovery = done, &views.AccountRecovery{Codes: codes}
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.AccountPage(a))
}

// newRecoveryCodes makes the browser's player new recovery codes (the
// old stop working) and shows them once.
func (p *accounts) newRecoveryCodes(c echo.Context) error {
	if _, err := p.core.form(c); err != nil {
		return err
	}
	ctx := c.Request().Context()
	pl, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil {
		return err
	}
	codes, err := p.s.players.NewRecoveryCodes(ctx, kit.Player(c))
	if err != nil {
		return kit.Titled(languageOf(c).T("error.title.recoveryCodes"), err)
	}
	return p.showCodes(c, pl, languageOf(c).T("account.done.newCodes"), codes)
}

func (p *accounts) recoverPage(c echo.Context) error {
	return render(c, http.StatusOK, views.RecoverPage(views.Recover{Asset: p.s.asset}))
}

// recover gives the browser the account the form names back, with one
// of its recovery codes and a new password: it is signed in as it, and
// every other device is signed out. It is limited as a sign-in is.
func (p *accounts) recover(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	name := f.Get("name")
	in, err := p.s.players.Recover(c.Request().Context(), players.RecoverIn{Name: name, Code: f.Get("code"), Password: f.Get("password"),
		Client: kit.ClientKey(c.RealIP()), Device: kit.Device(c), Kind: players.Cookie})
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			return render(c, status, views.RecoverPage(views.Recover{Asset: p.s.asset, Error: e.Msg, NameValue: name}))
		})
	}
	if cred := kit.Player(c); cred != "" {
		_ = p.s.players.SignOut(c.Request().Context(), cred) // the anonymous player the browser was, if any
	}
	p.s.kit.SetPlayer(c, in.Credential)
	p.s.kit.SetDevice(c, in.Device)
	return c.Redirect(http.StatusSeeOther, "/account?done=recovered")
}
