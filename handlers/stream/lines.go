package stream

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/players"
)

// GameLines serves game id to the viewer holding cred as NDJSON, as
// lichess's game streams are: state's events (each one line) at once and
// again whenever the game's revision changes, learnt from the games'
// feed as Game's streams learn it; between, an empty line every
// LinesHeartbeat. Every wake (a change of the game, of who watches it,
// of its chat) calls onWake, if not nil, which may send lines of its
// own. It ends as Game's streams do; a game that is gone or unreadable
// ends it.
func (s *Server) GameLines(c echo.Context, id string, cred players.Credential, state State, onWake func(context.Context, *Source) error) error {
	end := func() {}
	if state.Done != nil {
		end = state.Done
	}
	release, err := s.streams.open(kit.ClientKey(c.RealIP()))
	if err != nil {
		end()
		c.Response().Header().Set(echo.HeaderConnection, "close") // see Game
		return err
	}
	w, err := s.games.Watch(c.Request().Context(), id, cred)
	if err != nil {
		release()
		end()
		return err
	}
	finish := func() {
		w.Close()
		release()
		end()
	}
	s.serveEvents(c, ndjsonFormat, finish, func(ctx context.Context, es *Source, beat <-chan time.Time) {
		s.serveStream(ctx, es, w, s.revisionOf(id, w), state, onWake, -1, beat)
	})
	return nil
}

// Poll serves an NDJSON stream of what poll finds: its events at once and
// then every period (each one line), and an empty line every
// LinesHeartbeat while it finds nothing. It is for what no feed wakes a
// stream for (a player's games starting and ending, lichess's stream of
// events). A failure of poll ends the stream; done, if set, is called
// when it has ended.
func (s *Server) Poll(c echo.Context, period time.Duration, poll func(ctx context.Context) ([]Event, error), done func()) error {
	if done == nil {
		done = func() {}
	}
	release, err := s.streams.open(kit.ClientKey(c.RealIP()))
	if err != nil {
		done()
		c.Response().Header().Set(echo.HeaderConnection, "close") // see Game
		return err
	}
	finish := func() {
		release()
		done()
	}
	s.serveEvents(c, ndjsonFormat, finish, func(ctx context.Context, es *Source, beat <-chan time.Time) {
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			evs, err := poll(ctx)
			if err != nil || es.Send(evs...) != nil {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-s.streams.done:
				return
			case <-beat:
				if es.sink.write(es.fmt.beat) != nil {
					return
				}
			case <-tick.C:
			}
		}
	})
	return nil
}
