package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/store"
)

// ticker returns a clock for the games service that moves on a millisecond
// each time it is read, from the tests' fixed time: every change is stamped
// with a time of its own, so a list of games, the most recently updated
// first, has one order.
func ticker() func() time.Time {
	var mu sync.Mutex
	t := apiClock()
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

// newService is a games service on st (a fresh memory store when nil), on
// a ticking clock.
func newService(st games.Store, opts ...games.Option) *games.Service {
	if st == nil {
		st = store.NewMemory()
	}
	return games.New(st, append([]games.Option{games.WithClock(ticker())}, opts...)...)
}

// newServerOn serves everything Register adds, as main does, on the games
// kept in st.
func newServerOn(st games.Store, opts ...Option) *echo.Echo {
	e := echo.New()
	New(newService(st), apiClock, opts...).Register(e)
	return e
}

func newServer() *echo.Echo { return newServerOn(nil) }

// client is one tab of a browser against a test server: it keeps the
// browser's cookies (jar, shared by the browser's tabs) and the game the
// tab is on (the last /g/{id} it was sent to or shown).
type client struct {
	t     *testing.T
	e     *echo.Echo
	jar   map[string]*http.Cookie
	id    string
	shown *goquery.Document // the game page the tab shows, as htmx leaves it; nil before one
}

func newClient(t *testing.T) *client { return newClientOn(t, newServer()) }

func newClientOn(t *testing.T, e *echo.Echo) *client {
	t.Helper()
	return &client{t: t, e: e, jar: map[string]*http.Cookie{}}
}

// session is a second browser on the same server: its own cookies.
func (c *client) session() *client { return &client{t: c.t, e: c.e, jar: map[string]*http.Cookie{}} }

// tab is another tab of the same browser: the same cookies, on the same
// game until it goes elsewhere.
func (c *client) tab() *client {
	tab := &client{t: c.t, e: c.e, jar: c.jar, id: c.id}
	if c.shown != nil {
		tab.shown = copyDoc(c.t, c.shown)
	}
	return tab
}

// page is the address of the tab's game; path that of one of its forms.
func (c *client) page() string              { return gamePath(c.id) }
func (c *client) path(action string) string { return gamePath(c.id) + "/" + action }

// player is the browser's credential cookie, or nil.
func (c *client) player() *http.Cookie { return c.jar[playerCookie] }

// gameOf returns the game id of a path or URL under /g/, or "".
func gameOf(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return ""
	}
	rest, ok := strings.CutPrefix(u.Path, "/g/")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, "/")
	return id
}

// request builds a request of the tab: form fields in the body, the
// same-origin header a browser sends with a POST, HX-Request for htmx, and
// the browser's cookies.
func (c *client) request(method, target string, form url.Values, hx bool) *http.Request {
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	if method == http.MethodPost {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	for _, ck := range c.jar {
		req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	return req
}

func (c *client) do(method, target string, form url.Values, hx bool) *httptest.ResponseRecorder {
	c.t.Helper()
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, c.request(method, target, form, hx))
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(c.jar, ck.Name)
		} else {
			c.jar[ck.Name] = ck
		}
	}
	switch {
	case gameOf(rec.Header().Get("Location")) != "":
		c.id = gameOf(rec.Header().Get("Location"))
	case gameOf(rec.Header().Get("HX-Push-Url")) != "":
		c.id = gameOf(rec.Header().Get("HX-Push-Url"))
	case rec.Code == http.StatusOK && method == http.MethodGet && gameOf(target) != "":
		c.id = gameOf(target)
	}
	if rec.Code >= 500 {
		c.t.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body)
	}
	return rec
}

// get loads a page, following redirects.
func (c *client) get(target string) *goquery.Document {
	c.t.Helper()
	rec := c.do(http.MethodGet, target, nil, false)
	for i := 0; rec.Code == http.StatusSeeOther && i < 3; i++ {
		rec = c.do(http.MethodGet, rec.Header().Get("Location"), nil, false)
	}
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
	}
	d := parse(c.t, rec)
	if d.Find("main#game").Length() == 1 {
		c.shown = parse(c.t, rec)
	}
	return d
}

// post submits a plain form and follows the redirect (Post/Redirect/Get).
func (c *client) post(target string, form url.Values) *goquery.Document {
	c.t.Helper()
	rec := c.do(http.MethodPost, target, form, false)
	if rec.Code != http.StatusSeeOther {
		c.t.Fatalf("POST %s %v: %d, want 303: %s", target, form, rec.Code, errorText(parse(c.t, rec)))
	}
	return c.get(rec.Header().Get("Location"))
}

// hxPost submits a form as htmx does and returns the page as the answer
// leaves it (see applySwaps), or the answer alone when the tab shows no
// game page.
func (c *client) hxPost(target string, form url.Values) *goquery.Document {
	c.t.Helper()
	rec := c.do(http.MethodPost, target, form, true)
	if rec.Code != http.StatusOK {
		c.t.Fatalf("hx POST %s %v: %d: %s", target, form, rec.Code, errorText(parse(c.t, rec)))
	}
	d := parse(c.t, rec)
	if d.Find("html body header").Length() > 0 || strings.Contains(rec.Body.String(), "<html") {
		c.t.Fatalf("hx POST %s returned a whole page", target)
	}
	if c.shown == nil {
		if rec.Header().Get("HX-Reswap") == "none" {
			c.t.Fatalf("hx POST %s answered a delta to a tab that shows no page", target)
		}
		return d
	}
	applySwaps(c.t, c.shown, rec)
	return copyDoc(c.t, c.shown)
}

