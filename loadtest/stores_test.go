package loadtest

import (
	"context"
	"hash/fnv"
	"net/http"
	"net/url"
	"os"
	"strings"
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
// in turn (postgres-2: a load balancer without any affinity, the worst
// case: every ply is made on an instance whose copy of the game the other
// has just changed, so it reads the game afresh) or each game's plies to
// one instance chosen by its id (postgres-2-by-game: a balancer hashing
// the path, such as nginx's "hash $request_uri"; new games go round
// robin). The PostgreSQL server, started by the benchmark, runs on the
// same machine, with fsync on:
//
//	go test ./loadtest -run '^$' -bench Stores -benchtime 10000x -count 3
func BenchmarkStores(b *testing.B) {
	n := envInt(b, "LOAD_SESSIONS", 200)
	if n == 0 {
		b.Fatal("LOAD_SESSIONS=0: want at least one session")
	}
	for _, kind := range []string{"sqlite", "fsync", "postgres", "postgres-2", "postgres-2-by-game"} {
		b.Run(kind, func(b *testing.B) {
			var srv *server
			switch kind {
			case "postgres":
				srv = startPostgres(b, pg.Server(b).Schema(b), n, nil)
			case "postgres-2":
				srv = startPostgres(b, pg.Server(b).Schema(b), n, roundRobin)
			case "postgres-2-by-game":
				srv = startPostgres(b, pg.Server(b).Schema(b), n, byGame)
			default:
				srv = startServer(b, openStore(b, kind), n)
			}
			benchmarkKinds(b, srv, n, 0)
		})
	}
}

// startPostgres serves a PostgreSQL store on url, like startServer; with
// a balance, two servers each with its own store on url, and the client
// side sends each request to the one balance picks.
func startPostgres(tb testing.TB, dsn string, conns int, balance func(*http.Request, uint64) int) *server {
	tb.Helper()
	first := startServer(tb, openPostgres(tb, dsn), conns)
	if balance == nil {
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
	return &server{url: first.url, games: first.games, transport: &balancer{hosts: hosts, pick: balance, next: first.transport}}
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

// balancer sends each request to one of two hosts, the one pick chooses
// from the request and its number, as a load balancer does.
type balancer struct {
	hosts []string
	pick  func(req *http.Request, n uint64) int
	n     atomic.Uint64
	next  http.RoundTripper
}

func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Host = b.hosts[b.pick(req, b.n.Add(1))%len(b.hosts)]
	req.Host = req.URL.Host
	return b.next.RoundTrip(req)
}

// roundRobin picks the next host for each request.
func roundRobin(_ *http.Request, n uint64) int { return int(n % 2) }

// byGame picks a game's requests' host by its id (/g/{id}/…,
// /api/games/{id}/…), and the others' round robin.
func byGame(req *http.Request, n uint64) int {
	path := strings.TrimPrefix(strings.TrimPrefix(req.URL.Path, "/api/games/"), "/g/")
	id, _, _ := strings.Cut(path, "/")
	if id == "" {
		return roundRobin(req, n)
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % 2)
}

// TestLoadTwoInstances runs a few sessions of each kind through a few
// games on two instances sharing one PostgreSQL database, each request to
// the next instance or to its game's: no ply fails.
func TestLoadTwoInstances(t *testing.T) {
	for name, balance := range map[string]func(*http.Request, uint64) int{"round robin": roundRobin, "by game": byGame} {
		t.Run(name, func(t *testing.T) {
			srv := startPostgres(t, pg.Server(t).Schema(t), 4, balance)
			for _, k := range kinds() {
				ss, err := newSessions(srv, k, 4, 20, 7)
				if err != nil {
					t.Fatal(err)
				}
				if r := run(ss, 100, 0, nil); r.errors > 0 || r.ops != 100 {
					t.Errorf("%s: %d plies, %d errors; the first: %v", k, r.ops, r.errors, r.first)
				}
			}
		})
	}
}
