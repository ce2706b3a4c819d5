package handlers

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"
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
