package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/views"
)

// SettingsCookie keeps the viewer's view choices — auto-flip, sound,
// board size, board colours and pieces — for every game and link (not
// the orientation: a flip is one game's). It is not HttpOnly: the
// board script changes it at once, and the server reads it to render the
// page, so the choices hold without JavaScript too. It is a preference,
// never a credential.
const SettingsCookie = "banchess_view"

// settingsMaxAge is how long the browser keeps the settings.
const settingsMaxAge = 400 * 24 * time.Hour

// readSettings sets o's view choices from the settings cookie.
func readSettings(c echo.Context, o *views.Options) {
	ck, err := c.Cookie(SettingsCookie)
	if err != nil {
		return
	}
	v, err := url.ParseQuery(ck.Value)
	if err != nil {
		return
	}
	applySettings(v, o)
}

// applySettings sets the choices v names (the last value of each counts,
// so a checkbox may follow a hidden "0"); the others stay.
func applySettings(v url.Values, o *views.Options) {
	flag := func(name string, dst *bool, on string) {
		if vals := v[name]; len(vals) > 0 {
			*dst = vals[len(vals)-1] == on
		}
	}
	flag("auto", &o.Auto, "1")
	flag("sound", &o.Mute, "0")
	flag("premoves", &o.NoPremoves, "0")
	if vals := v["board"]; len(vals) > 0 {
		o.Look.Board = vals[len(vals)-1]
	}
	if vals := v["pieces"]; len(vals) > 0 {
		o.Look.Pieces = vals[len(vals)-1]
	}
	if vals := v["notation"]; len(vals) > 0 {
		o.Notation = views.Notation(vals[len(vals)-1]).Valid()
	}
	o.Look = o.Look.Valid()
	if vals := v["size"]; len(vals) > 0 {
		if n, err := strconv.Atoi(vals[len(vals)-1]); err == nil {
			o.Size = n
			o.Size = o.BoardSize()
		}
	}
}

// writeSettings remembers o's view choices in the settings cookie.
func (s *deps) writeSettings(c echo.Context, o views.Options) {
	v := url.Values{}
	v.Set("auto", boolDigit(o.Auto))
	v.Set("board", o.Look.Board)
	v.Set("pieces", o.Look.Pieces)
	v.Set("sound", boolDigit(!o.Mute))
	v.Set("premoves", boolDigit(!o.NoPremoves))
	v.Set("size", strconv.Itoa(o.BoardSize()))
	if o.Notation != views.NotationLetters {
		v.Set("notation", string(o.Notation))
	}
	c.SetCookie(&http.Cookie{
		Name:     SettingsCookie,
		Value:    v.Encode(),
		Path:     "/",
		MaxAge:   int(settingsMaxAge.Seconds()),
		Secure:   s.kit.Scheme(c) == "https",
		SameSite: http.SameSiteLaxMode,
	})
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// saveSettings stores the settings form's choices (the no-JavaScript
// way; the board script writes the cookie itself) and goes back to the
// game the form was on.
func (p *accounts) saveSettings(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	applySettings(c.Request().Form, &o)
	p.s.writeSettings(c, o)
	back := "/"
	if id := c.Request().Form.Get("back"); kit.ValidID(id) {
		back = kit.GamePath(id)
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// lookOf is the viewer's look, as the settings cookie keeps it.
func lookOf(c echo.Context) views.Look {
	var o views.Options
	readSettings(c, &o)
	return o.Look.Valid()
}
