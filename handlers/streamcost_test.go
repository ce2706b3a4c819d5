package handlers

import (
	"bufio"
	"context"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/rules"
)

// browserAccept is the Accept-Encoding a browser's EventSource sends.
const browserAccept = "gzip, deflate, br, zstd"

// TestBrowserStreamsUncompressed opens page and API streams as a browser
// does, accepting every encoding: none is compressed (a gzip writer held
// for a stream's life is about a megabyte), each reads as plain events,
// and the server's heap grows by tens of KB a stream, not megabytes.
func TestBrowserStreamsUncompressed(t *testing.T) {
	l := newLiveServer(t)
	id, _, _ := l.invite("")
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: -1}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 40
	before := heapInuse()
	var bodies []*bufio.Reader
	for i := range n {
		path := "/g/" + id + "/events"
		if i%2 == 1 {
			path = "/api/games/" + id + "/events"
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.url+path, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Accept-Encoding", browserAccept)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "" {
			t.Fatalf("GET %s: %d, Content-Encoding %q", path, res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		r := bufio.NewReader(res.Body)
		if line, err := r.ReadString('\n'); err != nil || line != ": banchess live\n" {
			t.Fatalf("GET %s: the stream starts %q (%v), not as plain text", path, line, err)
		}
		bodies = append(bodies, r)
	}
	for _, r := range bodies { // each has its first event: the server's writer is in use
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(line, "data: ") {
				break
			}
		}
	}
	per := (heapInuse() - before) / n
	t.Logf("%d bytes of heap a stream (server and client)", per)
	if l.s.OpenStreams() != n || per > 64<<10 {
		t.Errorf("%d streams open, %d bytes of heap each; want %d, at most 64 KiB", l.s.OpenStreams(), per, n)
	}
}

// heapInuse is the heap in use after a collection.
func heapInuse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// quietReader reads a stream's events without allocating, counting them
// and the size of the last: what the test's side of the stream allocates
// is not taken for the server's.
type quietReader struct {
	r      *bufio.Reader
	events chan int // the data size of each event read
}

func readQuietly(t *testing.T, client *http.Client, url string) *quietReader {
	t.Helper()
	res, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	q := &quietReader{r: bufio.NewReaderSize(res.Body, 1<<20), events: make(chan int, 64)}
	go func() {
		for {
			line, err := q.r.ReadSlice('\n')
			if err != nil {
				return
			}
			if len(line) > 6 && string(line[:6]) == "data: " {
				q.events <- len(line)
			}
		}
	}()
	return q
}

// next waits for the reader's next event, and returns its size.
func (q *quietReader) next(t *testing.T) int {
	t.Helper()
	select {
	case n := <-q.events:
		return n
	case <-time.After(eventWait):
		t.Fatal("no event")
		return 0
	}
}

// allocated is what the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestAPIStreamsShareTheirEvents: the API streams of a long game encode
// each change once between them, and a change of who watches (which wakes
// every stream) builds nothing — the probe measured 86 ms of CPU a ply
// with 64 streams on a 2,000-ply game, and a core spent on presence
// alone.
func TestAPIStreamsShareTheirEvents(t *testing.T) {
	l := newLiveServer(t)
	cred := issue(t, l.s.svc)
	id, err := l.s.svc.Games.Create(context.Background(), cred, longGame(t, 400))
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1}}
	var qs []*quietReader
	size := 0
	// measure counts what 30 changes of who watches, then a ply, allocate
	// with the streams open now.
	measure := func() (presence, ply uint64) {
		before := allocated()
		for range 30 {
			st, _ := l.openStream("/g/"+id+"/events", "", "")
			st.close()
		}
		presence = allocated() - before
		var next string
		l.s.svc.Games.View(context.Background(), id, "", func(rec *games.Record, _ games.Seats) { next = rec.Game.Legal()[0].String() })
		before = allocated()
		if err := l.s.svc.Games.Play(context.Background(), id, cred, games.Input{Text: next}, nil); err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			q.next(t)
		}
		return presence, allocated() - before
	}
	watch := func(n int) {
		for range n {
			q := readQuietly(t, client, l.url+"/api/games/"+id+"/events")
			size = q.next(t)
			qs = append(qs, q)
		}
	}
	watch(1)
	presence1, ply1 := measure()
	watch(15)
	presence16, ply16 := measure()
	t.Logf("a %d-byte game object; 30 changes of who watches allocated %d bytes with 1 stream, %d with 16; a ply %d and %d", size, presence1, presence16, ply1, ply16)
	if presence16 > presence1+uint64(size)*15*30/2 {
		t.Errorf("15 more streams made 30 changes of who watches allocate %d bytes more: each built the %d-byte game object", presence16-presence1, size)
	}
	if ply16 > ply1+uint64(size)*15 {
		t.Errorf("15 more streams made a ply allocate %d bytes more: each encoded the %d-byte game object", ply16-ply1, size)
	}
}

// longGame plays random legal plies to a game of n plies, not over.
func longGame(t *testing.T, n int) *rules.Game {
	t.Helper()
	for seed := uint64(1); seed < 100; seed++ {
		g, rng := rules.New(rules.BanChess{}), rand.New(rand.NewPCG(seed, 2))
		for g.Ply() < n && !g.Outcome().Over() {
			legal := g.Legal()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Outcome().Over() {
			return g
		}
	}
	t.Fatalf("no random game lasted %d plies", n)
	return nil
}

// TestIdleStreamPings: an idle stream gets its heartbeat (from the
// server's pings, its own goroutine asleep), and a stream that ends its
// client's way (the client closes it) is counted closed at once.
func TestIdleStreamPings(t *testing.T) {
	l := newLiveServer(t, WithStreamLimits(stream.Limits{Heartbeat: 50 * time.Millisecond}))
	id, _, _ := l.invite("")
	st, _ := l.openStream("/api/games/"+id+"/events", "", "")
	st.next()
	time.Sleep(400 * time.Millisecond)
	st.mu.Lock()
	pings := st.pings
	st.mu.Unlock()
	if pings < 3 {
		t.Errorf("%d heartbeats in 400 ms of an idle stream, at 50 ms", pings)
	}
	st.close()
	if !eventually(func() bool { return l.s.OpenStreams() == 0 }) {
		t.Errorf("%d streams open after the client closed its", l.s.OpenStreams())
	}
}
