package handlers

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/internal/testsite"
)

// manualClock is a clock the test moves.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// resetServer is a server on clock whose player Warden is a moderator,
// Warden's browser, and Ann's, signed up.
func resetServer(t *testing.T, clock *manualClock, logs *bytes.Buffer) (*echo.Echo, *client, *client) {
	t.Helper()
	svc := newServiceWith(nil, testsite.Config{Now: clock.Now})
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock, WithLogger(jsonLogger(logs))).Register(e)
	warden := newClientOn(t, e)
	warden.register("Warden")
	if err := svc.Moderation.SetModerator(context.Background(), "warden", true); err != nil {
		t.Fatal(err)
	}
	ann := newClientOn(t, e)
	ann.register("Ann")
	return e, warden, ann
}

// issueReset has the moderator issue a reset link for name and returns its
// path.
func issueReset(t *testing.T, warden *client, name string) string {
	t.Helper()
	rec := warden.do(http.MethodPost, "/mod/reset", vals("player", name, "why", "lost her codes, checked by a game she played"), false)
	d := parse(t, rec)
	link := text(d, "#reset-link code")
	i := strings.Index(link, "/reset/")
	if rec.Code != http.StatusOK || i < 0 || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("issuing a reset link: %d %q %q", rec.Code, link, text(d, "#account-error"))
	}
	return link[i:]
}

// TestResetLink: a moderator issues Ann a reset link on /mod; it is in the
// log without its token; it sets her new password once, signing her
// other browser out; a second use and an expired link are refused; to
// anyone but a moderator /mod/reset is an unknown page.
func TestResetLink(t *testing.T) {
	clock := &manualClock{now: apiClock()}
	var logs bytes.Buffer
	e, warden, ann := resetServer(t, clock, &logs)
	path := issueReset(t, warden, "ann")
	token := strings.TrimPrefix(path, "/reset/")
	defer func() {
		if strings.Contains(logs.String(), token) || !strings.Contains(logs.String(), "/reset/") {
			t.Errorf("the request log holds the token, or no reset: %s", logs.String())
		}
	}()
	if log := warden.get("/mod/log"); log.Find(`tr[data-action="reset-link"]`).Length() != 1 || !strings.Contains(log.Text(), "issue a reset link") || strings.Contains(log.Text(), token) {
		t.Errorf("the log: %q", log.Find("table").Text())
	}

	browser := newClientOn(t, e)
	if d := browser.get(path); !strings.Contains(text(d, "#reset"), "Ann") || d.Find(`input[name="password"]`).Length() != 1 {
		t.Fatalf("the reset page: %q", text(d, "#reset"))
	}
	// A short password: refused, the link still works.
	if rec := browser.do(http.MethodPost, path, vals("password", "short"), false); rec.Code != http.StatusBadRequest {
		t.Errorf("a short password: %d", rec.Code)
	}
	const pw = "a-fresh-long-password"
	if rec := browser.do(http.MethodPost, path, vals("password", pw), false); rec.Code != http.StatusSeeOther {
		t.Fatalf("resetting: %d %s", rec.Code, rec.Body)
	}
	if d := browser.get("/account"); text(d, "#account-name") != "Ann" {
		t.Errorf("the browser is not signed in as Ann: %q", text(d, "#account-name"))
	}
	if d := ann.get("/account"); d.Find("#account-name").Length() != 0 {
		t.Error("Ann's other browser is still signed in")
	}
	if rec := newClientOn(t, e).do(http.MethodPost, "/login", vals("name", "Ann", "password", pw), false); rec.Code != http.StatusSeeOther {
		t.Errorf("signing in with the new password: %d", rec.Code)
	}
	// Used: refused, with the code, and the page says so.
	again := newClientOn(t, e)
	if rec := again.do(http.MethodPost, path, vals("password", "another-long-password"), false); rec.Code != http.StatusNotFound ||
		!strings.Contains(rec.Body.String(), "was used already") {
		t.Errorf("a used link: %d", rec.Code)
	}
	if rec := again.do(http.MethodGet, path, nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("a used link's page: %d", rec.Code)
	}

	// Expired: 24 h later it no longer works.
	path = issueReset(t, warden, "Ann")
	clock.add(24*time.Hour - time.Second)
	if rec := again.do(http.MethodGet, path, nil, false); rec.Code != http.StatusOK {
		t.Errorf("a link a second before it expires: %d", rec.Code)
	}
	clock.add(time.Second)
	if rec := again.do(http.MethodPost, path, vals("password", "another-long-password"), false); rec.Code != http.StatusNotFound {
		t.Errorf("an expired link: %d", rec.Code)
	}

	// Bad input: an unknown player, no why.
	for _, f := range []struct{ player, why string }{{"nobody-here", "x"}, {"Ann", ""}} {
		if rec := warden.do(http.MethodPost, "/mod/reset", vals("player", f.player, "why", f.why), false); rec.Code < 400 || rec.Code >= 500 {
			t.Errorf("a reset link for %q why %q: %d", f.player, f.why, rec.Code)
		}
	}

	// Anyone else: the unknown page's answer, and no link.
	bare := echo.New()
	svc := newService(nil)
	svc.Moderation = nil
	t.Cleanup(closer(svc))
	New(svc, apiClock).Register(bare)
	want := newClientOn(t, bare).do(http.MethodPost, "/mod/reset", vals("player", "Ann", "why", "x"), false)
	for name, c := range map[string]*client{"no player": newClientOn(t, e), "named": ann} {
		got := c.do(http.MethodPost, "/mod/reset", vals("player", "Ann", "why", "x"), false)
		if got.Code != http.StatusNotFound || got.Code != want.Code || got.Body.String() != want.Body.String() {
			t.Errorf("/mod/reset for %s: %d %q, want %d %q", name, got.Code, got.Body.String(), want.Code, want.Body.String())
		}
	}
}
