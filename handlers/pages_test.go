package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/training"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
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

// newService is the services on st (a fresh memory store when nil), on
// a ticking clock, hashing passwords with cheap parameters (the format
// and checks are password.Default's), the lobby playing what main's does.
func newService(st testsite.Store, opts ...games.Option) Services {
	return newServiceWith(st, testsite.Config{Games: opts})
}

// newServiceWith is newService as c says (its clock, when it has one).
func newServiceWith(st testsite.Store, c testsite.Config) Services {
	if c.Now == nil {
		c.Now = ticker()
	}
	c.LobbyAsMain = true
	return servicesOf(testsite.New(st, c))
}

// plainService is the services on st, on the machine's clock.
func plainService(st testsite.Store) Services {
	return servicesOf(testsite.New(st, testsite.Config{}))
}

func servicesOf(s testsite.Site) Services {
	return Services{Games: s.Games, Players: s.Players, Lobby: s.Lobby, Analysis: s.Analysis, Chat: s.Chat, Relations: s.Relations, Moderation: s.Moderation, Challenges: s.Challenges, Notify: s.Notify}
}

// withTraining serves the lessons and puzzles with tr.
func withTraining(tr *training.Service) Option { return func(s *Server) { s.svc.Training = tr } }

// closer closes svc's services.
func closer(svc Services) func() {
	return func() {
		svc.Analysis.Close()
		svc.Games.Close()
	}
}

// issue gives a new anonymous player of svc a credential.
func issue(t testing.TB, svc Services) players.Credential {
	t.Helper()
	cred, _, err := svc.Players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// newServerOn serves everything Register adds, as main does, on the games
// kept in st.
func newServerOn(st testsite.Store, opts ...Option) *echo.Echo {
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
	host  string            // the Host the browser names; "": httptest's, example.com
	addr  string            // the address the browser sends from: "" for httptest's
}

func newClient(t *testing.T) *client { return newClientOn(t, newServer()) }

func newClientOn(t *testing.T, e *echo.Echo) *client {
	t.Helper()
	return &client{t: t, e: e, jar: map[string]*http.Cookie{}}
}

// session is a second browser on the same server: its own cookies.
func (c *client) session() *client {
	return &client{t: c.t, e: c.e, jar: map[string]*http.Cookie{}, host: c.host}
}

// tab is another tab of the same browser: the same cookies, on the same
// game until it goes elsewhere.
func (c *client) tab() *client {
	tab := &client{t: c.t, e: c.e, jar: c.jar, id: c.id, host: c.host}
	if c.shown != nil {
		tab.shown = copyDoc(c.t, c.shown)
	}
	return tab
}

// page is the address of the tab's game; path that of one of its forms.
func (c *client) page() string              { return kit.GamePath(c.id) }
func (c *client) path(action string) string { return kit.GamePath(c.id) + "/" + action }

// player is the browser's credential cookie, or nil.
func (c *client) player() *http.Cookie { return c.jar[kit.PlayerCookie] }

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
	if c.host != "" {
		req.Host = c.host
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
	if c.addr != "" {
		req.RemoteAddr = c.addr
	}
	return req
}

func (c *client) do(method, target string, form url.Values, hx bool) *httptest.ResponseRecorder {
	c.t.Helper()
	target, _, _ = strings.Cut(target, "#") // a browser keeps the fragment to itself
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

// start opens a game on this device, as the home page's "Play on this
// device" does (a hot-seat game, the browser's first when it has none),
// and returns the page.
func (c *client) start() *goquery.Document {
	c.t.Helper()
	c.id = ""
	d := c.post("/new", vals("mode", "hotseat"))
	if c.id == "" {
		c.t.Fatal("playing on this device led to no game")
	}
	return d
}

// lastGame opens the home page and returns the game its last game card
// leads to, "" when it shows none.
func (c *client) lastGame() string {
	c.t.Helper()
	return gameOf(c.get("/").Find("#last-game").AttrOr("href", ""))
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

// boardMark is the board's placed mark name (last), as its ply field
// carries it: "e2e4".
func boardMark(d *goquery.Document, name string) string {
	return d.Find("#board #board-ply").AttrOr("data-"+name, "")
}

// banDrawn is the ban the board frames ("e2e4"), from its arrow's squares
// (display columns and rows: a flipped board's run the other way), and
// "" when it draws none or draws it otherwise.
func banDrawn(d *goquery.Document) string {
	rects := d.Find("#board #ban-line rect")
	if rects.Length() != 2 || d.Find("#board #ban-line line[x1]").Length() != 1 {
		return ""
	}
	flipped := d.Find("#board").HasClass("flipped")
	var name string
	rects.Each(func(_ int, r *goquery.Selection) {
		x, _ := strconv.Atoi(r.AttrOr("x", ""))
		y, _ := strconv.Atoi(r.AttrOr("y", ""))
		file, rank := x, 7-y
		if flipped {
			file, rank = 7-x, y
		}
		name += string(rune('a'+file)) + strconv.Itoa(rank+1)
	})
	return name
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

// TestHotSeatStartsAGame: the home page's "Play on this device" starts a
// game the browser holds both seats of, at its own address.
func TestHotSeatStartsAGame(t *testing.T) {
	c := newClient(t)
	rec := c.do(http.MethodPost, "/new", vals("mode", "hotseat"), false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || gameOf(loc) == "" || loc != kit.GamePath(gameOf(loc)) {
		t.Fatalf("POST /new: %d to %q, want 303 to /g/{id}", rec.Code, loc)
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
	if got := text(d, "#status"); !strings.Contains(got, "Move 1 · Black bans a White move") {
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
	// The same game on reload.
	id := c.id
	if got := fen(c.get(c.page())); got != fen(d) || c.id != id {
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

const mateFEN = "rnbqkb1r/pppp1ppp/5n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 1"

func TestBadInput(t *testing.T) {
	big := strings.Repeat("x", kit.MaxBody+10)
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
			// An import is refused on the page that starts games, a plain
			// page whose forms do not use htmx.
			if hx == strings.Contains(rec.Body.String(), "<html") && target != "/import" {
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
	// A credential the server did not issue is replaced by one it
	// issues: GET / starts a game that one holds.
	other := c.session()
	other.jar[kit.PlayerCookie] = &http.Cookie{Name: kit.PlayerCookie, Value: "a-credential-nobody-knows"}
	d := other.start()
	if shownPly(d) != "1" || other.id == c.id || d.Find("#watching").Length() != 0 {
		t.Errorf("unknown credential: %q at %s", text(d, "#status"), other.id)
	}
	if other.player().Value == "a-credential-nobody-knows" {
		t.Error("an invented credential was kept")
	}
	other.post(other.path("ply"), vals("text", "e2e4"))
	// One that is not of our shape is replaced.
	bad := c.session()
	bad.jar[kit.PlayerCookie] = &http.Cookie{Name: kit.PlayerCookie, Value: strings.Repeat("x", 200)}
	bad.start()
	if ck := bad.player(); ck == nil || len(ck.Value) >= 200 {
		t.Errorf("an overlong credential was kept: %v", ck)
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
	v := pages.AssetVersion()
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
