package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/stream"
)

// chatGame starts a game with a friend between white and black (tokens)
// through the API and returns its id.
func (a *apiT) chatGame(white, black string) string {
	a.t.Helper()
	var created api.Created
	a.decode(a.doAs(white, http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`), http.StatusCreated, &created)
	var joined api.Created
	a.decode(a.doAs(black, http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`), http.StatusOK, &joined)
	if !joined.Seats.Black {
		a.t.Fatalf("join answered %+v", joined)
	}
	return created.ID
}

// anonymous is the token of a new anonymous player (the holder of a new
// hot-seat game).
func (a *apiT) anonymous() string {
	a.t.Helper()
	var created api.Created
	a.decode(a.doAs("", http.MethodPost, "/api/games", ""), http.StatusCreated, &created)
	return created.Token
}

// chatRoom reads a room as token and checks the status.
func (a *apiT) chatRoom(token, id, query string) api.ChatRoom {
	a.t.Helper()
	var room api.ChatRoom
	a.decode(a.doAs(token, http.MethodGet, "/api/games/"+id+"/chat"+query, ""), http.StatusOK, &room)
	return room
}

func chatTexts(lines []stream.ChatLine) string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return strings.Join(out, "|")
}

// TestAPIChat: POST /api/games/{id}/chat says a line in the caller's
// room (201, the line), and every refusal answers its status and code
// and changes nothing; GET reads the caller's room alone.
func TestAPIChat(t *testing.T) {
	a := newAPI(t)
	ann, bob, cat := a.account("Ann"), a.account("Bob"), a.account("Cat")
	anon := a.anonymous()
	id := a.chatGame(ann, bob)
	anonGame := a.chatGame(a.anonymous(), a.anonymous())
	path := "/api/games/" + id + "/chat"

	var l stream.ChatLine
	a.decode(a.doAs(ann, http.MethodPost, path, `{"text":"  good luck <b>&amp; https://x.example</b> ","room":"player"}`), http.StatusCreated, &l)
	if l.Seq != 1 || l.Room != "player" || l.Name == nil || *l.Name != "Ann" || l.Text != "good luck <b>&amp; https://x.example</b>" || l.At == "" {
		t.Errorf("line %+v", l)
	}
	a.decode(a.doAs(cat, http.MethodPost, path, `{"text":"go Ann","room":"spectator"}`), http.StatusCreated, &l)
	a.decode(a.doAs(anon, http.MethodPost, "/api/games/"+anonGame+"/chat", `{"text":"hello","room":"spectator"}`), http.StatusCreated, &l)
	if l.Name != nil {
		t.Errorf("an anonymous player's line has a name: %+v", l)
	}

	refusals := []struct {
		name, token, path, body string
		status                  int
		code                    string
	}{
		{"the same line again", ann, path, `{"text":"good luck <b>&amp; https://x.example</b>","room":"player"}`, 400, "chat_repeated"},
		{"too long", ann, path, `{"text":"` + strings.Repeat("ab", 71) + `","room":"player"}`, 400, "chat_too_long"},
		{"empty", ann, path, `{"text":"   ","room":"player"}`, 400, "chat_empty"},
		{"no text", ann, path, `{"room":"player"}`, 400, "chat_empty"},
		{"no room", ann, path, `{"text":"hi"}`, 400, "bad_room"},
		{"an unknown room", ann, path, `{"text":"hi","room":"lobby"}`, 400, "bad_room"},
		{"a player in the spectators' room", bob, path, `{"text":"hi","room":"spectator"}`, 400, "chat_room"},
		{"a spectator in the players' room", cat, path, `{"text":"hi","room":"player"}`, 400, "chat_room"},
		{"anonymous at a game between named players", anon, path, `{"text":"hi","room":"spectator"}`, 400, "chat_anonymous"},
		{"no token", "", path, `{"text":"hi","room":"spectator"}`, 401, "unauthorized"},
		{"a hot-seat game", anon, "/api/games/" + a.chatGameless(anon) + "/chat", `{"text":"hi","room":"player"}`, 400, "no_chat"},
		{"an unknown game", ann, "/api/games/nope/chat", `{"text":"hi","room":"player"}`, 404, "not_found"},
		{"not JSON", ann, path, `text=hi`, 400, "bad_json"},
		{"an unknown member", ann, path, `{"text":"hi","room":"player","to":"bob"}`, 400, "unknown_field"},
	}
	for _, r := range refusals {
		before := a.chatRoom(ann, id, "")
		a.fail(a.doAs(r.token, http.MethodPost, r.path, r.body), r.status, r.code)
		if after := a.chatRoom(ann, id, ""); chatTexts(after.Lines) != chatTexts(before.Lines) || after.Last != before.Last {
			t.Errorf("%s: a refused line changed the room: %+v, then %+v", r.name, before, after)
		}
	}

	// Rooms apart: each reads their own, by default or by name, never
	// the other.
	if r := a.chatRoom(bob, id, ""); r.Room != "player" || chatTexts(r.Lines) != "good luck <b>&amp; https://x.example</b>" || r.Last != 2 {
		t.Errorf("bob's room %+v", r)
	}
	if r := a.chatRoom(cat, id, "?room=spectator"); r.Room != "spectator" || chatTexts(r.Lines) != "go Ann" {
		t.Errorf("cat's room %+v", r)
	}
	if r := a.chatRoom("", id, ""); r.Room != "spectator" || chatTexts(r.Lines) != "go Ann" {
		t.Errorf("no one's room %+v", r)
	}
	if r := a.chatRoom(ann, id, "?room=player&after=1"); len(r.Lines) != 0 || r.Last != 2 {
		t.Errorf("after 1: %+v", r)
	}
	a.fail(a.doAs(cat, http.MethodGet, path+"?room=player", ""), 400, "chat_room")
	a.fail(a.doAs("", http.MethodGet, path+"?room=player", ""), 400, "chat_room")
	a.fail(a.doAs(ann, http.MethodGet, path+"?room=spectator", ""), 400, "chat_room")
	a.fail(a.doAs(ann, http.MethodGet, path+"?room=attic", ""), 400, "bad_room")
	a.fail(a.doAs(ann, http.MethodGet, path+"?after=-1", ""), 400, "bad_request")
	a.fail(a.doAs(ann, http.MethodGet, "/api/games/nope/chat", ""), 404, "not_found")
	a.fail(a.doAs(ann, http.MethodDelete, path, ""), 405, "method_not_allowed")

	// The rate: three lines at once, the fourth refused with when to
	// try again.
	for _, text := range []string{"one", "two"} {
		a.decode(a.doAs(bob, http.MethodPost, path, `{"text":"`+text+`","room":"player"}`), http.StatusCreated, &l)
	}
	a.decode(a.doAs(bob, http.MethodPost, path, `{"text":"three","room":"player"}`), http.StatusCreated, &l)
	r := a.doAs(bob, http.MethodPost, path, `{"text":"four","room":"player"}`)
	a.fail(r, 429, "chat_rate")
	if ra := r.hdr.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After %q", ra)
	}
	if got := chatTexts(a.chatRoom(bob, id, "?after=2").Lines); got != "one|two|three" {
		t.Errorf("after the rate's refusal: %q", got)
	}

	// Once the game is over, read-only.
	if r := a.doAs(ann, http.MethodPost, "/api/games/"+id+"/abort", ""); r.code != http.StatusOK {
		t.Fatalf("abort: %d %s", r.code, r.body)
	}
	a.fail(a.doAs(ann, http.MethodPost, path, `{"text":"bye","room":"player"}`), 400, "chat_closed")
	a.fail(a.doAs(cat, http.MethodPost, path, `{"text":"bye","room":"spectator"}`), 400, "chat_closed")
	if r := a.chatRoom(cat, id, ""); chatTexts(r.Lines) != "go Ann" {
		t.Errorf("the spectators' room after the end %+v", r)
	}
}

