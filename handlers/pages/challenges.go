package pages

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// Challenges are players' challenges as the pages use them
// (challenges.Service).
type Challenges interface {
	Create(ctx context.Context, cred players.Credential, dest string, t challenges.Terms) (challenges.Challenge, error)
	CreateOpen(ctx context.Context, cred players.Credential, t challenges.Terms, name string) (challenges.Challenge, error)
	Challenge(ctx context.Context, id string) (challenges.Challenge, error)
	AcceptAs(ctx context.Context, cred players.Credential, id, color string) (challenges.Challenge, error)
	List(ctx context.Context, cred players.Credential) (challenges.Lists, error)
	Accept(ctx context.Context, cred players.Credential, id string) (challenges.Challenge, error)
	Decline(ctx context.Context, cred players.Credential, id, reason string) (challenges.Challenge, error)
	Cancel(ctx context.Context, cred players.Credential, id string) (challenges.Challenge, error)
	Changed(ctx context.Context, player string, since time.Time) ([]challenges.Challenge, error)
}

// challengePages are the challenges' pages: the list of one's own, and
// the forms that make and answer them.
type challengePages struct {
	s    *deps
	core *core
}

// challengeClocks are the clocks a profile's challenge form offers, ""
// (none) first, then live clocks, then days a move.
func challengeClocks() []string {
	return append([]string{"", "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20"}, games.DaysChoices()...)
}

// challengeRoutes adds the challenges' pages and forms.
func (p *challengePages) challengeRoutes(e *echo.Echo, get func(string, echo.HandlerFunc)) {
	get("/challenges", p.page)
	get("/challenges/list", p.list)
	get("/challenges/incoming", p.incoming)
	get("/challenges/:id", p.openPage)
	e.POST("/challenges/new", p.create)
	e.POST("/challenges/open", p.createOpen)
	e.POST("/challenges/:id/accept", p.accept)
	e.POST("/challenges/:id/decline", p.decline)
	e.POST("/challenges/:id/cancel", p.cancel)
}

// view is the challenges page's model for the browser's player, and
// the game a challenge of theirs started since since ("" for none).
func (p *challengePages) view(c echo.Context, since time.Time) (views.Challenges, string, error) {
	ctx := c.Request().Context()
	v := views.Challenges{Asset: p.s.asset, List: "/challenges/list?since=" + strconv.FormatInt(since.UnixMilli(), 10)}
	me, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil || !me.Named() {
		return v, "", err
	}
	v.Named = true
	v.Open = &views.OpenForm{Variants: p.s.variants, Clocks: challengeClocks()}
	changed, err := p.s.challenges.Changed(ctx, me.ID, since)
	if err != nil {
		return v, "", err
	}
	for _, ch := range changed {
		if ch.Challenger.ID != me.ID || ch.Updated.Before(since) {
			continue
		}
		switch ch.Status {
		case challenges.Accepted:
			return v, ch.Game, nil
		case challenges.Declined:
			r := challengeRow(ch, ch.Dest, ch.Color)
			r.Reason = ch.Reason
			v.Declined = append(v.Declined, r)
		}
	}
	l, err := p.s.challenges.List(ctx, kit.Player(c))
	if err != nil {
		return v, "", err
	}
	for _, ch := range l.In {
		v.In = append(v.In, challengeRow(ch, ch.Challenger, ch.Color.Other()))
	}
	for _, ch := range l.Out {
		r := challengeRow(ch, ch.Dest, ch.Color)
		if ch.Anyone {
			r.Link = openPath(ch.ID)
		}
		v.Out = append(v.Out, r)
	}
	return v, "", nil
}

// challengeRow describes ch to the player who plays side against other.
func challengeRow(ch challenges.Challenge, other challenges.Side, side rules.Color) views.ChallengeRow {
	r := views.ChallengeRow{ID: ch.ID, Name: other.Name, Bot: other.Bot, Color: "random",
		Rating: games.Entrant{Name: other.Name, Rating: other.Rating, Provisional: other.Provisional}.RatingText()}
	if ch.Color != 0 {
		r.Color = side.String()
	}
	return bannerRow(r, ch)
}

