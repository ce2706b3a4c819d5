package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/lobby"

	"github.com/PuerkitoBio/goquery"
)

// lobbyWait posts a lobby form that leaves the browser waiting: it is
// sent back to the lobby, to the address it reloads (the no-script way)
// until it is paired.
func (c *client) lobbyWait(path string, form map[string]string) string {
	c.t.Helper()
	var kv []string
	for k, v := range form {
		kv = append(kv, k, v)
	}
	c.openLobby()
	rec := c.do(http.MethodPost, path, vals(kv...), false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/lobby?since=") {
		c.t.Fatalf("POST %s: %d to %q, want the lobby: %s", path, rec.Code, loc, errorText(parse(c.t, rec)))
	}
	return loc
}

// openLobby opens the lobby, as a browser does before its forms, when it
// has no player cookie yet: the lobby's page sets it.
func (c *client) openLobby() {
	c.t.Helper()
	if c.player() == nil {
		c.get("/lobby")
	}
}

// lobbyGame posts a lobby form that pairs the browser, and returns the
// game it is sent to.
func (c *client) lobbyGame(path string, form ...string) string {
	c.t.Helper()
	c.openLobby()
	rec := c.do(http.MethodPost, path, vals(form...), false)
	if rec.Code != http.StatusSeeOther || gameOf(rec.Header().Get("Location")) == "" {
		c.t.Fatalf("POST %s: %d to %q, want a game: %s", path, rec.Code, rec.Header().Get("Location"), errorText(parse(c.t, rec)))
	}
	return gameOf(rec.Header().Get("Location"))
}

// TestLobbyWithoutScripts: a rated seek made with the form is listed with
// its maker's name, rating, variant and clock and an accept button; its
// maker's page reloads itself while it waits; accepted, both browsers go
// to one game, on opposite colours, their names and ratings on its page.
func TestLobbyWithoutScripts(t *testing.T) {
	e := newServer()
	ann, bob := newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")
	bob.register("Bob")
	d := ann.get("/lobby")
	if d.Find(`button[data-pool]`).Length() != 4 || d.Find(`button[data-pool="5+3"]`).Length() != 1 || refreshes(d) {
		t.Fatalf("the lobby: %d pools, refreshing %v", d.Find(`button[data-pool]`).Length(), refreshes(d))
	}
	wait := ann.lobbyWait("/lobby/seek", map[string]string{"variant": "ban", "clock": "5+3", "color": "white", "rated": "1"})
	d = ann.get(wait)
	if !refreshes(d) || d.Find("li.mine [data-cancel]").Length() != 1 {
		t.Error("a waiting maker's lobby does not reload itself, or offers no cancel")
	}
	d = bob.get("/lobby")
	seek := d.Find("li[data-seek]")
	if seek.Length() != 1 || seek.Find("[data-seek-name]").AttrOr("data-seek-name", "") != "Ann" || seek.Find(".rating").Text() != "1500?" ||
		seek.Find("[data-seek-clock]").Text() != "5+3" || !strings.Contains(seek.Text(), "Ban Chess") || !strings.Contains(seek.Text(), "Rated") ||
		seek.Find("button[data-accept]").Length() != 1 || refreshes(d) {
		t.Fatalf("the seek as another sees it: %q", strings.Join(strings.Fields(seek.Text()), " "))
	}
	id := seek.AttrOr("data-seek", "")
	// Its maker cannot accept it.
	rec := ann.do(http.MethodPost, "/lobby/accept", vals("seek", id), false)
	if rec.Code != http.StatusConflict || !strings.Contains(text(parse(t, rec), "#lobby-error"), "your own") {
		t.Errorf("accepting one's own seek: %d %q", rec.Code, text(parse(t, rec), "#lobby-error"))
	}
	game := bob.lobbyGame("/lobby/accept", "seek", id)
	// The maker's reloading page goes to the game.
	rec = ann.do(http.MethodGet, wait, nil, false)
	if gameOf(rec.Header().Get("Location")) != game {
		t.Fatalf("the maker's lobby, reloaded: %d to %q, want the game %s", rec.Code, rec.Header().Get("Location"), game)
	}
	a, b := ann.get(kit.GamePath(game)), bob.get(kit.GamePath(game))
	for who, d := range map[string]*goquery.Document{"Ann": a, "Bob": b} {
		names := d.Find("[data-player-name]").Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-player-name", "") })
		if strings.Join(names, " ") != "Ann Bob" || d.Find("[data-player] .rating").Length() != 2 || !strings.Contains(text(d, ".table-kind"), "Rated 5+3") {
			t.Errorf("%s's page names %q, %d ratings, %q", who, names, d.Find("[data-player] .rating").Length(), text(d, ".table-kind"))
		}
	}
	if sa, sb := a.Find(".strip.you").AttrOr("data-player", ""), b.Find(".strip.you").AttrOr("data-player", ""); sa != "white" || sb != "black" {
		t.Errorf("Ann's seat %q, Bob's %q: want white and black", sa, sb)
	}
	// Accepted once: gone from the lobby.
	rec = bob.do(http.MethodPost, "/lobby/accept", vals("seek", id), false)
	if rec.Code != http.StatusNotFound || bob.get("/lobby").Find("li[data-seek]").Length() != 0 {
		t.Errorf("accepting again: %d", rec.Code)
	}
}

