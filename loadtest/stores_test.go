package loadtest

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/store/pgtest"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it, with fsync on: its commits wait for the disk, as a
// real server's do.
var pg = pgtest.Lazy{Fsync: true}

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// BenchmarkStores is BenchmarkLoad on each store in one run, so that
// their figures compare on one machine at one time: SQLite (default
// options, and with Fsync), PostgreSQL with one instance, and PostgreSQL
// with two instances on one database, each ply sent to the next instance
// in turn (a load balancer without sticky sessions: every ply is made on
// an instance whose copy of the game the other has just changed). The
// PostgreSQL server, started by the benchmark, runs on the same machine:
//
//	go test ./loadtest -run '^$' -bench Stores -benchtime 10000x -count 3
func BenchmarkStores(b *testing.B) {
	n := envInt(b, "LOAD_SESSIONS", 200)
	if n == 0 {
		b.Fatal("LOAD_SESSIONS=0: want at least one session")
	}
	for _, kind := range []string{"sqlite", "fsync", "postgres", "postgres-2"} {
		b.Run(kind, func(b *testing.B) {
			var srv *server
			switch kind {
			case "postgres", "postgres-2":
				srv = startPostgres(b, pg.Server(b).Schema(b), n, kind == "postgres-2")
			default:
				srv = startServer(b, openStore(b, kind), n)
			}
			benchmarkKinds(b, srv, n, 0)
		})
	}
}

// startPostgres serves a PostgreSQL store on url, like startServer; with
// two, two servers each with its own store on url, and the client side
// sends each request to the next in turn.
func startPostgres(tb testing.TB, dsn string, conns int, two bool) *server {
	tb.Helper()
	first := startServer(tb, openPostgres(tb, dsn), conns)
	if !two {
		return first
	}
	second := startServer(tb, openPostgres(tb, dsn), conns)
	var hosts []string
	for _, s := range []*server{first, second} {
		u, err := url.Parse(s.url)
		if err != nil {
			tb.Fatal(err)
		}
		hosts = append(hosts, u.Host)
	}
	return &server{url: first.url, games: first.games, transport: &roundRobin{hosts: hosts, next: first.transport}}
}

// openPostgres opens a PostgreSQL store, closed when the test ends.
func openPostgres(tb testing.TB, dsn string) *store.Postgres {
	tb.Helper()
	st, err := store.OpenPostgres(context.Background(), dsn, store.PostgresOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// roundRobin sends each request to the next of hosts in turn, as a load
// balancer without sticky sessions may.
type roundRobin struct {
	hosts []string
	n     atomic.Uint64
	next  http.RoundTripper
}

func (r *roundRobin) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Host = r.hosts[(r.n.Add(1)-1)%uint64(len(r.hosts))]
	req.Host = req.URL.Host
	return r.next.RoundTrip(req)
}

// TestLoadTwoInstances runs a few sessions of each kind through a few
// games on two instances sharing one PostgreSQL database, each request to
// the next instance: no ply fails.
func TestLoadTwoInstances(t *testing.T) {
	srv := startPostgres(t, pg.Server(t).Schema(t), 4, true)
	for _, k := range kinds() {
		ss, err := newSessions(srv, k, 4, 20, 7)
		if err != nil {
			t.Fatal(err)
		}
		if r := run(ss, 100, 0, nil); r.errors > 0 || r.ops != 100 {
			t.Errorf("%s: %d plies, %d errors; the first: %v", k, r.ops, r.errors, r.first)
		}
	}
}