// page shows the browser's player's challenges; one of theirs accepted
// since the page's since takes them to its game.
func (p *challengePages) page(c echo.Context) error {
	v, game, err := p.view(c, kit.LobbySince(c, p.s.now()))
	if err != nil {
		return err
	}
	if game != "" {
		return c.Redirect(http.StatusSeeOther, kit.GamePath(game))
	}
	return render(c, http.StatusOK, views.ChallengesPage(v))
}

// list is the page's lists alone, for htmx; a challenge accepted since
// the page's since takes the page to its game.
func (p *challengePages) list(c echo.Context) error {
	v, game, err := p.view(c, kit.LobbySince(c, p.s.now()))
	if err != nil {
		return err
	}
	if game != "" {
		c.Response().Header().Set("HX-Redirect", kit.GamePath(game))
		return c.NoContent(http.StatusNoContent)
	}
	return render(c, http.StatusOK, views.ChallengeLists(v))
}

// create challenges the player the form names with its terms, and shows
// the challenges page, which follows the challenger to the game.
func (p *challengePages) create(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	t := challenges.Terms{Variant: f.Get("variant"), Color: f.Get("color"), Rated: f.Get("rated") == "yes"}
	if clock := f.Get("clock"); clock != "" {
		tc, _, err := games.ParseTimeControl(clock)
		if err != nil {
			return err
		}
		t.Clock = tc
	}
	since := p.s.now()
	if _, err := p.s.challenges.Create(c.Request().Context(), kit.Player(c), f.Get("dest"), t); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/challenges?since="+strconv.FormatInt(since.UnixMilli(), 10))
}

// accept accepts the path's challenge (an open one as the form's
// color) and goes to its game.
func (p *challengePages) accept(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	ch, err := p.s.challenges.AcceptAs(c.Request().Context(), kit.Player(c), c.Param("id"), f.Get("color"))
	if err != nil {
		return p.refusedOpen(c, err)
	}
	return c.Redirect(http.StatusSeeOther, kit.GamePath(ch.Game))
}

// decline declines the path's challenge for the form's reason.
func (p *challengePages) decline(c echo.Context) error {
	f, err := p.core.form(c)
	if err != nil {
		return err
	}
	if _, err := p.s.challenges.Decline(c.Request().Context(), kit.Player(c), c.Param("id"), f.Get("reason")); err != nil {
		return p.refused(c, err)
	}
	if f.Get("banner") != "" {
		return p.declined(c, f.Get("back"))
	}
	return c.Redirect(http.StatusSeeOther, "/challenges")
}

// cancel cancels the browser's player's challenge of the path.
func (p *challengePages) cancel(c echo.Context) error {
	if _, err := p.s.challenges.Cancel(c.Request().Context(), kit.Player(c), c.Param("id")); err != nil {
		return p.refused(c, err)
	}
	return c.Redirect(http.StatusSeeOther, "/challenges")
}

// refused shows the challenges page again with a refusal's message, at
// its status.
func (p *challengePages) refused(c echo.Context, err error) error {
	return kit.Shown(err, func(status int, e *errs.Error) error {
		v, _, verr := p.view(c, p.s.now())
		if verr != nil {
			return verr
		}
		v.Error = e.Msg
		return render(c, status, views.ChallengesPage(v))
	})
}

// challengeForm is the form to challenge pl on their profile, for the
// browser's player; nil when not offered (their own profile, no name, or
// no challenges).
func (s *deps) challengeForm(c echo.Context, pl players.Player) (*views.ChallengeForm, error) {
	if s.challenges == nil {
		return nil, nil
	}
	me, err := s.players.Identify(c.Request().Context(), kit.Player(c))
	if err != nil || !me.Named() || me.ID == pl.ID {
		return nil, err
	}
	return &views.ChallengeForm{Dest: pl.Name, Variants: s.variants, Clocks: challengeClocks(), Named: true}, nil
}
