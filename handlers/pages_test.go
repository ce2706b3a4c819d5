package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/store"
)

// client is a browser session against a test server: it keeps the cookie.
type client struct {
	t      *testing.T
	e      *echo.Echo
	cookie *http.Cookie
}

func newServer() *echo.Echo {
	e := echo.New()
	New(store.NewMemory(), func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }).Register(e)
	return e
}

func newClient(t *testing.T) *client {
	t.Helper()
	return &client{t: t, e: newServer()}
}

// session is a second browser on the same server.
func (c *client) session() *client { return &client{t: c.t, e: c.e} }

func (c *client) do(method, target string, form url.Values, hx bool) *httptest.ResponseRecorder {
	c.t.Helper()
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
	if c.cookie != nil {
		req.AddCookie(c.cookie)
	}
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == sessionCookie {
			c.cookie = ck
		}
	}
	if rec.Code >= 500 {
		c.t.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body)
	}
	return rec
}

func (c *client) get(target string) *goquery.Document {
	c.t.Helper()
	rec := c.do(http.MethodGet, target, nil, false)
	if rec.Code == http.StatusSeeOther {
		rec = c.do(http.MethodGet, rec.Header().Get("Location"), nil, false)
	}
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
	}
	return parse(c.t, rec)
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

// hxPost submits a form as htmx does and returns the fragment.
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

