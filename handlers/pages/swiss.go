package pages

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/tournament"
	"github.com/banchess/banchess/views"
)

// swissSettings reads a Swiss event's rounds and interval from the
// creation form when its kind is swiss.
func swissSettings(st tournament.Settings, form url.Values) (tournament.Settings, error) {
	if form.Get("kind") != string(tournament.Swiss) {
		return st, nil
	}
	st.Kind = tournament.Swiss
	for _, x := range []struct {
		name   string
		to     *int
		detail errs.Detail
	}{{"rounds", &st.Rounds, errs.BadRounds}, {"interval", &st.Interval, errs.BadInterval}} {
		v := strings.TrimSpace(form.Get(x.name))
		if v == "" && x.name == "interval" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return st, errs.Errorf(errs.Invalid, "%q is not a whole number of %s.", kit.TrimText(v), x.name).WithDetail(x.detail)
		}
		*x.to = n
	}
	return st, nil
}

// swissRound describes t's current round: its boards and its bye.
func swissRound(t *tournament.Tournament, now time.Time) *views.SwissRound {
	r := &views.SwissRound{Round: t.Round, Rounds: t.Rounds, Interval: t.Interval}
	name := func(id string) string {
		if p := t.Player(id); p != nil {
			return p.Name
		}
		return ""
	}
	for i, p := range tournament.Boards(t, t.Round) {
		b := views.SwissBoard{Number: i + 1, White: name(p.White), Black: name(p.Black), Game: p.Game}
		switch {
		case !p.Done:
		case p.Aborted && p.Idle == rules.White:
			b.Result = "−/+"
		case p.Aborted && p.Idle == rules.Black:
			b.Result = "+/−"
		case p.Aborted:
			b.Result = "−/−"
		case p.Winner == rules.White:
			b.Result = "1-0"
		case p.Winner == rules.Black:
			b.Result = "0-1"
		default:
			b.Result = "½-½"
		}
		r.Boards = append(r.Boards, b)
	}
	if t.Round > 0 && t.Round <= len(t.Byes) {
		r.Bye = name(t.Byes[t.Round-1])
	}
	return r
}

// swissCountdown says in l what a Swiss event waits for at now.
func swissCountdown(l *i18n.Language, t *tournament.Tournament, now time.Time) (string, int64) {
	switch {
	case t.Status == tournament.Finished:
		return l.T("tourney.countdown.finished"), 0
	case now.Before(t.Starts):
		return countdown(l, t, now)
	case t.Round == 0:
		return l.T("tourney.countdown.pairing"), 0
	}
	return l.T("tourney.round", "Round", l.Number(t.Round), "Rounds", l.Number(t.Rounds)), 0
}

// swissRow writes a Swiss standing's tiebreaks into row.
func swissRow(row *views.StandingRow, r tournament.Standing) {
	row.Buchholz = views.Halves(r.Buchholz)
	sb := r.SonnebornBerger
	row.SonnebornBerger = strconv.Itoa(sb / 4)
	if q := sb % 4; q != 0 {
		row.SonnebornBerger += []string{"", ".25", ".5", ".75"}[q]
	}
}

// swissGame reports whether tournament id is a Swiss event, whose games
// are not berserked.
func (p *core) swissGame(c echo.Context, id string) bool {
	if p.s.tournaments == nil {
		return false
	}
	t, err := p.s.tournaments.Tournament(c.Request().Context(), id)
	return err == nil && t.Kind == tournament.Swiss
}
