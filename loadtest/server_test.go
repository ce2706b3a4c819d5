package loadtest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// trivialPath is the route that measures the floor: it answers "ok" through
// the same Echo instance and middleware as every other route.
const trivialPath = "/_trivial"

// server is the real server, and how the client side reaches it.
type server struct {
	url       string
	games     testsite.Site
	transport http.RoundTripper
}

// newEcho serves st as main does, but without main's rate limits (one
// client makes all the requests here) and, unless LOAD_LOG is set, its
// request log, plus the trivial route, with extra options. With LOAD_LOG
// the log is written as main writes it, to io.Discard.
func newEcho(svc testsite.Site, extra ...handlers.Option) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	opts := extra
	if os.Getenv("LOAD_LOG") != "" {
		opts = append(opts, handlers.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	}
	handlers.New(services(svc), nil, opts...).Register(e)
	e.GET(trivialPath, func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	return e
}

// startServer serves st on 127.0.0.1 over TCP. conns is how many
// connections the client side keeps open. The server stops when the test
// ends.
func startServer(tb testing.TB, st testsite.Store, conns int) *server {
	tb.Helper()
	return serve(tb, testsite.New(st, testsite.Config{}), conns)
}

// serve is startServer for a service built by the caller, served with
// extra options.
func serve(tb testing.TB, svc testsite.Site, conns int, extra ...handlers.Option) *server {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: newEcho(svc, extra...), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	tr := &http.Transport{
		MaxIdleConns:        conns + 16,
		MaxIdleConnsPerHost: conns + 16,
		IdleConnTimeout:     time.Minute,
		// With LOAD_GZIP the client accepts gzip, as browsers do, and
		// the server compresses what it answers (pages and JSON of 1 KB
		// or more); the client decompresses it.
		DisableCompression: os.Getenv("LOAD_GZIP") == "",
	}
	tb.Cleanup(func() {
		tr.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			tb.Errorf("shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			tb.Errorf("serve: %v", err)
		}
	})
	return &server{url: "http://" + ln.Addr().String(), games: svc, transport: tr}
}

// inProcess serves st by calling its handler directly, without a network:
// what is left is the server's own work.
func inProcess(st testsite.Store) *server {
	svc := testsite.New(st, testsite.Config{})
	return &server{url: "http://banchess.test", games: svc, transport: direct{newEcho(svc)}}
}

// services are s's services as the handlers take them.
func services(s testsite.Site) handlers.Services {
	return handlers.Services{Games: s.Games, Players: s.Players, Lobby: s.Lobby, Analysis: s.Analysis, Tournaments: s.Tournaments}
}

// direct is a RoundTripper that hands each request to a handler.
type direct struct{ h http.Handler }

func (d direct) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.RemoteAddr, r.RequestURI = "127.0.0.1:40000", req.URL.RequestURI()
	rec := httptest.NewRecorder()
	d.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// storeKind is the store the load runs on: LOAD_STORE is "sqlite" (the
// default: a file in a temporary directory, default options), "fsync"
// (the same with Options.Fsync) or "memory".
func storeKind() string {
	if k := os.Getenv("LOAD_STORE"); k != "" {
		return k
	}
	return "sqlite"
}

// openStore opens a store of kind; SQLite stores are closed when the test
// ends.
func openStore(tb testing.TB, kind string) testsite.Store {
	tb.Helper()
	var opts store.Options
	switch kind {
	case "memory":
		return store.NewMemory()
	case "sqlite":
	case "fsync":
		opts.Fsync = true
	default:
		tb.Fatalf("LOAD_STORE=%q: use sqlite, fsync or memory", kind)
	}
	return openSQLite(tb, filepath.Join(tb.TempDir(), "load.db"), opts)
}

// openSQLite opens an SQLite store at path, closed when the test ends.
func openSQLite(tb testing.TB, path string, opts store.Options) *store.SQLite {
	tb.Helper()
	st, err := store.OpenSQLite(context.Background(), path, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("close the store: %v", err)
		}
	})
	return st
}

// envInt reads a positive integer from the environment, or def.
func envInt(tb testing.TB, name string, def int) int {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		tb.Fatalf("%s=%q: want a whole number", name, v)
	}
	return n
}
