package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
)

// navigate opens target as a browser does when following a link: with the
// Fetch metadata of a navigation, and any more headers given (name, value).
func (c *client) navigate(target string, header ...string) *httptest.ResponseRecorder {
	c.t.Helper()
	req := c.request(http.MethodGet, target, nil, false)
	req.Header.Set("Sec-Fetch-Mode", "navigate")
	req.Header.Set("Sec-Fetch-Dest", "document")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		c.jar[ck.Name] = ck
	}
	if loc := gameOf(rec.Header().Get("Location")); loc != "" {
		c.id = loc
	}
	return rec
}

// join opens the invite link and takes the free seat with the page's
// button, as a person does; it returns the button's answer.
func (c *client) join(invite string) *httptest.ResponseRecorder {
	c.t.Helper()
	d := parse(c.t, c.navigate(invite))
	code, ok := d.Find(`form.join input[name="invite"]`).Attr("value")
	if !ok {
		c.t.Fatalf("the invite page has no button to take the seat: %q", text(d, "#table"))
	}
	u, _ := url.Parse(invite)
	return c.do(http.MethodPost, u.Path+"/join", vals("invite", code), false)
}

// inviteGame starts a game with a friend from the page: the creator plays
// color; it returns the creator and the invite link's path and query.
func inviteGame(t *testing.T, e *echo.Echo, color, clock string) (*client, string) {
	t.Helper()
	creator := newClientOn(t, e)
	d := creator.post("/new", vals("mode", "invite", "color", color, "variant", "ban", "clock", clock))
	link, ok := d.Find("[data-invite-link]").Attr("value")
	if !ok || !strings.Contains(link, "?invite=") {
		t.Fatalf("the creator's page has no invite link: %q", link)
	}
	if d.Find("[data-watch-link]").Length() == 0 {
		t.Fatal("the creator's page has no watch link")
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return creator, u.RequestURI()
}

// refreshes reports whether a page reloads itself without JavaScript.
func refreshes(d *goquery.Document) bool {
	return strings.Contains(d.Find("head noscript").Text(), `http-equiv="refresh"`)
}

func TestInviteSeatsOnPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "5+3")
	id := white.id

	friend := newClientOn(t, e)
	rec := friend.join(invite)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != kit.GamePath(id) {
		t.Fatalf("the friend taking the seat: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	d := friend.get(kit.GamePath(id))
	if !strings.Contains(text(d, `[data-player="black"]`), "(you)") || !d.Find("#board").HasClass("flipped") {
		t.Fatalf("the friend is not seated as Black, seeing the board from Black's side: %q", text(d, "#table"))
	}
	if pgn := string(friend.apiState(id)); !strings.Contains(pgn, `[TimeControl \"300+3\"]`) {
		t.Errorf("the PGN of a 5+3 game has no TimeControl tag: %s", pgn)
	}
	if d.Find(`[data-clock="white"]`).AttrOr("data-running", "") != "false" || d.Find(`[data-clock="black"]`).AttrOr("data-running", "") != "false" {
		t.Fatal("after the join no clock should run: each side has its first action to make")
	}
	if refreshes(d) {
		t.Fatal("Black, who acts, has a page that reloads itself")
	}
	// White waits: the page reloads itself without JavaScript, and offers
	// no board to act on.
	w := white.get(kit.GamePath(id))
	if !refreshes(w) || !slices.Equal(actingForms(w, id), []string{"action=" + kit.GamePath(id) + "/abort", "hx-post=" + kit.GamePath(id) + "/abort"}) { // only abort: no side has acted
		t.Fatalf("White's waiting page: refresh %v, acting forms %v", refreshes(w), actingForms(w, id))
	}
	if w.Find("[data-invite-link]").Length() != 0 {
		t.Fatal("the invite link is still shown once the seat is taken")
	}

	// A third browser gets the game to watch, told the seats are taken.
	third := newClientOn(t, e)
	rec = third.navigate(invite)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Both seats of this game are taken") {
		t.Fatalf("a third browser opening the invite: %d %s", rec.Code, errorText(parse(t, rec)))
	}
	if forms := actingForms(parse(t, rec), id); len(forms) != 0 {
		t.Fatalf("the third browser may act: %v", forms)
	}
	before := third.apiState(id)
	if r := third.do(http.MethodPost, kit.GamePath(id)+"/ply", vals("text", "b:e2e4", "ply", "1"), false); r.Code != http.StatusForbidden {
		t.Fatalf("the third browser's ply: %d", r.Code)
	}
	if r := third.do(http.MethodPost, kit.GamePath(id)+"/offer", vals("offer", "draw"), false); r.Code != http.StatusForbidden && r.Code != http.StatusUnauthorized {
		t.Fatalf("the third browser's offer: %d", r.Code)
	}
	if string(third.apiState(id)) != string(before) {
		t.Fatal("the third browser changed the game")
	}

	// Black bans; now White acts and Black waits.
	friend.post(kit.GamePath(id)+"/ply", vals("text", "e2e4", "ply", "1"))
	if pgn := string(friend.apiState(id)); !strings.Contains(pgn, `{banning: e2e4} {[%clk 0:05:00]}`) {
		t.Errorf("the PGN has no clock time after the ban: %s", pgn)
	}
	if w := white.get(kit.GamePath(id)); refreshes(w) {
		t.Fatal("White's page reloads itself at White's turn")
	}
	if d := friend.get(kit.GamePath(id)); !refreshes(d) {
		t.Fatal("Black's page does not reload itself while White acts")
	}
}