// TestLobbyPools: two browsers pressing a pool are paired, the first sent
// there on its page's next reload; a third waits; rated only between two
// players with names.
func TestLobbyPools(t *testing.T) {
	e := newServer()
	ann, anon, cat := newClientOn(t, e), newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")
	wait := ann.lobbyWait("/lobby/pool", map[string]string{"pool": "5+3"})
	if d := ann.get(wait); d.Find(`form[data-pool="5+3"][data-waiting="true"]`).Length() != 1 {
		t.Error("the waiting player's page does not say it waits in 5+3")
	}
	d := anon.get("/lobby")
	if d.Find(`button[data-pool="5+3"] [data-waiting-count="1"]`).Length() != 1 {
		t.Error("the pool's count does not say one waits")
	}
	// The pools say whether their games are rated: a named player's when
	// the opponent is named too, an anonymous player's never.
	if got := d.Find("[data-pool-rated]").AttrOr("data-pool-rated", ""); got != "casual" || !strings.Contains(text(d, ".pool-rated"), "Casual") {
		t.Errorf("an anonymous player's pools say %q: %q", got, text(d, ".pool-rated"))
	}
	if got := ann.get("/lobby").Find("[data-pool-rated]").AttrOr("data-pool-rated", ""); got != "named" {
		t.Errorf("a named player's pools say %q, want rated with a named opponent", got)
	}
	game := anon.lobbyGame("/lobby/pool", "pool", "5+3")
	if rec := ann.do(http.MethodGet, wait, nil, false); gameOf(rec.Header().Get("Location")) != game {
		t.Fatalf("the first player's page goes to %q, not %s", rec.Header().Get("Location"), game)
	}
	if d := ann.get(kit.GamePath(game)); strings.Contains(text(d, ".table-kind"), "Rated") {
		t.Error("a game with an anonymous player is rated")
	}
	cat.lobbyWait("/lobby/pool", map[string]string{"pool": "5+3"})
	for _, bad := range []string{"4+4", "", "5 3"} {
		if rec := cat.do(http.MethodPost, "/lobby/pool", vals("pool", bad), false); rec.Code != http.StatusBadRequest {
			t.Errorf("pool %q: %d", bad, rec.Code)
		}
	}
	// Cancelled, the wait ends.
	d = cat.get("/lobby")
	seek := d.Find(`form[data-pool="5+3"] input[name="seek"]`).AttrOr("value", "")
	cat.post("/lobby/cancel", vals("seek", seek))
	if d := cat.get("/lobby"); refreshes(d) || d.Find("[data-waiting]").Length() != 0 {
		t.Error("a cancelled wait goes on")
	}
}

