package loadtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// BenchmarkEngineBusy measures the HTML ply latency (p50, p99) of
// LOAD_SESSIONS players (default 20) over TCP while the engine pool (one
// worker, as on a 2-core machine) is idle, and while it searches without
// pause, as under games against the computer at level 8 or analyses. With
// LOAD_RATE the sessions offer that many plies a second in all.
//
//	go test ./loadtest -run '^$' -bench EngineBusy -benchtime 2000x -count 3
func BenchmarkEngineBusy(b *testing.B) {
	n := max(envInt(b, "LOAD_SESSIONS", 20), 1)
	rate := float64(envInt(b, "LOAD_RATE", 0))
	pool := engine.NewPool(1, 2, 16)
	svc := testsite.New(openStore(b, storeKind()), testsite.Config{Engine: pool})
	b.Cleanup(svc.Close)
	srv := serve(b, svc, n)
	ss, err := newSessions(srv, htmlKind, n, envInt(b, "LOAD_MAX_PLIES", 160), 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, busy := range []bool{false, true} {
		b.Run(map[bool]string{false: "idle", true: "busy"}[busy], func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			if busy {
				wg.Go(func() { keepSearching(ctx, pool) })
			}
			r := run(ss, b.N, rate, b.ResetTimer)
			b.StopTimer()
			cancel()
			wg.Wait()
			report(b, htmlKind, r, 0, rate > 0)
		})
	}
}

// keepSearching keeps pool's worker searching the start position until
// ctx ends.
func keepSearching(ctx context.Context, pool *engine.Pool) {
	g := rules.New(rules.BanChess{})
	for ctx.Err() == nil {
		_, _ = pool.Analyse(ctx, g, engine.Limits{Time: time.Second})
	}
}
