package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/testsite"
)

// streamServerEnv makes TestStreamServer serve: BenchmarkStreams runs this
// test binary again with it set, so that the server is a process of its
// own and its memory and goroutines are its alone.
const streamServerEnv = "LOAD_STREAM_SERVER"

// statsPath is the stream server's route that reports its goroutines,
// streams and memory (after a collection).
const statsPath = "/_stats"

// serverStats are what statsPath answers.
type serverStats struct {
	Goroutines int   `json:"goroutines"`
	Streams    int   `json:"streams"`
	Heap       int64 `json:"heap"`     // HeapInuse after a collection
	Stack      int64 `json:"stack"`    // StackInuse
	RSS        int64 `json:"rss"`      // VmRSS
	CPU        int64 `json:"cpu"`      // CPU time used so far, ns (before the collection)
	CPUAfter   int64 `json:"cpuAfter"` // the same after the collection
}

// streamCapEnv makes TestStreamServer limit the streams open in all as
// main does (handlers.DefaultStreamLimits: from the process's limit on
// open files), though not per client (the load clients are one address).
const streamCapEnv = "LOAD_STREAM_CAP"

// TestStreamServer is the server BenchmarkStreams measures: main's
// handlers without their rate or stream limits (one load client opens
// every stream; with LOAD_STREAM_CAP, main's limit in all), on the store
// LOAD_STORE names, on a loopback port it prints ("listening http://…").
// It serves until its standard input ends. With LOAD_SERVER_CPUPROFILE it
// writes its CPU profile there.
func TestStreamServer(t *testing.T) {
	if os.Getenv(streamServerEnv) == "" {
		t.Skip("the server of BenchmarkStreams, which runs it")
	}
	var opts []handlers.Option
	if os.Getenv(streamCapEnv) != "" {
		opts = append(opts, handlers.WithStreamLimits(stream.Limits{Total: stream.DefaultLimits().Total}))
	} else {
		raiseFileLimit(uint64(envInt(t, "LOAD_STREAMS", 2000) + 1024))
	}
	if path := os.Getenv("LOAD_SERVER_CPUPROFILE"); path != "" { // the server's own profile, to its end
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, storeKind())
	if p, ok := st.(handlers.Pinger); ok {
		opts = append(opts, handlers.WithHealthCheck(p)) // as main's
	}
	svc := testsite.New(st, testsite.Config{})
	defer svc.Close()
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	hs := handlers.New(services(svc), nil, opts...)
	hs.Register(e)
	e.GET(statsPath, func(c echo.Context) error {
		cpu := cpuTime()
		m, err := readMemory()
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, serverStats{Goroutines: runtime.NumGoroutine(), Streams: hs.OpenStreams(), Heap: m.heap, Stack: m.stack, RSS: m.rss, CPU: int64(cpu), CPUAfter: int64(cpuTime())})
	})
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Printf("listening http://%s (at most %d streams)\n", ln.Addr(), stream.DefaultLimits().Total)
	io.Copy(io.Discard, os.Stdin)
	hs.CloseStreams()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Error(err)
	}
}

// streamServer is TestStreamServer running in a process of its own.
type streamServer struct {
	url    string
	client *http.Client // for plies: a few connections
	stats1 *http.Client // for stats: a connection each, closed after
	token  string       // holds the seats of every game created
	log    *logBuffer   // what the server wrote on its standard error
}

// logBuffer keeps what a process writes, and passes it on.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
	to  io.Writer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.buf.Write(p)
	l.mu.Unlock()
	return l.to.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startStreamServer runs this test binary as TestStreamServer, with env
// added to its environment, and returns once it listens; it stops when
// the benchmark ends.
func startStreamServer(tb testing.TB, env ...string) *streamServer {
	tb.Helper()
	log := &logBuffer{to: os.Stderr}
	cmd, stdin, stdout := startSelf(tb, "TestStreamServer", log, append([]string{streamServerEnv + "=1"}, env...)...)
	exited := make(chan error, 1)
	tb.Cleanup(func() {
		stdin.Close() // the server shuts down
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			tb.Error("the stream server did not stop")
		}
	})
	sc := bufio.NewScanner(stdout)
	var url string
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
			url, _, _ = strings.Cut(u, " ")
			break
		}
	}
	go func() {
		io.Copy(io.Discard, stdout)
		exited <- cmd.Wait()
	}()
	if url == "" {
		tb.Fatal("the stream server did not start")
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	tb.Cleanup(tr.CloseIdleConnections)
	return &streamServer{url: url, client: &http.Client{Transport: tr, Timeout: 30 * time.Second},
		stats1: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}, log: log}
}

