package handlers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/store"
)

// codesShown reads the recovery codes a page shows.
func codesShown(d *goquery.Document) []string {
	return d.Find("#recovery-codes code").Map(func(_ int, s *goquery.Selection) string { return s.Text() })
}

// TestRecoveryPages: sign-up shows ten recovery codes once (not cached);
// the account page then counts them; a code on /recover signs the browser
// in with the new password and signs the other device out, once; new
// codes end the old; the codes and passwords are in no log line, no
// address and, in clear, nowhere in the database's files.
func TestRecoveryPages(t *testing.T) {
	dir := t.TempDir()
	st, err := store.OpenSQLite(t.Context(), filepath.Join(dir, "games.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs bytes.Buffer
	e := echo.New()
	New(newService(st), apiClock, WithLogger(jsonLogger(&logs))).Register(e)

	phone := newClientOn(t, e)
	rec := phone.do(http.MethodPost, "/account", vals("name", "Ann", "password", secret), false)
	d := parse(t, rec)
	codes := codesShown(d)
	if rec.Code != http.StatusOK || len(codes) != 10 || rec.Header().Get("Cache-Control") != "no-store" || d.Find("#account-name").Length() != 1 {
		t.Fatalf("sign-up: %d, Cache-Control %q, codes %q", rec.Code, rec.Header().Get("Cache-Control"), codes)
	}
	d = phone.get("/account")
	if got := d.Find("#recovery-left").AttrOr("data-left", ""); got != "10" || d.Find("#recovery-codes").Length() != 0 {
		t.Errorf("the account page: %q codes left, codes shown %d", got, d.Find("#recovery-codes").Length())
	}
	laptop := newClientOn(t, e)
	laptop.post("/login", vals("name", "Ann", "password", secret))

	// A wrong code: the page again, with the name, nothing changed.
	forgetful := newClientOn(t, e)
	const newPassword = "n3w-horse-battery"
	rec = forgetful.do(http.MethodPost, "/recover", vals("name", "Ann", "code", "aaaa-bbbb-cccc-dddd", "password", newPassword), false)
	if d := parse(t, rec); rec.Code != http.StatusUnauthorized || !strings.Contains(text(d, "#account-error"), "recovery code is wrong") ||
		d.Find(`input[name="name"]`).AttrOr("value", "") != "Ann" {
		t.Errorf("a wrong code: %d %q", rec.Code, text(d, "#account-error"))
	}
	d = forgetful.post("/recover", vals("name", "ann", "code", codes[2], "password", newPassword))
	if d.Find(`#account-name[data-name="Ann"]`).Length() != 1 || !strings.Contains(text(d, ".notice"), "every other device") {
		t.Fatalf("after recovering: %s", text(d, "main"))
	}
	if d := forgetful.get("/account"); d.Find("#recovery-left").AttrOr("data-left", "") != "9" {
		t.Errorf("codes left after one used: %q", d.Find("#recovery-left").AttrOr("data-left", ""))
	}
	for name, c := range map[string]*client{"phone": phone, "laptop": laptop} {
		if d := c.get("/account"); d.Find("#account-name").Length() != 0 {
			t.Errorf("the %s is still signed in", name)
		}
	}
	rec = newClientOn(t, e).do(http.MethodPost, "/recover", vals("name", "Ann", "code", codes[2], "password", "another password"), false)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("a code used again: %d", rec.Code)
	}
	if rec := newClientOn(t, e).do(http.MethodPost, "/login", vals("name", "Ann", "password", secret), false); rec.Code != http.StatusUnauthorized {
		t.Errorf("the old password: %d", rec.Code)
	}
	newClientOn(t, e).post("/login", vals("name", "Ann", "password", newPassword))

	// New codes on the account page end the old.
	rec = forgetful.do(http.MethodPost, "/account/recovery-codes", nil, false)
	fresh := codesShown(parse(t, rec))
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "no-store" || len(fresh) != 10 {
		t.Fatalf("new codes: %q", fresh)
	}
	if rec := newClientOn(t, e).do(http.MethodPost, "/recover", vals("name", "Ann", "code", codes[3], "password", "another password"), false); rec.Code != http.StatusUnauthorized {
		t.Errorf("an old code after new ones: %d", rec.Code)
	}
	if rec := newClientOn(t, e).do(http.MethodPost, "/account/recovery-codes", nil, false); rec.Code != http.StatusUnauthorized {
		t.Errorf("codes for a browser without a player: %d", rec.Code)
	}

	secrets := append(append([]string{secret, newPassword}, codes...), fresh...)
	for _, s := range secrets {
		if strings.Contains(logs.String(), s) {
			t.Errorf("the log shows %q", s)
		}
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
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) || bytes.Contains(b, []byte(strings.ReplaceAll(s, "-", ""))) {
				t.Errorf("%s holds %q in clear", filepath.Base(f), s)
			}
		}
	}
}

// TestAPIRecovery: a token's player makes codes (201, shown once); a
// code gives a new token, once, and the old token stops working.
func TestAPIRecovery(t *testing.T) {
	a := newAPI(t)
	ann := a.account("Ann")
	var got api.RecoveryCodes
	a.decode(a.doAs(ann, http.MethodPost, "/api/account/recovery-codes", ""), http.StatusCreated, &got)
	if len(got.Codes) != 10 {
		t.Fatalf("codes %q", got.Codes)
	}
	a.fail(a.doAs("", http.MethodPost, "/api/account/recovery-codes", ""), 401, "unauthorized")
	a.fail(a.doAs(a.anonymous(), http.MethodPost, "/api/account/recovery-codes", ""), 403, "name_needed")
	body := func(code, pw string) string {
		b, _ := json.Marshal(map[string]string{"name": "Ann", "code": code, "password": pw})
		return string(b)
	}
	a.fail(a.do(http.MethodPost, "/api/account/recover", body("aaaa-bbbb-cccc-dddd", "a new password")), 401, "bad_recovery")
	a.fail(a.do(http.MethodPost, "/api/account/recover", body(got.Codes[0], "short")), 400, "bad_password")
	a.fail(a.do(http.MethodPost, "/api/account/recover", `{"name":"Ann","code":1}`), 400, "bad_json")
	var tok api.Token
	a.decode(a.do(http.MethodPost, "/api/account/recover", body(got.Codes[0], "a new password")), http.StatusCreated, &tok)
	if tok.Token == "" || tok.Name != "Ann" {
		t.Errorf("recovered: %+v", tok)
	}
	a.fail(a.do(http.MethodPost, "/api/account/recover", body(got.Codes[0], "a new password")), 401, "bad_recovery")
	a.fail(a.doAs(ann, http.MethodGet, "/api/rel/following", ""), 401, "unauthorized")
	if r := a.doAs(tok.Token, http.MethodGet, "/api/account", ""); r.code != http.StatusOK {
		t.Errorf("the new token: %d %s", r.code, r.body)
	}
}
