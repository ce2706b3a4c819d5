package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
)

// testClock is a clock the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock { return &testClock{t: apiClock()} }

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// limited serves everything Register adds on a fresh memory store, with
// opts, on the clock.
func limited(clock *testClock, opts ...Option) *echo.Echo {
	return limitedGames(clock, nil, opts...)
}

// limitedGames is limited with a games service made with gopts.
func limitedGames(clock *testClock, gopts []games.Option, opts ...Option) *echo.Echo {
	e := echo.New()
	New(newService(nil, gopts...), clock.now, opts...).Register(e)
	return e
}

// hit is one request of a limit test.
type hit struct {
	method, target string
	form           url.Values // a page's form
	json           string     // an API body
	hx             bool
	remote         string // RemoteAddr; "" is httptest's 192.0.2.1:1234
	header         map[string]string
	cookie         *http.Cookie
}

// serve sends h to e and fails the test on a 5xx.
func (h hit) serve(t *testing.T, e http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	rec := h.send(e)
	if rec.Code >= 500 {
		t.Fatalf("%s %s: %d %s", h.method, h.target, rec.Code, rec.Body)
	}
	return rec
}

// send sends h to e.
func (h hit) send(e http.Handler) *httptest.ResponseRecorder {
	var req *http.Request
	switch {
	case h.form != nil:
		req = httptest.NewRequest(h.method, h.target, strings.NewReader(h.form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case h.json != "":
		req = httptest.NewRequest(h.method, h.target, strings.NewReader(h.json))
		req.Header.Set("Content-Type", "application/json")
	default:
		req = httptest.NewRequest(h.method, h.target, nil)
	}
	if h.hx {
		req.Header.Set("HX-Request", "true")
	}
	if h.remote != "" {
		req.RemoteAddr = h.remote
	}
	for k, v := range h.header {
		req.Header.Set(k, v)
	}
	if h.cookie != nil {
		req.AddCookie(h.cookie)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

// playerOf returns the credential cookie rec sets, or nil.
func playerOf(rec *httptest.ResponseRecorder) *http.Cookie {
	for _, ck := range rec.Result().Cookies() {
		if (ck.Name == kit.PlayerCookie || ck.Name == kit.HostPrefix+kit.PlayerCookie) && ck.MaxAge >= 0 {
			return ck
		}
	}
	return nil
}

// startSession has a new browser at addr play on this device (the home
// page's form) and returns its credential cookie and the game started.
func startSession(t *testing.T, e http.Handler, remote string) (*http.Cookie, string) {
	t.Helper()
	rec := hotSeat(remote, nil).serve(t, e)
	ck, id := playerOf(rec), gameOf(rec.Header().Get("Location"))
	if ck == nil || id == "" || rec.Code != http.StatusSeeOther {
		t.Fatalf("POST /new: %d to %q, cookie %v", rec.Code, rec.Header().Get("Location"), ck)
	}
	return ck, id
}

// hotSeat is the home page's "Play on this device" from remote, by the
// browser of ck (nil: a first visit).
func hotSeat(remote string, ck *http.Cookie) hit {
	return hit{method: http.MethodPost, target: "/new", form: vals("mode", "hotseat"), remote: remote, cookie: ck}
}

// listed returns the "Your games" list of game id's page for the browser
// of ck.
func listed(t *testing.T, e http.Handler, ck *http.Cookie, id string) []string {
	t.Helper()
	rec := hit{method: http.MethodGet, target: kit.GamePath(id), cookie: ck}.serve(t, e)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", kit.GamePath(id), rec.Code)
	}
	return gameLinks(parse(t, rec))
}

// gameState returns the API's view of game id, to compare before and after.
func gameState(t *testing.T, e http.Handler, id string) string {
	t.Helper()
	rec := hit{method: http.MethodGet, target: "/api/games/" + id}.serve(t, e)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET game %s: %d %s", id, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// checkRefusal checks rec is a refusal with status in the shape its
// request asked for: JSON with code under /api, an error fragment for
// htmx, an error page otherwise, each with a message containing want.
func checkRefusal(t *testing.T, h hit, rec *httptest.ResponseRecorder, status int, code, want string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("%s %s: status %d, want %d: %s", h.method, h.target, rec.Code, status, rec.Body)
	}
	if strings.HasPrefix(h.target, "/api/") {
		var body struct{ Error, Code string }
		dec := json.NewDecoder(rec.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&body); err != nil {
			t.Fatalf("API refusal is not {error, code}: %v", err)
		}
		if body.Code != code || !strings.Contains(body.Error, want) || !strings.HasSuffix(body.Error, ".") {
			t.Fatalf("API refusal %+v, want code %q and a sentence with %q", body, code, want)
		}
		return
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("page refusal Content-Type %q", ct)
	}
	whole := strings.Contains(rec.Body.String(), "<html")
	if h.hx == whole {
		t.Fatalf("htmx %v, but whole page %v: %s", h.hx, whole, rec.Body)
	}
	if got := errorText(parse(t, rec)); !strings.Contains(got, want) {
		t.Fatalf("page refusal says %q, want %q", got, want)
	}
}

func TestPostRateLimit(t *testing.T) {
	plies := []string{"e2e4", "d4", "e7e5", "d5"}
	apiPlies := []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"}
	for _, kind := range []string{"page", "htmx", "api"} {
		t.Run(kind, func(t *testing.T) {
			clock := newTestClock()
			e := limited(clock, WithLimits(kit.Limits{PostsPerSecond: 1, PostBurst: 2}))
			ck, id := startSession(t, e, "203.0.113.8:1") // from another address, so as not to spend this one's posts
			var token string
			if kind == "api" {
				// A game of the API's, created from another address so as not
				// to spend this one's allowance.
				rec := hit{method: http.MethodPost, target: "/api/games", remote: "203.0.113.9:1"}.serve(t, e)
				var g api.Created
				if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil || g.Token == "" {
					t.Fatalf("create: %d %s", rec.Code, rec.Body)
				}
				id, token = g.ID, g.Token
			}
			post := func(i int) hit {
				if kind == "api" {
					return hit{method: http.MethodPost, target: "/api/games/" + id + "/actions", json: `{"action":"` + apiPlies[i] + `"}`,
						header: map[string]string{"Authorization": "Bearer " + token}}
				}
				return hit{method: http.MethodPost, target: kit.GamePath(id) + "/ply", form: vals("text", plies[i]), hx: kind == "htmx", cookie: ck}
			}
			for i := range 2 {
				if rec := post(i).serve(t, e); rec.Code != http.StatusOK && rec.Code != http.StatusSeeOther {
					t.Fatalf("POST %d within the burst: %d %s", i+1, rec.Code, rec.Body)
				}
			}
			before := gameState(t, e, id)
			rec := post(2).serve(t, e)
			checkRefusal(t, post(2), rec, http.StatusTooManyRequests, "rate_limited", "Please wait 1 second")
			if got := rec.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Retry-After %q, want 1", got)
			}
			if after := gameState(t, e, id); after != before {
				t.Errorf("a refused POST changed the game:\n%s\n%s", before, after)
			}
			// Another address has its own allowance; GETs have none.
			other := post(2)
			other.remote = "198.51.100.7:4000"
			if rec := other.serve(t, e); rec.Code == http.StatusTooManyRequests {
				t.Errorf("another address was limited: %s", rec.Body)
			}
			if rec := (hit{method: http.MethodGet, target: kit.GamePath(id), cookie: ck}).serve(t, e); rec.Code != http.StatusOK {
				t.Errorf("GET after the limit: %d", rec.Code)
			}
			clock.add(time.Second)
			if rec := post(3).serve(t, e); rec.Code == http.StatusTooManyRequests {
				t.Errorf("POST a second later still refused: %s", rec.Body)
			}
		})
	}
}

func TestGamesPerMinute(t *testing.T) {
	tests := []struct {
		name   string
		create hit
	}{
		{"new game", hit{method: http.MethodPost, target: "/new", form: vals("variant", "ban")}},
		{"new game htmx", hit{method: http.MethodPost, target: "/new", form: vals("variant", "ban"), hx: true}},
		{"import", hit{method: http.MethodPost, target: "/import", form: vals("text", "1. e4 e5 *")}},
		{"import htmx", hit{method: http.MethodPost, target: "/import", form: vals("text", "k7/8/1K6/8/8/8/8/8 w - - 0 1"), hx: true}},
		{"fen link", hit{method: http.MethodGet, target: "/?fen=" + url.QueryEscape("k7/8/1K6/8/8/8/8/8 w - - 0 1")}},
		{"share link htmx", hit{method: http.MethodGet, target: "/?a=b:e2e4", hx: true}},
		{"api", hit{method: http.MethodPost, target: "/api/games", json: `{"variant":"classic"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newTestClock()
			e := limited(clock, WithLimits(kit.Limits{GamesPerMinute: 2}))
			ck, id := startSession(t, e, "") // playing on this device is the first game
			h := tt.create
			h.cookie = ck
			if h.target == "/import" {
				h.form.Set("game", id)
			}
			rec := h.serve(t, e)
			if rec.Code >= 400 {
				t.Fatalf("second game refused: %d %s", rec.Code, rec.Body)
			}
			if got := playerOf(rec); got != nil {
				t.Errorf("a browser with a credential was given another")
			}
			before, list := gameState(t, e, id), listed(t, e, ck, id)
			want := 2 // the first game and this one; the API's is not the browser's
			if strings.HasPrefix(h.target, "/api/") {
				want = 1
			}
			if len(list) != want {
				t.Fatalf("%d games listed, want %d: %v", len(list), want, list)
			}
			rec = h.serve(t, e)
			checkRefusal(t, h, rec, http.StatusTooManyRequests, "too_many_games", "started 2 games in the last minute")
			if got := rec.Header().Get("Retry-After"); got != "30" {
				t.Errorf("Retry-After %q, want 30 (one game every 30 seconds)", got)
			}
			if got := playerOf(rec); got != nil {
				t.Errorf("a refused creation set the credential cookie %q", got.Value)
			}
			if got := rec.Header().Get("Location") + rec.Header().Get("HX-Push-Url"); got != "" {
				t.Errorf("a refused creation sent the browser to %q", got)
			}
			if after := gameState(t, e, id); after != before {
				t.Errorf("a refused creation changed the browser's game:\n%s\n%s", before, after)
			}
			if got := listed(t, e, ck, id); strings.Join(got, " ") != strings.Join(list, " ") {
				t.Errorf("a refused creation changed the browser's games: %v, were %v", got, list)
			}
			// The playing goes on, and a game comes free every 30 seconds.
			if rec := (hit{method: http.MethodPost, target: kit.GamePath(id) + "/ply", form: vals("text", "e2e4"), cookie: ck}).serve(t, e); rec.Code != http.StatusSeeOther {
				t.Errorf("playing was refused: %d %s", rec.Code, rec.Body)
			}
			clock.add(30 * time.Second)
			if rec := h.serve(t, e); rec.Code >= 400 {
				t.Errorf("30 seconds later: %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// TestFirstVisitLimited: the home page starts no game and gives no
// credential, so a client over its games' limit still gets it; a first
// game played on this device counts, and one over the limit is refused
// with no credential given.
func TestFirstVisitLimited(t *testing.T) {
	e := limited(newTestClock(), WithLimits(kit.Limits{GamesPerMinute: 1}))
	startSession(t, e, "")
	home := hit{method: http.MethodGet, target: "/"}
	if rec := home.serve(t, e); rec.Code != http.StatusOK || playerOf(rec) != nil {
		t.Errorf("the home page over the games' limit: %d, credential %v", rec.Code, playerOf(rec))
	}
	h := hotSeat("", nil)
	rec := h.serve(t, e)
	checkRefusal(t, h, rec, http.StatusTooManyRequests, "", "Please wait 60 seconds")
	if playerOf(rec) != nil {
		t.Error("a refused first game was given a credential")
	}
}

func TestInputBounds(t *testing.T) {
	const fen56 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" // 56 bytes
	longFEN := fen56 + strings.Repeat(" ", 150) + "1"                        // 207 bytes, and a good FEN
	shareLink := "/?a=" + strings.TrimSuffix(strings.Repeat("b:e2e4,", 2001), ",")
	const pgn5 = "1. {banning: e2e4} d4 {banning: e7e5} d5 2. {banning: g1f3} *"
	small := games.WithLoader(games.NewLoader(games.Limits{MaxPlies: 4, MaxFENBytes: 60}))
	tests := []struct {
		name       string
		opts       []games.Option
		h          hit
		code, want string
	}{
		// The defaults: New without options bounds input too.
		{"api fen", nil, hit{method: http.MethodPost, target: "/api/games", json: `{"fen":"` + longFEN + `"}`}, "fen_too_long", "at most 200 bytes"},
		{"import fen", nil, hit{method: http.MethodPost, target: "/import", form: vals("text", longFEN)}, "", "at most 200 bytes"},
		{"import fen htmx", nil, hit{method: http.MethodPost, target: "/import", form: vals("text", longFEN), hx: true}, "", "at most 200 bytes"},
		{"fen link", nil, hit{method: http.MethodGet, target: "/?fen=" + url.QueryEscape(longFEN)}, "", "at most 200 bytes"},
		{"share link fen htmx", nil, hit{method: http.MethodGet, target: "/?a=&fen=" + url.QueryEscape(longFEN), hx: true}, "", "at most 200 bytes"},
		{"share link plies", nil, hit{method: http.MethodGet, target: shareLink}, "", "more than the 2000 plies"},
		{"share link plies htmx", nil, hit{method: http.MethodGet, target: shareLink, hx: true}, "", "more than the 2000 plies"},
		// Smaller bounds, for PGNs a test can write.
		{"api pgn", []games.Option{small}, hit{method: http.MethodPost, target: "/api/games", json: `{"pgn":"` + pgn5 + `"}`}, "too_many_plies", "more than 4 plies"},
		{"api pgn classic", []games.Option{small}, hit{method: http.MethodPost, target: "/api/games", json: `{"variant":"classic","pgn":"1. e4 e5 2. Nf3 Nc6 3. Bb5 *"}`}, "too_many_plies", "more than 4 plies"},
		{"import pgn", []games.Option{small}, hit{method: http.MethodPost, target: "/import", form: vals("text", pgn5)}, "", "more than 4 plies"},
		{"import pgn htmx", []games.Option{small}, hit{method: http.MethodPost, target: "/import", form: vals("text", pgn5), hx: true}, "", "more than 4 plies"},
		{"pgn link", []games.Option{small}, hit{method: http.MethodGet, target: "/?pgn=" + url.QueryEscape(pgn5)}, "", "more than 4 plies"},
		{"share link 5 plies", []games.Option{small}, hit{method: http.MethodGet, target: "/?a=b:e2e4,m:d2d4,b:e7e5,m:d7d5,b:g1f3"}, "", "more than the 4 plies"},
		{"api fen 61 bytes", []games.Option{small}, hit{method: http.MethodPost, target: "/api/games", json: `{"fen":"` + fen56 + `    1"}`}, "fen_too_long", "at most 60 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := limitedGames(newTestClock(), tt.opts)
			refusedInput(t, e, tt.h, tt.code, tt.want, nil)
		})
	}
	// At the bounds, all is read.
	e := limitedGames(newTestClock(), []games.Option{small})
	for _, h := range []hit{
		{method: http.MethodPost, target: "/api/games", json: `{"pgn":"1. {banning: e2e4} d4 {banning: e7e5} d5 *"}`},
		{method: http.MethodPost, target: "/api/games", json: `{"fen":"` + fen56 + `   1"}`}, // 60 bytes
		{method: http.MethodGet, target: "/?a=b:e2e4,m:d2d4,b:e7e5,m:d7d5"},
	} {
		if rec := h.serve(t, e); rec.Code >= 400 {
			t.Errorf("%s %s at the bound: %d %s", h.method, h.target, rec.Code, rec.Body)
		}
	}
}

// TestLimitsOff: Limits{} switches every rate limit off, and
// games.Limits{} every bound on input.
func TestLimitsOff(t *testing.T) {
	e := limitedGames(newTestClock(), []games.Option{games.WithLoader(games.NewLoader(games.Limits{}))}, WithLimits(kit.Limits{}))
	longFEN := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" + strings.Repeat(" ", 300) + "1"
	for i := range 100 {
		h := hit{method: http.MethodPost, target: "/api/games", json: fmt.Sprintf(`{"fen":%q}`, longFEN)}
		if rec := h.serve(t, e); rec.Code != http.StatusCreated {
			t.Fatalf("game %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
}

func TestClientKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":            "192.0.2.1",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"::ffff:192.0.2.1":     "::ffff:192.0.2.1",
		"":                     "",
		"not an ip":            "not an ip",
	} {
		if got := kit.ClientKey(in); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOddRemoteAddr: a request whose address cannot be read is served (all
// such share one allowance), not a panic.
func TestOddRemoteAddr(t *testing.T) {
	var logs bytes.Buffer
	e := limited(newTestClock(), WithLimits(kit.DefaultLimits()), WithLogger(jsonLogger(&logs)))
	for _, remote := range []string{"garbage", "[::1", "1.2.3.4:99999:1"} {
		h := hit{method: http.MethodPost, target: "/api/games", json: "{}", remote: remote}
		if rec := h.serve(t, e); rec.Code != http.StatusCreated {
			t.Errorf("RemoteAddr %q: %d %s", remote, rec.Code, rec.Body)
		}
	}
}

// refusedInput sends h from a browser with a game (the game's id in an
// import form), and checks it is refused with want in its message (beside
// the box for an import; else with code) and changes nothing: not the game,
// not the browser's games, no credential given. ready, if not nil, runs
// just before h is sent. It returns the answer.
func refusedInput(t *testing.T, e *echo.Echo, h hit, code, want string, ready func()) *httptest.ResponseRecorder {
	t.Helper()
	ck, id := startSession(t, e, "")
	before, list := gameState(t, e, id), listed(t, e, ck, id)
	if ready != nil {
		ready()
	}
	h.cookie = ck
	rec := h.serve(t, e)
	if h.target == "/import" {
		// A refused import keeps every game and explains beside the box,
		// on the page that starts games (a plain page, htmx or not).
		if rec.Code != http.StatusBadRequest || !strings.Contains(text(parse(t, rec), "#import-error"), want) {
			t.Fatalf("import: %d, %q, want 400 with %q", rec.Code, errorText(parse(t, rec)), want)
		}
		if !strings.Contains(rec.Body.String(), `<main id="start"`) {
			t.Errorf("htmx %v: the refusal is not the page that starts games", h.hx)
		}
	} else {
		checkRefusal(t, h, rec, http.StatusBadRequest, code, want)
	}
	if got := playerOf(rec); got != nil {
		t.Errorf("a refused request set the credential cookie")
	}
	if after := gameState(t, e, id); after != before {
		t.Errorf("a refused request changed the game")
	}
	if got := listed(t, e, ck, id); strings.Join(got, " ") != strings.Join(list, " ") {
		t.Errorf("a refused request changed the browser's games: %v, were %v", got, list)
	}
	return rec
}