// startSelf runs this test binary again as test alone, with env added to
// its environment and its standard error to stderr, and returns it with
// its standard input and output.
func startSelf(tb testing.TB, test string, stderr io.Writer, env ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return cmd, stdin, stdout
}

// stats asks the server for its goroutines, streams and memory.
func (s *streamServer) stats(tb testing.TB) serverStats {
	tb.Helper()
	res, err := s.stats1.Get(s.url + statsPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	var st serverStats
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// watchedGame is one game the benchmark plays and watches: its state as
// the last answer said, and when each revision was acknowledged and
// arrived on each watcher.
type watchedGame struct {
	id string

	mu       sync.Mutex
	ply      int
	legal    []string
	over     bool
	inFlight bool
	acks     map[int64]time.Time // revision → when its ply's POST was answered
	sent     map[int64]time.Time // revision → when its ply's POST was sent
	seen     [][]arrival         // by watcher: the events it read, in order
}

// arrival is an event a watcher read: the revision, and when. A watcher
// woken for two changes at once reads only the latest: it has the earlier
// ply when it has a later revision.
type arrival struct {
	rev int64
	at  time.Time
}

// gameState is what the benchmark reads of a game object.
type gameState struct {
	ID       string   `json:"id"`
	Ply      int      `json:"ply"`
	Legal    []string `json:"legal"`
	Status   string   `json:"status"`
	Revision int64    `json:"revision"`
	Token    string   `json:"token"`
}

// post sends a JSON body with the benchmark's token and decodes the game
// answered; ack is when the answer was read whole.
func (s *streamServer) post(path, body string, want int) (g gameState, ack time.Time, err error) {
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(body))
	if err != nil {
		return g, ack, err
	}
	req.Header.Set("Content-Type", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return g, ack, err
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	ack = time.Now()
	if err != nil {
		return g, ack, err
	}
	if res.StatusCode != want {
		return g, ack, fmt.Errorf("POST %s: %d: %s", path, res.StatusCode, data)
	}
	return g, ack, json.Unmarshal(data, &g)
}

// newWatchedGames creates n games, their seats all held by one token.
func newWatchedGames(tb testing.TB, s *streamServer, n int) []*watchedGame {
	tb.Helper()
	gs := make([]*watchedGame, n)
	for i := range gs {
		g, _, err := s.post("/api/games", "{}", http.StatusCreated)
		if err != nil {
			tb.Fatal(err)
		}
		s.token = g.Token
		gs[i] = &watchedGame{id: g.ID, ply: g.Ply, legal: g.Legal}
	}
	return gs
}

// reset forgets what was acknowledged and arrived.
func (g *watchedGame) reset(watchers int) {
	g.mu.Lock()
	g.acks, g.sent, g.seen = map[int64]time.Time{}, map[int64]time.Time{}, make([][]arrival, watchers)
	g.mu.Unlock()
}

// claim takes the game for one ply, if it is not over nor already playing
// one, and returns the ply and the action to play.
func (g *watchedGame) claim(rng *rand.Rand) (ply int, action string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.over || g.inFlight || len(g.legal) == 0 {
		return 0, "", false
	}
	g.inFlight = true
	return g.ply, g.legal[rng.IntN(len(g.legal))], true
}

// played records a ply's answer: sent and ack are when its POST was sent
// and answered.
func (g *watchedGame) played(st gameState, sent, ack time.Time, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight = false
	if err != nil {
		return
	}
	g.ply, g.legal, g.over = st.Ply, st.Legal, st.Status != "ongoing"
	g.acks[st.Revision], g.sent[st.Revision] = ack, sent
}

// arrived records that watcher slot read revision rev's event at t.
func (g *watchedGame) arrived(slot int, rev int64, t time.Time) {
	g.mu.Lock()
	if slot < len(g.seen) {
		g.seen[slot] = append(g.seen[slot], arrival{rev, t})
	}
	g.mu.Unlock()
}

// delivered reports whether every acknowledged revision reached every
// watcher.
func (g *watchedGame) delivered() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	var last int64
	for rev := range g.acks {
		last = max(last, rev)
	}
	for _, seen := range g.seen {
		if len(g.acks) > 0 && (len(seen) == 0 || seen[len(seen)-1].rev < last) {
			return false
		}
	}
	return true
}

// reached returns when watcher slot first had revision rev or a later one.
func (g *watchedGame) reached(slot int, rev int64) (time.Time, bool) {
	for _, a := range g.seen[slot] {
		if a.rev >= rev {
			return a.at, true
		}
	}
	return time.Time{}, false
}

// watcher is one open stream.
type watcher struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// watch opens the stream at url of g, as g's watcher slot, and records
// each event's arrival; it sends on ready once it has read the first event.
func watch(client *http.Client, url string, g *watchedGame, slot int, ready chan<- error) *watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		first := true
		signal := func(err error) {
			if first {
				ready <- err
				first = false
			}
		}
		res, err := browserStream(ctx, client, url)
		if err != nil {
			signal(err)
			return
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			signal(fmt.Errorf("GET %s: %d", url, res.StatusCode))
			return
		}
		r := bufio.NewReader(res.Body)
		rev := int64(-1)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				signal(err)
				return
			}
			switch {
			case strings.HasPrefix(line, "id: "):
				rev, _ = strconv.ParseInt(strings.TrimSpace(line[4:]), 10, 64)
			case line == "\n" && rev >= 0: // the end of an event with an id
				if first {
					signal(nil)
				} else {
					g.arrived(slot, rev, time.Now())
				}
				rev = -1
			}
		}
	}()
	return w
}

