package pages

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/tournament"
	"github.com/banchess/banchess/views"
)

// Tournaments are the tournaments as the pages use them
// (tournament.Service).
type Tournaments interface {
	List(ctx context.Context) (tournament.Lists, error)
	Tournament(ctx context.Context, id string) (*tournament.Tournament, error)
	Viewer(ctx context.Context, cred players.Credential) (string, error)
	Create(ctx context.Context, cred players.Credential, st tournament.Settings) (*tournament.Tournament, error)
	Join(ctx context.Context, id string, cred players.Credential) error
	Withdraw(ctx context.Context, id string, cred players.Credential) error
	Berserk(ctx context.Context, game string, cred players.Credential) error
	Results(ctx context.Context, player string, limit int) ([]tournament.Result, error)
}

// arenas are the tournaments' pages: the list, the form that creates
// one, each tournament's page and the part of it that changes, and its
// buttons.
type arenas struct {
	s    *deps
	core *core
}

// StandingsPageSize is how many rows a page of standings shows.
const StandingsPageSize = 20

// tournamentRoutes adds the tournaments' pages.
func (p *arenas) tournamentRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/tournaments", p.list)
	get("/tournaments/new", p.form)
	e.POST("/tournaments/new", p.create)
	get("/tournament/:id", p.show)
	get("/tournament/:id/standings", p.standings)
	e.POST("/tournament/:id/join", p.act(func(ctx context.Context, id string, c echo.Context) error {
		return p.s.tournaments.Join(ctx, id, kit.Player(c))
	}))
	e.POST("/tournament/:id/withdraw", p.act(func(ctx context.Context, id string, c echo.Context) error {
		return p.s.tournaments.Withdraw(ctx, id, kit.Player(c))
	}))
	e.POST("/tournament/:id/berserk", p.act(func(ctx context.Context, id string, c echo.Context) error {
		return p.s.tournaments.Berserk(ctx, c.Request().Form.Get("game"), kit.Player(c))
	}))
}

// list shows the tournaments now, to come and finished.
func (p *arenas) list(c echo.Context) error {
	ctx := c.Request().Context()
	l, err := p.s.tournaments.List(ctx)
	if err != nil {
		return err
	}
	me, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil {
		return err
	}
	now, lang := p.s.now(), languageOf(c)
	v := views.TournamentList{Asset: p.s.asset, Named: me.Named()}
	for _, x := range []struct {
		from []*tournament.Tournament
		to   *[]views.TournamentRow
	}{{l.Now, &v.Now}, {l.Upcoming, &v.Upcoming}, {l.Finished, &v.Finished}} {
		for _, t := range x.from {
			*x.to = append(*x.to, tournamentRow(lang, t, now))
		}
	}
	return render(c, http.StatusOK, views.TournamentsPage(v))
}

// tournamentRow is t as a list shows it, in l.
func tournamentRow(l *i18n.Language, t *tournament.Tournament, now time.Time) views.TournamentRow {
	r := views.TournamentRow{ID: t.ID, Name: l.Say(t.Title()), Variant: variantName(t.Variant), Clock: t.Clock.String(), Minutes: t.Minutes, Players: len(t.Players), Rated: t.Rated, Rounds: t.Rounds}
	switch {
	case t.Status == tournament.Created:
		r.When = l.T("tourney.when.starts", "Time", clockTime(l, t.Starts, now))
	case t.Kind == tournament.Swiss && t.Status == tournament.Started:
		r.When = l.T("tourney.when.round", "Round", l.Number(t.Round), "Rounds", l.Number(t.Rounds))
	case t.Kind == tournament.Swiss:
		r.When = l.T("tourney.when.finished")
	case t.Status == tournament.Started:
		r.When = l.T("tourney.when.ends", "Time", clockTime(l, t.Ends(), now))
	default:
		r.When = l.T("tourney.when.ended", "Time", clockTime(l, t.Ends(), now))
	}
	return r
}

// clockTime writes t in UTC as l writes times: its time of day, with its
// date unless it is now's.
func clockTime(l *i18n.Language, t, now time.Time) string {
	t, now = t.UTC(), now.UTC()
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return l.T("tourney.time", "Time", t.Format("15:04"))
	}
	return views.DateTimeText(l, t)
}

// form shows the form that creates a tournament, with its defaults.
func (p *arenas) form(c echo.Context) error {
	me, err := p.s.players.Identify(c.Request().Context(), kit.Player(c))
	if err != nil {
		return err
	}
	f := views.TournamentForm{Asset: p.s.asset, Variants: p.s.variants, Clock: "3+2", Minutes: 45, Rated: true, Named: me.Named(),
		Kind: string(tournament.Arena), Rounds: 7}
	if !me.Named() {
		f.Error = languageOf(c).T("tourney.new.namedOnly")
	}
	return render(c, http.StatusOK, views.TournamentNewPage(f))
}

