package loadtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// watchersEnv makes TestStreamWatchers watch: BenchmarkStreams with
// LOAD_STREAM_PROCS=N runs this test binary as N processes, each holding
// its share of the streams, since one process here may not open as many
// files as the server is offered streams.
const watchersEnv = "LOAD_STREAM_WATCHERS"

// watchOrder is what a watchers process is told on its standard input:
// the streams to open (watcher slots lo to hi-1 of every game), and where.
type watchOrder struct {
	URL    string   `json:"url"`
	Kind   string   `json:"kind"`
	Games  []string `json:"games"`
	Lo, Hi int
}

// watchedEvent is one event a watchers process read: the game's index in
// its order, the watcher slot, the revision and when (Unix ns, the
// machine's clock, which the benchmark's process reads too).
type watchedEvent struct {
	Game, Slot int
	Rev        int64
	At         int64
}

// TestStreamWatchers is a client process of BenchmarkStreams: it reads a
// watchOrder, opens its streams as browsers do, prints "ready" once each
// has read its first event, records every event after, and at the line
// "collect" closes them and prints each event read ("event {…}") and
// "end".
func TestStreamWatchers(t *testing.T) {
	if os.Getenv(watchersEnv) == "" {
		t.Skip("a client process of BenchmarkStreams, which runs it")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<24)
	var o watchOrder
	if !in.Scan() || json.Unmarshal(in.Bytes(), &o) != nil {
		t.Fatal("no order read")
	}
	raiseFileLimit(uint64(len(o.Games)*(o.Hi-o.Lo) + 256))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}}
	gs := make([]*watchedGame, len(o.Games))
	ready := make(chan error, len(o.Games)*(o.Hi-o.Lo))
	var ws []*watcher
	opened := 0
	awaitOne := func() {
		if err := <-ready; err != nil {
			t.Fatalf("opening a stream: %v", err)
		}
		opened++
	}
	for i, id := range o.Games {
		gs[i] = &watchedGame{id: id}
		gs[i].reset(o.Hi)
		url := o.URL + "/api/games/" + id + "/events"
		if o.Kind == "page" {
			url = o.URL + "/g/" + id + "/events"
		}
		for slot := o.Lo; slot < o.Hi; slot++ {
			if len(ws)-opened >= openingAtOnce {
				awaitOne()
			}
			ws = append(ws, watch(client, url, gs[i], slot, ready))
		}
	}
	for opened < len(ws) {
		awaitOne()
	}
	fmt.Println("ready")
	for in.Scan() && in.Text() != "collect" {
	}
	for _, w := range ws {
		w.cancel()
	}
	for _, w := range ws {
		<-w.done
	}
	out := bufio.NewWriter(os.Stdout)
	for i, g := range gs {
		for slot, seen := range g.seen {
			for _, a := range seen {
				data, _ := json.Marshal(watchedEvent{Game: i, Slot: slot, Rev: a.rev, At: a.at.UnixNano()})
				fmt.Fprintf(out, "event %s\n", data)
			}
		}
	}
	fmt.Fprintln(out, "end")
	out.Flush()
	io.Copy(io.Discard, os.Stdin)
}

// openStreamsElsewhere opens n streams of kind over gs (n/len(gs) on each)
// in procs TestStreamWatchers processes, each holding a share of every
// game's watchers, and returns once every one has read its first event;
// what it returns closes them and records in gs what each read.
func openStreamsElsewhere(tb testing.TB, srv *streamServer, gs []*watchedGame, kind string, n, procs int) (closeStreams func()) {
	tb.Helper()
	per := n / len(gs)
	if per*len(gs) != n || per < procs {
		tb.Fatalf("%d streams over %d games in %d processes: want as many on every game, at least one a process", n, len(gs), procs)
	}
	ids := make([]string, len(gs))
	for i, g := range gs {
		g.reset(per)
		ids[i] = g.id
	}
	type client struct {
		stdin io.WriteCloser
		out   *bufio.Scanner
	}
	clients := make([]client, procs)
	for p := range clients {
		_, stdin, stdout := startSelf(tb, "TestStreamWatchers", os.Stderr, watchersEnv+"=1")
		tb.Cleanup(func() { stdin.Close() })
		order, _ := json.Marshal(watchOrder{URL: srv.url, Kind: kind, Games: ids, Lo: p * per / procs, Hi: (p + 1) * per / procs})
		if _, err := fmt.Fprintf(stdin, "%s\n", order); err != nil {
			tb.Fatal(err)
		}
		out := bufio.NewScanner(stdout)
		out.Buffer(nil, 1<<20)
		clients[p] = client{stdin, out}
	}
	for p, c := range clients {
		if !c.out.Scan() || c.out.Text() != "ready" {
			tb.Fatalf("watchers process %d did not open its streams: %q", p, c.out.Text())
		}
	}
	return func() {
		for _, c := range clients {
			fmt.Fprintln(c.stdin, "collect")
		}
		for p, c := range clients {
			for c.out.Scan() && c.out.Text() != "end" {
				data, ok := strings.CutPrefix(c.out.Text(), "event ")
				var ev watchedEvent
				if !ok || json.Unmarshal([]byte(data), &ev) != nil || ev.Game >= len(gs) {
					tb.Fatalf("watchers process %d said %q", p, c.out.Text())
				}
				gs[ev.Game].arrived(ev.Slot, ev.Rev, time.Unix(0, ev.At))
			}
			c.stdin.Close()
		}
	}
}
