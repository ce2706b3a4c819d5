package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// eventWait bounds how long a test waits for an event that must come.
const eventWait = 5 * time.Second

// liveServer is the server on a real listener, for streams.
type liveServer struct {
	t   *testing.T
	s   *Server
	url string
}

// newLiveServer serves everything Register adds on a loopback port, on the
// real clock, with opts.
func newLiveServer(t *testing.T, opts ...Option) *liveServer {
	t.Helper()
	return newLiveServerOn(t, store.NewMemory(), opts...)
}

// newLiveServerOn is newLiveServer on the games kept in st.
func newLiveServerOn(t *testing.T, st testsite.Store, opts ...Option) *liveServer {
	t.Helper()
	svc := plainService(st)
	t.Cleanup(closer(svc))
	e := echo.New()
	s := New(svc, nil, opts...)
	s.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() {
		s.CloseStreams()
		srv.Close()
	})
	return &liveServer{t: t, s: s, url: srv.URL}
}

// post sends body as token ("" for none) and decodes the answer into out
// (nil: ignore it), failing the test unless the status is want.
func (l *liveServer) post(token, path, body string, want int, out any) {
	l.t.Helper()
	req, err := http.NewRequest(http.MethodPost, l.url+path, strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		l.t.Fatalf("POST %s: %d, want %d: %s", path, res.StatusCode, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			l.t.Fatalf("POST %s: %v: %s", path, err, data)
		}
	}
}

// invite creates a game with a friend, the creator White, and seats a
// second player with the invite code: the tokens of White and Black.
func (l *liveServer) invite(extra string) (id, white, black string) {
	l.t.Helper()
	var created api.Created
	l.post("", "/api/games", `{"mode":"invite","color":"white"`+extra+`}`, http.StatusCreated, &created)
	if created.InviteCode == "" || !strings.Contains(created.Invite, "invite="+created.InviteCode) {
		l.t.Fatalf("invite game answered %+v", created)
	}
	var joined api.Created
	l.post("", "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`, http.StatusOK, &joined)
	if joined.Token == "" || joined.Token == created.Token || !joined.Seats.White || !joined.Seats.Black {
		l.t.Fatalf("join answered %+v", joined)
	}
	return created.ID, created.Token, joined.Token
}

// sseEvent is one server-sent event as a client reads it.
type sseEvent struct {
	id, name, data string
}

// sseStream is an open event stream: its events, in order, and the
// comments (heartbeats) it has read.
type sseStream struct {
	t      *testing.T
	res    *http.Response
	cancel context.CancelFunc
	events chan sseEvent // closed when the stream ends
	mu     sync.Mutex
	pings  int
}

// openStream opens path's event stream with lastID as Last-Event-ID ("" for
// none), and returns once the server has said the stream is open. A status
// other than 200 is returned with a nil stream.
func (l *liveServer) openStream(path, lastID, token string) (*sseStream, *http.Response) {
	l.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url+path, nil)
	if err != nil {
		l.t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		l.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		return nil, res
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		l.t.Errorf("stream Content-Type %q", ct)
	}
	st := &sseStream{t: l.t, res: res, cancel: cancel, events: make(chan sseEvent, 64)}
	opened := make(chan struct{})
	go st.read(opened)
	l.t.Cleanup(st.close)
	select {
	case <-opened:
	case <-time.After(eventWait):
		l.t.Fatalf("the stream %s did not open", path)
	}
	return st, res
}

// read parses the stream into events until it ends; opened is closed at
// the first comment, which the server sends once it watches the game.
func (st *sseStream) read(opened chan struct{}) {
	defer close(st.events)
	sc := bufio.NewScanner(st.res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var ev sseEvent
	first := true
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev != (sseEvent{}) {
				st.events <- ev
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, ":"):
			if first {
				close(opened)
				first = false
				continue
			}
			st.mu.Lock()
			st.pings++
			st.mu.Unlock()
		case strings.HasPrefix(line, "id: "):
			ev.id = line[len("id: "):]
		case strings.HasPrefix(line, "event: "):
			ev.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		}
	}
}

func (st *sseStream) close() {
	st.cancel()
	st.res.Body.Close()
}