// TestInviteLinkTakesNoSeat: loading the invite link never takes the
// seat — not a link preview (no Fetch metadata), a prefetch (Sec-Purpose)
// or a headless browser, all of which load it as a person would; only the
// page's button does.
func TestInviteLinkTakesNoSeat(t *testing.T) {
	e := newServer()
	creator, invite := inviteGame(t, e, "black", "")
	for _, h := range [][]string{
		nil,
		{"Sec-Fetch-User", "?1", "Upgrade-Insecure-Requests", "1"},
		{"Sec-Purpose", "prefetch"},
		{"Sec-Purpose", "prefetch;prerender"},
		{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36"},
	} {
		visitor := newClientOn(t, e)
		rec := visitor.navigate(invite, h...)
		if rec.Code != http.StatusOK || parse(t, rec).Find("#join").Length() != 1 {
			t.Fatalf("opening the invite link with %q: %d, and no button to take the seat", h, rec.Code)
		}
	}
	if creator.get(kit.GamePath(creator.id)).Find("[data-invite-link]").Length() != 1 {
		t.Fatal("loading the invite link took the seat")
	}
	preview := newClientOn(t, e)
	// A link preview (no Fetch metadata) must not take the seat.
	d := preview.get(invite)
	if d.Find("#join").Length() != 1 {
		t.Fatal("the invite page without navigation metadata has no join button")
	}
	code := d.Find(`input[name="invite"]`).AttrOr("value", "")
	friend := newClientOn(t, e)
	if again := friend.get(invite); again.Find("#join").Length() != 1 {
		t.Fatal("a preview took the seat")
	}
	d = friend.post(kit.GamePath(preview.id)+"/join", vals("invite", code))
	if !strings.Contains(text(d, `[data-player="white"]`), "(you)") {
		t.Fatalf("the join button did not seat the friend as White: %q", text(d, "#table"))
	}
	if r := preview.do(http.MethodPost, kit.GamePath(preview.id)+"/join", vals("invite", "wrong"), false); r.Code != http.StatusForbidden {
		t.Fatalf("a wrong invite code: %d", r.Code)
	}
}

func TestOffersOnPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	id := white.id
	black := newClientOn(t, e)
	black.join(invite)
	// A takeback is offered only to a player who has played: as the
	// service would refuse it (games.Permissions).
	if d := black.get(kit.GamePath(id)); d.Find("#offer-takeback").AttrOr("disabled", "x") == "x" {
		t.Fatal("Black, who has played nothing, may ask to take back")
	}
	black.post(kit.GamePath(id)+"/ply", vals("text", "e2e4", "ply", "1"))
	if d := black.get(kit.GamePath(id)); d.Find("#offer-takeback").AttrOr("disabled", "x") == "x" {
		t.Fatal("Black, who has only banned, may ask to take back: a takeback returns to a move")
	}
	if d := white.get(kit.GamePath(id)); d.Find("#offer-takeback").AttrOr("disabled", "x") == "x" {
		t.Fatal("White, who has played nothing, may ask to take back")
	}
	white.post(kit.GamePath(id)+"/ply", vals("text", "d4", "ply", "2"))

	// A takeback, asked with htmx and accepted without.
	d := white.hxPost(kit.GamePath(id)+"/offer", vals("offer", "takeback"))
	if d.Find("#offer-takeback").AttrOr("disabled", "x") == "x" {
		t.Fatal("the asker's takeback button is not shown as asked")
	}
	d = black.get(kit.GamePath(id))
	if d.Find("#accept-takeback").Length() != 1 {
		t.Fatal("the opponent is not asked to accept the takeback")
	}
	d = black.post(kit.GamePath(id)+"/answer", vals("offer", "takeback", "accept", "yes"))
	if shownPly(d) != "2" {
		t.Fatalf("after the takeback: %q", text(d, "#status"))
	}
	// Back before White's first move: no draw to offer, no resigning,
	// the game can be aborted; White's move again, and each may.
	if d := white.get(kit.GamePath(id)); !d.Find("#offer-draw").Is("[disabled]") || d.Find("#resign").Length() != 0 || d.Find("#abort").Length() != 1 {
		t.Fatal("before White's first move, White may offer a draw or resign, or may not abort")
	}
	white.post(kit.GamePath(id)+"/ply", vals("text", "d4", "ply", "2"))
	if d := white.get(kit.GamePath(id)); d.Find("#offer-draw").Length() != 1 || d.Find("#offer-draw").Is("[disabled]") || d.Find("#resign").Length() != 1 || d.Find("#abort").Length() != 0 {
		t.Fatal("once each side has acted, White may not offer a draw or resign, or may abort")
	}

	// A draw offered, declined, offered again and accepted.
	white.post(kit.GamePath(id)+"/offer", vals("offer", "draw"))
	black.post(kit.GamePath(id)+"/answer", vals("offer", "draw", "accept", "no"))
	if d := white.get(kit.GamePath(id)); d.Find("#offer-draw").AttrOr("disabled", "") != "" {
		t.Fatal("a declined draw offer still shows as made")
	}
	white.post(kit.GamePath(id)+"/offer", vals("offer", "draw"))
	d = black.post(kit.GamePath(id)+"/answer", vals("offer", "draw", "accept", "yes"))
	if !strings.Contains(text(d, "#banner"), "Draw by agreement") {
		t.Fatalf("after the accepted draw: %q", text(d, "#banner"))
	}

	// A rematch: offered by White, accepted by Black, who goes to it.
	white.post(kit.GamePath(id)+"/offer", vals("offer", "rematch"))
	if d := white.get(kit.GamePath(id)); !refreshes(d) {
		t.Fatal("the player waiting for a rematch answer has no reloading page")
	}
	rec := black.do(http.MethodPost, kit.GamePath(id)+"/answer", vals("offer", "rematch", "accept", "yes"), false)
	next := gameOf(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || next == "" || next == id {
		t.Fatalf("accepting the rematch: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	d = black.get(kit.GamePath(next))
	if !strings.Contains(text(d, `[data-player="white"]`), "(you)") {
		t.Fatal("in the rematch the old Black is not White")
	}
	if w := white.get(kit.GamePath(id)); w.Find("#rematch-link").AttrOr("href", "") != kit.GamePath(next) || w.Find("#table").AttrOr("data-rematch", "") != kit.GamePath(next) {
		t.Fatal("the old game's page does not lead to the rematch")
	}
}

func TestOfferRefusals(t *testing.T) {
	e := newServer()
	white, _ := inviteGame(t, e, "white", "")
	id := white.id
	hot := newClientOn(t, e)
	hot.start()
	for _, tt := range []struct {
		name   string
		c      *client
		path   string
		form   url.Values
		status int
		says   string
	}{
		{"unknown offer", white, kit.GamePath(id) + "/offer", vals("offer", "pizza"), 400, "not an offer"},
		{"bad answer", white, kit.GamePath(id) + "/answer", vals("offer", "draw", "accept", "maybe"), 400, "not an answer"},
		{"no offer to answer", white, kit.GamePath(id) + "/answer", vals("offer", "draw", "accept", "yes"), 409, "no draw offer"},
		{"rematch before the end", white, kit.GamePath(id) + "/offer", vals("offer", "rematch"), 409, "once the game is over"},
		{"takeback of nothing", white, kit.GamePath(id) + "/offer", vals("offer", "takeback"), 409, "nothing to take back"},
		{"hot seat", hot, hot.path("offer"), vals("offer", "draw"), 400, "two players"},
		{"bad invite form", white, "/new", vals("mode", "invite", "color", "green"), 400, "not a colour"},
		{"bad clock", white, "/new", vals("mode", "invite", "clock", "forever"), 400, "not a clock"},
		{"bad mode", white, "/new", vals("mode", "tournament"), 400, "not a way to play"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := white.apiState(id)
			rec := tt.c.do(http.MethodPost, tt.path, tt.form, false)
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), tt.says) {
				t.Fatalf("%d, want %d saying %q: %s", rec.Code, tt.status, tt.says, errorText(parse(t, rec)))
			}
			if string(white.apiState(id)) != string(before) {
				t.Fatal("a refusal changed the game")
			}
		})
	}
}
