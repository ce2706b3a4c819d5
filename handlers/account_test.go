package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/store"
)

// secret is the password of the tests' players: a test looks for it
// wherever it must not be.
const secret = "s3cret-horse-battery"

// register names the browser's player through the account page.
func (c *client) register(name string) {
	c.t.Helper()
	rec := c.do(http.MethodPost, "/account", vals("name", name, "password", secret), false)
	if rec.Code == http.StatusSeeOther {
		rec = c.do(http.MethodGet, rec.Header().Get("Location"), nil, false)
	}
	d := parse(c.t, rec)
	if got := d.Find("#account-name").AttrOr("data-name", ""); got != name {
		c.t.Fatalf("after choosing %s the account page names %q: %s", name, got, errorText(d))
	}
}

// TestAccountDevices: a player names themselves on one device and signs
// in on a second, which holds their seats and lists their games; signing
// out on one device leaves the other signed in; signing out everywhere
// ends both.
func TestAccountDevices(t *testing.T) {
	e := newServer()
	phone := newClientOn(t, e)
	phone.start()
	game := phone.id
	if d := phone.get("/account"); d.Find(`form[action="/account"] input[name="password"]`).Length() != 1 {
		t.Fatal("an anonymous player's account page has no form to choose a name")
	}
	phone.register("Ann")

	laptop := phone.session()
	d := laptop.post("/login", vals("name", "ann", "password", secret))
	if d.Find("#account-name").AttrOr("data-name", "") != "Ann" {
		t.Fatalf("signed in, the account page says %q", text(d, "main"))
	}
	// The second device lists the player's game, and plays in it.
	if list := gameLinks(laptop.get("/new")); !slices.Contains(list, kit.GamePath(game)) {
		t.Errorf("the second device's games are %v, not the player's game %s", list, game)
	}
	laptop.get(kit.GamePath(game))
	laptop.post(laptop.path("ply"), vals("text", "b:e2e4"))
	if d := phone.get(kit.GamePath(game)); !strings.Contains(text(d, "#status"), "Move 1 · White to move") {
		t.Errorf("the second device's ply did not land: %q", text(d, "#status"))
	}

	// Signing out here leaves the other device signed in.
	rec := laptop.do(http.MethodPost, "/logout", vals(), false)
	if rec.Code != http.StatusSeeOther || laptop.player() != nil {
		t.Fatalf("signing out: %d, cookie %v", rec.Code, laptop.player())
	}
	if phone.get("/account").Find("#account-name").Length() != 1 {
		t.Error("signing out one device signed out the other")
	}
	phone.id = game
	phone.post(phone.path("ply"), vals("text", "d4"))

	// Everywhere: the other device too.
	tablet := phone.session()
	tablet.post("/login", vals("name", "Ann", "password", secret))
	old := *phone.player()
	phone.do(http.MethodPost, "/logout/everywhere", vals(), false)
	tablet.id = game
	if rec := tablet.do(http.MethodPost, tablet.path("ply"), vals("text", "b:e7e5"), false); rec.Code != http.StatusForbidden {
		t.Errorf("a device signed out everywhere played: %d", rec.Code)
	}
	stale := phone.session()
	stale.jar[kit.PlayerCookie] = &old
	if stale.get("/account").Find("#account-name").Length() != 0 {
		t.Error("a credential signed out everywhere still names its player")
	}
}

// TestAccountRefusals: the form comes back with the reason, and the name
// typed, for names against the rules, reserved, taken or like one taken
// (issue 45, item 9), and short passwords.
func TestAccountRefusals(t *testing.T) {
	e := newServer()
	first := newClientOn(t, e)
	first.register("Taken_1")
	c := newClientOn(t, e)
	for _, f := range []struct {
		name, pw string
		status   int
		says     string
	}{
		{"TAKEN_1", secret, http.StatusConflict, "taken"},
		{"x", secret, http.StatusBadRequest, "2 to 20"},
		{"admin", secret, http.StatusBadRequest, "reserved"},
		{"administrator", secret, http.StatusBadRequest, "reserved"},
		{"--", secret, http.StatusBadRequest, "a letter or a digit"},
		{"TAKEN_I", secret, http.StatusConflict, "looks too much like Taken_1"},
		{"bad name!", secret, http.StatusBadRequest, "letters"},
		{"Fine", "short", http.StatusBadRequest, "8 characters"},
	} {
		rec := c.do(http.MethodPost, "/account", vals("name", f.name, "password", f.pw), false)
		d := parse(t, rec)
		if rec.Code != f.status || !strings.Contains(text(d, "#account-error"), f.says) || d.Find(`input[name="name"]`).AttrOr("value", "") != f.name {
			t.Errorf("%q: %d %q", f.name, rec.Code, text(d, "#account-error"))
		}
		if strings.Contains(rec.Body.String(), f.pw) && f.pw != "" && len(f.pw) > 4 {
			t.Errorf("%q: the page shows the password", f.name)
		}
	}
}

