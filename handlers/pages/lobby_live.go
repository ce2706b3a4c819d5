package pages

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/banchess/banchess/lobby"

	"github.com/labstack/echo/v4"
)

// lobbyEvents streams the lobby to its page: event "lobby" when what the
// page lists changed (the page then asks for /lobby/list), and "paired"
// with the game's address when the viewer is paired into one (the page
// goes there).
func (p *lobbyPages) lobbyEvents(c echo.Context) error {
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
		data, _ := json.Marshal(map[string]string{"url": kit.GamePath(k.Game)})
		return stream.Event{Name: "paired", Data: data}
	}
	return p.s.streams.Lobby(c, kit.Player(c), kit.LobbySince(c, p.s.now()), changes, paired, nil)
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
