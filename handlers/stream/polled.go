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
// standings). changed is asked again after each close. It ends when next
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
		wake := make(chan struct{}, 1)
		t := time.NewTicker(every)
		defer t.Stop()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			for {
				var ch <-chan struct{}
				if changed != nil {
					ch = changed()
				}
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				case <-ch:
				}
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}()
		for {
			evs, done := next(ctx)
			if len(evs) > 0 && es.Send(evs...) != nil || done {
				return
			}
			if !s.awaitChange(ctx, es, wake, beat, nil) {
				return
			}
		}
	})
	return nil
}
