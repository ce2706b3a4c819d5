package handlers

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/rules"
)

// TestStreamsOutlastServerTimeouts: a live stream on a server with short
// read and write timeouts (main's are 15 s and 30 s) stays open past them
// and still carries the next change; shutting down ends it cleanly.
func TestStreamsOutlastServerTimeouts(t *testing.T) {
	svc := plainService(nil)
	t.Cleanup(closer(svc))
	h := New(svc, nil, WithStreamLimits(stream.Limits{Heartbeat: 50 * time.Millisecond}))
	e := echo.New()
	h.Register(e)
	srv := &http.Server{Handler: e, ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond}
	srv.RegisterOnShutdown(h.CloseStreams)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	cred := issue(t, svc)
	id, err := svc.Games.Create(context.Background(), cred, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + ln.Addr().String() + "/api/games/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("stream: %d %s", res.StatusCode, ct)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(prefix string, within time.Duration) string {
		t.Helper()
		timeout := time.After(within)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended while waiting for %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-timeout:
				t.Fatalf("no %q within %v", prefix, within)
			}
		}
	}
	if got := next("id: ", time.Second); got != "id: 1" {
		t.Fatalf("first event %q, want id: 1", got)
	}
	time.Sleep(600 * time.Millisecond) // three times both timeouts
	if err := svc.Games.Play(context.Background(), id, cred, games.Input{Text: "b:e2e4"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := next("id: ", time.Second); got != "id: 2" {
		t.Fatalf("event after the timeouts %q, want id: 2", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a stream open: %v", err)
	}
	next("event: bye", time.Second)
}
