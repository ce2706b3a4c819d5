package handlers

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/api"
)

// modServer is a server whose player Warden is a moderator, and Warden's
// browser.
func modServer(t *testing.T) (*echo.Echo, *client) {
	t.Helper()
	svc := newService(nil)
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	warden := newClientOn(t, e)
	warden.register("Warden")
	if err := svc.Moderation.SetModerator(context.Background(), "warden", true); err != nil {
		t.Fatal(err)
	}
	return e, warden
}

// TestModPagesUnknownToOthers: to anyone but a moderator — no player, an
// anonymous one, a named one — the moderators' pages and actions answer
// exactly as an unknown page does: the status and the body of a server
// that has no such page.
func TestModPagesUnknownToOthers(t *testing.T) {
	e, warden := modServer(t)
	bare := echo.New()
	svc := newService(nil)
	svc.Moderation = nil // no moderators' pages at all
	New(svc, apiClock).Register(bare)
	named := newClientOn(t, e)
	named.register("Ann")
	anon := newClientOn(t, e)
	anon.get("/lobby") // a player cookie
	for _, r := range []struct{ method, path string }{
		{http.MethodGet, "/mod"}, {http.MethodGet, "/mod/log"}, {http.MethodPost, "/mod/act"}, {http.MethodHead, "/mod"},
	} {
		want := newClientOn(t, bare).do(r.method, r.path, vals("action", "close", "player", "Warden", "why", "x"), false)
		if want.Code != http.StatusNotFound {
			t.Fatalf("%s %s on a server without it: %d", r.method, r.path, want.Code)
		}
		for name, c := range map[string]*client{"no player": newClientOn(t, e), "anonymous": anon, "named": named} {
			got := c.do(r.method, r.path, vals("action", "close", "player", "Warden", "why", "x"), false)
			want, body := want, want.Body.String()
			if name == "named" {
				// A named player's pages carry their inbox's bell: the
				// unknown page they get is this server's, at a path no
				// server has (the page names the path).
				want = c.do(r.method, "/nowhere"+r.path, vals("action", "close", "player", "Warden", "why", "x"), false)
				body = strings.ReplaceAll(want.Body.String(), "/nowhere"+r.path, r.path)
			}
			if got.Code != want.Code || got.Body.String() != body || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
				t.Errorf("%s %s for %s: %d %q, want the unknown page's %d %q", r.method, r.path, name, got.Code, got.Body.String(), want.Code, want.Body.String())
			}
		}
	}
	if d := warden.get("/account"); d.Find("#account-name").Length() != 1 {
		t.Fatal("the moderator was closed by a non-moderator's post")
	}
	if d := warden.get("/mod"); d.Find("main#mod").Length() != 1 {
		t.Error("the moderator has no /mod")
	}
}

// namedGame starts a game on e between two named players: Ann, who
// invites and plays White, and Bob, who joins. It returns their clients
// and the game's id.
func namedGame(t *testing.T, e *echo.Echo) (ann, bob *client, game string) {
	t.Helper()
	ann, invite := inviteGame(t, e, "white", "")
	ann.register("Ann")
	bob = newClientOn(t, e)
	bob.register("Bob")
	if rec := bob.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("join: %d", rec.Code)
	}
	return ann, bob, ann.id
}

// say posts line to the players' chat of game and returns the answer's
// status.
func (c *client) say(game, line string) int {
	c.t.Helper()
	return c.do(http.MethodPost, "/g/"+game+"/chat", vals("room", "player", "text", line), false).Code
}

