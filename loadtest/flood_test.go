package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// browserAccept is the Accept-Encoding a browser's EventSource sends.
const browserAccept = "gzip, deflate, br, zstd"

// streamClientEnv makes TestStreamClient open streams: the address of the
// stream. TestStreamFlood runs this test binary as its clients, since one
// process cannot hold as many connections as the server is offered.
const streamClientEnv = "LOAD_STREAM_CLIENT"

// browserStream asks for the stream at url as a browser's EventSource
// does: Accept text/event-stream, and every encoding accepted.
func browserStream(ctx context.Context, client *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Encoding", browserAccept)
	req.Header.Set("Cache-Control", "no-cache")
	return client.Do(req)
}

// TestStreamClient is a client of TestStreamFlood: it opens
// LOAD_CLIENT_STREAMS streams (default 1,000) at LOAD_STREAM_CLIENT as
// browsers do, 64 at a time, keeps those the server opens (each read to
// its first line) and closes those refused, prints what it got ("streams
// opened N refused M failed K …") and holds them until its standard input
// ends.
func TestStreamClient(t *testing.T) {
	url := os.Getenv(streamClientEnv)
	if url == "" {
		t.Skip("a client of TestStreamFlood, which runs it")
	}
	n := envInt(t, "LOAD_CLIENT_STREAMS", 1000)
	raiseFileLimit(uint64(n + 256))
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: -1}}
	var (
		opened, refused, failed, encoded atomic.Int64
		mu                               sync.Mutex
		first                            error
		held                             []io.Closer
		wg                               sync.WaitGroup
	)
	fail := func(err error) {
		failed.Add(1)
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	sem := make(chan struct{}, 64)
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			res, err := browserStream(context.Background(), client, url)
			if err != nil {
				fail(err)
				return
			}
			if res.StatusCode == http.StatusTooManyRequests {
				refused.Add(1)
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				return
			}
			if res.Header.Get("Content-Encoding") != "" {
				encoded.Add(1)
			}
			line, err := bufio.NewReader(res.Body).ReadString('\n')
			if res.StatusCode != http.StatusOK || err != nil || line != ": banchess live\n" {
				fail(fmt.Errorf("%d %q %v", res.StatusCode, line, err))
				res.Body.Close()
				return
			}
			opened.Add(1)
			mu.Lock()
			held = append(held, res.Body)
			mu.Unlock()
		})
	}
	wg.Wait()
	fmt.Printf("streams opened %d refused %d failed %d encoded %d first %v\n", opened.Load(), refused.Load(), failed.Load(), encoded.Load(), first)
	io.Copy(io.Discard, os.Stdin)
	for _, b := range held {
		b.Close()
	}
}

// streamClient is a TestStreamClient process.
type streamClient struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	result chan string // its line of counts
}

// startStreamClient runs this test binary as a TestStreamClient opening n
// streams at url.
func startStreamClient(tb testing.TB, url string, n int) *streamClient {
	tb.Helper()
	cmd, stdin, stdout := startSelf(tb, "TestStreamClient", os.Stderr, streamClientEnv+"="+url, fmt.Sprintf("LOAD_CLIENT_STREAMS=%d", n))
	c := &streamClient{cmd: cmd, stdin: stdin, result: make(chan string, 1)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "streams "); ok {
				c.result <- line
			}
		}
	}()
	tb.Cleanup(c.stop)
	return c
}

// stop closes the client's streams and waits for it to end.
func (c *streamClient) stop() {
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// healthProbe asks /healthz every 50 ms, each time on a new connection, as
// a load balancer does, until stop; it counts the answers that were not a
// 200 within 2 s and the slowest.
type healthProbe struct {
	probes, failures int
	slowest          time.Duration
	first            string
}

func probeHealth(url string, stop <-chan struct{}) <-chan healthProbe {
	out := make(chan healthProbe, 1)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 2 * time.Second}
	go func() {
		var h healthProbe
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				out <- h
				return
			case <-tick.C:
			}
			start := time.Now()
			res, err := client.Get(url + "/healthz")
			h.probes++
			h.slowest = max(h.slowest, time.Since(start))
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					err = fmt.Errorf("status %d", res.StatusCode)
				}
			}
			if err != nil {
				h.failures++
				if h.first == "" {
					h.first = err.Error()
				}
			}
		}
	}()
	return out
}