// create creates a tournament from the form and goes to its page; a
// refusal shows the form again with what was posted.
func (p *arenas) create(c echo.Context) error {
	if err := c.Request().ParseForm(); err != nil {
		return kit.BodyError(err, "The form could not be read: "+err.Error())
	}
	form := c.Request().Form
	f := views.TournamentForm{Asset: p.s.asset, Variants: p.s.variants, Name: form.Get("name"), Variant: form.Get("variant"),
		Clock: form.Get("clock"), Starts: form.Get("starts"), Rated: form.Get("rated") == "1", Named: true, Kind: form.Get("kind")}
	st, err := tournamentSettings(form.Get("minutes"), f)
	if err == nil {
		st, err = swissSettings(st, form)
	}
	f.Rounds, f.Interval = st.Rounds, st.Interval
	if err == nil {
		f.Minutes = st.Minutes
		var t *tournament.Tournament
		if t, err = p.s.tournaments.Create(c.Request().Context(), kit.Player(c), st); err == nil {
			return c.Redirect(http.StatusSeeOther, views.TournamentPath(t.ID))
		}
	}
	return kit.Shown(err, func(status int, e *errs.Error) error {
		f.Error = e.Msg
		return render(c, status, views.TournamentNewPage(f))
	})
}

// tournamentSettings reads the form's settings: minutes a whole number,
// the start a local date and time read as UTC ("" for now).
func tournamentSettings(minutes string, f views.TournamentForm) (tournament.Settings, error) {
	st := tournament.Settings{Kind: tournament.Arena, Name: f.Name, Variant: f.Variant, Clock: f.Clock, Rated: f.Rated}
	n, err := strconv.Atoi(strings.TrimSpace(minutes))
	if err != nil && f.Kind == string(tournament.Swiss) {
		n, err = 0, nil // a Swiss event has rounds instead
	}
	if err != nil {
		return st, errs.Errorf(errs.Invalid, "%q is not a number of minutes.", kit.TrimText(minutes)).WithDetail(errs.BadDuration)
	}
	st.Minutes = n
	if s := strings.TrimSpace(f.Starts); s != "" {
		at, err := time.Parse("2006-01-02T15:04", s)
		if err != nil {
			return st, errs.Errorf(errs.Invalid, "%q is not a date and time, such as 2026-12-24T18:00.", kit.TrimText(s)).WithDetail(errs.BadStart)
		}
		st.Starts = at
	}
	return st, nil
}

// act runs do on tournament id with the form read, and goes back to its
// page; a refusal shows the page with its message.
func (p *arenas) act(do func(ctx context.Context, id string, c echo.Context) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Param("id")
		if err := c.Request().ParseForm(); err != nil {
			return kit.BodyError(err, "The form could not be read: "+err.Error())
		}
		err := do(c.Request().Context(), id, c)
		if err == nil {
			to := views.TournamentPath(id)
			switch {
			case strings.HasSuffix(c.Path(), "/join"):
				// The page, from now on, goes to each game the player is
				// paired into.
				to += "?since=" + strconv.FormatInt(p.s.now().UnixMilli(), 10)
			case strings.HasSuffix(c.Path(), "/berserk"):
				to = kit.GamePath(c.Request().Form.Get("game")) // to play it
			}
			return c.Redirect(http.StatusSeeOther, to)
		}
		if !kit.ShowAgain(err) {
			return err
		}
		return kit.Shown(err, func(status int, e *errs.Error) error {
			v, err := p.page(c, id)
			if err != nil {
				return err
			}
			v.Error = e.Msg
			return render(c, status, views.TournamentShow(v))
		})
	}
}

// show shows tournament id; a page that follows the player (?since=)
// goes to the game they were paired into since.
func (p *arenas) show(c echo.Context) error {
	v, err := p.page(c, c.Param("id"))
	if err != nil {
		return kit.Titled(languageOf(c).T("error.title.noTournament"), err)
	}
	if v.GoTo != "" {
		return c.Redirect(http.StatusSeeOther, v.GoTo)
	}
	return render(c, http.StatusOK, views.TournamentShow(v))
}

// standings answers the part of tournament id's page that changes; htmx
// goes to the game the player was paired into since the page's since.
func (p *arenas) standings(c echo.Context) error {
	v, err := p.page(c, c.Param("id"))
	if err != nil {
		return err
	}
	if v.GoTo != "" {
		c.Response().Header().Set("HX-Redirect", v.GoTo)
	}
	return render(c, http.StatusOK, views.TournamentStandings(v))
}

// tournamentSince reads a tournament page's ?since= (unix ms): the page
// goes to any game its player is paired into from then on. Zero: none.
func tournamentSince(c echo.Context) int64 {
	ms, err := strconv.ParseInt(c.QueryParam("since"), 10, 64)
	if err != nil || ms < 0 {
		return 0
	}
	return ms
}