// start opens the playground (GET /, which creates the browser's first
// game) and returns the page.
func (c *client) start() *goquery.Document {
	c.t.Helper()
	d := c.get("/")
	if c.id == "" {
		c.t.Fatal("GET / led to no game")
	}
	return d
}

func parse(t *testing.T, rec *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func text(d *goquery.Document, sel string) string {
	return strings.Join(strings.Fields(d.Find(sel).First().Text()), " ")
}

func errorText(d *goquery.Document) string {
	return text(d, "#error") + text(d, "#import-error")
}

func fen(d *goquery.Document) string { v, _ := d.Find("#fen").Attr("value"); return v }

// gameLinks lists the addresses of the "Your games" list of a page.
func gameLinks(d *goquery.Document) []string {
	var out []string
	d.Find("[data-game-link]").Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("href", "")) })
	return out
}

func vals(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func sq(d *goquery.Document, name string) *goquery.Selection {
	return d.Find(`#board [data-square="` + name + `"]`)
}

// destsOf returns where the piece on square name can go, as the board's
// ply field lists them (#board-ply's data-dests: "e2:e3,e4 g1:f3,h3"),
// joined by spaces; ok is false when it cannot be picked.
func destsOf(d *goquery.Document, name string) (dests string, ok bool) {
	for _, set := range strings.Fields(d.Find("#board-ply").AttrOr("data-dests", "")) {
		if from, to, _ := strings.Cut(set, ":"); from == name {
			return strings.ReplaceAll(to, ",", " "), true
		}
	}
	return "", false
}

func TestIndexStartsAGame(t *testing.T) {
	c := newClient(t)
	rec := c.do(http.MethodGet, "/", nil, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || gameOf(loc) == "" || loc != gamePath(gameOf(loc)) {
		t.Fatalf("GET /: %d to %q, want 303 to /g/{id}", rec.Code, loc)
	}
	ck := c.player()
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || len(ck.Value) < 40 || ck.MaxAge < 365*24*3600 {
		t.Fatalf("player cookie = %+v", ck)
	}
	if strings.Contains(ck.Value, c.id) || strings.Contains(loc, ck.Value) {
		t.Fatal("the credential and the public game id are related")
	}
	rec = c.do(http.MethodGet, loc, nil, false)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", loc, rec.Code)
	}
	if got := rec.Result().Cookies(); len(got) != 0 {
		t.Errorf("showing the game set cookies again: %v", got)
	}
	h := rec.Header()
	for _, name := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
		if h.Get(name) == "" {
			t.Errorf("missing header %s", name)
		}
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP = %q", csp)
	}
	d := parse(t, rec)
	if got := text(d, "#status"); !strings.Contains(got, "Ply 1 · Black bans a White move") {
		t.Errorf("status = %q", got)
	}
	if n := d.Find("#board button[data-square]").Length(); n != 64 {
		t.Errorf("%d square buttons, want 64", n)
	}
	if n := d.Find("#board [data-piece]").Length(); n != 32 {
		t.Errorf("%d pieces, want 32", n)
	}
	if l, _ := sq(d, "e2").Attr("aria-label"); l != "e2, white pawn" {
		t.Errorf("e2 label = %q", l)
	}
	if p, _ := sq(d, "e2").Find("[data-piece]").Attr("data-piece"); p != "wP" {
		t.Errorf("e2 piece = %q", p)
	}
	if dests, _ := destsOf(d, "e2"); dests != "e3 e4" {
		t.Errorf("e2 dests = %q (Black bans a White move)", dests)
	}
	if _, ok := destsOf(d, "e7"); ok {
		t.Error("at Black's ban, Black's own pieces are offered")
	}
	if d.Find("script:not([src])").Length() > 0 || d.Find("[style]").Length() > 0 {
		t.Error("inline script or style in the page")
	}
	d.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("inline handler %s", a.Key)
			}
		}
	})
	if d.Find(".status-bar.phase-ban").Length() != 1 {
		t.Error("ban phase not marked on #game")
	}
	// The creator holds both seats: the forms post under the game's address.
	if d.Find(`#board[action="`+c.path("select")+`"]`).Length() != 1 || d.Find(`form.typed[action="`+c.path("ply")+`"]`).Length() != 1 ||
		d.Find(`form[action="`+c.path("undo")+`"]`).Length() != 1 || d.Find(`#watching`).Length() != 0 {
		t.Error("the creator is not offered the game's forms")
	}
	if w := d.Find("[data-watch-link]").AttrOr("value", ""); w != "http://example.com"+c.page() {
		t.Errorf("watch link %q", w)
	}
	// The same game on reload, and at its address.
	id := c.id
	if got := fen(c.get("/")); got != fen(d) || c.id != id {
		t.Errorf("reload shows another game: %q at %s", got, c.id)
	}
}

func TestFragmentWithHXRequest(t *testing.T) {
	c := newClient(t)
	c.start()
	rec := c.do(http.MethodGet, c.page()+"?flip=1", nil, true)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "<html") {
		t.Fatalf("hx GET: %d, whole page: %v", rec.Code, strings.Contains(rec.Body.String(), "<html"))
	}
	d := parse(t, rec)
	if d.Find("main#game").Length() != 1 || d.Find(`#announce[hx-swap-oob]`).Length() != 1 {
		t.Error("fragment lacks #game or the out-of-band announcement")
	}
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("flipped board starts at %q, want h1", first)
	}
	if d.Find("[data-game-link]").Length() != 0 {
		t.Error("a fragment carries the list of games")
	}
}

