package handlers

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/banchess/banchess/lobby"

	"github.com/labstack/echo/v4"
)

// lobbyEvents streams the lobby to its page: event "lobby" when what the
// page lists changed (the page then asks for /lobby/list), and "paired"
// with the game's address when the viewer is paired into one (the page
// goes there).
func (p *pages) lobbyEvents(c echo.Context) error {
	last := ""
	changes := func(v lobby.View) []stream.Event {
		key := lobbyKey(v)
		if key == last {
			return nil
		}
		last = key
		return []stream.Event{{Name: "lobby", Data: []byte(strconv.Quote(key))}}
	}
	paired := func(k lobby.Seek) stream.Event {
		data, _ := json.Marshal(map[string]string{"url": gamePath(k.Game)})
		return stream.Event{Name: "paired", Data: data}
	}
	return p.s.streams.Lobby(c, kit.Player(c), p.s.lobbySince(c), changes, paired)
}

// lobbyKey sums up what a lobby page lists — the open seeks and how many
// wait in each pool — so that a stream tells the page only of a change.
func lobbyKey(v lobby.View) string {
	h := fnv.New64a()
	for _, k := range v.Seeks {
		h.Write([]byte(k.ID))
		h.Write([]byte{0})
	}
	for _, pool := range lobby.Pools() {
		h.Write([]byte(pool + ":" + strconv.Itoa(v.Waiting[pool]) + ";"))
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// apiLobbyEvents streams the lobby to a program: event "seek" (the seek
// object) for each open custom seek, at once and whenever one is made;
// "seekRemoved" ({"id"}) when one goes; "pools" (how many wait in each)
// when that changes; and with a bearer token, "paired" ({"game","seek"})
// for each game its player is paired into from the stream's start (or
// ?since=, unix ms, up to 10 minutes back). While it lasts, the player's
// seeks stay alive.
func (a *api) lobbyEvents(c echo.Context) error {
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
	return a.s.streams.Lobby(c, kit.Bearer(c), a.s.lobbySince(c), changes, paired)
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
