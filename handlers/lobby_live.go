package handlers

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/labstack/echo/v4"
)

// lobbyEvents turns the lobby as it stands into the events a stream sends:
// those that say what changed since the last call.
type lobbyEvents func(v lobby.View) []event

// lobbyStream serves the lobby as server-sent events to the viewer holding
// cred (if any): changes (as changes says) whenever the lobby changes, and
// a "paired" event (paired's) for each game the viewer's player is paired
// into from since on. While it lasts, the player's seeks stay alive. It
// ends when the client leaves, the server shuts down, or a write fails;
// it is served as a game's stream is (see serveEvents).
func (s *Server) lobbyStream(c echo.Context, cred players.Credential, since time.Time, changes lobbyEvents, paired func(lobby.Seek) event) error {
	release, err := s.streams.open(kit.ClientKey(c.RealIP()))
	if err != nil {
		c.Response().Header().Set(echo.HeaderConnection, "close") // see stream
		return err
	}
	w, err := s.lobby.Watch(c.Request().Context(), cred)
	if err != nil {
		release()
		return err
	}
	finish := func() {
		w.Close()
		release()
	}
	s.serveEvents(c, finish, func(ctx context.Context, es *eventSource, beat <-chan time.Time) {
		s.serveLobby(ctx, es, w, beat, cred, since, changes, paired)
	})
	return nil
}

// serveLobby sends a lobby stream's events until it must end (see
// lobbyStream), and a heartbeat at each beat (nil: the server's pings
// send them).
func (s *Server) serveLobby(ctx context.Context, es *eventSource, w *lobby.Watch, beat <-chan time.Time, cred players.Credential, since time.Time, changes lobbyEvents, paired func(lobby.Seek) event) {
	sent := map[string]bool{} // the games told of
	for {
		var evs []event
		if cred != "" && w.Paired() {
			list, err := s.lobby.Pairings(ctx, cred, since)
			if err != nil && ctx.Err() != nil {
				return
			}
			for _, k := range list {
				if !sent[k.Game] {
					sent[k.Game] = true
					evs = append(evs, paired(k))
				}
			}
		}
		v, err := s.lobby.View(ctx)
		if err != nil && ctx.Err() != nil {
			return
		}
		if err == nil {
			evs = append(evs, changes(v)...)
		}
		if len(evs) > 0 && es.send(evs...) != nil {
			return
		}
		if !s.awaitChange(ctx, es, w.C(), beat, nil) {
			return
		}
	}
}

// lobbyEvents streams the lobby to its page: event "lobby" when what the
// page lists changed (the page then asks for /lobby/list), and "paired"
// with the game's address when the viewer is paired into one (the page
// goes there).
func (p *pages) lobbyEvents(c echo.Context) error {
	last := ""
	changes := func(v lobby.View) []event {
		key := lobbyKey(v)
		if key == last {
			return nil
		}
		last = key
		return []event{{name: "lobby", data: []byte(strconv.Quote(key))}}
	}
	paired := func(k lobby.Seek) event {
		data, _ := json.Marshal(map[string]string{"url": gamePath(k.Game)})
		return event{name: "paired", data: data}
	}
	return p.s.lobbyStream(c, kit.Player(c), p.s.lobbySince(c), changes, paired)
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
	changes := func(v lobby.View) []event {
		var evs []event
		now := map[string]bool{}
		for _, k := range v.Custom() {
			now[k.ID] = true
			if !open[k.ID] {
				data, _ := json.Marshal(seekJSONOf(k))
				evs = append(evs, event{name: "seek", data: data})
			}
		}
		for id := range open {
			if !now[id] {
				data, _ := json.Marshal(map[string]string{"id": id})
				evs = append(evs, event{name: "seekRemoved", data: data})
			}
		}
		open = now
		if p := poolsJSON(v); p != pools {
			pools = p
			evs = append(evs, event{name: "pools", data: []byte(p)})
		}
		return evs
	}
	paired := func(k lobby.Seek) event {
		data, _ := json.Marshal(map[string]string{"game": k.Game, "seek": k.ID})
		return event{name: "paired", data: data}
	}
	return a.s.lobbyStream(c, kit.Bearer(c), a.s.lobbySince(c), changes, paired)
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
