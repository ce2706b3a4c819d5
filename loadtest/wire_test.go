package loadtest

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// countingListener counts the bytes its connections write: what a server
// sends on the wire, headers and all (HTTP/1.1, no TLS).
type countingListener struct {
	net.Listener
	sent atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, sent: &l.sent}, nil
}

type countingConn struct {
	net.Conn
	sent *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.sent.Add(int64(n))
	return n, err
}

// browserHeaders are what htmx in Chromium sends with a ply besides its
// form and cookie: what decides the answer's encoding and form.
func browserHeaders() http.Header {
	return http.Header{
		"Accept":          {"*/*"},
		"Accept-Encoding": {"gzip, deflate, br, zstd"},
		"Accept-Language": {"en-US,en;q=0.9"},
		"Hx-Current-Url":  {"http://127.0.0.1/g/x"},
		"Hx-Target":       {"game"},
		"Hx-Trigger":      {"board"},
		"Origin":          {"http://127.0.0.1"},
		"Sec-Fetch-Site":  {"same-origin"},
		"Sec-Fetch-Mode":  {"cors"},
		"Sec-Fetch-Dest":  {"empty"},
		"User-Agent":      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	}
}

// wireSizes plays games random legal games through the htmx endpoint of a
// real server on loopback TCP, each to its end, one client sending what
// htmx in a browser sends, and returns the bytes the server sent for each
// ply (status line, headers and body, as on the wire).
func wireSizes(tb testing.TB, n int) []int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	svc := testsite.New(store.NewMemory(), testsite.Config{})
	srv := &http.Server{Handler: newEcho(svc), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(cl) }()
	tr := &http.Transport{MaxIdleConnsPerHost: 1}
	tb.Cleanup(func() {
		tr.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			tb.Error(err)
		}
	})
	ss, err := newSessions(&server{url: "http://" + ln.Addr().String(), games: svc, transport: tr}, htmlKind, 1, 0, 3)
	if err != nil {
		tb.Fatal(err)
	}
	s := ss[0]
	s.rng, s.header = rand.New(rand.NewPCG(11, 0)), browserHeaders()
	var sizes []int
	for range n {
		if err := s.newGame(); err != nil {
			tb.Fatal(err)
		}
		for !s.game.Outcome().Over() {
			legal := s.game.Legal()
			a := legal[s.rng.IntN(len(legal))]
			before := cl.sent.Load()
			if err := s.htmlPly(a); err != nil {
				tb.Fatal(err)
			}
			sizes = append(sizes, int(cl.sent.Load()-before))
			if err := s.game.Play(a); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return sizes
}

// TestPlyOnTheWire measures an htmx ply's answer on the wire (status
// line, headers and body, as a browser's htmx request gets it over
// HTTP/1.1) over whole games: 1,892 B at the median (3,332 B before the
// delta lost its re-sent history row, the squares' placed marks and the
// resign form; 2,072 B while it re-sent the link of the ply the page
// showed), a delta of about 1.6 KB uncompressed (answers under 8 KB are
// not compressed: docs/performance.md) and 290 B of headers. It checks
// issue 29's 2,000 B.
func TestPlyOnTheWire(t *testing.T) {
	if race.Enabled {
		t.Skip("sizes of one session's answers: CI measures them without the race detector")
	}
	sizes := wireSizes(t, 6)
	t.Logf("%d plies: on the wire median %d B, p90 %d B, largest %d B", len(sizes), median(sizes), quantileInt(sizes, 0.9), slices.Max(sizes))
	if m := median(sizes); m > 2000 {
		t.Errorf("median answer on the wire %d B, want at most 2,000 B", m)
	}
}

// quantileInt is the q quantile of sizes.
func quantileInt(sizes []int, q float64) int {
	s := slices.Clone(sizes)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