// TestSeekFormRefusals: a seek's form comes back with its reason.
func TestSeekFormRefusals(t *testing.T) {
	e := newServer()
	anon := newClientOn(t, e)
	anon.openLobby()
	for _, c := range []struct {
		form   []string
		status int
		says   string
	}{
		{[]string{"clock", "5+3", "rated", "1"}, http.StatusForbidden, "name"},
		{[]string{"clock", "nope"}, http.StatusBadRequest, "clock"},
		{[]string{"clock", ""}, http.StatusBadRequest, "clock"},
		{[]string{"clock", "5+3", "variant", "en"}, http.StatusBadRequest, "Ban Chess and Classic"},
		{[]string{"clock", "5+3", "color", "green"}, http.StatusBadRequest, "colour"},
		{[]string{"clock", "5+3", "rated", "maybe"}, http.StatusBadRequest, "rated"},
	} {
		rec := anon.do(http.MethodPost, "/lobby/seek", vals(c.form...), false)
		if d := parse(t, rec); rec.Code != c.status || !strings.Contains(text(d, "#lobby-error"), c.says) {
			t.Errorf("%v: %d %q", c.form, rec.Code, text(d, "#lobby-error"))
		}
	}
	if d := anon.get("/lobby"); d.Find("li[data-seek]").Length() != 0 {
		t.Error("a refused seek was listed")
	}
}

// TestCookielessSeeksRefused: a seek or a pool's form posted without the
// player cookie the lobby's page sets makes no player and no seek (issue
// 45: 139 seeks in 5 s from one address, each a new player); it is
// refused 401, no_cookie, with a sentence. The lobby's page sets the
// cookie, and with it the same form is a seek.
func TestCookielessSeeksRefused(t *testing.T) {
	e := newServer()
	for i := range 100 {
		path, form := "/lobby/seek", vals("clock", "5+3")
		if i%2 == 1 {
			path, form = "/lobby/pool", vals("pool", "5+3")
		}
		rec := hit{method: http.MethodPost, target: path, form: form}.send(e)
		if rec.Code != http.StatusUnauthorized || playerOf(rec) != nil || !strings.Contains(text(parse(t, rec), "#lobby-error"), "cookie") {
			t.Fatalf("cookieless POST %s %d: %d, cookie %v: %s", path, i, rec.Code, playerOf(rec), errorText(parse(t, rec)))
		}
	}
	viewer := newClientOn(t, e)
	if n := viewer.get("/lobby").Find("li[data-seek]").Length(); n != 0 {
		t.Errorf("100 cookieless posts: %d seeks listed, want 0", n)
	}
	if viewer.player() == nil {
		t.Fatal("the lobby's page sets no player cookie")
	}
	viewer.lobbyWait("/lobby/seek", map[string]string{"clock": "5+3"})
	if n := viewer.get("/lobby").Find("li[data-seek]").Length(); n != 1 {
		t.Errorf("a browser with its cookie: %d seeks listed, want 1", n)
	}
}

// seekForm reads the choices the lobby's seek form shows chosen:
// variant, clock, colour, and whether rated is checked.
func seekForm(d *goquery.Document) [4]string {
	sel := func(name string) string {
		return d.Find(`.seek-form select[name="`+name+`"] option[selected]`).AttrOr("value", "")
	}
	rated := "casual"
	if _, ok := d.Find(`.seek-form input[name="rated"]`).Attr("checked"); ok {
		rated = "rated"
	}
	return [4]string{sel("variant"), sel("clock"), sel("color"), rated}
}

