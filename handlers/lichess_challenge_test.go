package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
)

// lichess's challenge object, as its documentation describes it.
var (
	lichessChallenge = schema{"id": "string", "url": "string", "status": "string", "challenger": "object", "destUser": "object|null",
		"variant": "object", "rated": "boolean", "speed": "string", "timeControl": "object", "color": "string",
		"finalColor": "string?", "perf": "object", "direction": "string?", "initialFen": "string?",
		"declineReason": "string?", "declineReasonKey": "string?"}
	lichessChallengeUser = schema{"id": "string", "name": "string", "rating": "number?", "title": "string|null?",
		"provisional": "boolean?", "online": "boolean?"}
	lichessTimeControl = schema{"type": "string", "limit": "number?", "increment": "number?", "show": "string?", "daysPerTurn": "number?"}
	lichessChallenges  = schema{"in": "array", "out": "array"}
)

// send sends method path as token with a form body ("" for none).
func (l *lichessT) send(token, method, path, form string) (int, []byte) {
	l.t.Helper()
	req, err := http.NewRequest(method, l.url+path, strings.NewReader(form))
	if err != nil {
		l.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// challenge has token challenge name with the form, and answers the
// challenge, checked against lichess's fields.
func (l *lichessT) challenge(token, name, form string) map[string]any {
	l.t.Helper()
	code, data := l.send(token, http.MethodPost, "/api/challenge/"+name, form)
	if code != http.StatusOK {
		l.t.Fatalf("challenging %s with %q: %d %s", name, form, code, data)
	}
	return conformChallenge(l.t, "the challenge made", conform(l.t, "the challenge made", data, lichessChallenge))
}

// conformChallenge checks a challenge's objects against lichess's fields.
func conformChallenge(t *testing.T, what string, c map[string]any) map[string]any {
	t.Helper()
	conformObject(t, what+"'s challenger", c["challenger"].(map[string]any), lichessChallengeUser)
	conformObject(t, what+"'s destUser", c["destUser"].(map[string]any), lichessChallengeUser)
	conformObject(t, what+"'s timeControl", c["timeControl"].(map[string]any), lichessTimeControl)
	conformObject(t, what+"'s variant", c["variant"].(map[string]any), lichessVariant)
	return c
}

// event waits for the stream's next event of type typ and answers its
// challenge.
func challengeEvent(t *testing.T, s *ndLines, typ string) map[string]any {
	t.Helper()
	obj, line := s.until(typ, func(o map[string]any) bool { return o["type"] == typ })
	c, ok := obj["challenge"].(map[string]any)
	if !ok {
		t.Fatalf("%s without a challenge: %s", typ, line)
	}
	return conformChallenge(t, typ, conform(t, typ, mustJSON(t, c), lichessChallenge))
}

// TestLichessChallenges: a challenge made with lichess's form fields is
// told on both players' streams of events, listed in and out, declined
// with a reason, cancelled, and accepted into a game that starts on both
// streams with the terms asked; bad input is refused in lichess's shape
// and changes nothing.
func TestLichessChallenges(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	l.account("Ann")
	l.account("Bob")
	annW, annB := l.token("Ann", "challenge:write"), l.token("Ann", "board:play")
	bobW, bobB := l.token("Bob", "challenge:write"), l.token("Bob", "board:play")
	annEvents, bobEvents := l.open(annB, "/api/stream/event"), l.open(bobB, "/api/stream/event")

	// Bad input: each refused, nothing made.
	for _, bad := range []struct {
		token, name, form string
		status            int
	}{
		{annB, "Bob", "", http.StatusForbidden},                        // a token without challenge:write
		{"", "Bob", "", http.StatusUnauthorized},                       // no token
		{annW, "Nobody", "", http.StatusNotFound},                      // no such player
		{annW, "Ann", "", http.StatusBadRequest},                       // oneself
		{annW, "Bob", "variant=atomic", http.StatusBadRequest},         // an unknown variant
		{annW, "Bob", "color=green", http.StatusBadRequest},            // not a colour
		{annW, "Bob", "rated=maybe", http.StatusBadRequest},            // not a boolean
		{annW, "Bob", "clock.limit=90", http.StatusBadRequest},         // not whole minutes
		{annW, "Bob", "clock.limit=-60", http.StatusBadRequest},        // negative
		{annW, "Bob", "days=4", http.StatusBadRequest},                 // not one of the days offered
		{annW, "Bob", "days=3&clock.limit=300", http.StatusBadRequest}, // days and a clock
		{annW, "Bob", "rated=true", http.StatusBadRequest},             // rated without a clock
		{annW, "Bob", "fen=not+a+fen", http.StatusBadRequest},          // a bad FEN
		{annW, "Bob", "clock.limit=600000", http.StatusBadRequest},     // too long
		{annW, "Bob", "clock.increment=9999", http.StatusBadRequest},   // too long
	} {
		code, data := l.send(bad.token, http.MethodPost, "/api/challenge/"+bad.name, bad.form)
		if code != bad.status {
			t.Errorf("challenging %s with %q: %d, want %d: %s", bad.name, bad.form, code, bad.status, data)
			continue
		}
		conform(t, "a refused challenge", data, lichessError)
	}
	code, data := l.call(bobW, http.MethodGet, "/api/challenge")
	if obj := conform(t, "GET /api/challenge", data, lichessChallenges); code != 200 || len(obj["in"].([]any)) != 0 {
		t.Fatalf("Bob's challenges after refusals: %d %s", code, data)
	}

	// Days a move: a correspondence challenge, rated, as lichess shows it.
	corr := l.challenge(annW, "Bob", "days=3&rated=true")
	if tc := corr["timeControl"].(map[string]any); corr["speed"] != "correspondence" || tc["type"] != "correspondence" || tc["daysPerTurn"] != float64(3) {
		t.Fatalf("a correspondence challenge: %v", corr)
	}
	challengeEvent(t, bobEvents, "challenge")
	challengeEvent(t, annEvents, "challenge")
	if code, data := l.call(annW, http.MethodPost, "/api/challenge/"+corr["id"].(string)+"/cancel"); code != 200 {
		t.Fatalf("cancelling the correspondence challenge: %d %s", code, data)
	}
	challengeEvent(t, bobEvents, "challengeCanceled")
	challengeEvent(t, annEvents, "challengeCanceled")

	// Declined, with a reason.
	c := l.challenge(annW, "Bob", "variant=standard&clock.limit=180&clock.increment=2&color=white")
	if c["status"] != "created" || c["direction"] != "out" || c["speed"] != "blitz" || c["color"] != "white" ||
		c["variant"].(map[string]any)["key"] != "standard" || c["destUser"].(map[string]any)["name"] != "Bob" ||
		c["timeControl"].(map[string]any)["limit"] != float64(180) || c["timeControl"].(map[string]any)["increment"] != float64(2) {
		t.Fatalf("the challenge: %v", c)
	}
	id := c["id"].(string)
	if got := challengeEvent(t, bobEvents, "challenge"); got["id"] != id || got["direction"] != "in" {
		t.Fatalf("Bob's challenge event: %v", got)
	}
	challengeEvent(t, annEvents, "challenge")
	code, data = l.call(bobW, http.MethodGet, "/api/challenge")
	list := conform(t, "GET /api/challenge", data, lichessChallenges)
	if in := list["in"].([]any); code != 200 || len(in) != 1 || in[0].(map[string]any)["id"] != id {
		t.Fatalf("Bob's challenges: %d %s", code, data)
	}
	l.refused(bobW, http.MethodPost, "/api/challenge/"+id+"/decline?reason=rude", http.StatusBadRequest)
	l.refused(annW, http.MethodPost, "/api/challenge/"+id+"/accept", http.StatusNotFound) // not hers to accept
	if code, data := l.send(bobW, http.MethodPost, "/api/challenge/"+id+"/decline", "reason=tooFast"); code != 200 {
		t.Fatalf("declining: %d %s", code, data)
	}
	if got := challengeEvent(t, annEvents, "challengeDeclined"); got["id"] != id || got["declineReasonKey"] != "tooFast" || got["status"] != "declined" {
		t.Fatalf("Ann's challengeDeclined: %v", got)
	}
	challengeEvent(t, bobEvents, "challengeDeclined")
	l.refused(bobW, http.MethodPost, "/api/challenge/"+id+"/accept", http.StatusNotFound) // declined

	// Cancelled.
	id = l.challenge(annW, "Bob", "")["id"].(string)
	l.refused(bobW, http.MethodPost, "/api/challenge/"+id+"/cancel", http.StatusNotFound) // not his
	l.ok(annW, "/api/challenge/"+id+"/cancel")
	if got := challengeEvent(t, bobEvents, "challengeCanceled"); got["id"] != id || got["status"] != "canceled" {
		t.Fatalf("Bob's challengeCanceled: %v", got)
	}

	// Accepted, as JSON: the game starts on both streams.
	code, data = l.post2(annW, "/api/challenge/bob", `{"rated":true,"clock":{"limit":300,"increment":3},"color":"black","variant":"banchess"}`)
	if code != 200 {
		t.Fatalf("a challenge as JSON: %d %s", code, data)
	}
	id = conform(t, "a challenge as JSON", data, lichessChallenge)["id"].(string)
	l.ok(bobW, "/api/challenge/"+id+"/accept")
	l.refused(bobW, http.MethodPost, "/api/challenge/"+id+"/accept", http.StatusNotFound) // once
	for who, s := range map[string]*ndLines{"white": bobEvents, "black": annEvents} {
		start, line := s.until("gameStart", func(o map[string]any) bool { return o["type"] == "gameStart" })
		g := start["game"].(map[string]any)
		if g["color"] != who || g["rated"] != true || g["speed"] != "blitz" || g["variant"].(map[string]any)["key"] != "banchess" {
			t.Fatalf("%s's gameStart: %s", who, line)
		}
	}
}

// post2 posts a JSON body as token and answers the status and body.
func (l *lichessT) post2(token, path, body string) (int, []byte) {
	l.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, l.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLichessBoardSeek: POST /api/board/seek keeps its connection open
// while the seek waits in the lobby; accepted, the server closes it and
// the game starts on the stream of events; a connection closed first
// cancels the seek; bad fields and bot accounts are refused.
func TestLichessBoardSeek(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	l.account("Ann")
	bob := l.account("Bob")
	annB := l.token("Ann", "board:play")
	l.account("Carl")
	carlBot := l.token("Carl", "bot:play")
	l.ok(carlBot, "/api/bot/account/upgrade")
	for _, bad := range []struct {
		token, form string
		status      int
	}{
		{annB, "time=0&increment=0", http.StatusBadRequest},
		{annB, "time=5", http.StatusBadRequest},
		{annB, "time=5&increment=3&variant=atomic", http.StatusBadRequest},
		{annB, "time=5&increment=3&color=green", http.StatusBadRequest},
		{annB, "days=3", http.StatusBadRequest},
		{carlBot, "time=5&increment=3", http.StatusForbidden},
		{"", "time=5&increment=3", http.StatusUnauthorized},
	} {
		code, data := l.send(bad.token, http.MethodPost, "/api/board/seek", bad.form)
		if code != bad.status {
			t.Errorf("a seek of %q: %d, want %d: %s", bad.form, code, bad.status, data)
			continue
		}
		conform(t, "a refused seek", data, lichessError)
	}
	var seeks []api.Seek
	list := func() {
		var page struct{ Seeks []api.Seek }
		l.get(bob, "/api/seeks", &page)
		seeks = page.Seeks
	}
	list()
	if len(seeks) != 0 {
		t.Fatalf("seeks after refusals: %+v", seeks)
	}

	// seek opens a board seek of Ann's, and answers when its connection
	// ends.
	seek := func(ctx context.Context) <-chan int {
		ended := make(chan int, 1)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, l.url+"/api/board/seek", strings.NewReader("time=5&increment=3&variant=standard&color=white"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+annB)
		go func() {
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				ended <- 0
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			ended <- res.StatusCode
		}()
		return ended
	}
	open := func() api.Seek {
		t.Helper()
		for deadline := time.Now().Add(eventWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if list(); len(seeks) == 1 {
				return seeks[0]
			}
		}
		t.Fatal("no seek open")
		return api.Seek{}
	}

	// Closed first: the seek goes.
	ctx, cancel := context.WithCancel(context.Background())
	ended := seek(ctx)
	if k := open(); k.Variant != "classic" || k.Clock != "5+3" {
		t.Fatalf("the board seek: %+v", k)
	}
	cancel()
	<-ended
	for deadline := time.Now().Add(eventWait); ; time.Sleep(20 * time.Millisecond) {
		if list(); len(seeks) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the seek of a closed connection stays: %+v", seeks)
		}
	}

	// Accepted: the connection ends and the game starts.
	events := l.open(annB, "/api/stream/event")
	ended = seek(context.Background())
	k := open()
	var p api.Paired
	l.post(bob, "/api/seeks/"+k.ID+"/accept", "", http.StatusOK, &p)
	select {
	case code := <-ended:
		if code != http.StatusOK {
			t.Fatalf("the seek's connection: %d", code)
		}
	case <-time.After(eventWait):
		t.Fatal("the seek's connection stays open after the pairing")
	}
	start, line := events.until("gameStart", func(o map[string]any) bool { return o["type"] == "gameStart" })
	if g := start["game"].(map[string]any); g["gameId"] != p.Game || g["color"] != "white" {
		t.Fatalf("gameStart: %s", line)
	}
}

// get reads path as token into out, failing unless it is 200.
func (l *lichessT) get(token, path string, out any) {
	l.t.Helper()
	code, data := l.call(token, http.MethodGet, path)
	if code != http.StatusOK {
		l.t.Fatalf("GET %s: %d %s", path, code, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		l.t.Fatalf("GET %s: %v: %s", path, err, data)
	}
}

// TestLichessChatAndOpponentGone: a game's stream tells its player of
// each chat line said after it opened (chatLine, posted by the other
// player through lichess's chat route) and of the opponent leaving and
// coming back (opponentGone).
func TestLichessChatAndOpponentGone(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	ann, bob := l.account("Ann"), l.account("Bob")
	annB, bobB := l.token("Ann", "board:play"), l.token("Bob", "board:play")
	id := l.pair(ann, bob, "5+3", false)
	s := l.open(annB, "/api/board/game/stream/"+id)
	s.next() // gameFull
	b := l.open(bobB, "/api/board/game/stream/"+id)
	b.next()
	if gone, line := s.until("opponentGone", func(o map[string]any) bool { return o["type"] == "opponentGone" }); gone["gone"] != false {
		t.Fatalf("Bob came: %s", line)
	}
	if code, data := l.send(bobB, http.MethodPost, "/api/board/game/"+id+"/chat", "room=player&text=good+luck"); code != 200 {
		t.Fatalf("chat: %d %s", code, data)
	}
	line, data := s.until("chatLine", func(o map[string]any) bool { return o["type"] == "chatLine" })
	conform(t, "chatLine", data, schema{"type": "string", "room": "string", "username": "string", "text": "string"})
	if line["room"] != "player" || line["username"] != "Bob" || line["text"] != "good luck" {
		t.Fatalf("chatLine: %s", data)
	}
	if code, _ := l.send(bobB, http.MethodPost, "/api/board/game/"+id+"/chat", "room=lobby&text=hi"); code != http.StatusBadRequest {
		t.Errorf("chat in no room: %d", code)
	}
	b.close()
	if gone, line := s.until("opponentGone", func(o map[string]any) bool { return o["type"] == "opponentGone" }); gone["gone"] != true {
		t.Fatalf("Bob left: %s", line)
	}
}
