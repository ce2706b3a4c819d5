package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// healthPath answers whether the server can serve games.
const healthPath = "/healthz"

// healthTimeout bounds how long /healthz waits for the store.
const healthTimeout = 2 * time.Second

// healthRoutes adds GET (and HEAD) /healthz for deploys and load balancers.
func (s *Server) healthRoutes(e *echo.Echo) {
	e.Match([]string{http.MethodGet, http.MethodHead}, healthPath, s.health)
}

// health answers 200 "ok" when the store answers and can save, 503 when it
// does not answer or its saves are failing (the body says which, in
// general words; the error goes to the log, not to the caller).
func (s *Server) health(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if p := s.pinger; p != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), healthTimeout)
		defer cancel()
		if err := p.Ping(ctx); err != nil {
			var wf writesFailing
			if errors.As(err, &wf) && wf.WritesFailing() {
				s.kit.LogFailure(c, "health check: the store cannot save", err)
				return c.String(http.StatusServiceUnavailable, "unavailable: the game store cannot save\n")
			}
			s.kit.LogFailure(c, "health check: the store does not answer", err)
			return c.String(http.StatusServiceUnavailable, "unavailable: the game store does not answer\n")
		}
	}
	return c.String(http.StatusOK, "ok\n")
}

// writesFailing is a Ping error saying the store answers but cannot save
// (store.WritesFailingError is one).
type writesFailing interface{ WritesFailing() bool }