// TestLoginLimit: five failed sign-ins for a name from an address, then
// 429 with Retry-After from there, even with the right password; the page
// and the API alike; a name that does not exist fails as a wrong password
// does.
func TestLoginLimit(t *testing.T) {
	e := newServer()
	newClientOn(t, e).register("Ann")
	c := newClientOn(t, e)
	for i := range 5 {
		rec := c.do(http.MethodPost, "/login", vals("name", "Ann", "password", "wrong password "+string(rune('a'+i))), false)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(text(parse(t, rec), "#account-error"), "wrong") {
			t.Fatalf("failed login %d: %d", i+1, rec.Code)
		}
	}
	rec := c.do(http.MethodPost, "/login", vals("name", "Ann", "password", secret), false)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("the sixth login: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	a := newAPIT(t, e)
	a.fail(a.do(http.MethodPost, "/api/token", `{"name":"Ann","password":"`+secret+`"}`), 429, "too_many_logins")
	a.fail(a.do(http.MethodPost, "/api/token", `{"name":"Nobody","password":"whatever1"}`), 401, "bad_login")
}

// TestLoginDevices (issue 45, item 6): wrong passwords from one address
// leave the owner signing in from another; once the name's ceiling is
// reached from many addresses, the owner's browser that signed in before
// (its device cookie) still signs in, a new browser is refused, and a
// forged device cookie helps nothing. The API keeps the cookie as the
// pages do.
func TestLoginDevices(t *testing.T) {
	e := newServer()
	from := func(addr string) *client { c := newClientOn(t, e); c.addr = addr + ":1000"; return c }
	from("198.51.100.7").register("Ann")
	laptop := from("198.51.100.7")
	laptop.post("/login", vals("name", "Ann", "password", secret))
	device := laptop.jar[kit.DeviceCookie]
	if device == nil || !device.HttpOnly || device.SameSite != http.SameSiteStrictMode || device.Path != "/" || strings.Contains(device.Value, secret) {
		t.Fatalf("signed in, the device cookie is %+v", device)
	}
	guess := func(c *client, pw string) int {
		return c.do(http.MethodPost, "/login", vals("name", "Ann", "password", pw), false).Code
	}
	attacker := from("203.0.113.1")
	for i := range 5 {
		if code := guess(attacker, fmt.Sprint("guess ", i)); code != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i+1, code)
		}
	}
	if code := guess(attacker, secret); code != http.StatusTooManyRequests {
		t.Errorf("the right password from the guessing address: %d", code)
	}
	if code := guess(from("198.51.100.8"), secret); code != http.StatusSeeOther {
		t.Errorf("the right password from another address, a new browser: %d", code)
	}
	// The name's ceiling, from many addresses.
	for i := range players.MaxFailedLoginsPerName - 5 {
		guess(from(fmt.Sprint("203.0.113.", 2+i/5)), "guess")
	}
	stranger := from("198.51.100.9")
	rec := stranger.do(http.MethodPost, "/login", vals("name", "Ann", "password", secret), false)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(text(parse(t, rec), "#account-error"), "signed in as it before") {
		t.Errorf("a new browser over the name's ceiling: %d, %q", rec.Code, text(parse(t, rec), "#account-error"))
	}
	forged := *device
	forged.Value = device.Value[:len(device.Value)-2] + "AA"
	stranger.jar[kit.DeviceCookie] = &forged
	if code := guess(stranger, secret); code != http.StatusTooManyRequests {
		t.Errorf("a forged device cookie: %d", code)
	}
	laptop.addr = "198.51.100.9:1000"
	if code := guess(laptop, secret); code != http.StatusSeeOther {
		t.Errorf("the browser that signed in before: %d", code)
	}
	if laptop.jar[kit.DeviceCookie].Value == device.Value {
		t.Error("signing in again kept the device cookie; want a fresh one")
	}
	// The API reads and sets the same cookie.
	req := httptest.NewRequest(http.MethodPost, "/api/token", strings.NewReader(`{"name":"Ann","password":"`+secret+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "198.51.100.9:1000"
	req.AddCookie(&http.Cookie{Name: kit.DeviceCookie, Value: laptop.jar[kit.DeviceCookie].Value})
	res := httptest.NewRecorder()
	e.ServeHTTP(res, req)
	if res.Code != http.StatusCreated || !strings.Contains(res.Header().Get("Set-Cookie"), kit.DeviceCookie+"=") {
		t.Errorf("a program with the device cookie: %d %s", res.Code, res.Body)
	}
}

// TestSignupLimit (issue 45, item 7): an address signs up five players in
// an hour, through the pages and the API together; the sixth is refused
// with 429, Retry-After and code too_many_signups (the page shows why);
// another address still signs up.
func TestSignupLimit(t *testing.T) {
	e := echo.New()
	New(newServiceWith(nil, testsite.Config{Players: []players.Option{players.WithSignupsPerHour(5)}}), apiClock).Register(e)
	for i := range 3 {
		c := newClientOn(t, e)
		c.register(fmt.Sprint("Page", i))
	}
	a := newAPIT(t, e)
	for i := range 2 {
		if r := a.do(http.MethodPost, "/api/account", fmt.Sprintf(`{"name":"Api%d","password":"%s"}`, i, secret)); r.code != http.StatusCreated {
			t.Fatalf("API sign-up %d: %d %s", i, r.code, r.body)
		}
	}
	c := newClientOn(t, e)
	rec := c.do(http.MethodPost, "/account", vals("name", "Sixth", "password", secret), false)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(text(parse(t, rec), "#account-error"), "signed up 5 players") {
		t.Errorf("the sixth sign-up: %d, Retry-After %q, %q", rec.Code, rec.Header().Get("Retry-After"), text(parse(t, rec), "#account-error"))
	}
	a.fail(a.do(http.MethodPost, "/api/account", `{"name":"Sixth","password":"`+secret+`"}`), 429, "too_many_signups")
	other := newClientOn(t, e)
	other.addr = "198.51.100.1:1000"
	other.register("Sixth")
}

// TestSignUpNewCredential (issue 45, item 8): signing up on the account
// page gives the browser a new credential and revokes the one it had, so
// that whoever planted or saw the cookie before holds nothing after; the
// browser keeps its game. Signing in revokes the browser's credential too.
func TestSignUpNewCredential(t *testing.T) {
	e := newServer()
	c := newClientOn(t, e)
	c.start()
	game := c.id
	before := *c.player()
	c.register("Ann")
	if after := c.player(); after == nil || after.Value == before.Value {
		t.Fatalf("signed up, the browser's cookie is %v, as before", after)
	}
	planted := c.session()
	planted.jar[kit.PlayerCookie] = &before
	if planted.get("/account").Find("#account-name").Length() != 0 {
		t.Error("the cookie from before the sign-up names the player")
	}
	planted.jar[kit.PlayerCookie] = &before
	planted.id = game
	if rec := planted.do(http.MethodPost, planted.path("ply"), vals("text", "b:e2e4"), false); rec.Code != http.StatusForbidden {
		t.Errorf("a ply with the cookie from before the sign-up: %d", rec.Code)
	}
	c.id = game
	c.post(c.path("ply"), vals("text", "b:e2e4"))

	laptop := c.session()
	laptop.start()
	held, its := *laptop.player(), laptop.id
	laptop.post("/login", vals("name", "Ann", "password", secret))
	stale := laptop.session()
	stale.jar[kit.PlayerCookie] = &held
	stale.id = its
	if rec := stale.do(http.MethodPost, stale.path("ply"), vals("text", "b:e2e4"), false); rec.Code != http.StatusForbidden {
		t.Errorf("a ply with the cookie a browser held before signing in: %d", rec.Code)
	}
}

// TestHostCookies (issue 45, item 8): served over HTTPS (here, an https
// base URL), the browser's cookies are named __Host-… (Secure, Path=/, no
// Domain); a credential under the plain name, from before, is still read,
// and moves to the __Host- name.
func TestHostCookies(t *testing.T) {
	e := newServerOn(nil, WithBaseURL("https://chess.example.com"))
	c := newClientOn(t, e)
	c.host = "chess.example.com"
	c.start()
	c.register("Ann")
	for _, name := range []string{kit.PlayerCookie, kit.DeviceCookie} {
		if ck := c.jar[name]; ck != nil {
			t.Errorf("over https, a cookie %s", name)
		}
		ck := c.jar[kit.HostPrefix+name]
		if ck == nil || !ck.Secure || !ck.HttpOnly || ck.Path != "/" || ck.Domain != "" {
			t.Errorf("over https, the cookie %s%s is %+v", kit.HostPrefix, name, ck)
		}
	}
	cred := c.jar[kit.HostPrefix+kit.PlayerCookie].Value
	old := c.session()
	old.jar[kit.PlayerCookie] = &http.Cookie{Name: kit.PlayerCookie, Value: cred}
	if got := old.get("/account").Find("#account-name").AttrOr("data-name", ""); got != "Ann" {
		t.Errorf("a credential under the plain name names %q, want Ann", got)
	}
	if rec := old.do(http.MethodPost, "/new", vals(), false); rec.Code != http.StatusSeeOther {
		t.Fatalf("a new game: %d", rec.Code)
	}
	if ck := old.jar[kit.HostPrefix+kit.PlayerCookie]; ck == nil || ck.Value != cred || old.jar[kit.PlayerCookie] != nil {
		t.Errorf("the credential under the plain name did not move: %v, plain %v", ck, old.jar[kit.PlayerCookie])
	}
}

// TestPasswordNeverShown: a password given through the pages and the API
// is in no answer, no log line and, in clear, nowhere in the database's
// files.
func TestPasswordNeverShown(t *testing.T) {
	dir := t.TempDir()
	st, err := store.OpenSQLite(t.Context(), filepath.Join(dir, "games.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs bytes.Buffer
	e := echo.New()
	New(newService(st), apiClock, WithLogger(jsonLogger(&logs))).Register(e)
	var answers bytes.Buffer
	record := func(rec interface {
		Header() http.Header
	}, body string) {
		for k, v := range rec.Header() {
			answers.WriteString(k + ": " + strings.Join(v, ",") + "\n")
		}
		answers.WriteString(body)
	}
	c := newClientOn(t, e)
	for _, r := range []struct{ path, name, pw string }{
		{"/account", "Ann", secret}, {"/account", "Ann", secret}, {"/login", "Ann", secret}, {"/login", "Ann", secret + "x"}, {"/login", "Nobody", secret},
	} {
		rec := c.do(http.MethodPost, r.path, vals("name", r.name, "password", r.pw), false)
		record(rec, rec.Body.String())
		d := c.get("/account")
		answers.WriteString(d.Text())
	}
	a := newAPIT(t, e)
	for _, r := range []struct{ path, body string }{
		{"/api/account", `{"name":"Bob","password":"` + secret + `"}`},
		{"/api/account", `{"name":"Bob","password":"` + secret + `"}`},
		{"/api/token", `{"name":"Bob","password":"` + secret + `"}`},
		{"/api/token", `{"name":"Bob","password":"` + secret + `x"}`},
		{"/api/players/Bob", ""},
	} {
		method := http.MethodPost
		if r.body == "" {
			method = http.MethodGet
		}
		res := a.do(method, r.path, r.body)
		answers.WriteString(string(res.body))
	}
	if strings.Contains(answers.String(), secret) {
		t.Error("an answer shows the password")
	}
	if logs.Len() == 0 || strings.Contains(logs.String(), secret) {
		t.Errorf("the log (%d bytes) shows the password", logs.Len())
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "games.db*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the password in clear", filepath.Base(f))
		}
		if filepath.Base(f) == "games.db" && !bytes.Contains(b, []byte("$argon2id$")) {
			t.Error("the database holds no argon2id hash: was anything stored?")
		}
	}
}
