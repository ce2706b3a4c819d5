package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/notify"
)

// TestInboxPages: a correspondence turn notifies the opponent once it
// passes to them, not the mover; a forecast played tells its author, and
// the player it answered that it is their turn; a challenge notifies its
// receiver; the bell counts them for
// named players only (none for others), the inbox lists them and marks
// one and all read by plain forms; the settings turn a kind off; the
// script's poll answers JSON; bad input is refused.
func TestInboxPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	white.register("Ann")
	black := newClientOn(t, e)
	black.register("Bob")
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	anon := newClientOn(t, e)
	if d := anon.get("/rules"); d.Find("#bell").Length() != 0 || d.Find(`script[src*="notify.js"]`).Length() != 0 {
		t.Errorf("a player without a name has a bell")
	}
	bell := func(c *client) string {
		t.Helper()
		d := c.get("/rules")
		if d.Find("#bell").Length() != 1 || d.Find(`script[src*="notify.js"]`).Length() != 1 {
			t.Fatalf("a named player has no bell")
		}
		if d.Find("#bell-count[hidden]").Length() == 1 {
			return "0"
		}
		return text(d, "#bell-count")
	}
	if got := bell(white); got != "0" {
		t.Fatalf("Ann's bell before anything: %q", got)
	}
	src := white.get("/rules").Find(`script[src*="notify.js"]`).AttrOr("src", "")
	if rec := white.do(http.MethodGet, src, nil, false); rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Type"), "javascript") {
		t.Errorf("GET %s: %d %s", src, rec.Code, rec.Header().Get("Content-Type"))
	}

	// Black bans: White's turn. White is told, Black is not.
	black.post(white.path("ply"), vals("text", "b:e2e4"))
	if got := bell(white); got != "1" {
		t.Errorf("Ann's bell after Bob's ban: %q", got)
	}
	if got := bell(black); got != "0" {
		t.Errorf("Bob told of his own action: %q", got)
	}
	d := white.get("/inbox")
	li := d.Find(".inbox-list li.unread")
	if li.Length() != 1 || li.AttrOr("data-kind", "") != string(notify.YourTurn) || li.Find("a").AttrOr("href", "") != "/g/"+white.id {
		t.Fatalf("Ann's inbox: %q", text(d, "#inbox"))
	}
	if got := d.Find(".bell").AttrOr("aria-label", ""); got != "Notifications: 1 unread notification" {
		t.Errorf("the bell's name: %q", got)
	}

	// Ann's turn (a move, then a ban) tells Bob once it passes to him.
	white.post(white.path("ply"), vals("text", "m:d2d4"))
	if got := bell(black); got != "0" {
		t.Errorf("Bob told in the middle of Ann's turn: %q", got)
	}
	white.post(white.path("ply"), vals("text", "b:e7e5"))
	if got := bell(black); got != "1" {
		t.Errorf("Bob's bell after Ann's turn: %q", got)
	}
	// Ann's forecast answers Bob's turn: Ann is told it was played, Bob
	// that it is his turn again.
	if rec := white.do(http.MethodPost, white.path("forecasts"), vals("lines", "m:d7d5 b:c2c4 m:g1f3 b:c8g4"), false); rec.Code != http.StatusSeeOther {
		t.Fatalf("storing a forecast: %d %s", rec.Code, errorText(parse(t, rec)))
	}
	black.post(white.path("ply"), vals("text", "m:d7d5"))
	black.post(white.path("ply"), vals("text", "b:c2c4"))
	if got := bell(black); got != "2" {
		t.Errorf("Bob's bell after Ann's forecast replied: %q", got)
	}
	if got := white.get("/inbox").Find(".inbox-list li").First().AttrOr("data-kind", ""); got != string(notify.ForecastUsed) {
		t.Errorf("Ann's newest notification: %q", got)
	}
	white.post("/inbox/read", nil)

	// A challenge notifies its receiver.
	black.post("/challenges/new", vals("dest", "Ann", "variant", "classic"))
	rec := white.do(http.MethodGet, "/inbox/poll", nil, false)
	var in notify.Inbox
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &in) != nil || in.Unread != 1 || len(in.Notifications) != 1 || in.Notifications[0].Kind != notify.Challenge {
		t.Fatalf("Ann's poll: %d %s", rec.Code, rec.Body)
	}

	// Marked read: one (all were above).
	white.post("/inbox/read", vals("id", in.Notifications[0].ID))
	if got := bell(white); got != "0" {
		t.Errorf("after marking it read: %q", got)
	}
	d = white.post("/inbox/read", nil)
	if got := bell(white); got != "0" || d.Find(".inbox-list li.unread").Length() != 0 || d.Find(".inbox-list li").Length() != 3 {
		t.Errorf("after marking all read: %q, %q", got, text(d, "#inbox"))
	}

	// Challenges turned off: the next one is not told.
	d = white.post("/inbox/settings", url.Values{"kind": {"yourTurn", "gameEnded"}})
	if d.Find(`input[value="challenge"][checked]`).Length() != 0 || d.Find(`input[value="yourTurn"][checked]`).Length() != 1 {
		t.Errorf("the settings after saving: %q", text(d, "#inbox-settings"))
	}
	black.post("/challenges/new", vals("dest", "Ann", "variant", "classic"))
	if got := bell(white); got != "0" {
		t.Errorf("a challenge told though turned off: %q", got)
	}

	// Refusals.
	for _, bad := range []struct {
		c      *client
		method string
		path   string
		form   []string
		status int
	}{
		{white, http.MethodPost, "/inbox/settings", []string{"kind", "nope"}, http.StatusBadRequest},
		{anon, http.MethodGet, "/inbox", nil, http.StatusForbidden},
		{anon, http.MethodGet, "/inbox/poll", nil, http.StatusForbidden},
	} {
		if rec := bad.c.do(bad.method, bad.path, vals(bad.form...), false); rec.Code != bad.status {
			t.Errorf("%s %s %v: %d, want %d", bad.method, bad.path, bad.form, rec.Code, bad.status)
		}
	}
	if st := white.get("/inbox"); st.Find(`input[value="gameEnded"][checked]`).Length() != 1 {
		t.Error("a refused setting changed the settings")
	}
}

