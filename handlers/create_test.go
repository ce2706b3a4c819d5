package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

func TestBadLinks(t *testing.T) {
	for target, status := range map[string]int{
		"/?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"): 400,
		"/?fen=": 400,
		"/?pgn=" + url.QueryEscape("1. e4 e5 2. Qxf7 *"): 400,
		"/?a=b:e2e5":             422, // an action the rules do not allow
		"/?a=b:e2e4,m:e2e4":      422, // the banned move
		"/?a=b:e2e4,,m:d2d4":     400,
		"/?a=b:e2e4&end=nobody":  400,
		"/?v=atomic&a=":          400,
		"/g/anything/history/x":  400,
		"/g/anything/history/-1": 404,
	} {
		c := newClient(t)
		rec := c.do(http.MethodGet, target, nil, false)
		d := parse(t, rec)
		if rec.Code != status || errorText(d) == "" || d.Find("a[href='/']").Length() == 0 {
			t.Errorf("GET %s: %d %q, want %d", target, rec.Code, errorText(d), status)
		}
		if c.player() != nil {
			t.Errorf("GET %s: a bad link gave the browser a credential", target)
		}
	}
	c := newClient(t)
	c.start()
	if rec := c.do(http.MethodGet, c.path("history/9"), nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("history of a missing ply: %d", rec.Code)
	}
	for _, gone := range []string{"/select", "/ply", "/undo", "/resign", "/draw", "/history/0", "/game.pgn", "/nowhere"} {
		method := http.MethodPost
		if gone == "/history/0" || gone == "/game.pgn" || gone == "/nowhere" {
			method = http.MethodGet
		}
		if rec := c.do(method, gone, vals(), false); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Page not found") {
			t.Errorf("%s %s (an old route): %d", method, gone, rec.Code)
		}
	}
	if rec := c.do(http.MethodGet, "/nowhere", nil, false); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Page not found") {
		t.Errorf("unknown page: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/api/nowhere", nil, false); rec.Code != http.StatusNotFound || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("unknown API path: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

func TestImport(t *testing.T) {
	c := newClient(t)
	c.start()
	first := c.id
	d := c.post("/import", vals("text", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "variant", "ban", "game", c.id))
	if got := text(d, "#status"); !strings.Contains(got, "Move 1 · White bans a Black move") || shownPly(d) != "3" || c.id == first {
		t.Errorf("FEN import status = %q at %s", got, c.id)
	}
	d = c.post("/import", vals("text", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *"))
	if !strings.Contains(text(d, "#notice"), "no bans") || sq(d, "f3").Find("[data-piece]").AttrOr("data-piece", "") != "wN" {
		t.Errorf("chess PGN import: notice %q", text(d, "#notice"))
	}
	d = c.hxPost("/import", vals("text", "1. {banning: e2e4} d4 {banning: e7e5} d5 *"))
	if got := text(d, "#status"); shownPly(d) != "5" || d.Find("#notice").Length() != 0 {
		t.Errorf("Ban Chess PGN import status = %q", got)
	}
	// A bad one comes back in the box, with why, on the page that starts
	// games; no game is made.
	games := len(gameLinks(c.get(c.page())))
	rec := c.do(http.MethodPost, "/import", vals("text", "not a game at all"), false)
	d = parse(t, rec)
	if rec.Code != 400 || text(d, "#import-text") != "not a game at all" || d.Find("main#start").Length() != 1 || text(d, "#import-error") == "" {
		t.Errorf("bad import: %d text %q error %q", rec.Code, text(d, "#import-text"), text(d, "#import-error"))
	}
	if n := len(gameLinks(c.get(c.page()))); n != games {
		t.Errorf("a bad import left %d games, not %d", n, games)
	}
	d = c.get("/?fen=" + url.QueryEscape("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
	if !strings.Contains(text(d, "#status"), "Move 1 · Black bans") {
		t.Errorf("/?fen= status %q", text(d, "#status"))
	}
	d = c.get("/?pgn=" + url.QueryEscape("1. d4 d5 *"))
	if !strings.Contains(text(d, "#notice"), "no bans") {
		t.Errorf("/?pgn= notice %q", text(d, "#notice"))
	}
	if n := len(gameLinks(d)); n != games+2 {
		t.Errorf("%d games after two links, want %d", n, games+2)
	}
}

// TestNewGameWithHTMX: htmx gets the new game's fragment, with its address
// to push to the history.
func TestNewGameWithHTMX(t *testing.T) {
	c := newClient(t)
	c.start()
	first := c.id
	c.post(c.path("ply"), vals("text", "e2e4"))
	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/new", vals("variant", "ban", "flip", "1")},
		{"/import", vals("text", "1. {banning: e2e4} d4 *", "game", first)},
	} {
		rec := c.do(http.MethodPost, tc.path, tc.form, true)
		push := rec.Header().Get("HX-Push-Url")
		id := gameOf(push)
		if rec.Code != http.StatusOK || id == "" || id == first || !strings.HasPrefix(push, kit.GamePath(id)) {
			t.Fatalf("hx POST %s: %d, HX-Push-Url %q", tc.path, rec.Code, push)
		}
		if push != kit.GamePath(id) {
			t.Errorf("HX-Push-Url %q: a flip is the page's it was posted from, not the new game's", push)
		}
		body := rec.Body.String()
		d := parse(t, rec)
		if strings.Contains(body, "<html") || d.Find("main#game").Length() != 1 || d.Find(`#announce[hx-swap-oob]`).Length() != 1 {
			t.Errorf("hx POST %s: not the fragment", tc.path)
		}
		if d.Find(`form.typed[action="`+kit.GamePath(id)+`/ply"]`).Length() != 1 || d.Find("[data-watch-link]").AttrOr("value", "") != "http://example.com"+kit.GamePath(id) {
			t.Errorf("hx POST %s: the fragment is not the new game's", tc.path)
		}
		if rec.Header().Get("Location") != "" {
			t.Errorf("hx POST %s: Location %q", tc.path, rec.Header().Get("Location"))
		}
	}
	// The first game is as it was.
	if got := shownPly(c.get(kit.GamePath(first))); got != "2" {
		t.Errorf("the first game: %q", got)
	}
}
