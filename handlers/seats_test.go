package handlers

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// apiState is the API's view of game id, to compare before and after.
func (c *client) apiState(id string) []byte {
	c.t.Helper()
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/games/"+id, nil))
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET /api/games/%s: %d %s", id, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// actingForms lists the forms and buttons of d that would change game id:
// those posting to its ply, undo, resign or draw.
func actingForms(d *goquery.Document, id string) []string {
	var found []string
	d.Find("form, button, [hx-post]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"action", "formaction", "hx-post"} {
			v, ok := s.Attr(a)
			if !ok {
				continue
			}
			for _, act := range []string{"ply", "undo", "resign", "draw", "abort"} {
				if v == kit.GamePath(id)+"/"+act {
					found = append(found, a+"="+v)
				}
			}
		}
	})
	return found
}

// TestTabsKeepTheirGames: a game in one tab survives a share link, a FEN
// link, a new game or an import opened in another tab of the same browser;
// the first tab's next ply, posted with the ply it saw, lands on its own
// game.
func TestTabsKeepTheirGames(t *testing.T) {
	openers := []struct {
		name string
		open func(tab *client, share string)
	}{
		{"share link", func(tab *client, share string) { tab.get(share) }},
		{"fen link", func(tab *client, _ string) { tab.get("/?fen=" + url.QueryEscape("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) }},
		{"pgn link", func(tab *client, _ string) { tab.get("/?pgn=" + url.QueryEscape("1. d4 d5 *")) }},
		{"new game", func(tab *client, _ string) { tab.post("/new", vals("variant", "ban")) }},
		{"new game htmx", func(tab *client, _ string) { tab.hxPost("/new", vals("variant", "classic")) }},
		{"import", func(tab *client, _ string) {
			tab.post("/import", vals("text", "1. {banning: e2e4} d4 *", "game", tab.id))
		}},
	}
	for _, op := range openers {
		for _, hx := range []bool{false, true} {
			t.Run(op.name+map[bool]string{false: "", true: "/htmx"}[hx], func(t *testing.T) {
				first := newClient(t)
				first.start()
				first.post(first.path("ply"), vals("text", "e2e4", "ply", "1"))
				a, cred := first.id, first.player().Value
				share := first.get(first.page()+"?export=1").Find("#share").AttrOr("value", "")
				u, err := url.Parse(share)
				if err != nil || share == "" {
					t.Fatalf("share link %q", share)
				}

				second := first.tab()
				op.open(second, u.RequestURI())
				b := second.id
				if b == a || b == "" {
					t.Fatalf("the other tab is on game %q, the first on %q", b, a)
				}
				if first.player().Value != cred {
					t.Fatal("opening a game in another tab replaced the browser's credential")
				}
				bBefore := first.apiState(b)

				// The first tab plays on, from the page it has.
				var got *goquery.Document
				if hx {
					got = first.hxPost(first.path("ply"), vals("text", "d4", "ply", "2"))
				} else {
					rec := first.do(http.MethodPost, first.path("ply"), vals("text", "d4", "ply", "2"), false)
					if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != kit.GamePath(a) {
						t.Fatalf("the first tab's ply: %d to %q: %s", rec.Code, rec.Header().Get("Location"), errorText(parse(t, rec)))
					}
					got = first.get(rec.Header().Get("Location"))
				}
				if first.id != a || !strings.Contains(text(got, "#status"), "Move 1 · White bans a Black move") || !strings.Contains(text(got, "#history"), "d4") {
					t.Errorf("the first tab's game after its ply: %s %q", first.id, text(got, "#status"))
				}
				if !bytes.Equal(first.apiState(b), bBefore) {
					t.Error("the first tab's ply changed the other tab's game")
				}
				// Both are the browser's; the one played last comes first, and
				// is the home page's last game.
				list := gameLinks(first.get(kit.GamePath(b)))
				if len(list) != 2 || list[0] != kit.GamePath(a) || list[1] != kit.GamePath(b) {
					t.Errorf("games %v, want [%s %s]", list, kit.GamePath(a), kit.GamePath(b))
				}
				if got := first.lastGame(); got != a {
					t.Errorf("the home page's last game is %q, want the game played last, %s", got, a)
				}
			})
		}
	}
}

// TestWatchLink: the game's public address, opened by another browser,
// shows it read-only, and that browser's posts change nothing.
func TestWatchLink(t *testing.T) {
	owner := newClient(t)
	owner.start()
	d := owner.post(owner.path("ply"), vals("text", "e2e4"))
	id := owner.id
	watch := d.Find("[data-watch-link]").AttrOr("value", "")
	u, err := url.Parse(watch)
	if err != nil || u.Host == "" || u.Path != kit.GamePath(id) || u.RawQuery != "" {
		t.Fatalf("watch link %q", watch)
	}
	if f := actingForms(d, id); len(f) < 3 {
		t.Fatalf("the owner's page has only %v", f)
	}

	// A browser that has never been here, and one with games of its own.
	stranger := owner.session()
	player := owner.session()
	player.start()
	theirs := player.id
	for _, w := range []*client{stranger, player} {
		for _, hx := range []bool{false, true} {
			rec := w.do(http.MethodGet, u.RequestURI(), nil, hx)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", u.RequestURI(), rec.Code)
			}
			wd := parse(t, rec)
			if fen(wd) != fen(d) || text(wd, "#history") != text(d, "#history") {
				t.Errorf("hx=%v: the watcher sees %q, the owner %q", hx, fen(wd), fen(d))
			}
			if f := actingForms(wd, id); len(f) != 0 {
				t.Errorf("hx=%v: the watcher is offered %v", hx, f)
			}
			if wd.Find("#board button, #action-text, #promotion").Length() != 0 || wd.Find("#watching").Length() != 1 {
				t.Errorf("hx=%v: the watcher's board is not read-only", hx)
			}
			if wd.Find("[data-watch-link]").AttrOr("value", "") != watch {
				t.Errorf("hx=%v: the watcher's page has no watch link", hx)
			}
			if slices.Contains(gameLinks(wd), kit.GamePath(id)) {
				t.Errorf("hx=%v: the watched game is in the watcher's list", hx)
			}
		}
		if w == stranger && w.player() != nil {
			t.Error("watching gave the browser a credential")
		}

		before := owner.apiState(id)
		for _, hx := range []bool{false, true} {
			for _, p := range []struct {
				action string
				form   url.Values
			}{
				{"ply", vals("from", "d2", "to", "d4", "ply", "2")},
				{"ply", vals("text", "d4")},
				{"undo", vals()},
				{"resign", vals("side", "white")},
				{"resign", vals("side", "black")},
				{"draw", vals()},
			} {
				rec := w.do(http.MethodPost, kit.GamePath(id)+"/"+p.action, p.form, hx)
				wd := parse(t, rec)
				if rec.Code != http.StatusForbidden || !strings.Contains(errorText(wd), "only its players") {
					t.Errorf("hx=%v: the watcher's %s %v: %d %q", hx, p.action, p.form, rec.Code, errorText(wd))
				}
				if hx == strings.Contains(rec.Body.String(), "<html") {
					t.Errorf("hx=%v: %s: page/fragment mix-up", hx, p.action)
				}
				if f := actingForms(wd, id); len(f) != 0 {
					t.Errorf("hx=%v: the refusal offers the watcher %v", hx, f)
				}
				if after := owner.apiState(id); !bytes.Equal(after, before) {
					t.Fatalf("hx=%v: the watcher's %s changed the game:\n%s\n%s", hx, p.action, before, after)
				}
			}
			// Hiding a game one does not hold is refused too; selecting
			// selects nothing.
			if rec := w.do(http.MethodPost, kit.GamePath(id)+"/hide", vals(), hx); rec.Code != http.StatusForbidden {
				t.Errorf("hx=%v: the watcher's hide: %d", hx, rec.Code)
			}
			if !hx {
				rec := w.do(http.MethodPost, kit.GamePath(id)+"/select", vals("square", "d2"), false)
				if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != kit.GamePath(id) {
					t.Errorf("the watcher's select: %d %q", rec.Code, rec.Header().Get("Location"))
				}
			}
			if after := owner.apiState(id); !bytes.Equal(after, before) {
				t.Fatalf("hx=%v: the watcher changed the game:\n%s\n%s", hx, before, after)
			}
		}
	}
	// The owner's list is as it was, the other player's own game too, and
	// the owner plays on.
	if list := gameLinks(owner.get(kit.GamePath(id))); len(list) != 1 || list[0] != kit.GamePath(id) {
		t.Errorf("the owner's games: %v", list)
	}
	if list := gameLinks(player.get(kit.GamePath(theirs))); len(list) != 1 || list[0] != kit.GamePath(theirs) {
		t.Errorf("the other browser's games: %v", list)
	}
	if d := owner.post(kit.GamePath(id)+"/ply", vals("text", "d4", "ply", "2")); shownPly(d) != "3" {
		t.Errorf("the owner after the watchers: %q", text(d, "#status"))
	}
}

// TestGameList: a full page lists the browser's games, the one played
// last first; hiding one removes it from the list, not from its address.
func TestGameList(t *testing.T) {
	c := newClient(t)
	c.start()
	a := c.id
	c.post("/new", vals("variant", "classic"))
	b := c.id
	d := c.get(kit.GamePath(b))
	if list := gameLinks(d); len(list) != 2 || list[0] != kit.GamePath(b) || list[1] != kit.GamePath(a) {
		t.Fatalf("games %v, want [%s %s]", list, kit.GamePath(b), kit.GamePath(a))
	}
	if cur := d.Find("li.current [data-game-link]").AttrOr("href", ""); cur != kit.GamePath(b) {
		t.Errorf("current game %q", cur)
	}
	d.Find("[data-game-link]").Each(func(_ int, s *goquery.Selection) {
		href := s.AttrOr("href", "")
		form := s.Parent().Find("form")
		if form.AttrOr("action", "") != href+"/hide" || form.AttrOr("method", "") != "post" || form.Find(`input[name=back]`).AttrOr("value", "") != b {
			t.Errorf("the hide form of %s: action %q", href, form.AttrOr("action", ""))
		}
	})
	if !strings.Contains(text(d, ".game-list"), "Classic") || !strings.Contains(text(d, ".game-list"), "Ban Chess") {
		t.Errorf("the list says %q", text(d, ".game-list"))
	}
	// Playing the first game puts it first.
	c.post(kit.GamePath(a)+"/ply", vals("text", "e2e4"))
	if list := gameLinks(c.get(kit.GamePath(b))); len(list) != 2 || list[0] != kit.GamePath(a) || list[1] != kit.GamePath(b) {
		t.Errorf("after a ply in %s, games %v", a, list)
	}
	// Fragments carry no list.
	if rec := c.do(http.MethodPost, kit.GamePath(b)+"/ply", vals("text", "e4"), true); strings.Contains(rec.Body.String(), "data-game-link") {
		t.Error("a fragment carries the list of games")
	}

	// Hide b from a's page: back to a's page, without b.
	rec := c.do(http.MethodPost, kit.GamePath(b)+"/hide", vals("back", a), false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != kit.GamePath(a) {
		t.Fatalf("hide: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if list := gameLinks(c.get(kit.GamePath(a))); len(list) != 1 || list[0] != kit.GamePath(a) {
		t.Errorf("after hiding %s, games %v", b, list)
	}
	// b is still there, and still the browser's to play.
	d = c.get(kit.GamePath(b))
	if !strings.Contains(text(d, "#status"), "Move 1 · Black to move") || len(actingForms(d, b)) == 0 || d.Find("#watching").Length() != 0 {
		t.Errorf("the hidden game: %q, forms %v", text(d, "#status"), actingForms(d, b))
	}
	if list := gameLinks(d); len(list) != 1 || list[0] != kit.GamePath(a) {
		t.Errorf("the hidden game's page lists %v", list)
	}
	if c.post(kit.GamePath(b)+"/ply", vals("text", "e5")); c.id != b {
		t.Errorf("playing the hidden game went to %s", c.id)
	}
	// Hiding is once: again changes nothing, and a back naming nothing
	// useful goes to /.
	for _, back := range []string{"", b, "../x", "/evil", "no-such-game"} {
		rec := c.do(http.MethodPost, kit.GamePath(b)+"/hide", vals("back", back), false)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
			t.Errorf("hide with back %q: %d %q", back, rec.Code, rec.Header().Get("Location"))
		}
	}
	// With every game hidden, the home page offers none, and a new one
	// is the only one listed.
	c.do(http.MethodPost, kit.GamePath(a)+"/hide", vals("back", a), false)
	if got := c.lastGame(); got != "" {
		t.Errorf("the home page with every game hidden offers %s", got)
	}
	if c.start(); c.id == a || c.id == b {
		t.Errorf("a new game with every game hidden is %s", c.id)
	}
	if list := gameLinks(c.get(c.page())); len(list) != 1 || list[0] != c.page() {
		t.Errorf("games %v", list)
	}
}

// storeLegacy stores a game as it was kept before games had seats: no one
// holds it.
func storeLegacy(t *testing.T, st *store.Memory, actions ...string) string {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, "", actions)
	if err != nil {
		t.Fatal(err)
	}
	rec := &games.Record{Game: g, Created: apiClock(), Updated: apiClock()}
	if err := st.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// TestLegacyCookie: the old cookie, which named the browser's one game,
// gives that browser the game's seats, once, and is dropped.
func TestLegacyCookie(t *testing.T) {
	st := store.NewMemory()
	e := newServerOn(st)
	id := storeLegacy(t, st, "b:e2e4")

	c := newClientOn(t, e)
	c.jar[kit.LegacyCookie] = &http.Cookie{Name: kit.LegacyCookie, Value: id}
	rec := c.do(http.MethodGet, "/", nil, false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != kit.GamePath(id) {
		t.Fatalf("GET / with the old cookie: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	set := map[string]*http.Cookie{}
	for _, ck := range rec.Result().Cookies() {
		set[ck.Name] = ck
	}
	if ck := set[kit.LegacyCookie]; ck == nil || ck.MaxAge >= 0 || ck.Value != "" || ck.Path != "/" {
		t.Errorf("the old cookie is not dropped: %+v", ck)
	}
	if ck := set[kit.PlayerCookie]; ck == nil || !ck.HttpOnly || len(ck.Value) < 40 {
		t.Fatalf("no credential: %+v", ck)
	}
	d := c.get(c.page())
	if !strings.Contains(text(d, "#status"), "Move 1 · White to move") || d.Find("#watching").Length() != 0 || len(actingForms(d, id)) == 0 {
		t.Fatalf("the claimed game: %q, forms %v", text(d, "#status"), actingForms(d, id))
	}
	if list := gameLinks(d); len(list) != 1 || list[0] != kit.GamePath(id) {
		t.Errorf("games %v", list)
	}
	d = c.post(c.path("ply"), vals("text", "d4", "ply", "2"))
	if shownPly(d) != "3" || c.id != id {
		t.Errorf("playing the claimed game: %q", text(d, "#status"))
	}
	d = c.post(c.path("undo"), vals())
	if shownPly(d) != "2" {
		t.Errorf("undo in the claimed game: %q", text(d, "#status"))
	}

	// Another browser with the same old cookie (copied, say) gets nothing
	// of it: the game is held now.
	other := newClientOn(t, e)
	other.jar[kit.LegacyCookie] = &http.Cookie{Name: kit.LegacyCookie, Value: id}
	other.get("/")
	other.start()
	if other.id == id || other.jar[kit.LegacyCookie] != nil {
		t.Errorf("a second claim: on %s, old cookie %v", other.id, other.jar[kit.LegacyCookie])
	}
	before := c.apiState(id)
	if rec := other.do(http.MethodPost, kit.GamePath(id)+"/ply", vals("text", "d4"), false); rec.Code != http.StatusForbidden {
		t.Errorf("the second claimant's ply: %d", rec.Code)
	}
	if !bytes.Equal(c.apiState(id), before) {
		t.Error("the second claimant changed the game")
	}

	// A browser that has games already adds the old one to them.
	b := newClientOn(t, e)
	b.start()
	mine := b.id
	old := storeLegacy(t, st)
	b.jar[kit.LegacyCookie] = &http.Cookie{Name: kit.LegacyCookie, Value: old}
	cred := b.player().Value
	if b.get("/"); b.id != old || b.player().Value != cred || b.jar[kit.LegacyCookie] != nil {
		t.Errorf("claim with a credential: on %s (want %s), credential kept %v", b.id, old, b.player().Value == cred)
	}
	if list := gameLinks(b.get(b.page())); len(list) != 2 || !slices.Contains(list, kit.GamePath(mine)) || !slices.Contains(list, kit.GamePath(old)) {
		t.Errorf("games %v", list)
	}

	// An old cookie naming no game, or nothing that could be one, is
	// dropped by the home page, and a game may be started from there.
	for _, v := range []string{"no-such-game", strings.Repeat("x", 100), "../" + id} {
		gone := newClientOn(t, e)
		gone.jar[kit.LegacyCookie] = &http.Cookie{Name: kit.LegacyCookie, Value: v}
		if home := gone.get("/"); home.Find("#home-hotseat").Length() != 1 {
			t.Errorf("old cookie %q: the home page offers no game on this device", v)
		}
		if d := gone.start(); gone.jar[kit.LegacyCookie] != nil || gone.player() == nil || gone.id == id || shownPly(d) != "1" {
			t.Errorf("old cookie %q: %q on %s, old cookie %v", v, text(d, "#status"), gone.id, gone.jar[kit.LegacyCookie])
		}
	}
}