// next returns the next event, failing the test if none comes in time or
// the stream ends.
func (st *sseStream) next() sseEvent {
	st.t.Helper()
	select {
	case ev, ok := <-st.events:
		if !ok {
			st.t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(eventWait):
		st.t.Fatal("no event came")
	}
	return sseEvent{}
}

// game returns the next event as a game object.
func (st *sseStream) game() api.Game {
	st.t.Helper()
	ev := st.next()
	var g api.Game
	if err := json.Unmarshal([]byte(ev.data), &g); err != nil {
		st.t.Fatalf("event %+v: %v", ev, err)
	}
	if ev.name != "" || ev.id != strconv.FormatInt(g.Revision, 10) {
		st.t.Fatalf("event %q id %q for revision %d", ev.name, ev.id, g.Revision)
	}
	return g
}

// quiet fails the test if an event comes within d: the stream has nothing
// to say. (A stream that wrongly sends writes at once, so a short d is
// enough to catch it.)
func (st *sseStream) quiet(d time.Duration) {
	st.t.Helper()
	select {
	case ev, ok := <-st.events:
		if ok {
			st.t.Fatalf("unexpected event %+v", ev)
		}
	case <-time.After(d):
	}
}

func TestAPIStreamResume(t *testing.T) {
	l := newLiveServer(t)
	id, white, black := l.invite("")
	path := "/api/games/" + id + "/events"

	st, _ := l.openStream(path, "", "")
	g := st.game()
	if g.ID != id || g.Ply != 1 || g.Mode != "invite" || !g.Seats.White || !g.Seats.Black {
		t.Fatalf("first event %+v", g)
	}
	rev := g.Revision
	l.post(black, "/api/games/"+id+"/actions", `{"action":"b:d2d4"}`, http.StatusOK, nil)
	if g = st.game(); g.Ply != 2 || g.Revision <= rev || g.Log[0] != "b:d2d4" {
		t.Fatalf("after the ban %+v", g)
	}
	rev = g.Revision
	st.close()

	// Up to date: nothing at once, then the next change.
	st, _ = l.openStream(path, strconv.FormatInt(rev, 10), "")
	st.quiet(200 * time.Millisecond)
	l.post(white, "/api/games/"+id+"/actions", `{"action":"m:e2e4"}`, http.StatusOK, nil)
	if g = st.game(); g.Ply != 3 || g.Revision <= rev {
		t.Fatalf("after the move %+v", g)
	}
	st.close()

	// Behind (it heard rev, the game moved on): the game as it stands at once.
	for _, last := range []string{strconv.FormatInt(rev, 10), "0", "not a number"} {
		st, _ = l.openStream(path, last, "")
		if g2 := st.game(); g2.Revision != g.Revision || g2.Ply != 3 {
			t.Errorf("Last-Event-ID %q: got revision %d ply %d, want %d and 3", last, g2.Revision, g2.Ply, g.Revision)
		}
		st.close()
	}
}

// TestAPIStreamBotPlaysAGame has a bot join a game with a friend by its
// invite code and both players play it to a checkmate by ban, each acting
// only on what its own stream says.
func TestAPIStreamBotPlaysAGame(t *testing.T) {
	l := newLiveServer(t)
	id, white, black := l.invite("")
	type result struct {
		last api.Game
		err  error
	}
	results := make(chan result, 2)
	for _, p := range []struct{ side, token string }{{"white", white}, {"black", black}} {
		st, _ := l.openStream("/api/games/"+id+"/events", "", p.token)
		go func() {
			var last api.Game
			for ev := range st.events {
				if err := json.Unmarshal([]byte(ev.data), &last); err != nil {
					results <- result{err: err}
					return
				}
				if last.Status != "ongoing" {
					results <- result{last: last}
					return
				}
				if last.Turn != p.side {
					continue
				}
				if last.Ply-1 >= len(banMate) {
					results <- result{err: fmt.Errorf("%s: the game goes on at ply %d", p.side, last.Ply)}
					return
				}
				body := fmt.Sprintf(`{"action":%q,"ply":%d}`, banMate[last.Ply-1], last.Ply)
				req, _ := http.NewRequest(http.MethodPost, l.url+"/api/games/"+id+"/actions", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+p.token)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					results <- result{err: err}
					return
				}
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					results <- result{err: fmt.Errorf("%s: %s at ply %d answered %d", p.side, banMate[last.Ply-1], last.Ply, res.StatusCode)}
					return
				}
			}
			results <- result{err: fmt.Errorf("%s: the stream ended at ply %d", p.side, last.Ply)}
		}()
	}
	for range 2 {
		select {
		case r := <-results:
			if r.err != nil {
				t.Fatal(r.err)
			}
			if g := r.last; g.Status != "checkmate" || g.Reason != "ban" || g.Winner != "white" || g.Ply != len(banMate)+1 {
				t.Fatalf("the game ended %s by %s, winner %s, at ply %d", g.Status, g.Reason, g.Winner, g.Ply)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the players did not finish the game")
		}
	}
}