// TestModeration: Ann reports Bob's chat line from the game page's chat
// and Bob from his profile; the moderator sees both, newest first, the
// line in context; mutes Bob (his lines are refused), closes his account
// (his browser and token are signed out, he cannot sign in, his profile
// says closed, his games stay), reopens it and dismisses a report; the
// log says who did what, when and why.
func TestModeration(t *testing.T) {
	e, warden := modServer(t)
	ann, bob, game := namedGame(t, e)
	a := newAPIT(t, e)
	var tok api.Token
	a.decode(a.do(http.MethodPost, "/api/token", `{"name":"Bob","password":"`+secret+`"}`), http.StatusCreated, &tok)
	bobToken := tok.Token
	if code := bob.say(game, "you are terrible"); code != http.StatusSeeOther {
		t.Fatalf("bob's line: %d", code)
	}
	d := ann.get("/g/" + game)
	href, ok := d.Find("#chat-log .chat-line a.chat-report").Attr("href")
	if !ok {
		t.Fatalf("ann's chat has no report link: %s", text(d, "#chat"))
	}
	if log := d.Find("#chat-log"); log.AttrOr("data-report", "") != "/report?game="+game+"&room=player&seq=" || log.AttrOr("data-me", "") != "Ann" {
		t.Errorf("the chat log tells live.js %q, %q", log.AttrOr("data-report", ""), log.AttrOr("data-me", ""))
	}
	if d := bob.get("/g/" + game); d.Find("a.chat-report").Length() != 0 {
		t.Error("bob may report his own line")
	}
	if d := newClientOn(t, e).get("/g/" + game); d.Find("#chat-log[data-report]").Length() != 0 {
		t.Error("a browser without a name is offered to report")
	}
	d = ann.get(href)
	if text(d, "#reported-line") != "you are terrible" {
		t.Fatalf("the report page: %s", text(d, "main"))
	}
	form := vals("reason", "abuse", "text", "insults")
	d.Find(`form[action="/report"] input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) { form.Set(s.AttrOr("name", ""), s.AttrOr("value", "")) })
	if d := ann.post("/report", form); d.Find("#report-sent").Length() != 1 {
		t.Fatalf("after reporting: %s", text(d, "main"))
	}
	if rec := ann.do(http.MethodPost, "/report", vals("player", "Bob", "reason", "rude"), false); rec.Code != http.StatusBadRequest ||
		!strings.Contains(text(parse(t, rec), "#account-error"), "abuse, cheating or other") {
		t.Errorf("a report without a reason: %d %q", rec.Code, text(parse(t, rec), "#account-error"))
	}
	d = ann.get("/@/Bob")
	href, _ = d.Find("#report-player").Attr("href")
	if d := ann.get(href); text(d, "#reported-player") != "Bob" {
		t.Fatalf("the profile's report link %q: %s", href, text(d, "main"))
	}
	ann.post("/report", vals("player", "Bob", "reason", "cheating"))

	d = warden.get("/mod")
	cases := d.Find("section.report-case")
	if cases.Length() != 2 || cases.Eq(0).Find("h2").Text() != "Bob, cheating" || cases.Eq(1).Find(".chat-line.reported .chat-text").Text() != "you are terrible" {
		t.Fatalf("/mod: %s", text(d, "main"))
	}
	lineReport, _ := cases.Eq(1).Attr("data-report")
	playerReport, _ := cases.Eq(0).Attr("data-report")
	act := func(kv ...string) *goquery.Document {
		t.Helper()
		return warden.post("/mod/act", vals(kv...))
	}
	if rec := warden.do(http.MethodPost, "/mod/act", vals("action", "mute", "player", "Bob", "for", "2h0m0s", "why", "x"), false); rec.Code != http.StatusBadRequest ||
		!strings.Contains(text(parse(t, rec), "#account-error"), "15 minutes") {
		t.Errorf("a mute of two hours: %d %q", rec.Code, text(parse(t, rec), "#account-error"))
	}
	d = act("action", "mute", "player", "Bob", "report", lineReport, "for", "1h0m0s", "why", "insults")
	if d.Find("#mod-done").Length() != 1 || d.Find("section.report-case").Length() != 1 {
		t.Errorf("after muting: %s", text(d, "main"))
	}
	if code := bob.say(game, "still here"); code != http.StatusForbidden {
		t.Errorf("a muted player's line: %d", code)
	}
	if d := bob.get("/g/" + game); !strings.Contains(text(d, "#chat-closed"), "muted") {
		t.Errorf("a muted player's panel: %q", text(d, "#chat"))
	}

	act("action", "close", "player", "Bob", "report", playerReport, "why", "an engine")
	if d := bob.get("/account"); d.Find("#account-name").Length() != 0 {
		t.Error("a closed account's browser is still signed in")
	}
	a.fail(a.doAs(bobToken, http.MethodGet, "/api/account", ""), 401, "unauthorized")
	a.fail(a.do(http.MethodPost, "/api/token", `{"name":"Bob","password":"`+secret+`"}`), 403, "account_closed")
	if rec := newClientOn(t, e).do(http.MethodPost, "/login", vals("name", "Bob", "password", secret), false); rec.Code != http.StatusForbidden {
		t.Errorf("signing in to a closed account: %d", rec.Code)
	}
	if d := ann.get("/@/Bob"); d.Find("#closed").Length() != 1 {
		t.Error("the profile does not say the account is closed")
	}
	if d := ann.get("/g/" + game); d.Find("main#game").Length() != 1 {
		t.Error("the closed account's game is gone")
	}
	act("action", "reopen", "player", "Bob", "why", "appeal")
	newClientOn(t, e).post("/login", vals("name", "Bob", "password", secret))

	ann.post("/report", vals("player", "Bob", "reason", "other", "text", "again"))
	d = warden.get("/mod")
	id, _ := d.Find("section.report-case").Attr("data-report")
	d = act("action", "dismiss", "report", id, "why", "nothing there")
	if d.Find("#no-reports").Length() != 1 {
		t.Errorf("after dismissing: %s", text(d, "main"))
	}
	d = warden.get("/mod/log")
	var log []string
	d.Find("table.mod-log tbody tr").Each(func(_ int, s *goquery.Selection) {
		log = append(log, s.AttrOr("data-action", "")+" "+strings.TrimSpace(s.Find("td").Eq(1).Text())+" "+strings.TrimSpace(s.Find("td").Eq(4).Text()))
	})
	want := []string{"dismiss Warden nothing there", "reopen Warden appeal", "close Warden an engine", "mute Warden insults", "grant-mod the server banchess admin grant-mod"}
	if strings.Join(log, "|") != strings.Join(want, "|") {
		t.Errorf("the log:\n%q\nwant\n%q", log, want)
	}
}
