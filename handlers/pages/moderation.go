package pages

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// Moderation is reports and the moderators' work as the pages use them
// (moderation.Service).
type Moderation interface {
	ReportPlayer(ctx context.Context, cred players.Credential, name string, reason, text string) (moderation.Report, error)
	ReportLine(ctx context.Context, cred players.Credential, game string, room chat.Room, seq int64, reason, text string) (moderation.Report, error)
	Moderator(ctx context.Context, cred players.Credential) (players.Player, bool, error)
	OpenReports(ctx context.Context, cred players.Credential) ([]moderation.Case, error)
	Log(ctx context.Context, cred players.Credential) ([]moderation.Entry, error)
	Do(ctx context.Context, cred players.Credential, a moderation.Act) (moderation.Entry, error)
	IssueResetLink(ctx context.Context, cred players.Credential, name, why string) (string, moderation.Entry, error)
}

// guards is the pages' part for reports and the moderators: /report,
// /mod, /mod/log and /mod/act. To anyone but a moderator the moderators'
// pages and actions answer as an unknown page does.
type guards struct {
	s    *deps
	core *core
}

// moderationRoutes adds the part's routes, on a server with moderation.
func (p *guards) moderationRoutes(e *echo.Echo) {
	if p.s.moderation == nil {
		return
	}
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/report", p.reportPage)
	e.POST("/report", p.report)
	get("/mod", p.mod)
	get("/mod/log", p.modLog)
	e.POST("/mod/act", p.act)
	e.POST("/mod/reset", p.issueResetLink)
}

// reasons are the reasons the report form offers.
func reasons() []string {
	var out []string
	for _, r := range moderation.Reasons() {
		out = append(out, string(r))
	}
	return out
}

// reportForm is the report form that the query or form q asks for.
func (p *guards) reportForm(q url.Values) views.ReportForm {
	return views.ReportForm{Asset: p.s.asset, Player: q.Get("player"), Game: q.Get("game"), Room: q.Get("room"), Seq: q.Get("seq"),
		Reasons: reasons(), Reason: q.Get("reason"), Text: q.Get("text")}
}

// reportPage shows the form that reports the player ?player= names, or
// the chat line ?game=&room=&seq= names (its text, when the viewer reads
// it); ?sent=1 thanks the reporter.
func (p *guards) reportPage(c echo.Context) error {
	q := c.QueryParams()
	f := p.reportForm(q)
	f.Sent = q.Get("sent") == "1"
	if f.Game != "" && p.s.chat != nil {
		if text, ok := p.lineText(c, f); ok {
			f.Line = text
		}
	}
	return render(c, http.StatusOK, views.ReportPage(f))
}

// lineText is the text of the line f names, as the viewer reads it.
func (p *guards) lineText(c echo.Context, f views.ReportForm) (string, bool) {
	seq, err := strconv.ParseInt(f.Seq, 10, 64)
	room, rerr := chat.ParseRoom(f.Room)
	if err != nil || rerr != nil || seq < 1 {
		return "", false
	}
	lines, _, err := p.s.chat.Lines(c.Request().Context(), f.Game, kit.Player(c), room, seq-1)
	if err != nil {
		return "", false
	}
	for _, l := range lines {
		if l.Seq == seq {
			return l.Text, true
		}
	}
	return "", false
}

// report sends the form's report: of a chat line when it names a game,
// else of a player. Refused, the form again with the message.
func (p *guards) report(c echo.Context) error {
	form, err := p.core.form(c)
	if err != nil {
		return err
	}
	f := p.reportForm(form)
	ctx, cred := c.Request().Context(), kit.Player(c)
	if f.Game != "" {
		var room chat.Room
		var seq int64
		if room, err = chat.ParseRoom(f.Room); err == nil {
			if seq, err = strconv.ParseInt(f.Seq, 10, 64); err != nil {
				err = kit.Invalidf("%q is not a line's number.", kit.TrimText(f.Seq))
			}
		}
		if err == nil {
			_, err = p.s.moderation.ReportLine(ctx, cred, f.Game, room, seq, f.Reason, f.Text)
		}
	} else {
		_, err = p.s.moderation.ReportPlayer(ctx, cred, f.Player, f.Reason, f.Text)
	}
	if err != nil {
		return kit.Shown(err, func(status int, e *errs.Error) error {
			f.Error = sayRefusal(c, e)
			return render(c, status, views.ReportPage(f))
		})
	}
	return c.Redirect(http.StatusSeeOther, "/report?sent=1")
}

// unknownPage answers as an unknown path is answered: the moderators'
// pages to everyone else.
func unknownPage(c echo.Context) error {
	if kit.IsAPI(c) {
		return kit.APINotFound()
	}
	return kit.Titled(languageOf(c).T("error.title.pageNotFound"), &errs.Error{Code: errs.NotFound, Msg: "There is nothing at " + kit.TrimText(c.Request().URL.Path) + "."})
}