// page describes tournament id for the request's viewer, with the page
// of standings its query asks for.
func (p *arenas) page(c echo.Context, id string) (views.TournamentPage, error) {
	ctx := c.Request().Context()
	t, err := p.s.tournaments.Tournament(ctx, id)
	if err != nil {
		return views.TournamentPage{}, err
	}
	me, err := p.s.players.Identify(ctx, kit.Player(c))
	if err != nil {
		return views.TournamentPage{}, err
	}
	now, l := p.s.now(), languageOf(c)
	v := views.TournamentPage{Asset: p.s.asset, ID: t.ID, Name: l.Say(t.Title()), Variant: variantName(t.Variant), Clock: t.Clock.String(),
		Minutes: t.Minutes, Rated: t.Rated, Status: string(t.Status), Starts: clockTime(l, t.Starts, now), Ends: clockTime(l, t.Ends(), now),
		Named: me.Named(), Players: len(t.Players), Live: t.Status != tournament.Finished}
	v.Countdown, v.CountdownAt = countdown(l, t, now)
	rows := tournament.Standings(t)
	if t.Kind == tournament.Swiss {
		v.Swiss = swissRound(t, now)
		v.Countdown, v.CountdownAt = swissCountdown(l, t, now)
	}
	for _, r := range rows {
		if r.Player == me.ID && me.ID != "" {
			v.Joined, v.Withdrawn, v.Game = true, r.Paused, r.Game
		}
	}
	if v.Since = tournamentSince(c); v.Since != 0 && v.Game != "" {
		if pr := t.Playing(me.ID); pr != nil && pr.Started.UnixMilli() >= v.Since {
			v.GoTo = kit.GamePath(pr.Game)
		}
	}
	if t.Status == tournament.Finished {
		for _, r := range rows[:min(3, len(rows))] {
			v.Podium = append(v.Podium, standingRow(r, me.ID))
		}
	}
	v.Pages = max(1, (len(rows)+StandingsPageSize-1)/StandingsPageSize)
	v.Page = min(max(1, seekPageOf(c)), v.Pages)
	from := (v.Page - 1) * StandingsPageSize
	for _, r := range rows[from:min(len(rows), from+StandingsPageSize)] {
		v.Standings = append(v.Standings, standingRow(r, me.ID))
	}
	if v.Swiss != nil {
		for i := range v.Podium {
			swissRow(&v.Podium[i], rows[i])
		}
		for i := range v.Standings {
			swissRow(&v.Standings[i], rows[from+i])
		}
	}
	return v, nil
}

func standingRow(r tournament.Standing, me string) views.StandingRow {
	row := views.StandingRow{Rank: r.Rank, Name: r.Name, Rating: r.Rating, Score: r.Score, Performance: r.Performance,
		Fire: r.Fire, Withdrawn: r.Paused, Mine: r.Player == me, Game: r.Game}
	for _, m := range r.Sheet {
		row.Sheet = append(row.Sheet, views.SheetMark{Points: m.Points, Fire: m.Fire, Berserk: m.Berserk})
	}
	return row
}

// countdown says in l what t waits for at now, and when that comes (unix
// ms; 0 for nothing).
func countdown(l *i18n.Language, t *tournament.Tournament, now time.Time) (string, int64) {
	left := func(to time.Time) string {
		d := max(0, to.Sub(now).Round(time.Second))
		h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
		if h > 0 {
			return fmt.Sprintf("%d:%02d:%02d", h, m, s)
		}
		return fmt.Sprintf("%d:%02d", m, s)
	}
	switch {
	case t.Status == tournament.Finished:
		return l.T("tourney.countdown.finished"), 0
	case now.Before(t.Starts):
		return l.T("tourney.countdown.starts", "Left", left(t.Starts)), t.Starts.UnixMilli()
	case now.Before(t.Ends()):
		return l.T("tourney.countdown.ends", "Left", left(t.Ends())), t.Ends().UnixMilli()
	}
	return l.T("tourney.countdown.timeUp"), 0
}

// tournamentResults are player's latest finished tournaments for their
// profile, their dates written in l; none when the server runs no
// tournaments.
func (s *deps) tournamentResults(ctx context.Context, l *i18n.Language, player string) ([]views.TournamentResult, error) {
	if s.tournaments == nil {
		return nil, nil
	}
	list, err := s.tournaments.Results(ctx, player, 10)
	if err != nil {
		return nil, err
	}
	var out []views.TournamentResult
	for _, r := range list {
		out = append(out, views.TournamentResult{ID: r.Tournament, Name: l.Say(r.Title()), Rank: r.Rank, Players: r.Players, Score: r.Score, Swiss: r.Kind == tournament.Swiss, Date: views.DateText(l, r.Ended)})
	}
	return out, nil
}
