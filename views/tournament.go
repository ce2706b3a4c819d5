package views

import (
	"context"
	"strconv"
	"strings"
)

// TournamentPath is the address of tournament id's page.
func TournamentPath(id string) string { return "/tournament/" + id }

// TournamentRow is a tournament as a list shows it.
type TournamentRow struct {
	ID, Name, Variant, Clock string
	Minutes, Players         int
	Rated                    bool
	Rounds                   int // a Swiss event's; 0 for an arena
	// When says when it starts, ends or ended, in words ("starts 14:00
	// UTC").
	When string
}

// URL is the row's tournament's page.
func (r TournamentRow) URL() string { return TournamentPath(r.ID) }

// TournamentList is the tournaments' page: those playing now, those to
// come, and the latest finished.
type TournamentList struct {
	Asset                   string
	Now, Upcoming, Finished []TournamentRow
	// Named says the viewer may create one.
	Named bool
}

// TournamentForm is the form that creates a tournament.
type TournamentForm struct {
	Asset    string
	Variants []Variant
	Error    string
	// The values shown: the last posted, or the defaults.
	Name, Variant, Clock, Starts string
	Minutes                      int
	Rated, Named                 bool
	// Kind is "arena" or "swiss"; Rounds and Interval (seconds) a Swiss
	// event's.
	Kind             string
	Rounds, Interval int
}

// SheetMark is one game on a score sheet.
type SheetMark struct {
	Points        int
	Fire, Berserk bool
}

// StandingRow is a player's row in a tournament's standings.
type StandingRow struct {
	Rank                  int
	Name                  string
	Rating, Score         int
	Performance           int
	Sheet                 []SheetMark
	Fire, Withdrawn, Mine bool
	// Game is the player's game on now, "" for none.
	Game string
	// A Swiss event's tiebreaks, in points ("3.5"); Score is then in
	// half-points (Points writes it).
	Buchholz, SonnebornBerger string
}

// SheetText writes the sheet as "2 4 4 0 1".
func (r StandingRow) SheetText() string {
	var b strings.Builder
	for i, m := range r.Sheet {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(m.Points))
	}
	return b.String()
}

// TournamentPage is a tournament's page: its settings, a countdown, the
// viewer's place and game, the standings a page at a time, and the
// podium once it finished.
type TournamentPage struct {
	Asset                    string
	ID, Name, Variant, Clock string
	Minutes                  int
	Rated                    bool
	Status                   string // created, started, finished
	Starts, Ends             string // "14:00 UTC"
	Countdown                string // "Starts in 4:12", "Ends in 12:30", "Finished"
	CountdownAt              int64  // unix ms of what it counts to; 0 when finished
	Named, Joined, Withdrawn bool   // the viewer's
	Game                     string // the viewer's game on now, "" for none
	Error                    string
	Standings                []StandingRow
	Podium                   []StandingRow
	Page, Pages              int
	Players                  int
	// Live says the page follows the tournament (without scripts it
	// reloads itself; with them its standings are asked for again).
	Live bool
	// Since (unix ms; 0: none) is when the page began following its
	// player: a game they are paired into since sends the page to it
	// (GoTo, its address).
	Since int64
	GoTo  string
	// Swiss is a Swiss event's round, its boards and its standings' kind.
	Swiss *SwissRound
}

// URL is the page's address.
func (t TournamentPage) URL() string { return TournamentPath(t.ID) }

// PageURL is the address of page n of the standings.
func (t TournamentPage) PageURL(n int) string {
	return TournamentPath(t.ID) + "?page=" + strconv.Itoa(n) + t.sinceParam()
}

// StandingsURL is the address of the standings' fragment of the page.
func (t TournamentPage) StandingsURL() string {
	return TournamentPath(t.ID) + "/standings?page=" + strconv.Itoa(t.Page) + t.sinceParam()
}

func (t TournamentPage) sinceParam() string {
	if t.Since == 0 {
		return ""
	}
	return "&since=" + strconv.FormatInt(t.Since, 10)
}

// TournamentResult is a tournament a player finished, on their profile.
type TournamentResult struct {
	ID, Name             string
	Rank, Players, Score int
	Swiss                bool // Score is in half-points
	Date                 string
}

// Points writes the result's score in points.
func (r TournamentResult) Points() string {
	if r.Swiss {
		return Halves(r.Score)
	}
	return strconv.Itoa(r.Score)
}

// URL is the result's tournament's page.
func (r TournamentResult) URL() string { return TournamentPath(r.ID) }

// ratedText is "rated" or "casual" in the viewer's language.
func ratedText(ctx context.Context, rated bool) string {
	if rated {
		return tr(ctx, "challenge.banner.rated")
	}
	return tr(ctx, "challenge.banner.casual")
}

// pointsText counts a score in points in the viewer's language: a
// Swiss event's score is in half-points ("2.5 points").
func pointsText(ctx context.Context, score int, swiss bool) string {
	l := lang(ctx)
	switch {
	case !swiss:
		return l.N("tourney.points", score)
	case score%2 == 0:
		return l.N("tourney.points", score/2)
	}
	// A fraction takes the language's "other" form.
	return l.T("tourney.points", "Count", Halves(score))
}

// markTitle says what a mark on a score sheet was.
func markTitle(ctx context.Context, m SheetMark) string {
	s := lang(ctx).N("tourney.points", m.Points)
	if m.Fire {
		s += ", " + tr(ctx, "tourney.mark.fire")
	}
	if m.Berserk {
		s += ", " + tr(ctx, "tourney.mark.berserk")
	}
	return s
}