// BenchmarkStreams measures live streams on the real server in a process
// of its own over loopback: LOAD_STREAMS open streams (default 2,000)
// watching LOAD_STREAM_GAMES games (default 200, each with the same number
// of watchers) while plies are played at LOAD_STREAM_RATE a second
// (default 200) through the JSON API, one iteration a ply, each game a
// random legal game. It reports the latency from a ply's acknowledgement
// (its POST's answer read) to its event read by a watcher: p50-ms and
// p99-ms over every delivery, p99-all-ms to the last watcher of each ply
// (an event read before its POST's answer counts 0), and p50-sent-ms and
// p99-sent-ms from when the POST was sent; the server's memory
// per idle stream (Go heap and stacks after a collection, and resident
// set, each the difference with no stream open, divided by the streams);
// its goroutines before opening the streams, with them open, and after
// closing them; and its CPU time per ply. Sub-benchmarks: api (GET /api/games/{id}/events, the game
// object in every event) and page (GET /g/{id}/events, the pages' stream:
// the revision only).
//
//	GOGC=400 go test ./loadtest -run '^$' -bench Streams -benchtime 3000x -count 3
func BenchmarkStreams(b *testing.B) {
	streams := envInt(b, "LOAD_STREAMS", 2000)
	nGames := envInt(b, "LOAD_STREAM_GAMES", 200)
	rate := envInt(b, "LOAD_STREAM_RATE", 200)
	if nGames == 0 || streams < nGames || rate == 0 {
		b.Fatalf("LOAD_STREAMS=%d, LOAD_STREAM_GAMES=%d, LOAD_STREAM_RATE=%d: want at least one game, a stream per game and a rate", streams, nGames, rate)
	}
	if need := uint64(streams + 256); raiseFileLimit(need) < need {
		b.Skipf("the limit on open files is below %d: raise it (ulimit -n)", need)
	}
	srv := startStreamServer(b)
	gs := newWatchedGames(b, srv, nGames)
	for _, kind := range []string{"api", "page"} {
		b.Run(kind, func(b *testing.B) {
			r := srv.measure(b, gs, kind, streams, b.N, rate, b.ResetTimer)
			b.StopTimer()
			reportStreams(b, r, streams)
		})
	}
}

// TestStreamsShort runs BenchmarkStreams's measure on a few streams: it
// works, every ply reaches every watcher, and the server's streams and
// goroutines end with their clients.
func TestStreamsShort(t *testing.T) {
	srv := startStreamServer(t)
	gs := newWatchedGames(t, srv, 4)
	for _, kind := range []string{"api", "page"} {
		t.Run(kind, func(t *testing.T) {
			const streams, plies = 20, 40
			r := srv.measure(t, gs, kind, streams, plies, 100, nil)
			if r.errs > 0 || r.plies != plies || r.missed > 0 || len(r.each) != plies*streams/len(gs) {
				t.Errorf("%d plies, %d errors (the first: %v), %d deliveries, %d missed", r.plies, r.errs, r.first, len(r.each), r.missed)
			}
			if r.open.Streams != streams || r.open.Goroutines < r.before.Goroutines+streams {
				t.Errorf("with %d streams open the server counts %d, and %d goroutines (%d before)", streams, r.open.Streams, r.open.Goroutines, r.before.Goroutines)
			}
			if r.after.Streams != 0 || r.after.Goroutines > r.before.Goroutines {
				t.Errorf("after the clients left: %d streams, %d goroutines (%d before)", r.after.Streams, r.after.Goroutines, r.before.Goroutines)
			}
		})
	}
}

