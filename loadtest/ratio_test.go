package loadtest

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/internal/testsite"
)

// BenchmarkPlyVsHealthz is issue 29's sequential cost of an API ply: one
// client, one connection, on the real server over loopback TCP (the store
// LOAD_STORE names; /healthz pings it, as main's does), alternates runs of
// LOAD_RATIO_N (default 2,000) GET /healthz and as many API plies (the
// whole game object answered, its FEN checked; LOAD_RATIO_FIELDS asks for
// ?fields=, such as compact), the order swapped each run, five runs of
// each. Each run's ratio is the API ply's median latency over /healthz's;
// the benchmark reports every run and the median ratio. The server runs
// in the benchmark's process, or with LOAD_RATIO_APART=1 in a process of
// its own (TestStreamServer), measured from outside as a client sees it:
//
//	GOGC=400 go test ./loadtest -run '^$' -bench PlyVsHealthz -benchtime 1x
//	GOGC=400 LOAD_RATIO_APART=1 go test ./loadtest -run '^$' -bench PlyVsHealthz -benchtime 1x
func BenchmarkPlyVsHealthz(b *testing.B) {
	var srv *server
	if os.Getenv("LOAD_RATIO_APART") != "" {
		apart := startStreamServer(b)
		tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
		b.Cleanup(tr.CloseIdleConnections)
		srv = &server{url: apart.url, transport: tr}
	} else {
		st := openStore(b, storeKind())
		var opts []handlers.Option
		if p, ok := st.(handlers.Pinger); ok {
			opts = append(opts, handlers.WithHealthCheck(p))
		}
		srv = serve(b, testsite.New(st, testsite.Config{}), 1, opts...)
	}
	ss, err := newSessions(srv, apiKind, 1, 0, 29)
	if err != nil {
		b.Fatal(err)
	}
	s, n := ss[0], envInt(b, "LOAD_RATIO_N", 2000)
	s.fields = os.Getenv("LOAD_RATIO_FIELDS")
	health := func() (time.Duration, error) {
		req, err := http.NewRequest(http.MethodGet, s.base+"/healthz", nil)
		if err != nil {
			return 0, err
		}
		t0 := time.Now()
		_, err = s.do(req, http.StatusOK)
		return time.Since(t0), err
	}
	ply := func() (time.Duration, error) {
		var r result
		return s.step(&r, time.Time{})
	}
	measure := func(op func() (time.Duration, error)) time.Duration {
		lat := make([]time.Duration, 0, n)
		for range n {
			d, err := op()
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, d)
		}
		slices.Sort(lat)
		return lat[len(lat)/2]
	}
	measure(health) // warm the connection, the caches and the store
	measure(ply)
	b.ResetTimer()
	var ratios []float64
	for range b.N {
		ratios = ratios[:0]
		for run := range 5 {
			var h, p time.Duration
			if run%2 == 0 {
				h, p = measure(health), measure(ply)
			} else {
				p, h = measure(ply), measure(health)
			}
			ratios = append(ratios, float64(p)/float64(h))
			b.Logf("run %d: /healthz p50 %v, API ply p50 %v: %.2f×", run+1, h, p, ratios[run])
		}
	}
	b.StopTimer()
	sorted := slices.Clone(ratios)
	slices.Sort(sorted)
	b.ReportMetric(sorted[len(sorted)/2], "×healthz")
	b.Logf("ratios %s, median %.2f×", fmt.Sprint(ratios), sorted[len(sorted)/2])
}