func TestSelectWithoutJavaScript(t *testing.T) {
	c := newClient(t)
	c.start()
	rec := c.do(http.MethodPost, c.path("select"), vals("square", "g1", "from", ""), false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != c.page()+"?sel=g1" {
		t.Fatalf("select: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	d := c.get(c.page() + "?sel=g1")
	if !sq(d, "g1").HasClass("selected") {
		t.Error("g1 not selected")
	}
	for _, s := range []string{"f3", "h3"} {
		b := sq(d, s)
		if !b.HasClass("dest") || b.AttrOr("name", "") != "to" || b.AttrOr("formaction", "") != c.path("ply") {
			t.Errorf("%s is not a destination button: %v %q", s, b.AttrOr("class", ""), b.AttrOr("formaction", ""))
		}
	}
	if v, _ := d.Find(`#board input[name=from]`).Attr("value"); v != "g1" {
		t.Errorf("from = %q", v)
	}
	// Picking it again, or a square with nothing to do, clears it.
	for _, form := range []url.Values{vals("square", "g1", "from", "g1"), vals("square", "e5")} {
		rec = c.do(http.MethodPost, c.path("select"), form, false)
		if loc := rec.Header().Get("Location"); loc != c.page() {
			t.Errorf("select %v → %q, want %s", form, loc, c.page())
		}
	}
	// With htmx the fragment shows the selection at once.
	d = c.hxPost(c.path("select"), vals("square", "e2", "flip", "1"))
	if !sq(d, "e2").HasClass("selected") || !sq(d, "e4").HasClass("dest") {
		t.Error("hx select: no selection shown")
	}
	if d.Find(`#board input[name=flip][value="1"]`).Length() != 1 {
		t.Error("orientation not carried in the fragment's forms")
	}
}

func TestBanThenMove(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.start()
		post := c.post
		if hx {
			post = c.hxPost
		}
		d := post(c.path("ply"), vals("from", "e2", "to", "e4", "ply", "1"))
		if got := text(d, "#status"); !strings.Contains(got, "Ply 2 · White to move — e2→e4 is banned") {
			t.Errorf("hx=%v status = %q", hx, got)
		}
		if !sq(d, "e2").HasClass("ban-from") || !sq(d, "e4").HasClass("ban-to") || d.Find("svg.ban-arrow line[x1]").Length() != 1 {
			t.Errorf("hx=%v: ban not marked", hx)
		}
		if d.Find(".status-bar.phase-move").Length() != 1 {
			t.Errorf("hx=%v: move phase not marked", hx)
		}
		if dests, _ := destsOf(d, "e2"); dests != "e3" {
			t.Errorf("hx=%v: e2 dests = %q, want e3 (e4 banned)", hx, dests)
		}
		d = post(c.path("ply"), vals("from", "d2", "to", "d4", "ply", "2"))
		if got := text(d, "#status"); !strings.Contains(got, "Ply 3 · White bans a Black move") {
			t.Errorf("hx=%v status = %q", hx, got)
		}
		if !sq(d, "d2").HasClass("last-from") || !sq(d, "d4").HasClass("last-to") {
			t.Errorf("hx=%v: last move not marked", hx)
		}
		if hx {
			if got := text(d, "#announce"); got != "White played d4" {
				t.Errorf("announce = %q", got)
			}
		}
		hist := text(d, "#history")
		if !strings.Contains(hist, "1.") || !strings.Contains(hist, "e2–e4") || !strings.Contains(hist, "d4") ||
			strings.Index(hist, "e2–e4") > strings.Index(hist, "d4") {
			t.Errorf("hx=%v history = %q", hx, hist)
		}
		if n := d.Find("#history a[href^='" + c.path("history") + "/']").Length(); n != 3 {
			t.Errorf("hx=%v: %d history links, want 3 (start, ban, move)", hx, n)
		}
	}
}

func TestTypedActions(t *testing.T) {
	c := newClient(t)
	c.start()
	for _, step := range []struct{ text, status string }{
		{"e2e4", "Ply 2 · White to move — e2→e4 is banned"},
		{"Nf3", "Ply 3"},
		{"b:e7e5", "Ply 4"},
		{"M:D7D5", "Ply 5"}, // BCN in any case
		{"Nc3", "Ply 6"},    // SAN at a ban names the move to ban
	} {
		d := c.post(c.path("ply"), vals("text", step.text))
		if got := text(d, "#status"); !strings.Contains(got, step.status) {
			t.Errorf("after %s status = %q", step.text, got)
		}
	}
}

// TestTypedInputQuoted: a refusal quotes typed input as it was typed.
func TestTypedInputQuoted(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.start()
		c.post(c.path("ply"), vals("text", "e2e4")) // Black bans e2→e4
		before := fen(c.get(c.page()))
		for typed, want := range map[string]string{"e4": "e4 (e2e4) is banned", "e4+": "e4+ (e2e4) is banned", "e2e4": "e2e4 is banned", "m:e2e4": "e2e4 is banned"} {
			rec := c.do(http.MethodPost, c.path("ply"), vals("text", typed, "ply", "2"), hx)
			msg := errorText(parse(t, rec))
			if rec.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, want) {
				t.Errorf("hx=%v: banned %q: %d %q, want %q…", hx, typed, rec.Code, msg, want)
			}
			if strings.Contains(msg, "E4") || strings.Contains(msg, "E2e4") {
				t.Errorf("hx=%v: %q is quoted as %q", hx, typed, msg)
			}
		}
		if got := fen(c.get(c.page())); got != before {
			t.Errorf("hx=%v: a banned move changed the game: %q", hx, got)
		}
	}
}

