package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
)

// jsonLogger logs into w, one JSON object a line.
func jsonLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, nil))
}

// logLines decodes every line of buf and empties it.
func logLines(t *testing.T, buf interface {
	String() string
	Reset()
}) []map[string]any {
	t.Helper()
	lines := decodeLines(t, buf.String())
	buf.Reset()
	return lines
}

// decodeLines decodes each line of a JSON log.
func decodeLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// logBuffer is a log that the server's goroutines may write while the test
// reads it, and that a test can wait on.
type logBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // holds a token after a write
}

func newLogBuffer() *logBuffer { return &logBuffer{wrote: make(chan struct{}, 1)} }

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// await waits until done holds of the lines logged so far, failing the
// test if it does not within eventWait.
func (b *logBuffer) await(t *testing.T, done func([]map[string]any) bool) {
	t.Helper()
	deadline := time.After(eventWait)
	for !done(decodeLines(t, b.String())) {
		select {
		case <-b.wrote:
		case <-deadline:
			t.Fatalf("after %v the log is still: %s", eventWait, b.String())
		}
	}
}

func TestRequestLog(t *testing.T) {
	var buf bytes.Buffer
	e := limited(newTestClock(), WithLogger(jsonLogger(&buf)))
	rec := hit{method: http.MethodPost, target: "/api/games", json: "{}"}.serve(t, e)
	var g api.Game
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	buf.Reset()

	h := hit{method: http.MethodGet, target: "/api/games/" + g.ID + "/pgn?secret=%3Cscript%3E",
		header: map[string]string{"X-Request-Id": "forged\nid"}}
	rec = h.serve(t, e)
	lines := logLines(t, &buf)
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want 1", len(lines))
	}
	l := lines[0]
	rid := rec.Header().Get("X-Request-Id")
	if len(rid) < 16 || strings.Contains(rid, "forged") {
		t.Errorf("response X-Request-Id %q, want a fresh id", rid)
	}
	want := map[string]any{
		"level": "INFO", "msg": "request", "method": "GET", "status": float64(200),
		"path": "/api/games/" + g.ID[:6] + "…/pgn", "request_id": rid, "ip": "192.0.2.1",
	}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("log %s = %v, want %v", k, l[k], v)
		}
	}
	if _, ok := l["latency"].(float64); !ok {
		t.Errorf("log latency %v, want a number", l["latency"])
	}
	raw, _ := json.Marshal(l)
	for _, leak := range []string{g.ID, "secret", "script", "forged"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("log line holds %q: %s", leak, raw)
		}
	}

	// User text in a path stays one quoted value; refusals are logged with
	// their status; a healthy /healthz is not logged, nor static files
	// served (at DEBUG: a page view is one line).
	hit{method: http.MethodGet, target: "/x%0A" + "level=ERROR%20msg=forged"}.serve(t, e)
	hit{method: http.MethodPost, target: "/api/games", json: "{"}.serve(t, e)
	hit{method: http.MethodGet, target: "/healthz"}.serve(t, e)
	hit{method: http.MethodGet, target: "/static/style.css"}.serve(t, e)
	hit{method: http.MethodHead, target: "/static/htmx.min.js"}.serve(t, e)
	lines = logLines(t, &buf)
	if len(lines) != 2 {
		t.Fatalf("%d log lines, want 2: %v", len(lines), lines)
	}
	if lines[0]["path"] != "/x\nlevel=ERROR msg=forged" || lines[0]["status"] != float64(404) || lines[0]["level"] != "INFO" {
		t.Errorf("404 line %v", lines[0])
	}
	if lines[1]["status"] != float64(400) {
		t.Errorf("400 line %v", lines[1])
	}
}

// TestRequestIDFromProxy: a trusted proxy's plain request id is kept;
// anyone else's is replaced.
func TestRequestIDFromProxy(t *testing.T) {
	for _, tt := range []struct {
		trust  bool
		remote string
		in     string
		kept   bool
	}{
		{false, "10.0.0.1:1000", "abc-123", false},
		{true, "10.0.0.1:1000", "abc-123", true},
		{true, "127.0.0.1:1000", "abc-123", true},
		{true, "192.0.2.1:1000", "abc-123", false}, // a public address is no proxy
		{true, "10.0.0.1:1000", "two words", false},
		{true, "10.0.0.1:1000", strings.Repeat("a", 65), false},
	} {
		var buf bytes.Buffer
		e := limited(newTestClock(), WithTrustProxy(tt.trust), WithLogger(jsonLogger(&buf)))
		rec := hit{method: http.MethodGet, target: "/nowhere", remote: tt.remote, header: map[string]string{"X-Request-Id": tt.in}}.serve(t, e)
		got := rec.Header().Get("X-Request-Id")
		if (got == tt.in) != tt.kept || got == "" {
			t.Errorf("trust %v from %s, X-Request-Id %q: answered %q, want kept %v", tt.trust, tt.remote, tt.in, got, tt.kept)
		}
		if l := logLines(t, &buf); len(l) != 1 || l[0]["request_id"] != got {
			t.Errorf("logged %v, want request_id %q", l, got)
		}
	}
}

// TestStreamClientGoneIsNotAnError: a client that goes away before its
// stream starts (its request cancelled) ends it normally: nothing is
// logged at ERROR and no 503 is logged, for a game's stream and the
// lobby's, page and API alike.
func TestStreamClientGoneIsNotAnError(t *testing.T) {
	var buf bytes.Buffer
	e := limited(newTestClock(), WithLogger(jsonLogger(&buf)))
	ck, id := startSession(t, e, "")
	for _, target := range []string{"/g/" + id + "/events", "/api/games/" + id + "/events", "/lobby/events", "/api/lobby/events"} {
		buf.Reset()
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the client has gone
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		req.AddCookie(ck)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		lines := logLines(t, &buf)
		if len(lines) == 0 {
			t.Errorf("%s: nothing logged", target)
		}
		for _, l := range lines {
			if l["level"] == "ERROR" || l["status"] == float64(http.StatusServiceUnavailable) {
				t.Errorf("%s: a client gone is logged as %v", target, l)
			}
		}
	}
}