// TestStreamFlood offers the real server (in a process of its own, with
// main's limit on streams in all, which follows its limit on open files)
// LOAD_STREAM_FLOOD streams (21,000 with LOAD_STREAM_FLOOD=1) from two
// client processes, as browsers ask for them, while /healthz is asked
// every 50 ms on a new connection. Every stream is opened or refused with
// 429 (none fails), the server opens as many as its limit, it never runs
// out of files ("too many open files" in its log), and /healthz answers
// throughout:
//
//	ulimit -n 20000; LOAD_STREAM_FLOOD=1 go test ./loadtest -run TestStreamFlood -v -timeout 20m
func TestStreamFlood(t *testing.T) {
	if os.Getenv("LOAD_STREAM_FLOOD") == "" {
		t.Skip("set LOAD_STREAM_FLOOD=1 (21,000 streams) or a number of streams to offer the server")
	}
	attempts := envInt(t, "LOAD_STREAM_FLOOD", 1)
	if attempts == 1 {
		attempts = 21_000
	}
	srv := startStreamServer(t, streamCapEnv+"=1")
	g := newWatchedGames(t, srv, 1)[0]
	stop := make(chan struct{})
	health := probeHealth(srv.url, stop)
	url := srv.url + "/g/" + g.id + "/events"
	start := time.Now()
	clients := []*streamClient{startStreamClient(t, url, attempts/2), startStreamClient(t, url, attempts-attempts/2)}
	var opened, refused, failed, encoded int
	for i, c := range clients {
		select {
		case line := <-c.result:
			t.Logf("client %d: %s", i+1, line)
			var o, r, f, e int
			fmt.Sscanf(line, "opened %d refused %d failed %d encoded %d", &o, &r, &f, &e)
			opened, refused, failed, encoded = opened+o, refused+r, failed+f, encoded+e
		case <-time.After(10 * time.Minute):
			t.Fatalf("client %d did not finish", i+1)
		}
	}
	took := time.Since(start)
	st := srv.stats(t)
	time.Sleep(time.Second) // /healthz with every stream open
	close(stop)
	h := <-health
	t.Logf("%d streams offered in %v: %d opened (the server counts %d), %d refused with 429, %d failed, %d compressed; "+
		"/healthz asked %d times, %d failed (%s), the slowest %v; the server: %d goroutines, %.1f MB resident",
		attempts, took.Round(time.Millisecond), opened, st.Streams, refused, failed, encoded, h.probes, h.failures, h.first, h.slowest.Round(time.Millisecond), st.Goroutines, mb(st.RSS))
	if failed > 0 || opened+refused != attempts || opened != st.Streams || encoded > 0 {
		t.Errorf("of %d streams offered, %d opened (the server counts %d) and %d refused, %d failed, %d compressed", attempts, opened, st.Streams, refused, failed, encoded)
	}
	if log := srv.log.String(); strings.Contains(log, "too many open files") {
		t.Errorf("the server ran out of files: %s", log[max(0, strings.Index(log, "too many open files")-200):][:300])
	}
	if h.failures > 0 {
		t.Errorf("/healthz failed %d of %d times (the first: %s)", h.failures, h.probes, h.first)
	}
}

// BenchmarkIdleStreams measures idle browser streams on the real server
// (in a process of its own, GOGC as main sets it): a victim's API plies
// at LOAD_IDLE_RATE a second (default 50) with no stream open, then with
// LOAD_IDLE_STREAMS page streams (default 10,000) open on 100 games, as
// browsers ask for them (every encoding accepted), idle; the server's
// resident memory and Go heap and stacks per stream, and the CPU it uses
// a second while they idle (over LOAD_IDLE_SECONDS, default 30: two
// heartbeats of each stream). One iteration is one ply of each phase:
//
//	GOGC=400 go test ./loadtest -run '^$' -bench IdleStreams -benchtime 400x
func BenchmarkIdleStreams(b *testing.B) {
	streams := envInt(b, "LOAD_IDLE_STREAMS", 10_000)
	rate := max(envInt(b, "LOAD_IDLE_RATE", 50), 1)
	idle := time.Duration(envInt(b, "LOAD_IDLE_SECONDS", 30)) * time.Second
	if need := uint64(streams + 512); raiseFileLimit(need) < need {
		b.Skipf("the limit on open files is below %d: raise it (ulimit -n)", need)
	}
	srv := startStreamServer(b, fmt.Sprintf("LOAD_STREAMS=%d", streams))
	gs := newWatchedGames(b, srv, 100)
	victim := newWatchedGames(b, srv, 1)
	plies := func() []time.Duration {
		var took []time.Duration
		rng := rand.New(rand.NewPCG(uint64(b.N), 7))
		start := time.Now()
		for i := range b.N {
			time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))))
			g := victim[0]
			ply, action, ok := g.claim(rng)
			if !ok { // over: a new game
				victim = newWatchedGames(b, srv, 1)
				victim[0].reset(0)
				continue
			}
			sent := time.Now()
			st, ack, err := srv.post("/api/games/"+g.id+"/actions", fmt.Sprintf(`{"action":%q,"ply":%d}`, action, ply), http.StatusOK)
			g.played(st, sent, ack, err)
			if err != nil {
				b.Fatal(err)
			}
			took = append(took, ack.Sub(sent))
		}
		return took
	}
	for _, g := range victim {
		g.reset(0)
	}
	b.ResetTimer()
	quiet := plies()
	b.StopTimer()
	srv.client.CloseIdleConnections()
	before := srv.stats(b)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: -1}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := range streams {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			res, err := browserStream(ctx, client, srv.url+"/g/"+gs[i%len(gs)].id+"/events")
			if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" {
				failed.Add(1)
				return
			}
			go io.Copy(io.Discard, res.Body) // read what comes, as a browser does
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		b.Fatalf("%d of %d streams failed to open", failed.Load(), streams)
	}
	time.Sleep(5 * time.Second) // let the opening settle
	open := srv.stats(b)
	time.Sleep(idle)
	idled := srv.stats(b)
	b.StartTimer()
	busy := plies()
	b.StopTimer()
	ms := func(ds []time.Duration, q float64) float64 {
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))]) / float64(time.Millisecond)
	}
	kb := func(d int64) float64 { return float64(d) / 1024 / float64(streams) }
	b.ReportMetric(kb(open.RSS-before.RSS), "rss-KB/stream")
	b.ReportMetric(kb(open.Heap-before.Heap), "heap-KB/stream")
	b.ReportMetric(kb(open.Stack-before.Stack), "stack-KB/stream")
	// CPU: from after the first stats request's collection to before the
	// second's.
	b.ReportMetric(float64(idled.CPU-open.CPUAfter)/float64(idle)*100, "idle-cpu-%")
	b.ReportMetric(ms(quiet, 0.50), "p50-ms-no-streams")
	b.ReportMetric(ms(quiet, 0.99), "p99-ms-no-streams")
	b.ReportMetric(ms(busy, 0.50), "p50-ms-streams")
	b.ReportMetric(ms(busy, 0.99), "p99-ms-streams")
	b.ReportMetric(float64(open.Streams), "streams")
	cancel()
}