// guarded answers err, a moderator's page's refusal: as an unknown page
// when the viewer is no moderator.
func guarded(c echo.Context, err error) error {
	if errs.Of(err).Detail == errs.NotModerator {
		return unknownPage(c)
	}
	return err
}

// mod lists the open reports, newest first, to a moderator.
func (p *guards) mod(c echo.Context) error {
	return p.showMod(c, http.StatusOK, modDone(languageOf(c), c.QueryParam("done")), "")
}

// showMod renders /mod with done or an error message.
func (p *guards) showMod(c echo.Context, status int, done, msg string) error {
	return p.renderMod(c, status, views.Mod{Done: done, Error: msg})
}

// renderMod renders /mod with m's message or reset link.
func (p *guards) renderMod(c echo.Context, status int, m views.Mod) error {
	cases, err := p.s.moderation.OpenReports(c.Request().Context(), kit.Player(c))
	if err != nil {
		return guarded(c, err)
	}
	m.Asset = p.s.asset
	l := languageOf(c)
	for _, d := range moderation.Mutes() {
		m.Mutes = append(m.Mutes, views.ModMute{Value: d.String(), Label: muteLabel(l, d)})
	}
	for _, k := range cases {
		mc := views.ModCase{ID: k.ID, Reporter: k.ReporterName, Reported: k.ReportedName, Reason: string(k.Reason), Text: k.Text,
			At: stamp(l, k.At), Closed: k.Closed}
		if !k.MutedUntil.IsZero() {
			mc.MutedUntil = stamp(l, k.MutedUntil)
		}
		if k.Game != "" {
			mc.Game = kit.GamePath(k.Game)
			for _, ln := range k.Context {
				name := ln.Name
				if name == "" {
					name = l.T("mod.anonymous")
				}
				mc.Context = append(mc.Context, views.ModLine{Name: name, Text: ln.Text, Reported: ln.Seq == k.Seq})
			}
		}
		m.Cases = append(m.Cases, mc)
	}
	return render(c, status, views.ModPage(m))
}

// modDone says in l what the last action did, by the word /mod/act sent.
func modDone(l *i18n.Language, done string) string {
	switch moderation.Action(done) {
	case moderation.Mute:
		return l.T("mod.done.mute")
	case moderation.Close:
		return l.T("mod.done.close")
	case moderation.Reopen:
		return l.T("mod.done.reopen")
	case moderation.Dismiss:
		return l.T("mod.done.dismiss")
	}
	return ""
}

// muteLabel names a mute's length in l.
func muteLabel(l *i18n.Language, d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return l.N("mod.mute.days", int(d.Hours()/24))
	case d >= time.Hour:
		return l.N("mod.mute.hours", int(d.Hours()))
	}
	return l.N("mod.mute.minutes", int(d.Minutes()))
}

// stamp writes a time for the moderators, as l writes dates (in UTC).
func stamp(l *i18n.Language, t time.Time) string { return views.DateTimeText(l, t) }

// modLog shows the moderation log to a moderator.
func (p *guards) modLog(c echo.Context) error {
	list, err := p.s.moderation.Log(c.Request().Context(), kit.Player(c))
	if err != nil {
		return guarded(c, err)
	}
	lang := languageOf(c)
	l := views.ModLog{Asset: p.s.asset}
	for _, e := range list {
		me := views.ModEntry{At: stamp(lang, e.At), Moderator: e.ModeratorName, Action: string(e.Action), Player: e.PlayerName, Report: e.Report, Why: e.Why}
		if e.Moderator == "" { // the server's own action (banchess admin)
			me.Moderator = lang.T("mod.server")
		}
		if !e.Until.IsZero() {
			me.Until = stamp(lang, e.Until)
		}
		l.Entries = append(l.Entries, me)
	}
	return render(c, http.StatusOK, views.ModLogPage(l))
}

// act does the form's action for a moderator, then shows /mod again
// (Post/Redirect/Get); refused, /mod with the message.
func (p *guards) act(c echo.Context) error {
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
	a := moderation.Act{Action: moderation.Action(f.Get("action")), Player: f.Get("player"), Report: f.Get("report"), Why: f.Get("why")}
	if a.Action == moderation.Dismiss {
		a.Player = ""
	}
	if a.Action == moderation.Mute {
		if a.For, err = time.ParseDuration(f.Get("for")); err != nil {
			a.For = -1 // refused by Do as a length it does not take
		}
	}
	if _, err := p.s.moderation.Do(ctx, cred, a); err != nil {
		return kit.Shown(guarded(c, err), func(status int, e *errs.Error) error {
			return p.showMod(c, status, "", sayRefusal(c, e))
		})
	}
	return c.Redirect(http.StatusSeeOther, "/mod?done="+url.QueryEscape(string(a.Action)))
}