func TestIndexStartsAGame(t *testing.T) {
	c := newClient(t)
	rec := c.do(http.MethodGet, "/", nil, false)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /: %d", rec.Code)
	}
	ck := c.cookie
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Value == "" {
		t.Fatalf("session cookie = %+v", ck)
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
	if dests, _ := sq(d, "e2").Attr("data-dests"); dests != "e3 e4" {
		t.Errorf("e2 dests = %q (Black bans a White move)", dests)
	}
	if _, ok := sq(d, "e7").Attr("data-dests"); ok {
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
	if d.Find(".game.phase-ban").Length() != 1 {
		t.Error("ban phase not marked on #game")
	}
	// The same game on reload.
	if got := fen(c.get("/")); got != fen(d) {
		t.Errorf("reload shows another game: %q", got)
	}
}

func TestFragmentWithHXRequest(t *testing.T) {
	c := newClient(t)
	c.get("/")
	rec := c.do(http.MethodGet, "/?flip=1", nil, true)
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
}

func TestSelectWithoutJavaScript(t *testing.T) {
	c := newClient(t)
	c.get("/")
	rec := c.do(http.MethodPost, "/select", vals("square", "g1", "from", ""), false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/?sel=g1" {
		t.Fatalf("select: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	d := c.get("/?sel=g1")
	if !sq(d, "g1").HasClass("selected") {
		t.Error("g1 not selected")
	}
	for _, s := range []string{"f3", "h3"} {
		b := sq(d, s)
		if !b.HasClass("dest") || b.AttrOr("name", "") != "to" || b.AttrOr("formaction", "") != "/ply" {
			t.Errorf("%s is not a destination button: %v", s, b.AttrOr("class", ""))
		}
	}
	if v, _ := d.Find(`#board input[name=from]`).Attr("value"); v != "g1" {
		t.Errorf("from = %q", v)
	}
	// Picking it again, or a square with nothing to do, clears it.
	for _, form := range []url.Values{vals("square", "g1", "from", "g1"), vals("square", "e5")} {
		rec = c.do(http.MethodPost, "/select", form, false)
		if loc := rec.Header().Get("Location"); loc != "/" {
			t.Errorf("select %v → %q, want /", form, loc)
		}
	}
	// With htmx the fragment shows the selection at once.
	d = c.hxPost("/select", vals("square", "e2", "flip", "1"))
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
		c.get("/")
		post := c.post
		if hx {
			post = c.hxPost
		}
		d := post("/ply", vals("from", "e2", "to", "e4", "ply", "1"))
		if got := text(d, "#status"); !strings.Contains(got, "Ply 2 · White to move — e2→e4 is banned") {
			t.Errorf("hx=%v status = %q", hx, got)
		}
		if !sq(d, "e2").HasClass("ban-from") || !sq(d, "e4").HasClass("ban-to") || d.Find("svg.ban-arrow line").Length() != 1 {
			t.Errorf("hx=%v: ban not marked", hx)
		}
		if d.Find(".game.phase-move").Length() != 1 {
			t.Errorf("hx=%v: move phase not marked", hx)
		}
		if dests, _ := sq(d, "e2").Attr("data-dests"); dests != "e3" {
			t.Errorf("hx=%v: e2 dests = %q, want e3 (e4 banned)", hx, dests)
		}
		d = post("/ply", vals("from", "d2", "to", "d4", "ply", "2"))
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
		if n := d.Find("#history a[href^='/history/']").Length(); n != 3 {
			t.Errorf("hx=%v: %d history links, want 3 (start, ban, move)", hx, n)
		}
	}
}

func TestTypedActions(t *testing.T) {
	c := newClient(t)
	c.get("/")
	for _, step := range []struct{ text, status string }{
		{"e2e4", "Ply 2 · White to move — e2→e4 is banned"},
		{"Nf3", "Ply 3"},
		{"b:e7e5", "Ply 4"},
		{"m:d7d5", "Ply 5"},
	} {
		d := c.post("/ply", vals("text", step.text))
		if got := text(d, "#status"); !strings.Contains(got, step.status) {
			t.Errorf("after %s status = %q", step.text, got)
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
		post("/ply", vals("from", "a2", "to", "a3"))
		d := post("/ply", vals("from", "c4", "to", "f7"))
		if !sq(d, "e8").HasClass("check") {
			t.Errorf("hx=%v: checked king not marked", hx)
		}
		d = post("/ply", vals("from", "e8", "to", "e7"))
		if got := text(d, "#banner"); got != "Checkmate by ban — White wins, 1-0" {
			t.Errorf("hx=%v banner = %q", hx, got)
		}
		if d.Find("#board [data-dests]").Length() != 0 || d.Find("#resign:disabled").Length() != 1 {
			t.Errorf("hx=%v: finished game still offers actions", hx)
		}
		if pgn := text(d, "#pgn"); !strings.Contains(pgn, "{banning: e8e7#} 1-0") {
			t.Errorf("hx=%v PGN = %q", hx, pgn)
		}
		rec := c.do(http.MethodPost, "/ply", vals("from", "g8", "to", "h6"), hx)
		if rec.Code != http.StatusBadRequest || !strings.Contains(errorText(parse(t, rec)), "over") {
			t.Errorf("hx=%v: ply after the end: %d %q", hx, rec.Code, errorText(parse(t, rec)))
		}
		d = post("/undo", vals())
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
		rec := c.do(http.MethodPost, "/ply", vals("from", "e1", "to", "d1"), hx)
		if rec.Code != http.StatusSeeOther && rec.Code != http.StatusOK {
			t.Fatalf("ban: %d", rec.Code)
		}
		var d *goquery.Document
		if hx {
			d = c.hxPost("/ply", vals("from", "e7", "to", "e8"))
		} else {
			rec := c.do(http.MethodPost, "/ply", vals("from", "e7", "to", "e8"), false)
			if loc := rec.Header().Get("Location"); loc != "/?sel=e7&to=e8" {
				t.Fatalf("promotion redirect %d %q", rec.Code, loc)
			}
			d = c.get(rec.Header().Get("Location"))
		}
		if n := d.Find("#promotion [data-promotion]").Length(); n != 4 {
			t.Fatalf("hx=%v: %d promotion choices", hx, n)
		}
		if !strings.Contains(text(d, "#status"), "Ply 2") {
			t.Errorf("hx=%v: asking for a piece played something: %q", hx, text(d, "#status"))
		}
		if hx {
			d = c.hxPost("/ply", vals("from", "e7", "to", "e8", "promotion", "n"))
		} else {
			d = c.post("/ply", vals("from", "e7", "to", "e8", "promotion", "n"))
		}
		if p := sq(d, "e8").Find("[data-piece]").AttrOr("data-piece", ""); p != "wN" {
			t.Errorf("hx=%v: e8 holds %q, want wN", hx, p)
		}
	}
}

func TestBadInput(t *testing.T) {
	big := strings.Repeat("x", maxBody+10)
	for _, tc := range []struct {
		name, method, target string
		form                 url.Values
		status               int
		msg                  string
	}{
		{"bad square", "POST", "/select", vals("square", "z9"), 400, "not a square"},
		{"long square", "POST", "/select", vals("square", "e44"), 400, "not a square"},
		{"no square", "POST", "/select", vals(), 400, "no \"square\""},
		{"bad from", "POST", "/ply", vals("from", "e", "to", "e4"), 400, "not a square"},
		{"no to", "POST", "/ply", vals("from", "e2"), 400, "no \"to\""},
		{"bad promotion", "POST", "/ply", vals("from", "e2", "to", "e4", "promotion", "k"), 400, "not a promotion piece"},
		{"illegal ban", "POST", "/ply", vals("from", "e2", "to", "e5"), 400, "e2e5"},
		{"own piece ban", "POST", "/ply", vals("from", "e7", "to", "e5"), 400, "e7e5"},
		{"bad typed", "POST", "/ply", vals("text", "hello"), 400, "hello"},
		{"long typed", "POST", "/ply", vals("text", strings.Repeat("e2e4", 10)), 400, "too long"},
		{"stale ply", "POST", "/ply", vals("from", "e2", "to", "e4", "ply", "5"), 409, "out of date"},
		{"bad ply", "POST", "/ply", vals("from", "e2", "to", "e4", "ply", "x"), 400, "not a ply"},
		{"nothing to undo", "POST", "/undo", vals(), 400, "Nothing to undo"},
		{"bad side", "POST", "/resign", vals("side", "green"), 400, "not a side"},
		{"bad variant", "POST", "/new", vals("variant", "atomic"), 400, "atomic"},
		{"bad FEN", "POST", "/import", vals("text", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"), 400, "side to move"},
		{"bad PGN", "POST", "/import", vals("text", "1. e4 e5 2. Ke3 *"), 400, "Ke3"},
		{"empty import", "POST", "/import", vals("text", "  "), 400, "Paste a FEN or a PGN"},
		{"bad sel", "GET", "/?sel=k9", nil, 400, "not a square"},
		{"oversize body", "POST", "/import", vals("text", big), 413, "256 KiB"},
	} {
		for _, hx := range []bool{false, true} {
			c := newClient(t)
			before := fen(c.get("/"))
			rec := c.do(tc.method, tc.target, tc.form, hx)
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
			if tc.status != 413 {
				if got := fen(c.get("/")); got != before {
					t.Errorf("%s hx=%v: game changed to %q", tc.name, hx, got)
				}
			}
		}
	}
}

func TestBadLinks(t *testing.T) {
	for _, target := range []string{
		"/?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"),
		"/?fen=",
		"/?pgn=" + url.QueryEscape("1. e4 e5 2. Qxf7 *"),
		"/?a=b:e2e5",
		"/?a=b:e2e4&end=nobody",
		"/?v=atomic&a=",
		"/history/x",
	} {
		c := newClient(t)
		rec := c.do(http.MethodGet, target, nil, false)
		d := parse(t, rec)
		if rec.Code != http.StatusBadRequest || errorText(d) == "" || d.Find("a[href='/']").Length() == 0 {
			t.Errorf("GET %s: %d %q", target, rec.Code, errorText(d))
		}
	}
	c := newClient(t)
	c.get("/")
	if rec := c.do(http.MethodGet, "/history/9", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("history of a missing ply: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/nowhere", nil, false); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "Page not found") {
		t.Errorf("unknown page: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/api/nowhere", nil, false); rec.Code != http.StatusNotFound || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("unknown API path: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

func TestUnknownSession(t *testing.T) {
	for _, hx := range []bool{false, true} {
		c := newClient(t)
		c.cookie = &http.Cookie{Name: sessionCookie, Value: "no-such-game"}
		rec := c.do(http.MethodPost, "/ply", vals("from", "e2", "to", "e4"), hx)
		d := parse(t, rec)
		if rec.Code != http.StatusBadRequest || !strings.Contains(errorText(d), "no game") {
			t.Errorf("hx=%v: %d %q", hx, rec.Code, errorText(d))
		}
		if c.cookie.Value == "no-such-game" || !strings.Contains(text(d, "#status"), "Ply 1") {
			t.Errorf("hx=%v: no fresh game started", hx)
		}
		// A GET with a stale cookie simply starts a new game.
		c.cookie = &http.Cookie{Name: sessionCookie, Value: "gone"}
		if d := c.get("/"); !strings.Contains(text(d, "#status"), "Ply 1") {
			t.Errorf("stale cookie GET: %q", text(d, "#status"))
		}
	}
	c := newClient(t)
	if rec := c.do(http.MethodGet, "/game.pgn", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("PGN without a game: %d", rec.Code)
	}
	if rec := c.do(http.MethodGet, "/history/0", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("history without a game: %d", rec.Code)
	}
}

func TestImport(t *testing.T) {
	c := newClient(t)
	c.get("/")
	d := c.post("/import", vals("text", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "variant", "ban"))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 3 · White bans a Black move") {
		t.Errorf("FEN import status = %q", got)
	}
	d = c.post("/import", vals("text", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *"))
	if !strings.Contains(text(d, "#notice"), "no bans") || sq(d, "f3").Find("[data-piece]").AttrOr("data-piece", "") != "wN" {
		t.Errorf("chess PGN import: notice %q", text(d, "#notice"))
	}
	d = c.hxPost("/import", vals("text", "1. {banning: e2e4} d4 {banning: e7e5} d5 *"))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 5") || d.Find("#notice").Length() != 0 {
		t.Errorf("Ban Chess PGN import status = %q", got)
	}
	// A bad one keeps the text and the game.
	before := fen(d)
	rec := c.do(http.MethodPost, "/import", vals("text", "not a game at all"), false)
	d = parse(t, rec)
	if rec.Code != 400 || text(d, "#import-text") != "not a game at all" || fen(d) != before || text(d, "#import-error") == "" {
		t.Errorf("bad import: %d text %q fen %q error %q", rec.Code, text(d, "#import-text"), fen(d), text(d, "#import-error"))
	}
	d = c.get("/?fen=" + url.QueryEscape("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
	if !strings.Contains(text(d, "#status"), "Ply 1 · Black bans") {
		t.Errorf("/?fen= status %q", text(d, "#status"))
	}
	d = c.get("/?pgn=" + url.QueryEscape("1. d4 d5 *"))
	if !strings.Contains(text(d, "#notice"), "no bans") {
		t.Errorf("/?pgn= notice %q", text(d, "#notice"))
	}
}

func TestExportAndShareLink(t *testing.T) {
	c := newClient(t)
	c.get("/?fen=" + url.QueryEscape(mateFEN))
	c.post("/ply", vals("text", "a2a3"))
	d := c.post("/ply", vals("text", "Bxf7+"))
	c.post("/resign", vals("side", "black"))
	d = c.get("/")
	if got := text(d, "#banner"); got != "Black resigns — White wins, 1-0" {
		t.Errorf("banner = %q", got)
	}
	rec := c.do(http.MethodGet, "/game.pgn", nil, false)
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-chess-pgn" {
		t.Errorf("PGN type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.Contains(cd, ".pgn") {
		t.Errorf("PGN disposition %q", cd)
	}
	if body := rec.Body.String(); !strings.Contains(body, `[FEN "`+strings.TrimSuffix(mateFEN, " 1")) || !strings.Contains(body, "Bxf7+") {
		t.Errorf("PGN = %s", body)
	}
	share, _ := d.Find("#share").Attr("value")
	u, err := url.Parse(share)
	if err != nil || u.Host == "" {
		t.Fatalf("share link %q", share)
	}
	other := c.session()
	od := other.get(u.RequestURI())
	if fen(od) != fen(d) || text(od, "#history") != text(d, "#history") || text(od, "#banner") != text(d, "#banner") {
		t.Errorf("share link shows %q / %q, want %q / %q", fen(od), text(od, "#banner"), fen(d), text(d, "#banner"))
	}
	if other.cookie.Value == c.cookie.Value {
		t.Error("the share link reused the sharer's game")
	}
}

func TestControls(t *testing.T) {
	c := newClient(t)
	c.get("/")
	d := c.post("/draw", vals())
	if got := text(d, "#banner"); got != "Draw by agreement, 1/2-1/2" {
		t.Errorf("draw banner %q", got)
	}
	d = c.hxPost("/undo", vals())
	if d.Find("#banner").Length() != 0 {
		t.Error("undo did not withdraw the draw")
	}
	d = c.hxPost("/new", vals("variant", "classic"))
	if got := text(d, "#status"); !strings.Contains(got, "Ply 1 · White to move") || strings.Contains(got, "ban") {
		t.Errorf("classic status %q", got)
	}
	if dests, _ := sq(d, "e2").Attr("data-dests"); dests != "e3 e4" {
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
	d = c.post("/ply", vals("text", "e2e4", "auto", "1"))
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "a8" {
		t.Errorf("auto-flip at White's move starts at %q", first)
	}
	flip, _ := d.Find("#flip").Attr("href")
	d = c.get(flip)
	if first, _ := d.Find("#board [data-square]").First().Attr("data-square"); first != "h1" {
		t.Errorf("flip starts at %q", first)
	}
}

func TestHistoryView(t *testing.T) {
	c := newClient(t)
	c.get("/")
	c.post("/ply", vals("text", "e2e4"))
	c.post("/ply", vals("text", "d4"))
	for _, hx := range []bool{false, true} {
		rec := c.do(http.MethodGet, "/history/1", nil, hx)
		d := parse(t, rec)
		if rec.Code != 200 || d.Find("#board button").Length() != 0 || d.Find("#board [data-square]").Length() != 64 {
			t.Errorf("hx=%v: history view %d, buttons %d", hx, rec.Code, d.Find("#board button").Length())
		}
		if !strings.Contains(text(d, "#status"), "Black banned e2–e4") || !sq(d, "e4").HasClass("ban-to") {
			t.Errorf("hx=%v: caption %q", hx, text(d, "#status"))
		}
		if d.Find(".history-nav a[href='/']").Length() != 1 || d.Find("#history a.current").Length() != 1 {
			t.Errorf("hx=%v: no way back or no current ply", hx)
		}
	}
	d := c.get("/history/0")
	if sq(d, "d2").Find("[data-piece]").Length() != 1 {
		t.Error("start view does not show the start position")
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
	c.get("/")
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
					req := httptest.NewRequest(http.MethodPost, "/ply", strings.NewReader(form.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					req.AddCookie(c.cookie)
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
					if now, _ := strconv.Atoi(d.Find("#game").AttrOr("data-ply", "")); now > i+1 {
						break // another tab played it
					}
				}
			}
		}()
	}
	wg.Wait()
	d := c.get("/")
	if accepted != len(actions) || !strings.Contains(text(d, "#status"), "Ply 9") {
		t.Errorf("accepted %d plies, status %q", accepted, text(d, "#status"))
	}
}