// TestSeekFormRemembers (issue 37, item 12): after a seek, the lobby's
// form shows the seek's choices again — variant, clock, colour, rated —
// not its defaults, on the next visit too; a refused seek's page shows
// what was posted; another browser sees the defaults.
func TestSeekFormRemembers(t *testing.T) {
	e := newServer()
	ann, bob := newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")
	bob.register("Bob")
	if got, want := seekForm(bob.get("/lobby")), [4]string{"", "5+3", "random", "rated"}; got != want {
		t.Errorf("a first visit's form shows %v, want %v", got, want)
	}
	ann.get(ann.lobbyWait("/lobby/seek", map[string]string{"variant": "classic", "clock": "10+5", "color": "black"}))
	want := [4]string{"classic", "10+5", "black", "casual"}
	if got := seekForm(ann.get("/lobby")); got != want {
		t.Errorf("after the seek the form shows %v, want %v", got, want)
	}
	rec := ann.do(http.MethodPost, "/lobby/seek", vals("variant", "ban", "clock", "15+10", "color", "white", "rated", "maybe"), false)
	if got, want := seekForm(parse(t, rec)), [4]string{"ban", "15+10", "white", "casual"}; rec.Code != http.StatusBadRequest || got != want {
		t.Errorf("a refused seek's form: %d %v, want 400 %v", rec.Code, got, want)
	}
	if got, want := seekForm(bob.get("/lobby")), [4]string{"", "5+3", "random", "rated"}; got != want {
		t.Errorf("another browser's form shows %v, want %v", got, want)
	}
}

// TestSeeksPerAddress bounds the seeks open from one client address
// (lobby.MaxAddressSeeks), whoever makes them, custom or in a pool:
// issue 45 found four addresses with accounts making 486 seeks in 10 s.
// Another address still seeks, and the lobby lists only the bound.
func TestSeeksPerAddress(t *testing.T) {
	e := newServer()
	from := func(addr string) *client {
		c := newClientOn(t, e)
		c.addr = addr
		return c
	}
	for i := range lobby.MaxAddressSeeks {
		path, form := "/lobby/seek", map[string]string{"clock": "5+3"}
		if i%4 == 3 {
			path, form = "/lobby/pool", map[string]string{"pool": lobby.Pools()[i/4]} // a pool each: not paired
		}
		from("198.51.100.7:1000").lobbyWait(path, form)
	}
	for _, path := range []string{"/lobby/seek", "/lobby/pool"} {
		c := from("198.51.100.7:2000")
		c.openLobby()
		rec := c.do(http.MethodPost, path, vals("clock", "5+3", "pool", lobby.Pools()[3]), false)
		if msg := text(parse(t, rec), "#lobby-error"); rec.Code != http.StatusTooManyRequests || !strings.Contains(msg, "network address") {
			t.Errorf("POST %s, a seek past the bound from one address: %d %q, want 429 saying why: %s", path, rec.Code, msg, rec.Body)
		}
	}
	from("203.0.113.5:1000").lobbyWait("/lobby/seek", map[string]string{"clock": "3+2"})
	viewer := from("192.0.2.9:1000")
	doc := viewer.get("/lobby")
	custom := doc.Find("li[data-seek]").Length()
	waiting := 0
	doc.Find("[data-waiting-count]").Each(func(_ int, s *goquery.Selection) {
		n, _ := strconv.Atoi(s.AttrOr("data-waiting-count", ""))
		waiting += n
	})
	if custom+waiting != lobby.MaxAddressSeeks+1 {
		t.Errorf("the lobby lists %d seeks and %d waiting, want %d in all", custom, waiting, lobby.MaxAddressSeeks+1)
	}
}

