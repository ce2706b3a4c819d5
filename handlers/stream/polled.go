package stream

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
)

// Polled serves server-sent events that next makes, asked at once, then
// whenever changed's channel closes (nil: never), and every every in any
// case: for a thing whose changes reach no feed of games (a tournament's
// standings). changed is asked before each call of next. It ends when next
// says so (done, after its events), the client leaves, the server shuts
// down, or a write fails; it counts among the client's streams as a
// game's stream does.
func (s *Server) Polled(c echo.Context, every time.Duration, changed func() <-chan struct{}, next func(ctx context.Context) (evs []Event, done bool)) error {
	release, err := s.streams.open(kit.ClientKey(c.RealIP()))
	if err != nil {
		c.Response().Header().Set(echo.HeaderConnection, "close") // see stream
		return err
	}
	s.serveEvents(c, sseFormat, release, func(ctx context.Context, es *Source, beat <-chan time.Time) {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			// The channel is taken before next reads, so that a change
			// made while it reads closes it: none is missed.
			var wake <-chan struct{}
			if changed != nil {
				wake = changed()
			}
			evs, done := next(ctx)
			if len(evs) > 0 && es.Send(evs...) != nil || done {
				return
			}
			if !s.awaitChangeOrTick(ctx, es, wake, t.C, beat, nil) {
				return
			}
		}
	})
	return nil
}
