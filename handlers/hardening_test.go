package handlers

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	_ "modernc.org/sqlite" // the driver the store uses, to damage a row behind its back

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// damagedStore returns an SQLite store (on a file of its own) holding two
// games of one browser, cred: good, and bad, played after it, whose
// stored plies were then overwritten with garbage behind the store's back.
// The store is opened afresh after, so nothing of bad is cached.
func damagedStore(t *testing.T) (st *store.SQLite, cred players.Credential, good, bad string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	first, err := store.OpenSQLite(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := newService(first)
	cred = issue(t, svc)
	for _, id := range []*string{&good, &bad} {
		if *id, err = svc.Games.Create(ctx, cred, rules.New(rules.BanChess{})); err != nil {
			t.Fatal(err)
		}
		if err := svc.Games.Play(ctx, *id, cred, games.Input{Text: "b:e2e4"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE games SET actions = 'b:~~' WHERE id = ?`, bad); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.OpenSQLite(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, cred, good, bad
}

// TestUnreadableGame: a game whose record cannot be read back gives a page
// that says so and offers ways on (a new game, the browser's other games),
// never the internal error or the store's text; the home page passes over it; its
// failure is logged once, with the id cut short.
func TestUnreadableGame(t *testing.T) {
	st, cred, good, bad := damagedStore(t)
	var logs bytes.Buffer
	e := newServerOn(st, WithLogger(jsonLogger(&logs)))
	ck := &http.Cookie{Name: kit.PlayerCookie, Value: string(cred)}

	for _, target := range []string{kit.GamePath(bad), kit.GamePath(bad) + "/history/1", kit.GamePath(bad) + "/pgn", kit.GamePath(bad) + "?flip=1"} {
		for _, hx := range []bool{false, true} {
			rec := hit{method: http.MethodGet, target: target, cookie: ck, hx: hx}.send(e)
			if rec.Code != http.StatusInternalServerError || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
				t.Fatalf("GET %s hx=%v: %d %s, want an HTML 500", target, hx, rec.Code, rec.Header().Get("Content-Type"))
			}
			d := parse(t, rec)
			if got := d.Find("h1").Text(); got != "This game could not be read" {
				t.Errorf("GET %s hx=%v: heading %q", target, hx, got)
			}
			if d.Find(`form[action="/new"] button[name="variant"]`).Length() == 0 {
				t.Errorf("GET %s hx=%v: no new game offered", target, hx)
			}
			body := rec.Body.String()
			for _, leak := range []string{"restore", "~~", "Game \"", "is not an action"} {
				if strings.Contains(body, leak) {
					t.Errorf("GET %s hx=%v: the page shows %q", target, hx, leak)
				}
			}
			if hx {
				continue
			}
			links := gameLinks(d)
			if !containsString(links, kit.GamePath(good)) {
				t.Errorf("GET %s: the browser's other game is not offered: %v", target, links)
			}
		}
	}

	// The first failure of the game is logged, once, without its id.
	var failures []map[string]any
	for _, l := range logLines(t, &logs) {
		if l["msg"] != "request" {
			failures = append(failures, l)
		}
	}
	if len(failures) != 1 {
		t.Fatalf("logged %d failures, want 1: %v", len(failures), failures)
	}
	if msg, _ := failures[0]["err"].(string); !strings.Contains(msg, kit.ShortID(bad)) || strings.Contains(msg, bad) || failures[0]["level"] != "ERROR" {
		t.Errorf("failure logged as %v", failures[0])
	}

	// The home page's last game is the most recent game that can be read.
	rec := hit{method: http.MethodGet, target: "/", cookie: ck}.send(e)
	if got := parse(t, rec).Find("#last-game").AttrOr("href", ""); rec.Code != http.StatusOK || got != kit.GamePath(good) {
		t.Fatalf("GET /: %d, last game %q, want 200 and %s", rec.Code, got, kit.GamePath(good))
	}

	// The API: 500 "unreadable" for a read, "internal" for a write, and no
	// word of the store's insides.
	for _, h := range []hit{
		{method: http.MethodGet, target: "/api/games/" + bad},
		{method: http.MethodGet, target: "/api/games/" + bad + "/pgn"},
		{method: http.MethodPost, target: "/api/games/" + bad + "/actions", json: `{"action":"m:d2d4"}`, header: map[string]string{"Authorization": "Bearer " + string(cred)}},
	} {
		rec := h.send(e)
		var body kit.ErrorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusInternalServerError {
			t.Fatalf("%s %s: %d %s", h.method, h.target, rec.Code, rec.Body)
		}
		want := "unreadable"
		if h.method == http.MethodPost {
			want = "internal"
		}
		if body.Code != want || strings.Contains(body.Msg, bad) || strings.Contains(body.Msg, "restore") {
			t.Errorf("%s %s: %+v, want code %s and no internals", h.method, h.target, body, want)
		}
	}
	if logged := logs.String(); strings.Contains(logged, bad) {
		t.Errorf("the log holds the full id: %s", logged)
	}

	// With the good game gone from the list, the home page offers no last
	// game, but a new game and the list.
	if rec := (hit{method: http.MethodPost, target: kit.GamePath(good) + "/hide", form: vals(), cookie: ck}).send(e); rec.Code != http.StatusSeeOther {
		t.Fatalf("hide: %d", rec.Code)
	}
	rec = hit{method: http.MethodGet, target: "/", cookie: ck}.send(e)
	d := parse(t, rec)
	if rec.Code != http.StatusOK || d.Find(`form[action="/new"]`).Length() == 0 || d.Find("#last-game").Length() != 0 || d.Find(`#home-games[href^="/new"]`).Length() != 1 {
		t.Fatalf("GET / with only an unreadable game: %d, last game %d, list link %d", rec.Code, d.Find("#last-game").Length(), d.Find("#home-games").Length())
	}
	// And a new game from there works.
	if rec := (hit{method: http.MethodPost, target: "/new", form: vals("variant", "ban"), cookie: ck}).send(e); rec.Code != http.StatusSeeOther {
		t.Fatalf("POST /new: %d", rec.Code)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// failingSaves is a store whose saves fail as SQLite's do, naming the game
// in the error.
type failingSaves struct{ *store.Memory }

func (f failingSaves) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	if err := f.Memory.View(ctx, id, func(*games.Record) error { return nil }); err != nil {
		return err
	}
	return fmt.Errorf("game %q: saving the game: disk I/O error (10) (SQLITE_IOERR_WRITE)", id)
}

// TestLogRedactsIDs: no log line carries a whole game id: not a failed
// save's error text, not a page's path.
func TestLogRedactsIDs(t *testing.T) {
	st := failingSaves{store.NewMemory()}
	var logs bytes.Buffer
	e := newServerOn(st, WithLogger(jsonLogger(&logs)))
	svc := newService(st)
	cred := issue(t, svc)
	id, err := svc.Games.Create(context.Background(), cred, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	ck := &http.Cookie{Name: kit.PlayerCookie, Value: string(cred)}
	for _, h := range []hit{
		{method: http.MethodPost, target: kit.GamePath(id) + "/ply", form: vals("text", "b:e2e4"), cookie: ck},
		{method: http.MethodPost, target: kit.GamePath(id) + "/resign", form: vals("side", "white"), cookie: ck, hx: true},
		{method: http.MethodPost, target: "/api/games/" + id + "/actions", json: `{"action":"b:e2e4"}`, header: map[string]string{"Authorization": "Bearer " + string(cred)}},
		{method: http.MethodGet, target: kit.GamePath(id) + "/history/0", cookie: ck},
	} {
		h.send(e)
	}
	raw := logs.String()
	lines := logLines(t, &logs)
	var errs, paths int
	for _, l := range lines {
		if msg, ok := l["err"].(string); ok {
			errs++
			if !strings.Contains(msg, kit.ShortID(id)) || !strings.Contains(msg, "SQLITE_IOERR_WRITE") {
				t.Errorf("err logged as %q", msg)
			}
		}
		if p, ok := l["path"].(string); ok && strings.Contains(p, kit.ShortID(id)) {
			paths++
		}
	}
	if errs != 3 || paths != 4 {
		t.Errorf("%d failures and %d paths with a short id, want 3 and 4: %s", errs, paths, raw)
	}
	if strings.Contains(raw, id) {
		t.Errorf("the log holds the full id %s: %s", id, raw)
	}
}

// stalledBody is a request body that gives a part and then fails as a
// connection past its read deadline does.
type stalledBody struct{ r io.Reader }

func (b *stalledBody) Read(p []byte) (int, error) {
	if n, _ := b.r.Read(p); n > 0 {
		return n, nil
	}
	return 0, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
}
func (b *stalledBody) Close() error { return nil }

// TestSlowBody: a body that does not arrive in time is 408, as a page for
// pages and as the API's error for /api, and logged at INFO: the client
// is slow, the server did not fail.
func TestSlowBody(t *testing.T) {
	logs := newLogBuffer()
	e := newServerOn(nil, WithLogger(jsonLogger(logs)))
	c := newClientOn(t, e)
	c.start()
	logLines(t, logs)
	for _, tt := range []struct {
		target, ctype string
		hx            bool
	}{
		{c.path("ply"), "application/x-www-form-urlencoded", false},
		{c.path("ply"), "application/x-www-form-urlencoded", true},
		{"/new", "application/x-www-form-urlencoded", false},
		{"/api/games", "application/json", false},
		{"/api/games/" + c.id + "/actions", "application/json", false},
	} {
		req := c.request(http.MethodPost, tt.target, nil, tt.hx)
		req.Body = &stalledBody{r: strings.NewReader("text=e2")}
		req.ContentLength = 100
		req.Header.Set("Content-Type", tt.ctype)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		checkTimeout(t, tt.target, rec.Code, rec.Header(), rec.Body.Bytes())
	}
	checkTimeoutsLogged(t, logLines(t, logs), 5)

	// The same through a real server whose ReadTimeout passes while the
	// client stalls half-way through its body.
	srv := httptest.NewUnstartedServer(e)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	for _, tt := range []struct{ target, ctype, body string }{
		{c.path("ply"), "application/x-www-form-urlencoded", "text=e2"},
		{"/api/games", "application/json", `{"vari`},
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: 100\r\n\r\n%s", tt.target, tt.ctype, tt.body)
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		conn.Close()
		checkTimeout(t, tt.target, res.StatusCode, res.Header, body)
	}
	// The server's goroutines log each request after answering it.
	logs.await(t, func(lines []map[string]any) bool { return len(timeoutsLogged(lines)) >= 2 })
	checkTimeoutsLogged(t, logLines(t, logs), 2)
}

// timeoutsLogged returns the request lines of lines with status 408.
func timeoutsLogged(lines []map[string]any) []map[string]any {
	var timeouts []map[string]any
	for _, l := range lines {
		if l["msg"] == "request" && l["status"] == float64(http.StatusRequestTimeout) {
			timeouts = append(timeouts, l)
		}
	}
	return timeouts
}

// checkTimeoutsLogged checks that lines log n requests answered 408, and
// everything at INFO: the client was slow, the server did not fail.
func checkTimeoutsLogged(t *testing.T, lines []map[string]any, n int) {
	t.Helper()
	if got := len(timeoutsLogged(lines)); got != n {
		t.Errorf("%d requests logged with 408, want %d: %v", got, n, lines)
	}
	for _, l := range lines {
		if l["level"] != "INFO" {
			t.Errorf("logged %v, want INFO", l)
		}
	}
}

func checkTimeout(t *testing.T, target string, code int, hdr http.Header, body []byte) {
	t.Helper()
	if code != http.StatusRequestTimeout {
		t.Errorf("%s: %d %s, want 408", target, code, body)
		return
	}
	if strings.HasPrefix(target, "/api/") {
		var ae kit.ErrorBody
		if err := json.Unmarshal(body, &ae); err != nil || ae.Code != "timeout" || ae.Msg == "" {
			t.Errorf("%s: %s, want the API's error with code timeout", target, body)
		}
		return
	}
	if !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("did not arrive in time")) {
		t.Errorf("%s: %s %s, want an HTML page", target, hdr.Get("Content-Type"), body)
	}
}

// TestBaseURL: with a base URL, the links a page writes start with it,
// whatever scheme and port the request came by; without one they take
// the request's Host (here evil.example). TestHostMustBeBaseURLs shows a
// request naming another host is refused.
func TestBaseURL(t *testing.T) {
	for _, tt := range []struct{ base, host, want string }{
		{"https://chess.example.com", "chess.example.com:80", "https://chess.example.com/"},
		{"https://chess.example.com/", "Chess.Example.com", "https://chess.example.com/"},
		{"", "evil.example", "http://evil.example/"},
	} {
		base, err := ParseBaseURL(tt.base)
		if err != nil {
			t.Fatal(err)
		}
		e := newServerOn(nil, WithBaseURL(base))
		c := newClientOn(t, e)
		c.host = tt.host
		c.start()
		for _, hx := range []bool{false, true} {
			req := c.request(http.MethodGet, c.page()+"?export=1", nil, hx)
			req.Host = tt.host
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			d := parse(t, rec)
			watch := d.Find("#watch").AttrOr("value", "")
			share := d.Find("#share").AttrOr("value", "")
			if watch != tt.want+"g/"+c.id || !strings.HasPrefix(share, tt.want+"?") {
				t.Errorf("base %q hx=%v: watch %q, share %q; want them under %s", tt.base, hx, watch, share, tt.want)
			}
			if tt.base != "" && strings.Contains(rec.Body.String(), "evil.example") {
				t.Errorf("base %q hx=%v: the page names the request's host", tt.base, hx)
			}
		}
		req := httptest.NewRequest(http.MethodGet, "/api/games/"+c.id+"/pgn", nil)
		req.Host = tt.host
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if tt.base != "" && !strings.Contains(rec.Body.String(), `[Site "chess.example.com"]`) {
			t.Errorf("base %q: the PGN's site: %s", tt.base, rec.Body)
		}
	}
	for _, bad := range []string{"chess.example.com", "ftp://chess.example.com", "https://", "https://chess.example.com/play", "https://chess.example.com/?a=1", "https://u:p@chess.example.com", "https://chess.example.com#x"} {
		if got, err := ParseBaseURL(bad); err == nil {
			t.Errorf("ParseBaseURL(%q) = %q, want an error", bad, got)
		}
	}
}

// slowStore is a store whose reads of one game wait until released, as a
// read waits for the game's lock while a slow save holds it, and whose
// list waits as long as its context lets it (as a database busy with a
// slow commit).
type slowStore struct {
	*store.Memory
	slow     string
	release  chan struct{}
	slowList atomic.Bool
	waiting  atomic.Int32 // reads of the slow game under way
}

func (s *slowStore) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	if id == s.slow {
		s.waiting.Add(1)
		defer s.waiting.Add(-1)
		select { // as the stores' game locks do
		case <-s.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return s.Memory.View(ctx, id, fn)
}

func (s *slowStore) List(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if s.slowList.Load() {
		<-ctx.Done()
		return nil, fmt.Errorf("listing games: %w", ctx.Err())
	}
	return s.Memory.List(ctx, holder, limit)
}

// savesBusy is a store whose saves fail as SQLite's do when another
// connection holds the database past the busy timeout.
type savesBusy struct{ *store.Memory }

type sqliteError int

func (e sqliteError) Error() string { return fmt.Sprintf("database is locked (%d)", int(e)) }
func (e sqliteError) Code() int     { return int(e) }

func (s savesBusy) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	return fmt.Errorf("game %q: saving the game: %w", id, sqliteError(5))
}

// TestBusyGame: a read stuck behind a slow write gives up with 503 and
// Retry-After, for pages and the API, well before the write is done; so
// does a list the database is too busy for, and a save the database
// refused as busy.
func TestBusyGame(t *testing.T) {
	slow := &slowStore{Memory: store.NewMemory(), release: make(chan struct{})}
	slowSvc := newService(slow)
	cred := issue(t, slowSvc)
	id, err := slowSvc.Games.Create(context.Background(), cred, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	slow.slow = id
	var logs bytes.Buffer
	const wait = 200 * time.Millisecond
	e := newServerOn(slow, WithGameWait(wait), WithLogger(jsonLogger(&logs)))
	ck := &http.Cookie{Name: kit.PlayerCookie, Value: string(cred)}

	check := func(h hit) {
		t.Helper()
		start := time.Now()
		answered := make(chan *httptest.ResponseRecorder, 1)
		go func() { answered <- h.send(e) }()
		var rec *httptest.ResponseRecorder
		select {
		case rec = <-answered:
		case <-time.After(20 * wait):
			close(slow.release) // let the request end, and the test with it
			t.Fatalf("%s %s hx=%v: no answer after %v", h.method, h.target, h.hx, 20*wait)
		}
		took := time.Since(start)
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || took > 10*wait {
			t.Errorf("%s %s hx=%v: %d, Retry-After %q, after %v; want 503 with Retry-After within %v", h.method, h.target, h.hx, rec.Code, rec.Header().Get("Retry-After"), took, 10*wait)
		}
		if strings.HasPrefix(h.target, "/api/") {
			var ae kit.ErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &ae); err != nil || ae.Code != "busy" {
				t.Errorf("%s: %s, want code busy", h.target, rec.Body)
			}
		} else if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s: %s, want a page", h.target, rec.Header().Get("Content-Type"))
		}
	}
	for _, h := range []hit{
		{method: http.MethodGet, target: kit.GamePath(id), cookie: ck},
		{method: http.MethodGet, target: kit.GamePath(id), cookie: ck, hx: true},
		{method: http.MethodGet, target: kit.GamePath(id) + "/history/0"},
		{method: http.MethodGet, target: "/", cookie: ck},
		{method: http.MethodGet, target: "/api/games/" + id},
		{method: http.MethodGet, target: "/api/games/" + id + "/pgn"},
	} {
		check(h)
	}
	// The reads left behind finish once the write is done, without
	// touching the requests they were for (the race detector watches).
	close(slow.release)
	for slow.waiting.Load() > 0 {
		time.Sleep(time.Millisecond)
	}

	slow.slowList.Store(true)
	check(hit{method: http.MethodGet, target: "/", cookie: ck})

	// A save refused by a busy database: 503, the game unchanged.
	busySt := savesBusy{store.NewMemory()}
	e = newServerOn(busySt)
	busySvc := newService(busySt)
	cred = issue(t, busySvc)
	ck = &http.Cookie{Name: kit.PlayerCookie, Value: string(cred)}
	id, err = busySvc.Games.Create(context.Background(), cred, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	check(hit{method: http.MethodPost, target: kit.GamePath(id) + "/ply", form: vals("text", "b:e2e4"), cookie: ck})
	check(hit{method: http.MethodPost, target: "/api/games/" + id + "/actions", json: `{"action":"b:e2e4"}`, header: map[string]string{"Authorization": "Bearer " + string(cred)}})

	for _, l := range logLines(t, &logs) {
		if l["msg"] != "request" && l["level"] == "ERROR" {
			t.Errorf("logged %v as an error", l)
		}
	}
}
