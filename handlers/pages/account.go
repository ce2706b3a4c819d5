package pages

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/views"
)

// accountRoutes adds the account pages: a name and password, signing in
// on another device, signing out.
func (p *accounts) accountRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/account", p.account)
	e.POST("/account", p.register)
	e.POST("/account/token", p.newToken)
	get("/login", p.loginPage)
	e.POST("/login", p.login)
	e.POST("/logout", p.logout(false))
	e.POST("/logout/everywhere", p.logout(true))
	p.recoveryRoutes(e)
	p.resetRoutes(e)
	e.POST("/account/delete", p.deleteAccount)
	p.exportRoutes(e)
}

// account shows the browser's player: the form that names them, or their
// name and the ways to sign out.
func (p *accounts) account(c echo.Context) error {
	pl, err := p.s.players.Identify(c.Request().Context(), kit.Player(c))
	if err != nil {
		return err
	}
	a, err := p.accountView(c, pl)
	if err != nil {
		return err
	}
	switch c.QueryParam("done") {
	case "named":
		a.Done = languageOf(c).T("account.done.named")
	case "signed-in":
		a.Done = languageOf(c).T("account.done.signedIn")
	case "recovered":
		a.Done = languageOf(c).T("account.done.recovered")
	}
	return render(c, http.StatusOK, views.AccountPage(a))
}

// register names the browser's player (a new one if it has none) with the
// form's name and password, and gives the browser the player's new
// credential: the one it had is revoked, so that a cookie planted or seen
// before the sign-up holds nothing after it.
func (p *accounts) register(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	name := f.Get("name")
	cred, err := p.s.kit.EnsurePlayer(c)
	var in players.SignedIn
	if err == nil {
		in, err = p.s.players.Register(c.Request().Context(), players.SignUp{Name: name, Password: f.Get("password"),
			Client: kit.ClientKey(c.RealIP()), Credential: cred, Kind: players.Cookie})
	}
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			return render(c, status, views.AccountPage(views.Account{Asset: p.s.asset, Error: e.Msg, NameValue: name}))
		})
	}
	p.s.kit.SetPlayer(c, in.Credential)
	p.s.kit.SetDevice(c, in.Device)
	// The account's first recovery codes, shown once with the page; on a
	// server that keeps none, the page as before.
	codes, err := p.s.players.NewRecoveryCodes(c.Request().Context(), in.Credential)
	if err != nil && errs.Of(err).Code != errs.NotFound {
		p.s.log.Error("making a new account's recovery codes", "player", in.Player.ID, "err", err)
	}
	if err != nil {
		return c.Redirect(http.StatusSeeOther, "/account?done=named")
	}
	return p.showCodes(c, in.Player, languageOf(c).T("account.done.named"), codes)
}

// newToken makes the signed-in player a bearer token limited to the
// scopes the form ticks, for a program written for lichess's Bot or Board
// API, and shows it once: the page is answered, not redirected to, so
// that the token is in no address (a reload asks to post again, and makes
// another).
func (p *accounts) newToken(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	pl, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil {
		return err
	}
	a := views.Account{Asset: p.s.asset, Name: pl.Name, Scopes: players.ScopeNames()}
	var scopes players.Scopes
	if len(f["scope"]) == 0 {
		err = errs.Errorf(errs.Invalid, "Tick what the token may do: a token limited to nothing could do nothing.").WithDetail(errs.BadScope)
	} else {
		scopes, err = players.ParseScopes(f["scope"])
	}
	var tok players.Credential
	if err == nil {
		tok, err = p.s.players.IssueToken(ctx, kit.Player(c), scopes)
	}
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			a.Error = e.Msg
			return render(c, status, views.AccountPage(a))
		})
	}
	a.Token, a.TokenScopes = string(tok), strings.ReplaceAll(scopes.String(), " ", ", ")
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.AccountPage(a))
}

// form reads a posted form.
func (p *core) form(c echo.Context) (url.Values, error) {
	if err := c.Request().ParseForm(); err != nil {
		return nil, kit.BodyError(err, "The form could not be read: "+err.Error())
	}
	return c.Request().PostForm, nil
}

func (p *accounts) loginPage(c echo.Context) error {
	return render(c, http.StatusOK, views.LoginPage(views.Login{Asset: p.s.asset}))
}

// login signs the browser in as the player the form names: a new
// credential of that player's, which holds their seats here too; the
// lesson steps the browser did before are added to the player's, and the
// credential it held is revoked. The
// browser keeps a device token naming the player, with which its next
// sign-ins are limited for this device alone.
func (p *accounts) login(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	name := f.Get("name")
	before, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	in, err := p.s.players.Login(c.Request().Context(), players.SignIn{Name: name, Password: f.Get("password"),
		Client: kit.ClientKey(c.RealIP()), Device: kit.Device(c), Kind: players.Cookie, Replaces: kit.Player(c)})
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			return render(c, status, views.LoginPage(views.Login{Asset: p.s.asset, Error: e.Msg, NameValue: name}))
		})
	}
	if p.s.training != nil {
		if err := p.s.training.CarrySteps(c.Request().Context(), before, in.Player.ID); err != nil {
			return err
		}
	}
	p.s.kit.SetPlayer(c, in.Credential)
	p.s.kit.SetDevice(c, in.Device)
	return c.Redirect(http.StatusSeeOther, "/account?done=signed-in")
}

// logout signs the browser out (everywhere: every device and program of
// its player) and goes to the home page, where it starts afresh.
func (p *accounts) logout(everywhere bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cred := c.Request().Context(), kit.Player(c)
		var err error
		if everywhere {
			err = p.s.players.SignOutEverywhere(ctx, cred)
		} else {
			err = p.s.players.SignOut(ctx, cred)
		}
		if err != nil {
			return err
		}
		kit.DropPlayer(c)
		return c.Redirect(http.StatusSeeOther, "/")
	}
}
