package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/store"
)

// pinger answers Ping with err.
type pinger struct{ err error }

func (p pinger) Ping(ctx context.Context) error { return p.err }

func TestHealthz(t *testing.T) {
	tests := []struct {
		name   string
		opts   []Option
		status int
		body   string
		logged string
	}{
		{"no health check", nil, http.StatusOK, "ok\n", ""},
		{"store answers", []Option{WithHealthCheck(pinger{nil})}, http.StatusOK, "ok\n", ""},
		{"store fails", []Option{WithHealthCheck(pinger{errors.New("disk on fire")})}, http.StatusServiceUnavailable, "unavailable: the game store does not answer\n", "disk on fire"},
		{"store cannot save", []Option{WithHealthCheck(pinger{fmt.Errorf("ping: %w", &store.WritesFailingError{Err: errors.New("disk full at /secret/path")})})},
			http.StatusServiceUnavailable, "unavailable: the game store cannot save\n", "disk full at /secret/path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			e := echo.New()
			// Even with every limit at its tightest, /healthz answers.
			opts := append([]Option{WithLogger(jsonLogger(&buf)), WithLimits(kit.Limits{PostsPerSecond: 1e-9, GamesPerMinute: 1})}, tt.opts...)
			New(newService(nil), nil, opts...).Register(e)
			for range 3 {
				rec := hit{method: http.MethodGet, target: "/healthz"}.send(e)
				if rec.Code != tt.status || rec.Body.String() != tt.body {
					t.Fatalf("GET /healthz: %d %q, want %d %q", rec.Code, rec.Body, tt.status, tt.body)
				}
				if rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("headers %v", rec.Header())
				}
			}
			if rec := (hit{method: http.MethodHead, target: "/healthz"}).send(e); rec.Code != tt.status {
				t.Errorf("HEAD /healthz: %d", rec.Code)
			}
			if got := buf.String(); !strings.Contains(got, tt.logged) || (tt.logged == "") != (got == "") {
				t.Errorf("log %q, want %q", got, tt.logged)
			}
		})
	}
}
