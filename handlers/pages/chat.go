package pages

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// chatRoutes adds the chat's forms: a line said at a game, and the
// account's chat setting.
func (p *play) chatRoutes(e *echo.Echo) {
	e.POST("/g/:id/chat", p.say)
	e.POST("/account/chat", p.chatSetting)
}

// chatPanel is the chat room of the game rec holds (a copy read for the
// page) as the viewer holding cred and seats sees it, nil for a game
// without one (or a server without chat).
func (p *core) chatPanel(c echo.Context, rec *games.Record, seats games.Seats, cred players.Credential) (*views.Chat, error) {
	if p.s.chat == nil {
		return nil, nil
	}
	id := rec.ID
	v, err := p.s.chat.RoomOf(c.Request().Context(), rec, seats, cred)
	if err != nil || !v.Chat {
		return nil, err
	}
	l := languageOf(c)
	out := &views.Chat{Room: string(v.Room), Title: l.T("mod.chat.spectators"), Last: v.Last, Write: v.Write, Why: v.Why, Off: v.Off,
		PostURL: templ.SafeURL(kit.GamePath(id) + "/chat")}
	if v.Refused != nil {
		out.Why = refusalText(l, v.Refused)
	}
	if v.Room == chat.PlayerRoom {
		out.Title = l.T("mod.chat.players")
	}
	out.Lines = make([]views.ChatLine, len(v.Lines))
	reporter := p.reporter(c, cred, v.Write || len(v.Lines) > 0)
	if reporter.ID != "" {
		out.Report, out.Me = "/report?"+url.Values{"game": {id}, "room": {string(v.Room)}}.Encode()+"&seq=", reporter.Name
	}
	for i, ln := range v.Lines {
		out.Lines[i] = views.ChatLine{Seq: ln.Seq, Name: ln.Name, Text: ln.Text}
		if ln.Name == "" {
			out.Lines[i].Name = l.T("players.anonymous")
		}
		if reporter.ID != "" && ln.Author != reporter.ID {
			out.Lines[i].ReportURL = out.Report + strconv.FormatInt(ln.Seq, 10)
		}
	}
	return out, nil
}

// reporter is cred's player when they may report chat lines (a player
// with a name, on a server with moderation), else no one. any says there
// are or may be lines to report: else it asks nothing.
func (p *core) reporter(c echo.Context, cred players.Credential, any bool) players.Player {
	if !any || p.s.moderation == nil || cred == "" {
		return players.Player{}
	}
	pl, err := p.s.players.Identify(c.Request().Context(), cred)
	if err != nil || !pl.Named() {
		return players.Player{}
	}
	return pl
}

// say posts a line in the viewer's room of game id (the form's room and
// text). Without JavaScript it redirects to the game's chat (Post/
// Redirect/Get), or shows the page again with the refusal in the chat
// panel, at the refusal's status; with htmx it answers the refusal's
// sentence, or nothing, for the panel's error line.
func (p *play) say(c echo.Context) error {
	if p.s.chat == nil {
		return errs.Errorf(errs.NotFound, "This server keeps no chat.")
	}
	id := c.Param("id")
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	f := c.Request().PostForm
	text := f.Get("text")
	room, err := chat.ParseRoom(f.Get("room"))
	var cred players.Credential
	if err == nil {
		cred, err = p.s.kit.EnsurePlayer(c)
	}
	if err == nil {
		_, err = p.s.chat.Post(c.Request().Context(), id, cred, room, text)
	}
	switch e := kit.ErrorOf(err); {
	case err == nil && kit.IsHX(c):
		return renderIn(c, http.StatusOK, views.ChatError(""), 64)
	case err == nil:
		return c.Redirect(http.StatusSeeOther, o.GameURL(id)+"#chat")
	case e.Code == errs.NotFound || e.Code == errs.Internal || e.Code == errs.Unavailable || e.Code == errs.Timeout:
		return err
	case kit.IsHX(c):
		return kit.Shown(err, func(status int, e *errs.Error) error {
			return renderIn(c, status, views.ChatError(sayRefusal(c, e)), 256)
		})
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		o.ChatError, o.ChatText = sayRefusal(c, e), text
		return p.core.show(c, id, o, status)
	})
}

// chatSetting turns chat off for the browser's player, or on again (the
// form's off: 1 or 0), and goes back to the account page.
func (p *play) chatSetting(c echo.Context) error {
	if p.s.chat == nil {
		return errs.Errorf(errs.NotFound, "This server keeps no chat.")
	}
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	var off bool
	switch v := f.Get("off"); v {
	case "1":
		off = true
	case "0":
	default:
		return kit.Invalidf("%q is not a chat setting: use 1 (off) or 0 (on).", kit.TrimText(v))
	}
	cred, err := p.s.kit.EnsurePlayer(c)
	if err != nil {
		return err
	}
	if err := p.s.chat.SetOff(c.Request().Context(), cred, off); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/account#chat-setting")
}

// accountChat is the account page's chat setting for the browser's
// player, nil for a browser without one (or a server without chat).
func (p *accounts) accountChat(c echo.Context) (*views.AccountChat, error) {
	cred := kit.Player(c)
	if p.s.chat == nil || cred == "" {
		return nil, nil
	}
	off, err := p.s.chat.Off(c.Request().Context(), cred)
	if err != nil {
		return nil, err
	}
	return &views.AccountChat{Off: off}, nil
}