const mateFEN = "rnbqkb1r/pppp1ppp/5n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 1"

func TestCheckmateByBanAndUndo(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.get("/?fen=" + url.QueryEscape(mateFEN))
		post := c.post
		if hx {
			post = c.hxPost
		}
		post(c.path("ply"), vals("from", "a2", "to", "a3"))
		d := post(c.path("ply"), vals("from", "c4", "to", "f7"))
		if !sq(d, "e8").HasClass("check") {
			t.Errorf("hx=%v: checked king not marked", hx)
		}
		d = post(c.path("ply"), vals("from", "e8", "to", "e7"))
		if got := text(d, "#banner"); got != "Checkmate by ban — White wins, 1-0" {
			t.Errorf("hx=%v banner = %q", hx, got)
		}
		if d.Find("#board-ply").AttrOr("data-dests", "") != "" || d.Find("#resign:disabled").Length() != 1 {
			t.Errorf("hx=%v: finished game still offers actions", hx)
		}
		if pgn := text(parse(t, c.do(http.MethodGet, c.path("export"), nil, true)), "#pgn"); !strings.Contains(pgn, "{banning: e8e7#} 1-0") {
			t.Errorf("hx=%v PGN = %q", hx, pgn)
		}
		rec := c.do(http.MethodPost, c.path("ply"), vals("from", "g8", "to", "h6"), hx)
		if rec.Code != http.StatusConflict || !strings.Contains(errorText(parse(t, rec)), "over") {
			t.Errorf("hx=%v: ply after the end: %d %q", hx, rec.Code, errorText(parse(t, rec)))
		}
		d = post(c.path("undo"), vals())
		if d.Find("#banner").Length() != 0 || !strings.Contains(text(d, "#status"), "Ply 3 · White bans a Black move") {
			t.Errorf("hx=%v after undo: banner %q, status %q", hx, text(d, "#banner"), text(d, "#status"))
		}
		if hx && !strings.HasPrefix(text(d, "#announce"), "Took back: White banned e8–e7") {
			t.Errorf("announce = %q", text(d, "#announce"))
		}
	}
}

func TestPromotionPicker(t *testing.T) {
	const promoFEN = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 1"
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.get("/?fen=" + url.QueryEscape(promoFEN))
		// A ban needs no piece: it removes all four promotions.
		rec := c.do(http.MethodPost, c.path("ply"), vals("from", "e1", "to", "d1"), hx)
		if rec.Code != http.StatusSeeOther && rec.Code != http.StatusOK {
			t.Fatalf("ban: %d", rec.Code)
		}
		var d *goquery.Document
		if hx {
			d = c.hxPost(c.path("ply"), vals("from", "e7", "to", "e8"))
		} else {
			rec := c.do(http.MethodPost, c.path("ply"), vals("from", "e7", "to", "e8"), false)
			if loc := rec.Header().Get("Location"); loc != c.page()+"?sel=e7&to=e8" {
				t.Fatalf("promotion redirect %d %q", rec.Code, loc)
			}
			d = c.get(rec.Header().Get("Location"))
		}
		if n := d.Find("#promotion [data-promotion]").Length(); n != 4 {
			t.Fatalf("hx=%v: %d promotion choices", hx, n)
		}
		if d.Find(`#promotion[action="`+c.path("ply")+`"]`).Length() != 1 {
			t.Errorf("hx=%v: the picker does not post to the game", hx)
		}
		if d.Find(`.board-wrap #promotion.col-4.top`).Length() != 1 || d.Find(`#promotion button`).First().AttrOr("data-promotion", "") != "q" {
			t.Errorf("hx=%v: the picker does not hang from e8, the queen first", hx)
		}
		if !strings.Contains(text(d, "#status"), "Ply 2") {
			t.Errorf("hx=%v: asking for a piece played something: %q", hx, text(d, "#status"))
		}
		if hx {
			d = c.hxPost(c.path("ply"), vals("from", "e7", "to", "e8", "promotion", "n"))
		} else {
			d = c.post(c.path("ply"), vals("from", "e7", "to", "e8", "promotion", "n"))
		}
		if p := sq(d, "e8").Find("[data-piece]").AttrOr("data-piece", ""); p != "wN" {
			t.Errorf("hx=%v: e8 holds %q, want wN", hx, p)
		}
	}
}

