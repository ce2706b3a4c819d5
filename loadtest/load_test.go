package loadtest

import (
	"testing"
	"time"
)

// kinds are the sub-benchmarks, trivial first: the others compare with it.
func kinds() []kind { return []kind{trivialKind, htmlKind, apiKind} }

// BenchmarkLoad drives LOAD_SESSIONS concurrent sessions (default 200)
// against one real server on loopback TCP: trivial first (the floor), then
// html and api, which report their ply rate as a multiple of trivial's
// request rate. One iteration is one ply (one request for trivial). With
// LOAD_RATE set, the sessions offer that many plies (requests) a second in
// all instead of as many as the server answers. The server, its store and
// the sessions' games carry over from one b.N to the next, as on a live
// server.
func BenchmarkLoad(b *testing.B) {
	n := envInt(b, "LOAD_SESSIONS", 200)
	if n == 0 {
		b.Fatal("LOAD_SESSIONS=0: want at least one session")
	}
	benchmarkKinds(b, startServer(b, openStore(b, storeKind()), n), n, float64(envInt(b, "LOAD_RATE", 0)))
}

// BenchmarkServe is BenchmarkLoad without a network or concurrency: one
// session calls the handler directly, so ns/op is the server's own cost of
// a ply (and the client's mirror, a few µs). For profiles:
//
//	go test ./loadtest -run '^$' -bench Serve/html -benchtime 20000x -cpuprofile cpu.out
func BenchmarkServe(b *testing.B) {
	benchmarkKinds(b, inProcess(openStore(b, storeKind())), 1, 0)
}

// benchmarkKinds runs the three sub-benchmarks against srv with n sessions
// each, offering rate plies a second in all (0: as many as answered).
func benchmarkKinds(b *testing.B, srv *server, n int, rate float64) {
	maxPlies := envInt(b, "LOAD_MAX_PLIES", 160)
	var trivialRate float64
	sessions := map[kind][]*session{}
	for _, k := range kinds() {
		b.Run(k.String(), func(b *testing.B) {
			if sessions[k] == nil {
				ss, err := newSessions(srv, k, n, maxPlies, uint64(k)+1)
				if err != nil {
					b.Fatal(err)
				}
				sessions[k] = ss
			}
			r := run(sessions[k], b.N, rate, b.ResetTimer)
			b.StopTimer()
			report(b, k, r, trivialRate, rate > 0)
			if k == trivialKind {
				trivialRate = r.perSecond()
			}
		})
	}
}

// report writes what r measured as the benchmark's metrics.
// Paced runs report no ratio: every kind answers the rate offered.
func report(b *testing.B, k kind, r result, trivialRate float64, paced bool) {
	b.Helper()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	unit := "plies/s"
	if k == trivialKind {
		unit = "req/s"
	}
	b.ReportMetric(r.perSecond(), unit)
	b.ReportMetric(ms(r.quantile(0.50)), "p50-ms")
	b.ReportMetric(ms(r.quantile(0.99)), "p99-ms")
	b.ReportMetric(float64(r.errors), "errors")
	if r.cpu > 0 {
		// The CPU the process got (others may share the machine), and
		// what each ply (request) cost it, client and server together.
		b.ReportMetric(r.cpu.Seconds()/r.elapsed.Seconds(), "cores")
		b.ReportMetric(float64(r.cpu.Microseconds())/float64(max(1, r.ops+r.errors)), "cpu-µs/op")
	}
	if k != trivialKind && trivialRate > 0 && !paced {
		b.ReportMetric(r.perSecond()/trivialRate, "x-trivial")
	}
	if r.errors > 0 {
		b.Logf("%s: %d errors; the first: %v", k, r.errors, r.first)
	}
}

// TestLoadShort runs a few sessions of each kind through a few games, over
// TCP and in process: the load generator itself works, and a random game
// played through either front end gets no error.
func TestLoadShort(t *testing.T) {
	for _, tr := range []string{"tcp", "in-process"} {
		t.Run(tr, func(t *testing.T) {
			st := openStore(t, "sqlite")
			srv := inProcess(st)
			if tr == "tcp" {
				srv = startServer(t, st, 4)
			}
			for _, k := range append(kinds(), healthKind) {
				ss, err := newSessions(srv, k, 4, 20, 7)
				if err != nil {
					t.Fatal(err)
				}
				rate := 0.0
				if k == trivialKind {
					rate = 2000 // the paced path too
				}
				r := run(ss, 100, rate, nil)
				if r.errors > 0 || r.ops != 100 {
					t.Errorf("%s: %d plies, %d errors; the first: %v", k, r.ops, r.errors, r.first)
				}
				// 25 plies a session, games of at most 20: a new game each.
				if k.plays() && r.games < 4 {
					t.Errorf("%s: %d games in 100 plies, want at least 4", k, r.games)
				}
				if q := r.quantile(0.99); q <= 0 {
					t.Errorf("%s: p99 %v", k, q)
				}
			}
		})
	}
}
