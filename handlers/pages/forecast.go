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
	f := views.Forecast{URL: templ.SafeURL(kit.GamePath(rec.ID) + "/forecasts"), Open: rec.Game.Turn().Actor != side}
	for _, l := range rec.Forecasts.Of(side) {
		if n := rec.Game.Ply() - l.Ply; n >= 0 && n < len(l.Actions) {
			f.Lines = append(f.Lines, strings.Join(l.Actions[n:], " "))
		}
	}
	return f
}
