package pages

import (
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// forecasts stores the lines typed in the game page's forecast form (one
// a row, actions separated by spaces) as the viewer's forecasts, in place
// of theirs; an empty form clears them.
func (p *play) forecasts(c echo.Context, id string, o *views.Options) error {
	var lines [][]string
	for row := range strings.SplitSeq(c.Request().Form.Get("lines"), "\n") {
		if words := strings.Fields(row); len(words) > 0 {
			lines = append(lines, words)
		}
	}
	if _, err := games.ForecastsOf(p.s.kit.Games().Service).Set(c.Request().Context(), id, kit.Player(c), lines); err != nil {
		return err
	}
	return p.core.done(c, id, *o)
}

// forecastView is side's forecasts at rec, for its player's page: each
// line's actions from the position now (what storing it again takes).
func forecastView(rec *games.Record, side rules.Color) views.Forecast {
	f := views.Forecast{URL: templ.SafeURL(kit.GamePath(rec.ID) + "/forecasts"), Board: templ.SafeURL(kit.GamePath(rec.ID) + "/analysis#forecast-board"),
		Open: rec.Game.Turn().Actor != side}
	for _, l := range rec.Forecasts.Of(side) {
		if n := rec.Game.Ply() - l.Ply; n >= 0 && n < len(l.Actions) {
			f.Lines = append(f.Lines, strings.Join(l.Actions[n:], " "))
		}
	}
	return f
}

// forecaster is the side whose forecasts the holder of seats keeps at
// rec: a player of a correspondence game in play while the opponent is
// to act (as games.ForecastBook.Set allows); 0 for none.
func forecaster(rec *games.Record, seats games.Seats) rules.Color {
	var side rules.Color
	switch {
	case seats.White && !seats.Black:
		side = rules.White
	case seats.Black && !seats.White:
		side = rules.Black
	default:
		return 0
	}
	g := rec.Game
	if rec.Mode != games.Invite || rec.Clock == nil || !rec.Clock.Control.Correspondence() || g.Outcome().Over() || g.Turn().Actor == side {
		return 0
	}
	return side
}

// forecastBoard is the forecasts of the holder of seats on rec's
// analysis board at b, whose own line from there is pending; nil when
// they keep none there.
func forecastBoard(rec *games.Record, seats games.Seats, b boardSpot, pending []views.LinePly) *views.ForecastBoard {
	side := forecaster(rec, seats)
	if side == 0 {
		return nil
	}
	base := kit.GamePath(rec.ID) + "/forecasts/"
	fb := &views.ForecastBoard{Lines: forecastView(rec, side).Lines, Delete: templ.SafeURL(base + "delete"), Flip: b.flip}
	if len(b.Line) == 0 && b.N == len(rec.Game.Actions()) && len(b.moves) > 0 {
		fb.Save, fb.Moves = templ.SafeURL(base+"save"), strings.Join(b.moves, ",")
		said := make([]string, 0, len(pending))
		for _, p := range pending {
			said = append(said, strings.TrimSpace(p.Number+" "+p.Text))
		}
		fb.Said = strings.Join(said, " ")
	}
	return fb
}

// forecastsFrom reports whether b is where the holder of seats plays a
// line to forecast at rec, in play: the position now, with their line
// kept in the page (the engine and the game's variations stay closed).
func forecastsFrom(rec *games.Record, seats games.Seats, b boardSpot) bool {
	return forecaster(rec, seats) != 0 && len(b.Line) == 0 && b.N == len(rec.Game.Actions())
}
