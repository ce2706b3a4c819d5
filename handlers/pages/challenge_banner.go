package pages

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/views"
)

// withIncoming gives every page the banner of its viewer's incoming
// challenges (views.WithIncoming): read once, and only if the page draws
// its layout; none without challenges, for the API and static files, and
// on the challenges page, which lists them itself.
func withIncoming(s *deps) echo.MiddlewareFunc {
	return func(h echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			p := req.URL.Path
			if s.challenges == nil || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, kit.ImagePrefix) || p == "/challenges" {
				return h(c)
			}
			ctx := req.Context()
			in := sync.OnceValue(func() *views.Incoming {
				cred := kit.Player(c)
				if cred == "" {
					return nil
				}
				in, err := incomingBanner(ctx, s, cred, req.URL.RequestURI())
				if err != nil {
					s.log.ErrorContext(ctx, "reading a player's incoming challenges", "err", err)
				}
				return in
			})
			c.SetRequest(req.WithContext(views.WithIncoming(ctx, in)))
			return h(c)
		}
	}
}

// incomingBanner is the banner of cred's player's incoming challenges,
// on page back; nil for a player without a name, who is not challenged.
func incomingBanner(ctx context.Context, s *deps, cred players.Credential, back string) (*views.Incoming, error) {
	me, err := s.players.Identify(ctx, cred)
	if err != nil || !me.Named() {
		return nil, err
	}
	l, err := s.challenges.List(ctx, cred)
	if err != nil {
		return nil, err
	}
	in := &views.Incoming{Back: localPath(back)}
	for _, ch := range l.In {
		in.In = append(in.In, challengeRow(ch, ch.Challenger, ch.Color.Other()))
	}
	return in, nil
}

// localPath is back if it is a path of this site, else "/": a decline
// comes back there, never elsewhere.
func localPath(back string) string {
	u, err := url.Parse(back)
	if err != nil || !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.HasPrefix(back, "/\\") || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return back
}

// currentPage is the page an htmx request comes from (its
// HX-Current-URL), as a path of this site; "/" for none.
func currentPage(c echo.Context) string {
	u, err := url.Parse(c.Request().Header.Get("HX-Current-URL"))
	if err != nil || u.Path == "" {
		return "/"
	}
	return localPath(u.RequestURI())
}

// incoming is the banner of the challenges received, as htmx reads it
// again: "no change" (204, which htmx does not swap) while the
// challenges the page shows (the query's have) stand.
func (p *challengePages) incoming(c echo.Context) error {
	ctx := c.Request().Context()
	in := &views.Incoming{Back: currentPage(c)}
	if cred := kit.Player(c); cred != "" {
		got, err := incomingBanner(ctx, p.s, cred, in.Back)
		if err != nil {
			return err
		}
		if got != nil {
			in = got
		}
	}
	if c.QueryParams().Has("have") && c.QueryParam("have") == in.Have() {
		return c.NoContent(http.StatusNoContent)
	}
	return render(c, http.StatusOK, views.IncomingBanner(*in))
}

// declined answers a decline from the banner: with htmx the banner
// anew, else the page it was on.
func (p *challengePages) declined(c echo.Context, back string) error {
	back = localPath(back)
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, back)
	}
	in := &views.Incoming{Back: back}
	got, err := incomingBanner(c.Request().Context(), p.s, kit.Player(c), back)
	if err != nil {
		return err
	}
	if got != nil {
		in = got
	}
	return render(c, http.StatusOK, views.IncomingBanner(*in))
}

// bannerRow fills the terms the banner says in the viewer's language.
func bannerRow(r views.ChallengeRow, ch challenges.Challenge) views.ChallengeRow {
	r.Variant, r.Rated = variantName(ch.Variant), ch.Rated
	if ch.Timed() {
		r.Clock = ch.Clock.String()
	}
	return r
}
