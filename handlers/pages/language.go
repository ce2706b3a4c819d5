package pages

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// LanguageCookie keeps the language the viewer chose (its code); without
// it the browser's Accept-Language decides. A preference, never a
// credential.
const LanguageCookie = "banchess_lang"

// byColor is the message id for White or for Black.
func byColor(c rules.Color, white, black string) string {
	if c == rules.White {
		return white
	}
	return black
}

// languageOf is the viewer's language: the one chosen, else the browser's.
// It is worked out once a request: the options and the render ask.
func languageOf(c echo.Context) *i18n.Language {
	if l, ok := c.Get(languageKey).(*i18n.Language); ok {
		return l
	}
	chosen := ""
	if ck, err := c.Cookie(LanguageCookie); err == nil {
		chosen = ck.Value
	}
	var o views.Options
	readSettings(c, &o) // moves in messages and lines, as the move list writes them
	l := views.WithNotation(i18n.Builtin().Choose(chosen, c.Request().Header.Get("Accept-Language")), o.Notation)
	c.Set(languageKey, l)
	return l
}

// languageKey keeps a request's language in its echo.Context.
const languageKey = "banchess.language"

// languagePage answers GET /language: the languages, one button each.
func (p *site) languagePage(c echo.Context) error {
	if _, err := p.core.options(c); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LanguagePage(p.s.asset))
}

// chooseLanguage answers POST /language: it keeps the chosen language
// and goes back to the page the form was on (its Referer, when it is
// this site's), else home.
func (p *site) chooseLanguage(c echo.Context) error {
	code := c.FormValue("lang")
	l := i18n.Builtin().Named(code)
	if l == nil {
		return errs.Errorf(errs.Invalid, "There is no language %q here: choose one of the list.", code).WithDetail(errs.BadLanguage)
	}
	c.SetCookie(&http.Cookie{
		Name:     LanguageCookie,
		Value:    l.Code,
		Path:     "/",
		MaxAge:   int((400 * 24 * time.Hour).Seconds()),
		Secure:   p.s.kit.Scheme(c) == "https",
		SameSite: http.SameSiteLaxMode,
	})
	back := "/"
	if ref, err := url.Parse(c.Request().Referer()); err == nil && ref.Host == c.Request().Host && ref.Path != "" && ref.Path != "/language" {
		back = ref.EscapedPath()
		if ref.RawQuery != "" {
			back += "?" + ref.RawQuery
		}
	}
	return c.Redirect(http.StatusSeeOther, back)
}