// TestNotificationsAPI: GET /api/notifications lists with the unread
// count; POST /api/notifications/read marks ids, or all; refusals.
func TestNotificationsAPI(t *testing.T) {
	a := newAPI(t)
	ann, bob := a.account("Ann"), a.account("Bob")
	if r := a.doAs(bob, http.MethodPost, "/api/challenge/Ann", ""); r.code != http.StatusOK {
		t.Fatalf("challenging: %d %s", r.code, r.body)
	}
	var in notify.Inbox
	a.decode(a.doAs(ann, http.MethodGet, "/api/notifications", ""), http.StatusOK, &in)
	if in.Unread != 1 || len(in.Notifications) != 1 || in.Notifications[0].Kind != notify.Challenge || in.Notifications[0].Read {
		t.Fatalf("Ann's notifications: %+v", in)
	}
	a.decode(a.doAs(bob, http.MethodGet, "/api/notifications", ""), http.StatusOK, &in)
	if in.Unread != 0 || len(in.Notifications) != 0 {
		t.Errorf("Bob told of his own challenge: %+v", in)
	}
	for _, bad := range []struct {
		token, body string
		status      int
		says        string
	}{
		{"", "", http.StatusUnauthorized, "token"},
		{ann, `{"ids":"x"}`, http.StatusBadRequest, ""},
		{ann, `{"ids":[` + strings.Repeat(`"x",`, notify.MaxIDs) + `"x"]}`, http.StatusBadRequest, "bad_notification"},
		{ann, `{"nope":1}`, http.StatusBadRequest, "unknown_field"},
	} {
		if r := a.doAs(bad.token, http.MethodPost, "/api/notifications/read", bad.body); r.code != bad.status || !strings.Contains(string(r.body), bad.says) {
			t.Errorf("POST read %s: %d %s, want %d", bad.body, r.code, r.body, bad.status)
		}
	}
	a.decode(a.doAs(ann, http.MethodGet, "/api/notifications", ""), http.StatusOK, &in)
	var left struct{ Unread int }
	a.decode(a.doAs(ann, http.MethodPost, "/api/notifications/read", `{"ids":["`+in.Notifications[0].ID+`"]}`), http.StatusOK, &left)
	if left.Unread != 0 {
		t.Errorf("after marking it read: %d unread", left.Unread)
	}
	a.decode(a.doAs(ann, http.MethodPost, "/api/notifications/read", ""), http.StatusOK, &left)
	if left.Unread != 0 {
		t.Errorf("after marking all read: %d unread", left.Unread)
	}
}