// TestStreamClientVanishes drops clients without a word (their connections
// closed) and checks the server notices: its streams close and their
// goroutines end, back to the count before they opened.
func TestStreamClientVanishes(t *testing.T) {
	l := newLiveServer(t, WithStreamLimits(stream.Limits{Heartbeat: 50 * time.Millisecond}))
	id, _, _ := l.invite("")
	addr := strings.TrimPrefix(l.url, "http://")
	// The baseline: no HTTP connection left on either side, the invite's
	// included.
	http.DefaultClient.CloseIdleConnections()
	if !eventually(func() bool { return httpConnGoroutines() == 0 }) {
		t.Fatalf("the invite's connections did not end:\n%s", goroutineStacks("net/http."))
	}
	before := runtime.NumGoroutine()
	const clients = 20
	var conns []net.Conn
	for range clients {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /api/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n", id)
		r := bufio.NewReader(conn)
		if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, " 200 ") {
			t.Fatalf("stream: %q %v", line, err)
		}
		conns = append(conns, conn)
	}
	if n := l.s.OpenStreams(); n != clients {
		t.Fatalf("%d streams open, want %d", n, clients)
	}
	during := runtime.NumGoroutine()
	if during < before+clients {
		t.Fatalf("%d goroutines with %d streams open, %d before", during, clients, before)
	}
	for _, c := range conns {
		c.Close()
	}
	var after int
	ended := eventually(func() bool {
		after = runtime.NumGoroutine()
		return l.s.OpenStreams() == 0 && httpConnGoroutines() == 0 && after <= before
	})
	if !ended {
		t.Fatalf("%v after the clients vanished: %d streams open, %d goroutines (%d before, %d during):\n%s",
			eventWait, l.s.OpenStreams(), after, before, during, goroutineStacks("banchess/"))
	}
	t.Logf("goroutines: %d before, %d with %d streams, %d after", before, during, clients, after)
}

// eventually polls done until it holds (true) or eventWait passes (false).
func eventually(done func() bool) bool {
	deadline := time.Now().Add(eventWait)
	for !done() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// httpConnGoroutines counts the goroutines serving an HTTP connection, a
// server's or a client's.
func httpConnGoroutines() int {
	return len(goroutines("net/http.(*conn).serve", "net/http.(*persistConn)"))
}

// goroutineStacks returns the stacks of the goroutines running a function
// whose name holds one of names, for a failure to show.
func goroutineStacks(names ...string) string {
	return strings.Join(goroutines(names...), "\n\n")
}

// goroutines returns the stacks of the goroutines running a function whose
// name holds one of names.
func goroutines(names ...string) []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var stacks []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, name := range names {
			if strings.Contains(g, name) {
				stacks = append(stacks, g)
				break
			}
		}
	}
	return stacks
}

