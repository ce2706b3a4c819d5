package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/banchess/banchess/lobby"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// seekRequest is the body of POST /api/seeks.
type seekRequest struct {
	Variant field[string]  `json:"variant"`
	Clock   field[string]  `json:"clock"`
	Color   field[string]  `json:"color"`
	Rated   field[boolean] `json:"rated"`
}

// Seek is an open seek as the API writes it.
type Seek struct {
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

func seekJSONOf(k lobby.Seek) Seek {
	e := games.Entrant{Name: k.Name, Rating: k.Rating, Provisional: k.Provisional}
	p := playerJSONOf(e)
	j := Seek{ID: k.ID, Name: p.Name, Rating: p.Rating, Provisional: p.Provisional, Variant: k.Variant, Clock: k.Clock.String(),
		Speed: string(k.Speed()), Color: "random", Rated: k.Rated, Created: k.Created.UTC().Format(time.RFC3339)}
	if k.Color != 0 {
		j.Color = k.Color.String()
	}
	if k.Pool != "" {
		j.Pool = &k.Pool
	}
	return j
}

// Paired answers an accepted seek or a pool that paired at once.
type Paired struct {
	Game string `json:"game"`
}

// seeks answers a page (?page=, from 1) of the open custom seeks, at most
// lobby.SeeksPerPage, the bearer's own first and then those nearest their
// rating, and how many wait in each pool.
func (a *lobbyAPI) seeks(c echo.Context) error {
	ctx := c.Request().Context()
	n := 1
	if q := c.QueryParam("page"); q != "" {
		var err error
		if n, err = strconv.Atoi(q); err != nil || n < 1 {
			return errs.Errorf(errs.Invalid, "%q is not a page: pages are numbered from 1.", kit.TrimText(q)).WithDetail(errs.BadPage)
		}
	}
	v, err := a.s.lobby.View(ctx)
	if err != nil {
		return err
	}
	me, err := a.s.players.Identify(ctx, kit.Bearer(c))
	if err != nil {
		return err
	}
	page, err := a.s.lobby.SeeksFor(ctx, v, me, n)
	if err != nil {
		return err
	}
	out := struct {
		Seeks []Seek         `json:"seeks"`
		Page  int            `json:"page"`
		Pages int            `json:"pages"`
		Total int            `json:"total"`
		Pools map[string]int `json:"pools"`
	}{Seeks: []Seek{}, Page: page.Number, Pages: page.Pages, Total: page.Total, Pools: map[string]int{}}
	for _, k := range page.Seeks {
		out.Seeks = append(out.Seeks, seekJSONOf(k))
	}
	for _, pool := range lobby.Pools() {
		out.Pools[pool] = v.Waiting[pool]
	}
	return c.JSON(http.StatusOK, out)
}

// addSeek makes a custom seek for the bearer token's player.
func (a *lobbyAPI) addSeek(c echo.Context) error {
	var req seekRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	k, err := a.s.lobby.AddSeek(c.Request().Context(), kit.Bearer(c), lobby.SeekSettings{
		Variant: req.Variant.val, Clock: req.Clock.val, Color: req.Color.val, Rated: bool(req.Rated.val),
		Address: kit.ClientKey(c.RealIP())})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/api/seeks/"+k.ID)
	return c.JSON(http.StatusCreated, seekJSONOf(k))
}

// acceptSeek accepts a seek for the bearer token's player: the game.
func (a *lobbyAPI) acceptSeek(c echo.Context) error {
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
	return c.JSON(http.StatusOK, Paired{Game: game})
}

// cancelSeek removes the bearer token's player's seek.
func (a *lobbyAPI) cancelSeek(c echo.Context) error {
	if err := a.s.lobby.CancelSeek(c.Request().Context(), kit.Bearer(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// joinPool puts the bearer token's player in a quick-pairing pool: 200
// and the game when someone waited there; else 202 and the seek that now
// waits (the pairing comes as a "paired" event of /api/lobby/events).
func (a *lobbyAPI) joinPool(c echo.Context) error {
	if err := readJSON(c, &emptyRequest{}); err != nil {
		return err
	}
	if err := a.s.kit.AllowGame(c); err != nil {
		return err
	}
	game, k, err := a.s.lobby.JoinPool(c.Request().Context(), kit.Bearer(c), c.Param("pool"), kit.ClientKey(c.RealIP()))
	if err != nil {
		return err
	}
	if game == "" {
		return c.JSON(http.StatusAccepted, seekJSONOf(k))
	}
	return c.JSON(http.StatusOK, Paired{Game: game})
}

// apiLobbyEvents streams the lobby to a program: event "seek" (the seek
// object) for each open custom seek, at once and whenever one is made;
// "seekRemoved" ({"id"}) when one goes; "pools" (how many wait in each)
// when that changes; and with a bearer token, "paired" ({"game","seek"})
// for each game its player is paired into from the stream's start (or
// ?since=, unix ms, up to 10 minutes back). While it lasts, the player's
// seeks stay alive.
func (a *lobbyAPI) lobbyEvents(c echo.Context) error {
	open := map[string]bool{}
	var pools string
	changes := func(v lobby.View) []stream.Event {
		var evs []stream.Event
		now := map[string]bool{}
		for _, k := range v.Custom() {
			now[k.ID] = true
			if !open[k.ID] {
				data, _ := json.Marshal(seekJSONOf(k))
				evs = append(evs, stream.Event{Name: "seek", Data: data})
			}
		}
		for id := range open {
			if !now[id] {
				data, _ := json.Marshal(map[string]string{"id": id})
				evs = append(evs, stream.Event{Name: "seekRemoved", Data: data})
			}
		}
		open = now
		if p := poolsJSON(v); p != pools {
			pools = p
			evs = append(evs, stream.Event{Name: "pools", Data: []byte(p)})
		}
		return evs
	}
	paired := func(k lobby.Seek) stream.Event {
		data, _ := json.Marshal(map[string]string{"game": k.Game, "seek": k.ID})
		return stream.Event{Name: "paired", Data: data}
	}
	since := kit.LobbySince(c, a.s.now())
	pairings, err := a.tournamentPairings(c, since)
	if err != nil {
		return err
	}
	notes := a.notifications(c, since)
	var polled func(context.Context) []stream.Event
	if pairings != nil || notes != nil {
		polled = func(ctx context.Context) []stream.Event {
			var evs []stream.Event
			if pairings != nil {
				evs = pairings(ctx)
			}
			if notes != nil {
				evs = append(evs, notes(ctx)...)
			}
			return evs
		}
	}
	return a.s.streams.Lobby(c, kit.Bearer(c), since, changes, paired, polled)
}

// notesEvery is how many of the stream's polls pass between two reads
// of the player's notifications: every 5 s.
const notesEvery = 5

// notifications returns what tells a bearer's lobby stream of the
// notifications its player gets from since on: "notification" (a
// notification object, as GET /api/notifications lists them), read
// every notesEvery polls; nil when there is no bearer or no inbox.
func (a *lobbyAPI) notifications(c echo.Context, since time.Time) func(context.Context) []stream.Event {
	cred := kit.Bearer(c)
	if cred == "" || a.s.inbox == nil {
		return nil
	}
	told := map[string]bool{}
	polls := 0
	return func(ctx context.Context) []stream.Event {
		polls++
		if polls%notesEvery != 1 {
			return nil
		}
		in, err := a.s.inbox.Inbox(ctx, cred)
		if err != nil {
			return nil // no name, or the store was busy: nothing to tell now
		}
		var evs []stream.Event
		for i := len(in.Notifications) - 1; i >= 0; i-- { // oldest first
			n := in.Notifications[i]
			if told[n.ID] || n.Time.Before(since) {
				continue
			}
			told[n.ID] = true
			data, _ := json.Marshal(n)
			evs = append(evs, stream.Event{Name: "notification", Data: data})
		}
		return evs
	}
}

// tournamentPairings returns what tells a bearer's lobby stream of the
// games tournaments pair its player into from since on: "paired"
// ({"game","tournament"}), as the tournament's own stream does; nil when
// there is no bearer or no tournaments.
func (a *lobbyAPI) tournamentPairings(c echo.Context, since time.Time) (func(context.Context) []stream.Event, error) {
	cred := kit.Bearer(c)
	if cred == "" || a.s.tournaments == nil {
		return nil, nil
	}
	me, err := a.s.players.Identify(c.Request().Context(), cred)
	if err != nil || me.ID == "" {
		return nil, err
	}
	told := map[string]bool{}
	return func(ctx context.Context) []stream.Event {
		list, err := a.s.tournaments.Paired(ctx, me.ID, since)
		if err != nil {
			return nil // the store was busy: look again next time
		}
		var evs []stream.Event
		for _, p := range list {
			if !told[p.Game] {
				told[p.Game] = true
				data, _ := json.Marshal(p)
				evs = append(evs, stream.Event{Name: "paired", Data: data})
			}
		}
		return evs
	}, nil
}

// poolsJSON writes how many wait in each pool: {"3+2":0,"5+3":1,…}.
func poolsJSON(v lobby.View) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, pool := range lobby.Pools() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(pool) + ":" + strconv.Itoa(v.Waiting[pool]))
	}
	b.WriteByte('}')
	return b.String()
}
