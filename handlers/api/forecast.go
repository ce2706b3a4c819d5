package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
)

// Forecasts are a player's forecast lines at a correspondence game, as
// the API shows them to that player alone: each the ply it starts at and
// its actions (BCN), the opponent's first.
type Forecasts struct {
	Lines []ForecastLine `json:"lines"`
}

// ForecastLine is one stored line.
type ForecastLine struct {
	Ply     int      `json:"ply"`
	Actions []string `json:"actions"`
}

// forecastRequest is the body of PUT or POST /api/games/{id}/forecasts:
// the lines to store, each a list of actions.
type forecastRequest struct {
	Lines field[[][]string] `json:"lines"`
}

func forecastsOf(lines []games.Forecast) Forecasts {
	out := Forecasts{Lines: make([]ForecastLine, 0, len(lines))}
	for _, l := range lines {
		out.Lines = append(out.Lines, ForecastLine{Ply: l.Ply, Actions: l.Actions})
	}
	return out
}

// forecasts answers the bearer's forecasts at the game.
func (a *gamesAPI) forecasts(c echo.Context) error {
	lines, err := games.ForecastsOf(a.s.kit.Games().Service).Get(c.Request().Context(), c.Param("id"), kit.Bearer(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, forecastsOf(lines))
}

// setForecasts stores the bearer's forecasts at the game in place of
// theirs, {"lines":[["b:e2e4","m:d2d4","b:e7e5"]]} ({"lines":[]} clears
// them), and answers them as stored.
func (a *gamesAPI) setForecasts(c echo.Context) error {
	var req forecastRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if !req.Lines.ok {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadForecast, Msg: `Say what to store: {"lines":[["b:e2e4","m:d2d4","b:e7e5"]]} (the opponent's expected actions, then yours), or {"lines":[]} to clear.`}
	}
	lines, err := games.ForecastsOf(a.s.kit.Games().Service).Set(c.Request().Context(), c.Param("id"), kit.Bearer(c), req.Lines.val)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, forecastsOf(lines))
}
