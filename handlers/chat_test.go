package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// chatTexts lists the lines a page's chat log shows, "name: text" each.
func chatLog(d *goquery.Document) []string {
	var out []string
	d.Find("#chat-log .chat-line").Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.TrimSpace(s.Find(".chat-name").Text())+": "+s.Find(".chat-text").Text())
	})
	return out
}

// TestChatPageWithoutJavaScript: at a game between two players each
// viewer's page shows their room, as an ARIA live log with a label, and a
// labelled form that posts a line (Post/Redirect/Get); a refused line
// shows the page again with the message in the chat panel and the text
// to edit, at the refusal's status; markup and links are shown as text;
// a spectator's page shows the spectators' room alone; once the game is
// over the rooms are read-only; a hot-seat game has no chat.
func TestChatPageWithoutJavaScript(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	id := white.id
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("join: %d", rec.Code)
	}
	spec := newClientOn(t, e)

	d := white.get(white.page())
	log := d.Find("#chat-log")
	if text(d, "#chat-title") != "Players' chat" || log.AttrOr("role", "") != "log" || log.AttrOr("aria-live", "") != "polite" || log.AttrOr("aria-label", "") == "" {
		t.Fatalf("the players' chat panel: %q, log %v", text(d, "#chat-title"), log.Nodes)
	}
	form := d.Find("form#chat-form")
	if form.AttrOr("method", "") != "post" || form.AttrOr("action", "") != "/g/"+id+"/chat" || d.Find(`label[for="chat-text"]`).Length() != 1 ||
		form.Find(`input[name="room"]`).AttrOr("value", "") != "player" {
		t.Fatalf("the chat form: %v", form.Nodes)
	}
	if d.Find("main#game #chat").Length() != 0 {
		t.Error("the chat panel is inside #game, which htmx swaps")
	}

	say := func(c *client, room, line string) *goquery.Document {
		t.Helper()
		rec := c.do(http.MethodPost, "/g/"+id+"/chat", vals("room", room, "text", line), false)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/g/"+id+"#chat" {
			t.Fatalf("saying %q: %d to %q: %s", line, rec.Code, rec.Header().Get("Location"), text(parse(t, rec), "#chat-error"))
		}
		return c.get(rec.Header().Get("Location"))
	}
	d = say(white, "player", `gl <b>hf</b> https://example.com/x`)
	if got := chatLog(d); len(got) != 1 || got[0] != "Anonymous: gl <b>hf</b> https://example.com/x" || d.Find("#chat-log b, #chat-log a").Length() != 0 {
		t.Fatalf("white's log: %q", got)
	}
	if got := chatLog(black.get(black.page())); len(got) != 1 {
		t.Errorf("black's log: %q", got)
	}
	d = spec.get("/g/" + id)
	if text(d, "#chat-title") != "Spectators' chat" || len(chatLog(d)) != 0 || d.Find(`form#chat-form input[name="room"]`).AttrOr("value", "") != "spectator" {
		t.Fatalf("the spectator's page: %q %q", text(d, "#chat-title"), chatLog(d))
	}
	d = say(spec, "spectator", "nice game")
	if got := chatLog(d); len(got) != 1 || got[0] != "Anonymous: nice game" {
		t.Errorf("the spectator's log: %q", got)
	}
	if got := chatLog(white.get(white.page())); len(got) != 1 || strings.Contains(got[0], "nice game") {
		t.Errorf("white sees the spectators' room: %q", got)
	}

	// Refusals: the page again, the message in the panel, the text kept.
	for _, r := range []struct {
		name, room, text string
		status           int
		says             string
	}{
		{"a repeat", "player", `gl <b>hf</b> https://example.com/x`, 400, "You said that just before"},
		{"too long", "player", strings.Repeat("z", 141), 400, "at most 140 characters"},
		{"the other room", "spectator", "psst", 400, "your room is the players'"},
		{"no room", "", "hi", 400, "not a room"},
	} {
		rec := white.do(http.MethodPost, "/g/"+id+"/chat", vals("room", r.room, "text", r.text), false)
		d := parse(t, rec)
		if rec.Code != r.status || !strings.Contains(text(d, "#chat-error"), r.says) || d.Find("main#game").Length() != 1 {
			t.Errorf("%s: %d, %q", r.name, rec.Code, text(d, "#chat-error"))
		}
		if r.room == "player" && d.Find("#chat-text").AttrOr("value", "") != r.text {
			t.Errorf("%s: the field holds %q", r.name, d.Find("#chat-text").AttrOr("value", ""))
		}
		if got := chatLog(d); len(got) != 1 {
			t.Errorf("%s changed the room: %q", r.name, got)
		}
	}
	// Over the rate: 429, the page again.
	for _, line := range []string{"a", "b"} {
		say(black, "player", line)
	}
	say(black, "player", "c")
	rec := black.do(http.MethodPost, "/g/"+id+"/chat", vals("room", "player", "text", "d"), false)
	if d := parse(t, rec); rec.Code != http.StatusTooManyRequests || !strings.Contains(text(d, "#chat-error"), "too fast") || rec.Header().Get("Retry-After") == "" {
		t.Errorf("over the rate: %d %q", rec.Code, text(d, "#chat-error"))
	}

	// With htmx: the refusal's sentence alone, or nothing.
	rec = white.do(http.MethodPost, "/g/"+id+"/chat", vals("room", "player", "text", "  "), true)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "Write something") || strings.Contains(rec.Body.String(), "<main") {
		t.Errorf("an empty line with htmx: %d %s", rec.Code, rec.Body)
	}
	rec = white.do(http.MethodPost, "/g/"+id+"/chat", vals("room", "player", "text", "<i>x</i>"), true)
	if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != "" {
		t.Errorf("a line with htmx: %d %q", rec.Code, rec.Body)
	}

	// Over: read-only, the lines kept.
	white.post(white.path("abort"), vals())
	d = white.get(white.page())
	if d.Find("form#chat-form").Length() != 0 || !strings.Contains(text(d, "#chat-closed"), "read-only") || len(chatLog(d)) != 5 {
		t.Errorf("after the end: form %d, %q, %q", d.Find("form#chat-form").Length(), text(d, "#chat-closed"), chatLog(d))
	}
	rec = spec.do(http.MethodPost, "/g/"+id+"/chat", vals("room", "spectator", "text", "bye"), false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(text(parse(t, rec), "#chat-error"), "read-only") {
		t.Errorf("a line after the end: %d", rec.Code)
	}

	// A hot-seat game has none.
	hot := newClientOn(t, e)
	if d := hot.start(); d.Find("#chat").Length() != 0 {
		t.Error("a hot-seat game shows a chat")
	}
	if rec := hot.do(http.MethodPost, hot.path("chat"), vals("room", "player", "text", "hi"), false); rec.Code != http.StatusBadRequest {
		t.Errorf("a line at a hot-seat game: %d", rec.Code)
	}
}