// chatGameless is a hot-seat game of token's.
func (a *apiT) chatGameless(token string) string {
	a.t.Helper()
	var created api.Created
	a.decode(a.doAs(token, http.MethodPost, "/api/games", ""), http.StatusCreated, &created)
	return created.ID
}

// TestAPIChatStream: a line reaches the game streams of its room's
// readers as an event "chat", and never the other room's.
func TestAPIChatStream(t *testing.T) {
	l := newLiveServer(t)
	id, white, black := l.invite("")
	var spec api.Created
	l.post("", "/api/games", "", http.StatusCreated, &spec)
	ws, _ := l.openStream("/api/games/"+id+"/events", "", white)
	ss, _ := l.openStream("/api/games/"+id+"/events", "", spec.Token)
	ws.game()
	ss.game()

	l.post(black, "/api/games/"+id+"/chat", `{"text":"hi <white>","room":"player"}`, http.StatusCreated, nil)
	ev := ws.next()
	var line stream.ChatLine
	if err := json.Unmarshal([]byte(ev.data), &line); err != nil || ev.name != "chat" || ev.id != "" || line.Text != "hi <white>" || line.Room != "player" || line.Seq != 1 {
		t.Fatalf("white's stream: %+v (%v)", ev, err)
	}
	l.post(spec.Token, "/api/games/"+id+"/chat", `{"text":"hello players","room":"spectator"}`, http.StatusCreated, nil)
	ev = ss.next()
	if json.Unmarshal([]byte(ev.data), &line) != nil || ev.name != "chat" || line.Text != "hello players" || line.Room != "spectator" || line.Seq != 2 {
		t.Fatalf("the spectator's stream: %+v", ev)
	}
	ws.quiet(300 * time.Millisecond) // white never hears the spectators
	ss.quiet(0)                      // nor the spectator the players (their line came first)

	// A stream that says what it has seen hears only what came after.
	again, _ := l.openStream("/api/games/"+id+"/events?chat=1", "", black)
	again.game()
	again.quiet(300 * time.Millisecond)
	from0, _ := l.openStream("/api/games/"+id+"/events", "", black)
	from0.game()
	if ev := from0.next(); ev.name != "chat" || json.Unmarshal([]byte(ev.data), &line) != nil || line.Text != "hi <white>" {
		t.Errorf("a new stream's first chat event %+v", ev)
	}
}
