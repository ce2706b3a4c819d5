package loadtest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/views"
)

// followedGame is a game a spectator's live page follows, played one
// random ply at a time through the service.
type followedGame struct {
	svc  testsite.Site
	cred players.Credential
	rng  *rand.Rand
	id   string
	game *rules.Game // the server's game, mirrored
}

// next plays the game's next ply, starting a new game when it is over,
// and returns the ply the spectator's page showed before it.
func (w *followedGame) next(tb testing.TB) (shown int) {
	ctx := context.Background()
	if w.game == nil || w.game.Outcome().Over() {
		w.game = rules.New(rules.BanChess{})
		legal := w.game.Legal() // a page shows ply 1 or later: deltas start there
		if err := w.game.Play(legal[w.rng.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
		mirror, err := rules.Restore(w.game.Snapshot())
		if err != nil {
			tb.Fatal(err)
		}
		if w.id, err = w.svc.Games.Create(ctx, w.cred, mirror); err != nil {
			tb.Fatal(err)
		}
	}
	shown = w.game.Ply()
	legal := w.game.Legal()
	a := legal[w.rng.IntN(len(legal))]
	if err := w.svc.Games.Play(ctx, w.id, w.cred, games.Input{Text: a.String()}, nil); err != nil {
		tb.Fatal(err)
	}
	if err := w.game.Play(a); err != nil {
		tb.Fatal(err)
	}
	return shown
}

// newFollowedGame returns a game to watch on a memory store.
func newFollowedGame(tb testing.TB, seed uint64) *followedGame {
	svc := testsite.New(store.NewMemory(), testsite.Config{})
	tb.Cleanup(func() { svc.Close() })
	cred, _, err := svc.Players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		tb.Fatal(err)
	}
	return &followedGame{svc: svc, cred: cred, rng: rand.New(rand.NewPCG(seed, 29))}
}

// changeEvent is the page stream's event for a change to revision rev, as
// handlers' page stream writes it; data is its data lines' content.
func changeEvent(rev string, data []byte) []byte {
	ev := []byte("id: " + rev + "\nevent: change\n")
	for line := range bytes.Lines(data) {
		ev = append(append(ev, "data: "...), bytes.TrimSuffix(line, []byte("\n"))...)
		ev = append(ev, '\n')
	}
	return append(ev, '\n')
}

// deltaRequestHeaders are what a live page's request for a delta sends:
// a browser's htmx headers, without a form's target and trigger.
func deltaRequestHeaders() http.Header {
	hdr := browserHeaders()
	hdr.Del("Hx-Target")
	hdr.Del("Hx-Trigger")
	hdr.Set("Hx-Request", "true")
	return hdr
}

// BenchmarkChangeEvent compares the two ways issue 29 names for a live
// page to learn a change, per watcher and change, for a spectator's page
// following random games one ply behind:
//
//   - revision (built): the stream's change event carries the revision
//     and the page asks GET /g/{id}/delta?ply=N, which the handlers serve
//     (measured in process, no network: the middleware, the game's read
//     from the cache, the delta's model and markup);
//   - delta (not built): the event would carry the delta, rendered for
//     the watcher when the change is published (views.NewDelta and
//     DeltaSwaps, under the game's lock, with the spectator's Info).
//
// Each reports server-µs/change (one goroutine, so about its CPU); the
// bytes of each are reported by TestChangeEventBytes.
//
//	GOGC=400 go test ./loadtest -run '^$' -bench ChangeEvent -benchtime 3000x -count 3
func BenchmarkChangeEvent(b *testing.B) {
	b.Run("revision", func(b *testing.B) {
		w := newFollowedGame(b, 1)
		e := newEcho(w.svc)
		hdr := deltaRequestHeaders()
		for b.Loop() {
			b.StopTimer()
			shown := w.next(b)
			req := httptest.NewRequest(http.MethodGet, "/g/"+w.id+"/delta?ply="+strconv.Itoa(shown), nil)
			req.Header = hdr.Clone()
			rec := httptest.NewRecorder()
			b.StartTimer()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || rec.Header().Get("Delta-Ply") == "" {
				b.Fatalf("GET delta: %d %s (Delta-Ply %q)", rec.Code, rec.Body.String()[:min(200, rec.Body.Len())], rec.Header().Get("Delta-Ply"))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "server-µs/change")
	})
	b.Run("delta", func(b *testing.B) {
		w := newFollowedGame(b, 1)
		var buf bytes.Buffer
		ctx := context.Background()
		for b.Loop() {
			b.StopTimer()
			shown := w.next(b)
			b.StartTimer()
			buf.Reset()
			var rev int64
			err := w.svc.Games.View(ctx, w.id, "", func(rec *games.Record, seats games.Seats) {
				rev = rec.Revision
				info := views.Info{ID: rec.ID, Revision: rec.Revision, Perm: rec.Permissions(seats), Bot: rec.Bot}
				d, ok := views.NewDelta(rec.Game, shown, info, views.NoSelection())
				if !ok {
					b.Fatalf("no delta from ply %d", shown)
				}
				if err := views.DeltaSwaps(d).Render(ctx, &buf); err != nil {
					b.Fatal(err)
				}
			})
			if err != nil {
				b.Fatal(err)
			}
			_ = changeEvent(strconv.FormatInt(rev, 10), buf.Bytes())
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "server-µs/change")
	})
}

// TestChangeEventBytes measures what each way of BenchmarkChangeEvent
// costs on the wire per change, over 1,000 changes of random games on a
// real server over loopback TCP: the revision's event, plus the delta's
// answer (status line, headers and body, as the server writes it) and its
// request (as a browser's EventSource page sends it: the agent, the Fetch
// metadata and htmx's headers), against one event whose data is the same
// delta. Every answer must be a delta (a page one ply behind).
func TestChangeEventBytes(t *testing.T) {
	w := newFollowedGame(t, 2)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	srv := &http.Server{Handler: newEcho(w.svc), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(cl)
	t.Cleanup(func() { srv.Close() })
	tr := &http.Transport{MaxIdleConnsPerHost: 1}
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	hdr := deltaRequestHeaders()
	var asked, answered, inEvent []int
	for range 1000 {
		shown := w.next(t)
		req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/g/"+w.id+"/delta?ply="+strconv.Itoa(shown), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = hdr.Clone()
		var wire bytes.Buffer
		if err := req.Write(&wire); err != nil { // the request as sent
			t.Fatal(err)
		}
		before := cl.sent.Load()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, err = body.ReadFrom(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("GET delta: %d %v (encoding %q)", resp.StatusCode, err, resp.Header.Get("Content-Encoding"))
		}
		rev := resp.Header.Get("Delta-Rev")
		if rev == "" || resp.Header.Get("Delta-Ply") == "" {
			t.Fatalf("a page one ply behind got no delta: %.200s", body.String())
		}
		revEvent := len(changeEvent(rev, []byte(rev)))
		asked = append(asked, wire.Len())
		answered = append(answered, revEvent+int(cl.sent.Load()-before))
		inEvent = append(inEvent, len(changeEvent(rev, body.Bytes())))
	}
	t.Logf("per change, medians over %d: revision: event and answer %d B down, request %d B up; delta in the event: %d B down, nothing up",
		len(answered), median(answered), median(asked), median(inEvent))
}