// TestChatOffSetting: a player turns chat off on the account page: their
// game pages show no room and no form, the API and the form refuse
// their lines; on again, all is back.
func TestChatOffSetting(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	id := white.id
	black := newClientOn(t, e)
	black.join(invite)
	if d := white.get("/account"); d.Find("#chat-off-button").Length() != 1 {
		t.Fatal("the account page offers no way to turn chat off")
	}
	d := white.post("/account/chat", vals("off", "1"))
	if d.Find("#chat-on").Length() != 1 {
		t.Fatal("after turning chat off, the account page offers no way back")
	}
	d = white.get(white.page())
	if d.Find("#chat-off").Length() != 1 || d.Find("#chat-log, #chat-form").Length() != 0 {
		t.Fatal("a player with chat off sees a room")
	}
	rec := white.do(http.MethodPost, "/g/"+id+"/chat", vals("room", "player", "text", "hi"), false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(text(parse(t, rec), "#chat-off"), "turned chat off") {
		t.Errorf("a line with chat off: %d", rec.Code)
	}
	if rec := white.do(http.MethodPost, "/account/chat", vals("off", "maybe"), false); rec.Code != http.StatusBadRequest {
		t.Errorf("a bad setting: %d", rec.Code)
	}
	white.post("/account/chat", vals("off", "0"))
	if d := white.post("/g/"+id+"/chat", vals("room", "player", "text", "back")); len(chatLog(d)) != 1 {
		t.Errorf("after turning chat on: %q", chatLog(d))
	}
}
