package pages

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/i18n"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/ruletext"
	"github.com/banchess/banchess/views"
)

// ProfilePageSize is how many games a page of a profile lists.
const ProfilePageSize = 20

// profileRoutes adds the players' pages: a profile each, and the lists of
// the highest rated.
func (p *accounts) profileRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/@/:name", p.profile)
	get("/players", p.leaders)
}

// profile shows a player: ratings, results, and their games newest first;
// ?before= (the last game of the page before, as "<unix ms>.<id>") pages
// back.
func (p *accounts) profile(c echo.Context) error {
	ctx := c.Request().Context()
	pl, err := p.s.players.Named(ctx, c.Param("name"))
	if err != nil {
		return kit.Titled(languageOf(c).T("error.title.noPlayer"), err)
	}
	before, err := playedCursor(c.QueryParam("before"))
	if err != nil {
		return err
	}
	standings, err := p.s.players.Standings(ctx, pl.ID)
	if err != nil {
		return err
	}
	list, err := p.s.players.PlayedGames(ctx, pl.ID, before, ProfilePageSize+1)
	if err != nil {
		return err
	}
	v := views.Profile{Asset: p.s.asset, Name: pl.Name, Wins: pl.Wins, Losses: pl.Losses, Draws: pl.Draws}
	if v.Relation, err = p.profileRelation(c, pl.Name); err != nil {
		return err
	}
	if v.Closed, err = p.s.players.Closed(ctx, pl.ID); err != nil {
		return err
	}
	if v.Challenge, err = p.s.challengeForm(c, pl); err != nil {
		return err
	}
	for _, st := range standings {
		v.Ratings = append(v.Ratings, views.RatingRow{Variant: variantName(st.Variant), Speed: string(st.Speed),
			Rating: ratingText(st.Rating), Deviation: int(math.Round(st.Rating.Deviation)), Games: st.Games})
	}
	if len(list) > ProfilePageSize {
		list = list[:ProfilePageSize]
		last := list[len(list)-1]
		v.Next = views.ProfilePath(pl.Name) + "?before=" + strconv.FormatInt(last.Ended.UnixMilli(), 10) + "." + last.Game
	}
	for _, g := range list {
		v.Games = append(v.Games, playedRow(languageOf(c), g))
	}
	if v.Tournaments, err = p.s.tournamentResults(ctx, languageOf(c), pl.ID); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ProfilePage(v))
}

// playedCursor reads a profile's ?before=: "<unix ms>.<game id>", or ""
// for the newest.
func playedCursor(raw string) (players.PlayedGamesCursor, error) {
	if raw == "" {
		return players.PlayedGamesCursor{}, nil
	}
	ms, id, ok := strings.Cut(raw, ".")
	n, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil || !kit.ValidID(id) {
		return players.PlayedGamesCursor{}, &errs.Error{Code: errs.Invalid, Msg: "\"" + kit.TrimText(raw) + "\" is not a place in a list of games."}
	}
	return players.PlayedGamesCursor{Ended: time.UnixMilli(n), Game: id}, nil
}

// ratingText writes a rating as players read it: "1500?" while
// provisional.
func ratingText(r rating.Rating) string {
	return games.Entrant{Rating: int(math.Round(r.Rating)), Provisional: r.Provisional()}.RatingText()
}

// playedRow describes a finished game in a profile's list.
func playedRow(l *i18n.Language, g players.PlayedGame) views.PlayedRow {
	row := views.PlayedRow{URL: kit.GamePath(g.Game), Opponent: g.Opponent, Color: g.Color.String(), Ending: ruletext.StoredEnding(l, g.Ending),
		Variant: variantName(g.Variant), Speed: string(g.Speed), Rated: g.Rated, Date: views.DateText(l, g.Ended)}
	row.Board, _, _ = strings.Cut(g.FEN, " ")
	opponent := g.Opponent
	if opponent == "" {
		opponent = l.T("players.anonymous")
	}
	switch g.Score {
	case rating.Win:
		row.Result = l.T(byColor(g.Color, "profile.won.w", "profile.won.b"), "Opponent", opponent)
	case rating.Loss:
		row.Result = l.T(byColor(g.Color, "profile.lost.w", "profile.lost.b"), "Opponent", opponent)
	default:
		row.Result = l.T(byColor(g.Color, "profile.drawn.w", "profile.drawn.b"), "Opponent", opponent)
	}
	if g.Rated {
		row.Change = strconv.FormatFloat(math.Round(g.After-g.Before), 'f', 0, 64)
		if g.After >= g.Before {
			row.Change = "+" + row.Change
		}
	}
	return row
}

// leaders lists the highest rated players of a variant (?variant=, Ban
// Chess by default) at each speed.
func (p *accounts) leaders(c echo.Context) error {
	v, err := p.s.loader.Variant(c.QueryParam("variant"))
	if err != nil {
		return err
	}
	l := views.Leaders{Asset: p.s.asset, Variant: v.ID(), Variants: p.s.lobbyVariants(), MinGames: players.LeaderGames}
	for _, sp := range rating.Speeds() {
		list, err := p.s.players.Leaders(c.Request().Context(), v.ID(), sp)
		if err != nil {
			return err
		}
		ls := views.LeaderSpeed{Speed: string(sp)}
		for i, ld := range list {
			ls.Rows = append(ls.Rows, views.LeaderRow{Rank: i + 1, Name: ld.Name, Rating: ratingText(ld.Standing.Rating), Games: ld.Standing.Games, Established: ld.Established()})
		}
		l.Speeds = append(l.Speeds, ls)
	}
	return render(c, http.StatusOK, views.LeadersPage(l))
}
