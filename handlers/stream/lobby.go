package stream

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
)

// LobbyEvents turns the lobby as it stands into the events a stream sends:
// those that say what changed since the last call.
type LobbyEvents func(v lobby.View) []Event

// Lobby serves the lobby as server-sent events to the viewer holding
// cred (if any): changes (as changes says) whenever the lobby changes, and
// a "paired" event (paired's) for each game the viewer's player is paired
// into from since on. While it lasts, the player's seeks stay alive. It
// ends when the client leaves, the server shuts down, or a write fails;
// it is served as a game's stream is (see serveEvents). polled, when not
// nil, is asked every PollEvery for events of its own (a program's
// tournament pairings): no feed wakes the stream for them.
func (s *Server) Lobby(c echo.Context, cred players.Credential, since time.Time, changes LobbyEvents, paired func(lobby.Seek) Event, polled func(context.Context) []Event) error {
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
	s.serveEvents(c, sseFormat, finish, func(ctx context.Context, es *Source, beat <-chan time.Time) {
		s.serveLobby(ctx, es, w, beat, cred, since, changes, paired, polled)
	})
	return nil
}

// serveLobby sends a lobby stream's events until it must end (see
// lobbyStream), and a heartbeat at each beat (nil: the server's pings
// send them).
func (s *Server) serveLobby(ctx context.Context, es *Source, w *lobby.Watch, beat <-chan time.Time, cred players.Credential, since time.Time, changes LobbyEvents, paired func(lobby.Seek) Event, polled func(context.Context) []Event) {
	sent := map[string]bool{} // the games told of
	var tick <-chan time.Time
	if polled != nil {
		t := time.NewTicker(PollEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		var evs []Event
		if polled != nil {
			evs = append(evs, polled(ctx)...)
		}
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
		if len(evs) > 0 && es.Send(evs...) != nil {
			return
		}
		if !s.awaitChangeOrTick(ctx, es, w.C(), tick, beat, nil) {
			return
		}
	}
}

// Lobby is what streams need of the lobby: its watch, its seeks, and the
// pairings of a player.
type Lobby interface {
	Watch(ctx context.Context, cred players.Credential) (*lobby.Watch, error)
	View(ctx context.Context) (lobby.View, error)
	Pairings(ctx context.Context, cred players.Credential, since time.Time) ([]lobby.Seek, error)
}

// PollEvery is how often a lobby stream asks its polled events.
const PollEvery = time.Second