func TestBadInput(t *testing.T) {
	big := strings.Repeat("x", maxBody+10)
	for _, tc := range []struct {
		name, method, target string // target: a path under the game ("ply"), or from the root ("/new")
		form                 url.Values
		status               int
		msg                  string
	}{
		{"bad square", "POST", "select", vals("square", "z9"), 400, "not a square"},
		{"long square", "POST", "select", vals("square", "e44"), 400, "not a square"},
		{"no square", "POST", "select", vals(), 400, "no \"square\""},
		{"bad from", "POST", "ply", vals("from", "e", "to", "e4"), 400, "not a square"},
		{"no to", "POST", "ply", vals("from", "e2"), 400, "no \"to\""},
		{"bad promotion", "POST", "ply", vals("from", "e2", "to", "e4", "promotion", "x"), 400, "not a promotion piece"},
		{"illegal ban", "POST", "ply", vals("from", "e2", "to", "e5"), 422, "e2e5"},
		{"own piece ban", "POST", "ply", vals("from", "e7", "to", "e5"), 422, "e7e5"},
		{"illegal typed ban", "POST", "ply", vals("text", "Nf5"), 422, "Nf5"},
		{"bad typed", "POST", "ply", vals("text", "hello"), 400, "hello"},
		{"long typed", "POST", "ply", vals("text", strings.Repeat("e2e4", 10)), 400, "too long"},
		{"stale ply", "POST", "ply", vals("from", "e2", "to", "e4", "ply", "5"), 409, "out of date"},
		{"bad ply", "POST", "ply", vals("from", "e2", "to", "e4", "ply", "x"), 400, "not a ply"},
		{"nothing to undo", "POST", "undo", vals(), 409, "nothing to undo"},
		{"bad side", "POST", "resign", vals("side", "green"), 400, "not a side"},
		{"bad variant", "POST", "/new", vals("variant", "atomic"), 400, "atomic"},
		{"bad FEN", "POST", "/import", vals("text", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"), 400, "side to move"},
		{"bad PGN", "POST", "/import", vals("text", "1. e4 e5 2. Ke3 *"), 400, "Ke3"},
		{"empty import", "POST", "/import", vals("text", "  "), 400, "Paste a FEN or a PGN"},
		{"bad sel", "GET", "", nil, 400, "not a square"},
		{"oversize body", "POST", "/import", vals("text", big), 413, "256 KiB"},
	} {
		for _, hx := range []bool{false, true} {
			c := newClient(t)
			start := c.start()
			before, list := fen(start), gameLinks(start)
			target := tc.target
			switch {
			case tc.name == "bad sel":
				target = c.page() + "?sel=k9"
			case !strings.HasPrefix(target, "/"):
				target = c.path(target)
			case target == "/import":
				tc.form.Set("game", c.id) // the form says which game it was on
			}
			rec := c.do(tc.method, target, tc.form, hx)
			if rec.Code != tc.status {
				t.Errorf("%s hx=%v: status %d, want %d", tc.name, hx, rec.Code, tc.status)
				continue
			}
			d := parse(t, rec)
			if msg := errorText(d); !strings.Contains(msg, tc.msg) {
				t.Errorf("%s hx=%v: message %q lacks %q", tc.name, hx, msg, tc.msg)
			}
			if hx == strings.Contains(rec.Body.String(), "<html") {
				t.Errorf("%s hx=%v: page/fragment mix-up", tc.name, hx)
			}
			if loc := rec.Header().Get("Location") + rec.Header().Get("HX-Push-Url"); loc != "" {
				t.Errorf("%s hx=%v: a refusal sends the browser to %q", tc.name, hx, loc)
			}
			after := c.get(c.page())
			if got := fen(after); got != before {
				t.Errorf("%s hx=%v: game changed to %q", tc.name, hx, got)
			}
			if got := gameLinks(after); strings.Join(got, " ") != strings.Join(list, " ") {
				t.Errorf("%s hx=%v: games %v, were %v", tc.name, hx, got, list)
			}
		}
	}
	// A bad import posted from no game (or an unknown one) is explained on
	// a page of its own.
	c := newClient(t)
	for _, form := range []url.Values{vals("text", "nonsense"), vals("text", "nonsense", "game", "no-such-game")} {
		rec := c.do(http.MethodPost, "/import", form, false)
		if rec.Code >= 500 || rec.Code < 400 || errorText(parse(t, rec)) == "" {
			t.Errorf("import %v: %d %q", form, rec.Code, errorText(parse(t, rec)))
		}
	}
	if c.player() != nil {
		t.Error("a refused import gave the browser a credential")
	}
}

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

// TestUnknownGame: an address naming no game answers 404 and creates
// none; a credential nobody knows is simply a browser's first.
func TestUnknownGame(t *testing.T) {
	c := newClient(t)
	c.start()
	list := gameLinks(c.get(c.page()))
	for _, hx := range []bool{false, true} {
		for _, r := range []struct{ method, path string }{
			{"POST", "/g/no-such-game/ply"}, {"POST", "/g/no-such-game/select"}, {"POST", "/g/no-such-game/undo"},
			{"POST", "/g/no-such-game/resign"}, {"POST", "/g/no-such-game/draw"}, {"POST", "/g/no-such-game/hide"},
			{"GET", "/g/no-such-game"}, {"GET", "/g/no-such-game/pgn"}, {"GET", "/g/no-such-game/history/0"},
		} {
			rec := c.do(r.method, r.path, vals("from", "e2", "to", "e4", "square", "e2", "side", "white"), hx)
			d := parse(t, rec)
			if rec.Code != http.StatusNotFound || (r.path != "/g/no-such-game/pgn" && !strings.Contains(errorText(d), "no game")) {
				t.Errorf("hx=%v %s %s: %d %q", hx, r.method, r.path, rec.Code, errorText(d))
			}
			if hx == strings.Contains(rec.Body.String(), "<html") && r.path != "/g/no-such-game/pgn" {
				t.Errorf("hx=%v %s %s: page/fragment mix-up", hx, r.method, r.path)
			}
		}
	}
	if got := gameLinks(c.get(c.page())); strings.Join(got, " ") != strings.Join(list, " ") {
		t.Errorf("games %v, were %v", got, list)
	}
	// A credential nobody knows: GET / starts a game it holds.
	other := c.session()
	other.jar[playerCookie] = &http.Cookie{Name: playerCookie, Value: "a-credential-nobody-knows"}
	d := other.start()
	if !strings.Contains(text(d, "#status"), "Ply 1") || other.id == c.id || d.Find("#watching").Length() != 0 {
		t.Errorf("unknown credential: %q at %s", text(d, "#status"), other.id)
	}
	if other.player().Value != "a-credential-nobody-knows" {
		t.Error("a well-formed credential was replaced")
	}
	other.post(other.path("ply"), vals("text", "e2e4"))
	// One that is not of our shape is replaced.
	bad := c.session()
	bad.jar[playerCookie] = &http.Cookie{Name: playerCookie, Value: strings.Repeat("x", 200)}
	bad.start()
	if ck := bad.player(); ck == nil || len(ck.Value) >= 200 {
		t.Errorf("an overlong credential was kept: %v", ck)
	}
}

func TestImport(t *testing.T) {
	c := newClient(t)
	c.start()
	first := c.id
	d := c.post("/import", vals("text", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "variant", "ban", "game", c.id))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 3 · White bans a Black move") || c.id == first {
		t.Errorf("FEN import status = %q at %s", got, c.id)
	}
	d = c.post("/import", vals("text", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *"))
	if !strings.Contains(text(d, "#notice"), "no bans") || sq(d, "f3").Find("[data-piece]").AttrOr("data-piece", "") != "wN" {
		t.Errorf("chess PGN import: notice %q", text(d, "#notice"))
	}
	d = c.hxPost("/import", vals("text", "1. {banning: e2e4} d4 {banning: e7e5} d5 *"))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 5") || d.Find("#notice").Length() != 0 {
		t.Errorf("Ban Chess PGN import status = %q", got)
	}
	// A bad one keeps the text and the game it was posted from.
	before, games := fen(d), len(gameLinks(c.get(c.page())))
	rec := c.do(http.MethodPost, "/import", vals("text", "not a game at all", "game", c.id), false)
	d = parse(t, rec)
	if rec.Code != 400 || text(d, "#import-text") != "not a game at all" || fen(d) != before || text(d, "#import-error") == "" {
		t.Errorf("bad import: %d text %q fen %q error %q", rec.Code, text(d, "#import-text"), fen(d), text(d, "#import-error"))
	}
	if n := len(gameLinks(c.get(c.page()))); n != games {
		t.Errorf("a bad import left %d games, not %d", n, games)
	}
	d = c.get("/?fen=" + url.QueryEscape("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
	if !strings.Contains(text(d, "#status"), "Ply 1 · Black bans") {
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

func TestExportAndShareLink(t *testing.T) {
	c := newClient(t)
	c.get("/?fen=" + url.QueryEscape(mateFEN))
	c.post(c.path("ply"), vals("text", "a2a3"))
	c.post(c.path("ply"), vals("text", "Bxf7+"))
	c.post(c.path("resign"), vals("side", "black"))
	d := c.get("/")
	if got := text(d, "#banner"); got != "Black resigns — White wins, 1-0" {
		t.Errorf("banner = %q", got)
	}
	if d.Find("#pgn, #share").Length() != 0 || d.Find(`#show-export[href="`+c.page()+`?export=1"]`).Length() != 1 {
		t.Error("the page renders the PGN and share link, or no link to them")
	}
	// The link to them: the page again with them (no JavaScript), or the
	// panel's part that holds them (htmx).
	if rec := c.do(http.MethodGet, c.path("export"), nil, false); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != c.page()+"?export=1" {
		t.Errorf("GET export: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	rec := c.do(http.MethodGet, c.path("export"), nil, true)
	if fd := parse(t, rec); rec.Code != http.StatusOK || fd.Find("#export-more #pgn").Length() != 1 || fd.Find("#game").Length() != 0 {
		t.Errorf("hx GET export: %d %.300s", rec.Code, rec.Body.String())
	}
	d = c.get(c.page() + "?export=1")
	rec = c.do(http.MethodGet, c.path("pgn"), nil, false)
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-chess-pgn" {
		t.Errorf("PGN type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.Contains(cd, c.id+".pgn") {
		t.Errorf("PGN disposition %q", cd)
	}
	if body := rec.Body.String(); !strings.Contains(body, `[FEN "`+strings.TrimSuffix(mateFEN, " 1")) || !strings.Contains(body, "Bxf7+") {
		t.Errorf("PGN = %s", body)
	}
	if d.Find(`#download[href="`+c.path("pgn")+`"]`).Length() != 1 {
		t.Error("no download link to the game's PGN")
	}
	share, _ := d.Find("#share").Attr("value")
	u, err := url.Parse(share)
	if err != nil || u.Host == "" || u.Path != "/" {
		t.Fatalf("share link %q", share)
	}
	other := c.session()
	od := other.get(u.RequestURI())
	if fen(od) != fen(d) || text(od, "#history") != text(d, "#history") || text(od, "#banner") != text(d, "#banner") {
		t.Errorf("share link shows %q / %q, want %q / %q", fen(od), text(od, "#banner"), fen(d), text(d, "#banner"))
	}
	if other.id == c.id || other.player() == nil || other.player().Value == c.player().Value {
		t.Error("the share link reused the sharer's game or credential")
	}
	// It is the opener's own game: they may take the resignation back.
	if od = other.post(other.path("undo"), vals()); od.Find("#banner").Length() != 0 {
		t.Error("the opener of a share link cannot play it")
	}
	if got := text(c.get(c.page()), "#banner"); got != "Black resigns — White wins, 1-0" {
		t.Errorf("the sharer's game changed: %q", got)
	}
}

func TestControls(t *testing.T) {
	c := newClient(t)
	c.start()
	d := c.post(c.path("draw"), vals())
	if got := text(d, "#banner"); got != "Draw by agreement, 1/2-1/2" {
		t.Errorf("draw banner %q", got)
	}
	d = c.hxPost(c.path("undo"), vals())
	if d.Find("#banner").Length() != 0 {
		t.Error("undo did not withdraw the draw")
	}
	first := c.id
	d = c.hxPost("/new", vals("variant", "classic"))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 1 · White to move") || strings.Contains(got, "ban") || c.id == first {
		t.Errorf("classic status %q at %s", got, c.id)
	}
	if dests, _ := destsOf(d, "e2"); dests != "e3 e4" {
		t.Errorf("classic e2 dests %q", dests)
	}
	d = c.post("/new", vals("variant", "ban", "auto", "1"))
	// Auto-flip: Black bans first, so Black is at the bottom.
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("auto-flip at Black's ban starts at %q", first)
	}
	if d.Find("#autoflip[aria-checked=true]").Length() != 1 {
		t.Error("auto-flip not shown as on")
	}
	d = c.post(c.path("ply"), vals("text", "e2e4", "auto", "1"))
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "a8" {
		t.Errorf("auto-flip at White's move starts at %q", first)
	}
	flip, _ := d.Find("#flip").Attr("href")
	if gameOf(flip) != c.id {
		t.Errorf("flip link %q leaves the game", flip)
	}
	d = c.get(flip)
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("flip starts at %q", first)
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
		if rec.Code != http.StatusOK || id == "" || id == first || !strings.HasPrefix(push, gamePath(id)) {
			t.Fatalf("hx POST %s: %d, HX-Push-Url %q", tc.path, rec.Code, push)
		}
		if tc.path == "/new" && push != gamePath(id)+"?flip=1" {
			t.Errorf("HX-Push-Url %q drops the orientation", push)
		}
		body := rec.Body.String()
		d := parse(t, rec)
		if strings.Contains(body, "<html") || d.Find("main#game").Length() != 1 || d.Find(`#announce[hx-swap-oob]`).Length() != 1 {
			t.Errorf("hx POST %s: not the fragment", tc.path)
		}
		if d.Find(`form.typed[action="`+gamePath(id)+`/ply"]`).Length() != 1 || d.Find("[data-watch-link]").AttrOr("value", "") != "http://example.com"+gamePath(id) {
			t.Errorf("hx POST %s: the fragment is not the new game's", tc.path)
		}
		if rec.Header().Get("Location") != "" {
			t.Errorf("hx POST %s: Location %q", tc.path, rec.Header().Get("Location"))
		}
	}
	// The first game is as it was.
	if got := text(c.get(gamePath(first)), "#status"); !strings.Contains(got, "Ply 2") {
		t.Errorf("the first game: %q", got)
	}
}

func TestHistoryView(t *testing.T) {
	c := newClient(t)
	c.start()
	c.post(c.path("ply"), vals("text", "e2e4"))
	c.post(c.path("ply"), vals("text", "d4"))
	for _, hx := range []bool{false, true} {
		rec := c.do(http.MethodGet, c.path("history/1"), nil, hx)
		d := parse(t, rec)
		if rec.Code != 200 || d.Find("#board button").Length() != 0 || d.Find("#board [data-square]").Length() != 64 {
			t.Errorf("hx=%v: history view %d, buttons %d", hx, rec.Code, d.Find("#board button").Length())
		}
		if !strings.Contains(text(d, "#status"), "Black banned e2–e4") || !sq(d, "e4").HasClass("ban-to") {
			t.Errorf("hx=%v: caption %q", hx, text(d, "#status"))
		}
		if d.Find(".history-nav a[href='"+c.page()+"']").Length() != 1 || d.Find("#history a.current").Length() != 1 {
			t.Errorf("hx=%v: no way back or no current ply", hx)
		}
	}
	d := c.get(c.path("history/0"))
	if sq(d, "d2").Find("[data-piece]").Length() != 1 {
		t.Error("start view does not show the start position")
	}
	// Anyone with the address may look back.
	w := c.session()
	if d := w.get(c.path("history/2")); !strings.Contains(text(d, "#status"), "d4") {
		t.Errorf("watcher's history view: %q", text(d, "#status"))
	}
}

func TestStaticAssets(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		path, ctype string
		status      int
	}{
		{"/static/htmx.min.js", "javascript", 200},
		{"/static/board.js", "javascript", 200},
		{"/static/style.css", "text/css", 200},
		{"/static/pieces/wK.svg", "image/svg+xml", 200},
		{"/static/pieces/", "", 404},
		{"/static/nope.js", "", 404},
	} {
		rec := c.do(http.MethodGet, tc.path, nil, false)
		if rec.Code != tc.status || !strings.Contains(rec.Header().Get("Content-Type"), tc.ctype) {
			t.Errorf("%s: %d %q", tc.path, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
	v := assetVersion()
	rec := c.do(http.MethodGet, "/static/style.css?v="+v, nil, false)
	if !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("versioned asset cache %q", rec.Header().Get("Cache-Control"))
	}
}

func TestCrossOriginProtection(t *testing.T) {
	e := newServer()
	for _, tc := range []struct {
		name, path string
		header     map[string]string
		refused    bool
	}{
		{"cross-site form", "/new", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{"foreign origin", "/new", map[string]string{"Origin": "https://evil.example"}, true},
		{"same origin", "/new", map[string]string{"Sec-Fetch-Site": "same-origin"}, false},
		{"curl to the API", "/api/games", nil, false},
		{"cross-site to the API", "/api/games", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
	} {
		req := httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader("variant=ban"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if (rec.Code == http.StatusForbidden) != tc.refused {
			t.Errorf("%s: %d", tc.name, rec.Code)
		}
		if tc.refused && strings.HasPrefix(tc.path, "/api") && !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			t.Errorf("%s: API refusal is %q, not JSON", tc.name, rec.Header().Get("Content-Type"))
		}
	}
}

// Two tabs posting at once never interleave or lose a ply: every accepted
// ply is in the history.
func TestConcurrentPlies(t *testing.T) {
	c := newClient(t)
	c.start()
	actions := []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c1f4", "b:g8f6", "m:c8f5"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := 0
	for tab := 0; tab < 4; tab++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, a := range actions {
				for {
					form := vals("text", a, "ply", strconv.Itoa(i+1))
					req := c.request(http.MethodPost, c.path("ply"), form, false)
					rec := httptest.NewRecorder()
					c.e.ServeHTTP(rec, req)
					if rec.Code == http.StatusSeeOther {
						mu.Lock()
						accepted++
						mu.Unlock()
						break
					}
					if rec.Code != http.StatusConflict {
						t.Errorf("ply %d: %d", i+1, rec.Code)
						return
					}
					d, _ := goquery.NewDocumentFromReader(rec.Body)
					if now, _ := strconv.Atoi(d.Find("#status").AttrOr("data-ply", "")); now > i+1 {
						break // another tab played it
					}
				}
			}
		}()
	}
	wg.Wait()
	d := c.get(c.page())
	if accepted != len(actions) || !strings.Contains(text(d, "#status"), "Ply 9") {
		t.Errorf("accepted %d plies, status %q", accepted, text(d, "#status"))
	}
}

// TestENChessPage: an EN-Chess board has 66 squares; its promotion picker
// offers a king, an Auror and staying a pawn; a side in partial checkmate
// gets a Pass button, which plays the pass.
func TestENChessPage(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		d := c.post("/new", vals("variant", "en"))
		if n := d.Find("#board [data-square]").Length(); n != 66 {
			t.Errorf("hx=%v: %d squares, want 66", hx, n)
		}
		if p := sq(d, "x0").Find("[data-piece]").AttrOr("data-piece", ""); p != "wA" || !sq(d, "x0").HasClass("x-bottom") || !sq(d, "x9").HasClass("x-top") {
			t.Errorf("hx=%v: x0 holds %q, classes %q", hx, p, sq(d, "x0").AttrOr("class", ""))
		}

		ply := func(form url.Values) *goquery.Document {
			if hx {
				return c.hxPost(c.path("ply"), form)
			}
			return c.post(c.path("ply"), form)
		}
		choices := func(d *goquery.Document) (out []string) {
			d.Find("#promotion [data-promotion]").Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-promotion", "")) })
			return out
		}

		c.get("/?v=en&fen=" + url.QueryEscape("7k/3P3p/8/8/8/8/8/K7 w - - 0 1 --"))
		if got := choices(c.get(c.page() + "?sel=d7&to=d8")); !slices.Equal(got, []string{"k", "a", "p"}) {
			t.Errorf("hx=%v: promotion choices %v, want k a p", hx, got)
		}
		d = ply(vals("from", "d7", "to", "d8", "promotion", "p"))
		if p := sq(d, "d8").Find("[data-piece]").AttrOr("data-piece", ""); p != "wP" {
			t.Errorf("hx=%v: d8 holds %q, want the pawn that stayed", hx, p)
		}

		// A waiting pawn: promotion in place, or a capture onto x9 (no rook).
		c.get("/?v=en&fen=" + url.QueryEscape("3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n"))
		for to, want := range map[string][]string{"d8": {"q", "r", "b", "n", "k", "a"}, "x9": {"q", "b", "n", "k", "a"}} {
			if got := choices(c.get(c.page() + "?sel=d8&to=" + to)); !slices.Equal(got, want) {
				t.Errorf("hx=%v: d8 to %s offers %v, want %v", hx, to, got, want)
			}
		}
		d = ply(vals("from", "d8", "to", "x9", "promotion", "n"))
		if p := sq(d, "x9").Find("[data-piece]").AttrOr("data-piece", ""); p != "wN" {
			t.Errorf("hx=%v: x9 holds %q, want wN", hx, p)
		}

		c.get("/?v=en&fen=" + url.QueryEscape("7K/8/8/rr6/8/7k/8/K7 w - - 0 1 --"))
		d = c.get(c.page())
		if d.Find("#pass").Length() != 1 || !strings.Contains(text(d, "#game"), "Partial checkmate") {
			t.Fatalf("hx=%v: no Pass button in a partial checkmate", hx)
		}
		d = ply(vals("text", "--"))
		if !strings.Contains(text(d, "#status"), "Black to move") || d.Find("#pass").Length() != 0 {
			t.Errorf("hx=%v: after the pass: %q", hx, text(d, "#status"))
		}
	}
}