// streamRun is what one measure saw.
type streamRun struct {
	plies, errs         int
	first               error
	elapsed             time.Duration
	before, open, after serverStats     // the server with no stream, all open, all closed
	played              serverStats     // the server once every ply was delivered
	each, all, fromSent []time.Duration // see reportStreams
	missed              int             // deliveries that never came
}

// measure opens streams streams of kind over gs, plays n plies at rate a
// second (calling start, if any, just before), closes the streams and
// returns what it saw.
func (s *streamServer) measure(tb testing.TB, gs []*watchedGame, kind string, streams, n, rate int, start func()) streamRun {
	tb.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}
	client := &http.Client{Transport: tr}
	var r streamRun
	s.client.CloseIdleConnections() // the server counts no idle connection
	r.before = s.stats(tb)
	var closeStreams func()
	procs := envInt(tb, "LOAD_STREAM_PROCS", 1)
	if procs > 1 {
		closeStreams = openStreamsElsewhere(tb, s, gs, kind, streams, procs)
	} else {
		ws := openStreams(tb, client, s, gs, kind, streams)
		closeStreams = func() {
			for _, w := range ws {
				w.cancel()
			}
			for _, w := range ws {
				<-w.done
			}
		}
	}
	r.open = s.stats(tb)
	if r.open.Streams != streams {
		tb.Fatalf("the server counts %d streams open, want %d", r.open.Streams, streams)
	}
	if start != nil {
		start()
	}
	t0 := time.Now()
	r.plies, r.errs, r.first = playAt(s, gs, n, rate)
	r.elapsed = time.Since(t0)
	if procs > 1 {
		time.Sleep(10 * time.Second) // the clients say what arrived when they close (a later event counts missed)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, g := range gs {
		for procs == 1 && !g.delivered() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	r.played = s.stats(tb)
	closeStreams()
	tr.CloseIdleConnections()
	s.client.CloseIdleConnections()
	r.after = s.stats(tb)
	for deadline := time.Now().Add(10 * time.Second); (r.after.Streams > 0 || r.after.Goroutines > r.before.Goroutines) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		r.after = s.stats(tb)
	}
	r.latencies(gs)
	return r
}

// openingAtOnce bounds the streams a client is opening at once, as
// browsers do (thousands at once overflow the server's accept queue on a
// busy machine: connections reset, or dropped after ReadHeaderTimeout).
const openingAtOnce = 64

// openStreams opens n streams of kind over gs, round robin, and returns
// once each has read its first event.
func openStreams(tb testing.TB, client *http.Client, srv *streamServer, gs []*watchedGame, kind string, n int) []*watcher {
	tb.Helper()
	for i, g := range gs {
		g.reset(n/len(gs) + btoi(i < n%len(gs)))
	}
	ready := make(chan error, n)
	ws := make([]*watcher, n)
	opened := 0
	awaitOne := func() {
		select {
		case err := <-ready:
			if err != nil {
				tb.Fatalf("opening a stream: %v", err)
			}
			opened++
		case <-time.After(60 * time.Second):
			tb.Fatal("the streams did not open")
		}
	}
	for i := range ws {
		if i-opened >= openingAtOnce {
			awaitOne()
		}
		g := gs[i%len(gs)]
		url := srv.url + "/api/games/" + g.id + "/events"
		if kind == "page" {
			url = srv.url + "/g/" + g.id + "/events"
		}
		ws[i] = watch(client, url, g, i/len(gs), ready)
	}
	for opened < n {
		awaitOne()
	}
	for i, g := range gs {
		g.reset(n/len(gs) + btoi(i < n%len(gs))) // the first events are not plies
	}
	return ws
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// playAt plays n plies at rate a second, each on the next game (round
// robin) that is not over and not playing one already (waiting for one
// when every game is).
func playAt(srv *streamServer, gs []*watchedGame, n, rate int) (plies, errs int, first error) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	rng := rand.New(rand.NewPCG(uint64(n), 12))
	start := time.Now()
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))))
		g, ply, action, err := claimNext(gs, &next, rng)
		if err != nil {
			mu.Lock()
			errs++
			if first == nil {
				first = err
			}
			mu.Unlock()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent := time.Now()
			st, ack, err := srv.post("/api/games/"+g.id+"/actions", fmt.Sprintf(`{"action":%q,"ply":%d}`, action, ply), http.StatusOK)
			g.played(st, sent, ack, err)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs++
				if first == nil {
					first = err
				}
				return
			}
			plies++
		}()
	}
	wg.Wait()
	return plies, errs, first
}

