package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
)

// Premove is a player's premove as the API shows it to that player: the
// actions queued (BCN: a move, then perhaps the ban after it; empty when
// nothing is queued), and why the last queue was dropped, if it was.
type Premove struct {
	Actions []string `json:"actions"`
	Dropped string   `json:"dropped,omitempty"`
}

// premoveOf is q as the API shows it.
func premoveOf(q games.Premove) Premove {
	return Premove{Actions: append([]string{}, q.Actions()...), Dropped: q.Dropped}
}

// premove answers the premove the bearer queued at the game.
func (a *gamesAPI) premove(c echo.Context) error {
	q, err := a.s.games.Premoves().Get(c.Request().Context(), c.Param("id"), kit.Bearer(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, premoveOf(q))
}

// setPremove queues the bearer's premove, {"actions":["m:e2e4","b:d7d5"]},
// in place of any, and answers it as it then stands: already played if
// the turn was the bearer's, or dropped.
func (a *gamesAPI) setPremove(c echo.Context) error {
	var req premoveRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if !req.Actions.ok {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadPremove, Msg: `Say what to queue: {"actions":["m:e2e4","b:d7d5"]} (a move, then perhaps the ban to make after it).`}
	}
	q, err := a.s.games.Premoves().Set(c.Request().Context(), c.Param("id"), kit.Bearer(c), req.Actions.val, nil)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, premoveOf(q))
}

// cancelPremove empties the bearer's premove at the game.
func (a *gamesAPI) cancelPremove(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	if err := a.s.games.Premoves().Cancel(c.Request().Context(), c.Param("id"), kit.Bearer(c), nil); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, Premove{Actions: []string{}})
}
