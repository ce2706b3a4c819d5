package handlers

import (
	"net/http"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/lobby"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
)

// seekRequest is the body of POST /api/seeks.
type seekRequest struct {
	Variant field[string]  `json:"variant"`
	Clock   field[string]  `json:"clock"`
	Color   field[string]  `json:"color"`
	Rated   field[boolean] `json:"rated"`
}

// seekJSON is an open seek as the API writes it.
type seekJSON struct {
	ID          string  `json:"id"`
	Name        *string `json:"name"`   // the maker's; null for an anonymous player
	Rating      *int    `json:"rating"` // the maker's in the seek's variant and speed
	Provisional bool    `json:"provisional"`
	Variant     string  `json:"variant"`
	Clock       string  `json:"clock"` // "5+3"
	Speed       string  `json:"speed"`
	Color       string  `json:"color"` // the maker's: "white", "black" or "random"
	Rated       bool    `json:"rated"`
	Pool        *string `json:"pool"` // the quick-pairing pool it waits in; null for a custom seek
	Created     string  `json:"created"`
}

func seekJSONOf(k lobby.Seek) seekJSON {
	e := games.Entrant{Name: k.Name, Rating: k.Rating, Provisional: k.Provisional}
	p := playerJSONOf(e)
	j := seekJSON{ID: k.ID, Name: p.Name, Rating: p.Rating, Provisional: p.Provisional, Variant: k.Variant, Clock: k.Clock.String(),
		Speed: string(k.Speed()), Color: "random", Rated: k.Rated, Created: k.Created.UTC().Format(time.RFC3339)}
	if k.Color != 0 {
		j.Color = k.Color.String()
	}
	if k.Pool != "" {
		j.Pool = &k.Pool
	}
	return j
}

// pairedJSON answers an accepted seek or a pool that paired at once.
type pairedJSON struct {
	Game string `json:"game"`
}

// seeks answers the open custom seeks, oldest first, and how many wait in
// each pool.
func (a *api) seeks(c echo.Context) error {
	v, err := a.s.lobby.View(c.Request().Context())
	if err != nil {
		return err
	}
	out := struct {
		Seeks []seekJSON     `json:"seeks"`
		Pools map[string]int `json:"pools"`
	}{Seeks: []seekJSON{}, Pools: map[string]int{}}
	for _, k := range v.Custom() {
		out.Seeks = append(out.Seeks, seekJSONOf(k))
	}
	for _, pool := range lobby.Pools() {
		out.Pools[pool] = v.Waiting[pool]
	}
	return c.JSON(http.StatusOK, out)
}

// addSeek makes a custom seek for the bearer token's player.
func (a *api) addSeek(c echo.Context) error {
	var req seekRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	k, err := a.s.lobby.AddSeek(c.Request().Context(), kit.Bearer(c), lobby.SeekSettings{
		Variant: req.Variant.val, Clock: req.Clock.val, Color: req.Color.val, Rated: bool(req.Rated.val)})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/seeks/"+k.ID)
	return c.JSON(http.StatusCreated, seekJSONOf(k))
}

// acceptSeek accepts a seek for the bearer token's player: the game.
func (a *api) acceptSeek(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	if err := a.s.kit.AllowGame(c); err != nil {
		return err
	}
	game, err := a.s.lobby.AcceptSeek(c.Request().Context(), kit.Bearer(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pairedJSON{Game: game})
}

// cancelSeek removes the bearer token's player's seek.
func (a *api) cancelSeek(c echo.Context) error {
	if err := a.s.lobby.CancelSeek(c.Request().Context(), kit.Bearer(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// joinPool puts the bearer token's player in a quick-pairing pool: 200
// and the game when someone waited there; else 202 and the seek that now
// waits (the pairing comes as a "paired" event of /api/lobby/events).
func (a *api) joinPool(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	if err := a.s.kit.AllowGame(c); err != nil {
		return err
	}
	game, k, err := a.s.lobby.JoinPool(c.Request().Context(), kit.Bearer(c), c.Param("pool"))
	if err != nil {
		return err
	}
	if game == "" {
		return c.JSON(http.StatusAccepted, seekJSONOf(k))
	}
	return c.JSON(http.StatusOK, pairedJSON{Game: game})
}