func TestStreamLimits(t *testing.T) {
	l := newLiveServer(t, WithStreamLimits(stream.Limits{PerClient: 2}))
	id, _, _ := l.invite("")
	for _, path := range []string{"/api/games/" + id + "/events", "/g/" + id + "/events"} {
		t.Run(path, func(t *testing.T) {
			first, _ := l.openStream(path, "", "")
			second, _ := l.openStream(path, "", "")
			over, res := l.openStream(path, "", "")
			if over != nil {
				t.Fatal("a third stream from one client was opened")
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too_many_streams") && !strings.Contains(string(body), "live streams open") {
				t.Fatalf("third stream: %d %s", res.StatusCode, body)
			}
			if strings.HasPrefix(path, "/api/") && !strings.Contains(string(body), `"code":"too_many_streams"`) {
				t.Errorf("the API's refusal: %s", body)
			}
			// docs/api.md promises Retry-After on this 429, for the API as for pages.
			if got := res.Header.Get("Retry-After"); got != "60" {
				t.Errorf("third stream: Retry-After %q, want 60", got)
			}
			if !res.Close { // the refused connection does not stay open, holding a file
				t.Error("third stream: the refusal keeps its connection open")
			}
			// Closing one makes room for another.
			first.close()
			deadline := time.Now().Add(eventWait)
			for l.s.OpenStreams() > 1 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			again, res := l.openStream(path, "", "")
			if again == nil {
				t.Fatalf("after closing one: %d", res.StatusCode)
			}
			second.close()
			again.close()
			for l.s.OpenStreams() > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

func TestCloseStreams(t *testing.T) {
	l := newLiveServer(t)
	id, _, _ := l.invite("")
	var sts []*sseStream
	for _, path := range []string{"/api/games/" + id + "/events", "/g/" + id + "/events", "/g/" + id + "/events"} {
		st, _ := l.openStream(path, "", "")
		sts = append(sts, st)
	}
	l.s.CloseStreams()
	for i, st := range sts {
		var last sseEvent
		for ev := range st.events { // until the server ends the stream
			last = ev
		}
		if last.name != "bye" {
			t.Errorf("stream %d ended with %+v, want the bye event", i, last)
		}
	}
	if n := l.s.OpenStreams(); n != 0 {
		t.Errorf("%d streams open after CloseStreams", n)
	}
	// A stream opened afterwards ends at once.
	st, _ := l.openStream("/api/games/"+id+"/events", "", "")
	for range st.events {
	}
}

// TestPageStream: a page's stream says the revision ("change") and who
// watches ("presence"), each when it changed: a ply is one change event,
// a spectator arriving one presence event.
func TestPageStream(t *testing.T) {
	l := newLiveServer(t)
	id, _, black := l.invite("")
	st, _ := l.openStream("/g/"+id+"/events", "", "")
	want := func(name, data string) {
		t.Helper()
		ev := st.next()
		if ev.name != name || data != "" && ev.data != data {
			t.Fatalf("event %+v, want %s %s", ev, name, data)
		}
	}
	want("change", "")
	want("presence", `{"white":false,"black":false,"spectators":1}`)
	l.post(black, "/api/games/"+id+"/actions", `{"action":"b:d2d4"}`, http.StatusOK, nil)
	want("change", "")
	other, _ := l.openStream("/g/"+id+"/events", "", "")
	want("presence", `{"white":false,"black":false,"spectators":2}`)
	other.close()
	want("presence", `{"white":false,"black":false,"spectators":1}`)
	st.quiet(100 * time.Millisecond)
}

// TestAPIAbortAndDeclined: a clocked game with a friend waits for each
// side's first action (clock.firstAction counts it down, no time runs);
// until then it cannot be resigned or drawn (409 too_early), either
// player aborts it (status aborted, PGN "*"); a declined offer stays in
// "declined" for its maker.
func TestAPIAbortAndDeclined(t *testing.T) {
	l := newLiveServer(t)
	id, white, black := l.invite(`,"clock":"5+3"`)
	var g api.Game
	l.post(black, "/api/games/"+id+"/actions", `{"action":"b:e2e4"}`, http.StatusOK, &g)
	if c := g.Clock; c == nil || c.Running != nil || c.White != 300000 || c.Black != 300000 || c.FirstAction == nil || *c.FirstAction > 30000 || *c.FirstAction < 20000 {
		t.Fatalf("after Black's first ban: clock %+v, want none running and White's first move due within 30 s", g.Clock)
	}
	var refused struct{ Code string }
	for _, r := range []struct{ cred, path, body string }{
		{black, "/offers", `{"offer":"draw"}`},
		{white, "/offers", `{"offer":"draw"}`},
		{black, "/resign", `{"color":"black"}`},
		{white, "/resign", `{"color":"white"}`},
	} {
		l.post(r.cred, "/api/games/"+id+r.path, r.body, http.StatusConflict, &refused)
		if refused.Code != "too_early" {
			t.Fatalf("%s %s before White's first move: %+v, want too_early", r.path, r.body, refused)
		}
	}
	l.post("", "/api/games/"+id+"/abort", `{}`, http.StatusUnauthorized, nil)
	l.post(white, "/api/games/"+id+"/abort", `{}`, http.StatusOK, &g)
	if g.Status != "aborted" || g.Winner != "" || g.Result != "*" || !strings.Contains(g.PGN, "[Result \"*\"]") || g.Clock.FirstAction != nil {
		t.Fatalf("aborted: status %q winner %q result %q clock %+v\n%s", g.Status, g.Winner, g.Result, g.Clock, g.PGN)
	}

	id, white, black = l.invite("")
	l.post(black, "/api/games/"+id+"/actions", `{"action":"b:e2e4"}`, http.StatusOK, nil)
	l.post(white, "/api/games/"+id+"/actions", `{"action":"m:d2d4"}`, http.StatusOK, nil)
	l.post(black, "/api/games/"+id+"/offers", `{"offer":"draw"}`, http.StatusOK, nil)
	l.post(white, "/api/games/"+id+"/offers/decline", `{"offer":"draw"}`, http.StatusOK, &g)
	if g.Offers.Draw != nil || g.Declined.Draw == nil || *g.Declined.Draw != "black" {
		t.Fatalf("after White declined Black's draw: offers %+v, declined %+v", g.Offers, g.Declined)
	}
	l.post(white, "/api/games/"+id+"/abort", `{}`, http.StatusConflict, &refused)
	if refused.Code != "too_late_to_abort" {
		t.Fatalf("an abort once each side acted: %+v", refused)
	}
}
