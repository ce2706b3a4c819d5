package pages

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
)

// forecastPages are the analysis board's forecast forms: a line played
// on the board from the position now saved as a forecast, and a stored
// one deleted. The lines are the player's (games.ForecastBook), stored
// whole each time.
type forecastPages struct {
	s    *deps
	core *core
}

// forecastRoutes adds the analysis board's forecast forms.
func (p *forecastPages) forecastRoutes(e *echo.Echo) {
	e.POST("/g/:id/forecasts/save", p.save)
	e.POST("/g/:id/forecasts/delete", p.remove)
}

// stored returns the viewer's forecasts at game id, each its actions
// from the position now, with the game's first ply and its ply now.
func (p *forecastPages) stored(c echo.Context, id string) (lines [][]string, start, now int, err error) {
	err = p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, seats games.Seats) {
		start, now = rec.Game.StartPly(), rec.Game.Ply()
		if side := forecaster(rec, seats); side != 0 {
			for _, l := range forecastView(rec, side).Lines {
				lines = append(lines, strings.Fields(l))
			}
		}
	})
	return lines, start, now, err
}

// save adds the line the form holds (moves: BCN, comma-separated, from
// the position now) to the viewer's forecasts, and answers with the
// board at the position now, listing them.
func (p *forecastPages) save(c echo.Context) error {
	return p.edit(c, func(lines [][]string) ([][]string, error) {
		m := strings.TrimSpace(c.Request().Form.Get("moves"))
		if m == "" {
			return nil, kit.Invalidf("Play a line on the board first: your opponent's expected action, then your reply.")
		}
		line := strings.Split(m, ",")
		if slices.ContainsFunc(lines, func(l []string) bool { return slices.Equal(l, line) }) {
			return lines, nil
		}
		return append(lines, line), nil
	})
}

// remove deletes the viewer's forecast the form's index names, and
// answers with the board at the position now.
func (p *forecastPages) remove(c echo.Context) error {
	return p.edit(c, func(lines [][]string) ([][]string, error) {
		i, err := strconv.Atoi(c.Request().Form.Get("index"))
		if err != nil || i < 0 || i >= len(lines) {
			return nil, kit.Invalidf("%q names none of your forecasts.", kit.TrimText(c.Request().Form.Get("index")))
		}
		return slices.Delete(lines, i, i+1), nil
	})
}

// edit stores the viewer's forecasts at the path's game as change makes
// them from those stored; a refusal shows the board again with it.
func (p *forecastPages) edit(c echo.Context, change func([][]string) ([][]string, error)) error {
	if _, err := p.core.options(c); err != nil {
		return err
	}
	id := c.Param("id")
	lines, start, now, err := p.stored(c, id)
	if err != nil {
		return err
	}
	br := &browse{p.s, p.core}
	if lines, err = change(lines); err != nil {
		return br.lineRefused(c, id, err)
	}
	if _, err := games.ForecastsOf(p.s.kit.Games().Service).Set(c.Request().Context(), id, kit.Player(c), lines); err != nil {
		return br.lineRefused(c, id, err)
	}
	at := boardSpot{Spot: games.Spot{N: now - start}, flip: c.Request().Form.Get("flip") == "1"}
	return c.Redirect(http.StatusSeeOther, boardURL(id, start, at, 0)+"#forecast-board")
}