// claimNext claims the next game (round robin from *next) that is not
// over and not waiting for an answer, waiting for one if all are; it fails
// when every game is over.
func claimNext(gs []*watchedGame, next *int, rng *rand.Rand) (*watchedGame, int, string, error) {
	for {
		over := 0
		for range gs {
			g := gs[*next%len(gs)]
			*next++
			if ply, action, ok := g.claim(rng); ok {
				return g, ply, action, nil
			}
			g.mu.Lock()
			over += btoi(g.over)
			g.mu.Unlock()
		}
		if over == len(gs) {
			return nil, 0, "", errors.New("every game is over")
		}
		time.Sleep(time.Millisecond)
	}
}

// latencies computes, from what gs recorded, the time from each ply's
// acknowledgement to its arrival on each watcher (each; 0 for an event
// read before the POST's answer), to its last watcher (all), and from its
// POST's sending to each watcher (fromSent).
func (r *streamRun) latencies(gs []*watchedGame) {
	for _, g := range gs {
		g.mu.Lock()
		for rev, ack := range g.acks {
			last := time.Duration(0)
			for slot := range g.seen {
				t, ok := g.reached(slot, rev)
				if !ok {
					r.missed++
					continue
				}
				d := max(0, t.Sub(ack))
				r.each = append(r.each, d)
				r.fromSent = append(r.fromSent, t.Sub(g.sent[rev]))
				last = max(last, d)
			}
			r.all = append(r.all, last)
		}
		g.mu.Unlock()
	}
}

// reportStreams reports r as the benchmark's metrics.
func reportStreams(b *testing.B, r streamRun, streams int) {
	ms := func(ds []time.Duration, q float64) float64 {
		if len(ds) == 0 {
			return 0
		}
		slices.Sort(ds)
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))]) / float64(time.Millisecond)
	}
	kb := func(d int64) float64 { return float64(d) / 1024 / float64(streams) }
	b.ReportMetric(float64(r.plies)/r.elapsed.Seconds(), "plies/s")
	b.ReportMetric(ms(r.each, 0.50), "p50-ms")
	b.ReportMetric(ms(r.each, 0.99), "p99-ms")
	b.ReportMetric(ms(r.all, 0.99), "p99-all-ms")
	b.ReportMetric(ms(r.all, 1), "max-ms")
	b.ReportMetric(ms(r.fromSent, 0.50), "p50-sent-ms")
	b.ReportMetric(ms(r.fromSent, 0.99), "p99-sent-ms")
	if r.played.CPU > 0 {
		// The server's own CPU per ply (the POST and its events to every
		// watcher), which depends less on what else the machine runs.
		b.ReportMetric(float64(r.played.CPU-r.open.CPU)/1e3/float64(max(1, r.plies)), "server-cpu-µs/ply")
	}
	b.ReportMetric(float64(r.missed), "missed")
	b.ReportMetric(float64(r.errs), "errors")
	b.ReportMetric(kb(r.open.Heap+r.open.Stack-r.before.Heap-r.before.Stack), "go-KB/stream")
	b.ReportMetric(kb(r.open.RSS-r.before.RSS), "rss-KB/stream")
	b.ReportMetric(float64(r.before.Goroutines), "goroutines-before")
	b.ReportMetric(float64(r.open.Goroutines), "goroutines-open")
	b.ReportMetric(float64(r.after.Goroutines), "goroutines-after")
	if r.errs > 0 || r.missed > 0 {
		// A failed benchmark prints no metrics: say them here.
		b.Logf("%.0f plies/s; to each watcher p50 %.2f ms, p99 %.2f ms; to all p99 %.2f ms, max %.2f ms; %d missed of %d",
			float64(r.plies)/r.elapsed.Seconds(), ms(r.each, 0.5), ms(r.each, 0.99), ms(r.all, 0.99), ms(r.all, 1), r.missed, r.missed+len(r.each))
	}
	if r.errs > 0 {
		b.Errorf("%d plies failed; the first: %v", r.errs, r.first)
	}
	if r.missed > 0 {
		b.Errorf("%d deliveries missed", r.missed)
	}
	if r.after.Streams != 0 {
		b.Errorf("%d streams still open after their clients left", r.after.Streams)
	}
}