// TestLobbyListsAPage lists 500 seeks a page at a time
// (lobby.SeeksPerPage), the viewer's own first, with links to the other
// pages that work without scripts; the live list keeps the page; the API
// pages alike and refuses a page that is not one.
func TestLobbyListsAPage(t *testing.T) {
	e := newServer()
	const seeks = 500
	for i := range seeks / lobby.MaxCustomSeeks {
		c := newClientOn(t, e)
		c.addr = fmt.Sprintf("198.51.%d.%d:1000", i/200, i%200)
		for range lobby.MaxCustomSeeks {
			c.lobbyWait("/lobby/seek", map[string]string{"clock": "5+3"})
		}
	}
	me := newClientOn(t, e)
	me.addr = "192.0.2.9:1000"
	me.lobbyWait("/lobby/seek", map[string]string{"clock": "10+5"})
	total := seeks/lobby.MaxCustomSeeks*lobby.MaxCustomSeeks + 1
	pages := (total + lobby.SeeksPerPage - 1) / lobby.SeeksPerPage
	seen := map[string]bool{}
	for n := 1; n <= pages; n++ {
		for _, path := range []string{fmt.Sprintf("/lobby?page=%d", n), fmt.Sprintf("/lobby/list?page=%d", n)} {
			doc := me.get(path)
			rows := doc.Find("li[data-seek]")
			want := min(lobby.SeeksPerPage, total-(n-1)*lobby.SeeksPerPage)
			if rows.Length() != want {
				t.Fatalf("%s lists %d seeks, want %d", path, rows.Length(), want)
			}
			if n == 1 && !rows.First().HasClass("mine") {
				t.Errorf("%s: the viewer's own seek is not first", path)
			}
			next := doc.Find(`.seek-pages a[rel="next"]`)
			if got, want := next.AttrOr("href", ""), fmt.Sprintf("/lobby?page=%d", n+1); n < pages && got != want {
				t.Errorf("%s: next page link %q, want %q", path, got, want)
			}
			if n == pages && next.Length() != 0 {
				t.Errorf("%s: the last page links to a next one", path)
			}
			if n > 1 && doc.Find(`.seek-pages a[rel="prev"]`).Length() != 1 {
				t.Errorf("%s: no link to the page before", path)
			}
			if strings.HasPrefix(path, "/lobby?") {
				rows.Each(func(_ int, s *goquery.Selection) { seen[s.AttrOr("data-seek", "")] = true })
			}
		}
	}
	if len(seen) != total {
		t.Errorf("the pages list %d seeks in all, want %d", len(seen), total)
	}
	if n := me.get(fmt.Sprintf("/lobby?page=%d", pages+5)).Find("li[data-seek]").Length(); n != total-(pages-1)*lobby.SeeksPerPage {
		t.Errorf("a page past the last lists %d seeks, want the last page's", n)
	}
	if size := len(me.get("/lobby").Text()); size > 40_000 {
		t.Errorf("the lobby's page with %d seeks open is %d B of text", total, size)
	}

	a := newAPIT(t, e)
	var got struct {
		Seeks              []struct{ ID string }
		Page, Pages, Total int
	}
	r := a.do(http.MethodGet, "/api/seeks?page=2", "")
	if err := json.Unmarshal(r.body, &got); err != nil || r.code != http.StatusOK {
		t.Fatalf("GET /api/seeks?page=2: %d %s", r.code, r.body)
	}
	if len(got.Seeks) != lobby.SeeksPerPage || got.Page != 2 || got.Pages != pages || got.Total != total {
		t.Errorf("GET /api/seeks?page=2: %d seeks, page %d of %d, total %d; want %d, 2 of %d, %d",
			len(got.Seeks), got.Page, got.Pages, got.Total, lobby.SeeksPerPage, pages, total)
	}
	for _, q := range []string{"0", "x", "-1"} {
		if r := a.do(http.MethodGet, "/api/seeks?page="+q, ""); r.code != http.StatusBadRequest || !strings.Contains(string(r.body), "bad_page") {
			t.Errorf("GET /api/seeks?page=%s: %d %s, want 400 bad_page", q, r.code, r.body)
		}
	}
}
