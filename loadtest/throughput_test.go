package loadtest

import (
	"context"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// BenchmarkThroughput is issue 45's measure of durable plies against
// /healthz, with the server in a process of its own (TestStreamServer:
// main's handlers and its default store, SQLite on a file, each ply
// acknowledged once committed; /healthz pings the store) and its clients
// in the benchmark's, over loopback TCP with keep-alive:
//
//   - at once: LOAD_SESSIONS (default 64) clients ask /healthz as fast as
//     it answers, then as many clients play as many API plies, one game
//     each (a new one after LOAD_MAX_PLIES, default 160), five runs of
//     LOAD_THROUGHPUT_N requests each (default 20,000), the order swapped
//     each run. Each run's ratio is plies/s over /healthz/s; the figure
//     (×healthz-64) is the median of the five.
//   - one after another: one client, runs of 2,000 /healthz and 2,000 API
//     plies, and, in this process between them, 2,000 saves of a ply to an
//     SQLite store of its own (a durable commit, as the server makes for
//     each ply). The figure (×health+commit) is the median ply over the
//     sum of the median /healthz and the median commit, the median of five
//     runs.
//
// The plies answer the whole game object, or with LOAD_FIELDS=compact
// (say) the fields a bot asks for.
//
//	GOGC=400 go test ./loadtest -run '^$' -bench Throughput -benchtime 1x
//	GOGC=400 LOAD_FIELDS=compact go test ./loadtest -run '^$' -bench Throughput -benchtime 1x
func BenchmarkThroughput(b *testing.B) {
	apart := startStreamServer(b)
	n := envInt(b, "LOAD_SESSIONS", 64)
	if n == 0 {
		b.Fatal("LOAD_SESSIONS=0: want at least one session")
	}
	tr := &http.Transport{MaxIdleConns: n + 16, MaxIdleConnsPerHost: n + 16, IdleConnTimeout: time.Minute, DisableCompression: true}
	b.Cleanup(tr.CloseIdleConnections)
	srv := &server{url: apart.url, transport: tr}
	sessions := func(k kind, n int, seed uint64) []*session {
		ss, err := newSessions(srv, k, n, envInt(b, "LOAD_MAX_PLIES", 160), seed)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range ss {
			s.fields = os.Getenv("LOAD_FIELDS")
		}
		return ss
	}
	health, plies := sessions(healthKind, n, 45), sessions(apiKind, n, 46)
	per := envInt(b, "LOAD_THROUGHPUT_N", 20000)
	measure := func(ss []*session) (result, time.Duration) {
		cpu0 := apart.stats(b).CPU
		r := run(ss, per, 0, nil)
		if r.errors > 0 {
			b.Fatalf("%s: %d errors; the first: %v", ss[0].kind, r.errors, r.first)
		}
		return r, time.Duration(apart.stats(b).CPU-cpu0) / time.Duration(r.ops)
	}
	measure(health) // warm the connections, the caches and the store
	measure(plies)

	oneHealth, onePly := sessions(healthKind, 1, 47), sessions(apiKind, 1, 48)
	commit := newCommitter(b)
	median := func(op func() (time.Duration, error)) time.Duration {
		lat := make([]time.Duration, 0, 2000)
		for range 2000 {
			d, err := op()
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, d)
		}
		slices.Sort(lat)
		return lat[len(lat)/2]
	}
	step := func(s *session) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			var r result
			return s.step(&r, time.Time{})
		}
	}

	b.ResetTimer()
	var atOnce, inTurn []float64
	for range b.N {
		for i := range 5 {
			var h, p result
			var hCPU, pCPU time.Duration
			if i%2 == 0 {
				h, hCPU = measure(health)
				p, pCPU = measure(plies)
			} else {
				p, pCPU = measure(plies)
				h, hCPU = measure(health)
			}
			atOnce = append(atOnce, p.perSecond()/h.perSecond())
			b.Logf("run %d, %d at once: /healthz %.0f/s (p50 %v, p99 %v, server %v CPU each), plies %.0f/s (p50 %v, p99 %v, server %v CPU each): %.2f×",
				i+1, n, h.perSecond(), h.quantile(0.5), h.quantile(0.99), hCPU, p.perSecond(), p.quantile(0.5), p.quantile(0.99), pCPU, atOnce[len(atOnce)-1])

			hs, ps, cs := median(step(oneHealth[0])), median(step(onePly[0])), median(commit)
			inTurn = append(inTurn, float64(ps)/float64(hs+cs))
			b.Logf("run %d, one after another: /healthz p50 %v, commit p50 %v, API ply p50 %v: %.2f× their sum", i+1, hs, cs, ps, inTurn[len(inTurn)-1])
		}
	}
	b.StopTimer()
	mid := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	b.ReportMetric(mid(atOnce), "×healthz-64")
	b.ReportMetric(mid(inTurn), "×health+commit")
	b.Logf("at once %.2f (runs %.2f); one after another %.2f (runs %.2f)", mid(atOnce), atOnce, mid(inTurn), inTurn)
}

// newCommitter returns a timed save of one ply to a store of its own, of
// the kind the server runs on (LOAD_STORE), taking a ply and taking it
// back in turn.
func newCommitter(tb testing.TB) func() (time.Duration, error) {
	st := openStore(tb, storeKind())
	ctx := context.Background()
	holder := players.NewCredential().Hash()
	now := time.Now()
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: holder, Black: holder, Mode: games.HotSeat, Created: now, Updated: now}
	if err := st.Create(ctx, rec); err != nil {
		tb.Fatal(err)
	}
	steps := []func(g *rules.Game) error{
		func(g *rules.Game) error { return g.PlayText("b:e2e4") },
		(*rules.Game).Undo,
	}
	i := 0
	return func() (time.Duration, error) {
		t0 := time.Now()
		err := st.Update(ctx, rec.ID, func(r *games.Record) error { return steps[i%len(steps)](r.Game) })
		i++
		return time.Since(t0), err
	}
}
