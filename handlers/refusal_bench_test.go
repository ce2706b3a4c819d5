package handlers

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"
)

// refusalBench is two servers: one whose POST allowance is spent (its
// clock does not move, so it never fills again), which refuses a
// browser's POST with the 429 page, and one without limits with a game
// whose seats the cookie holds, for htmx plies.
type refusalBench struct {
	refusing, playing *echo.Echo
	id, token         string
}

func newRefusalBench(tb testing.TB) *refusalBench {
	tb.Helper()
	rb := &refusalBench{refusing: echo.New(), playing: echo.New()}
	New(newService(nil), apiClock, WithLimits(kit.Limits{PostsPerSecond: 0.001, PostBurst: 1})).Register(rb.refusing)
	New(newService(nil), apiClock).Register(rb.playing)
	rec := rb.serve(rb.playing, http.MethodPost, "/api/games", `{}`, "application/json", false)
	rb.id, rb.token = between(rec.Body.String(), `"id":"`, `"`), between(rec.Body.String(), `"token":"`, `"`)
	rb.serve(rb.refusing, http.MethodPost, "/new", "variant=ban", "application/x-www-form-urlencoded", false) // spends the one POST
	return rb
}

func (rb *refusalBench) serve(e *echo.Echo, method, path, body, ctype string, hx bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	req.AddCookie(&http.Cookie{Name: kit.PlayerCookie, Value: rb.token})
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

// refuse is a browser's POST over its allowance: the whole 429 page.
func (rb *refusalBench) refuse(tb testing.TB) {
	if rec := rb.serve(rb.refusing, http.MethodPost, "/new", "variant=ban", "application/x-www-form-urlencoded", false); rec.Code != http.StatusTooManyRequests {
		tb.Fatalf("the refusal: %d", rec.Code)
	}
}

// ply plays a ban by htmx and takes it back: two htmx requests, one op.
func (rb *refusalBench) ply(tb testing.TB) {
	const form = "application/x-www-form-urlencoded"
	if rec := rb.serve(rb.playing, http.MethodPost, kit.GamePath(rb.id)+"/ply", "from=e2&to=e4&ply=1", form, true); rec.Code != http.StatusOK {
		tb.Fatalf("the ply: %d %.300s", rec.Code, rec.Body)
	}
	if rec := rb.serve(rb.playing, http.MethodPost, kit.GamePath(rb.id)+"/undo", "ply=2", form, true); rec.Code != http.StatusOK {
		tb.Fatalf("the undo: %d %.300s", rec.Code, rec.Body)
	}
}

// BenchmarkRefusal serves a browser's POST refused with the whole 429 page
// against an htmx ply (a ban and its undo, two requests: cpu-µs/ply halves
// it), reporting the CPU time the process used per op, which a busy
// machine disturbs less than the time per op:
//
//	go test ./handlers -run '^$' -bench Refusal -benchmem
func BenchmarkRefusal(b *testing.B) {
	rb := newRefusalBench(b)
	for _, bench := range []struct {
		name string
		op   func(testing.TB)
		per  float64 // requests an op
	}{{"429-page", rb.refuse, 1}, {"htmx-ply", rb.ply, 2}} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				bench.op(b)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/1e3/float64(b.N)/bench.per, "cpu-µs/request")
		})
	}
}

// TestRefusalCheaperThanPly: a refusal's page allocates less than an htmx
// ply (it hashed every static file, 230 KB, for the asset version its
// links carry).
func TestRefusalCheaperThanPly(t *testing.T) {
	rb := newRefusalBench(t)
	perOp := func(f func(testing.TB)) uint64 {
		const n = 50
		f(t)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range n {
			f(t)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / n
	}
	refusal, plies := perOp(rb.refuse), perOp(rb.ply)/2
	t.Logf("a 429 page allocates %d bytes, an htmx ply %d", refusal, plies)
	if refusal >= plies {
		t.Errorf("a 429 page allocates %d bytes, an htmx ply %d: the refusal costs more", refusal, plies)
	}
}
