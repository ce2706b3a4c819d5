package pages

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/notify"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// Inbox is a named player's notifications (notify.Service).
type Inbox interface {
	Inbox(ctx context.Context, cred players.Credential) (notify.Inbox, error)
	Unread(ctx context.Context, cred players.Credential) (int, bool, error)
	MarkRead(ctx context.Context, cred players.Credential, ids []string) error
	Settings(ctx context.Context, cred players.Credential) (notify.Settings, error)
	SetSettings(ctx context.Context, cred players.Credential, on []string) error
}

// inboxPages serve /inbox, its forms and what notify.js polls.
type inboxPages struct {
	s    *deps
	core *core
}

// inboxRoutes adds the inbox's page and forms.
func (p *inboxPages) inboxRoutes(e *echo.Echo, get func(string, echo.HandlerFunc)) {
	get("/inbox", p.page)
	get("/inbox/poll", p.poll)
	e.POST("/inbox/read", p.read)
	e.POST("/inbox/settings", p.settings)
}

// kindLabel names a kind of notification on the settings form.
func kindLabel(l *i18n.Language, k notify.Kind) string {
	switch k {
	case notify.YourTurn:
		return l.T("inbox.kind.yourTurn")
	case notify.GameEnded:
		return l.T("inbox.kind.gameEnded")
	case notify.Challenge:
		return l.T("inbox.kind.challenge")
	case notify.TournamentStarting:
		return l.T("inbox.kind.tournamentStarting")
	case notify.ForecastUsed:
		return l.T("inbox.kind.forecastUsed")
	}
	return string(k)
}

// page lists the viewer's notifications and their settings.
func (p *inboxPages) page(c echo.Context) error {
	ctx, cred := c.Request().Context(), kit.Player(c)
	in, err := p.s.inbox.Inbox(ctx, cred)
	if err != nil {
		return err
	}
	st, err := p.s.inbox.Settings(ctx, cred)
	if err != nil {
		return err
	}
	v := views.Inbox{Site: p.s.site(c), Unread: in.Unread, Saved: c.QueryParam("saved") == "1"}
	l, now := languageOf(c), p.s.now()
	for _, n := range in.Notifications {
		v.Notices = append(v.Notices, views.Notice{ID: n.ID, Kind: string(n.Kind), Text: n.Say(l), Link: n.Link,
			Time: views.DateTimeText(l, n.Time), Ago: views.AgoText(l, n.Time, now), When: n.Time.UTC().Format(time.RFC3339), Read: n.Read})
	}
	for _, k := range notify.Kinds() {
		v.Kinds = append(v.Kinds, views.NoticeKind{ID: string(k), Label: kindLabel(languageOf(c), k), On: st.Notifies(k)})
	}
	return render(c, http.StatusOK, views.InboxPage(v))
}

// poll answers notify.js: the unread count and the unread notifications,
// as GET /api/notifications does (JSON, for the page's cookie), their
// texts in the reader's language.
func (p *inboxPages) poll(c echo.Context) error {
	in, err := p.s.inbox.Inbox(c.Request().Context(), kit.Player(c))
	if err != nil {
		return err
	}
	unread := make([]notify.Notification, 0, in.Unread)
	l := languageOf(c)
	for _, n := range in.Notifications {
		if !n.Read {
			n.Text = n.Say(l)
			unread = append(unread, n)
		}
	}
	in.Notifications = unread
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, in)
}

// read marks the form's notification (id) read, or all of them.
func (p *inboxPages) read(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	var ids []string
	if id := strings.TrimSpace(f.Get("id")); id != "" {
		ids = []string{id}
	}
	if err := p.s.inbox.MarkRead(c.Request().Context(), kit.Player(c), ids); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/inbox")
}

// settings stores which kinds notify (the form's checked kinds).
func (p *inboxPages) settings(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	if err := p.s.inbox.SetSettings(c.Request().Context(), kit.Player(c), f["kind"]); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/inbox?saved=1")
}

// withBell gives every page the viewer's bell (views.WithBell): read
// once, and only if the page draws its layout; none without an inbox.
func (s *deps) withBell(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if p := req.URL.Path; s.inbox == nil || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, kit.ImagePrefix) {
			return h(c)
		}
		ctx := req.Context()
		b := sync.OnceValue(func() views.Bell {
			cred := kit.Player(c)
			if cred == "" {
				return views.Bell{}
			}
			n, named, err := s.inbox.Unread(ctx, cred)
			if err != nil {
				s.log.ErrorContext(ctx, "counting a player's notifications", "err", err)
			}
			return views.Bell{Named: named, Unread: n}
		})
		c.SetRequest(req.WithContext(views.WithBell(ctx, b)))
		return h(c)
	}
}
