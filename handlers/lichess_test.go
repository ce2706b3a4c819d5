package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/stream"
)

// The lichess API's objects as lichess's published documentation
// (https://lichess.org/api) describes them, field by field: the JSON
// type each field has ("string", "number", "boolean", "object", "array",
// "null"; "a|b" when either), and a trailing "?" when the documentation
// marks it optional. conform checks an answer against one; our answers
// may have more fields than lichess's (the account's "ratings").
type schema map[string]string

var (
	lichessAccount  = schema{"id": "string", "username": "string", "title": "string?", "perfs": "object", "createdAt": "number"}
	lichessPerf     = schema{"games": "number", "rating": "number", "rd": "number", "prog": "number", "prov": "boolean?"}
	lichessOK       = schema{"ok": "boolean"}
	lichessError    = schema{"error": "string"}
	lichessGameFull = schema{"type": "string", "id": "string", "variant": "object", "clock": "object|null", "speed": "string",
		"perf": "object", "rated": "boolean", "createdAt": "number", "white": "object", "black": "object",
		"initialFen": "string", "state": "object"}
	lichessVariant   = schema{"key": "string", "name": "string", "short": "string?"}
	lichessClock     = schema{"initial": "number", "increment": "number"}
	lichessPlayer    = schema{"id": "string?", "name": "string?", "title": "string|null?", "rating": "number?", "provisional": "boolean?", "aiLevel": "number?"}
	lichessGameState = schema{"type": "string", "moves": "string", "wtime": "number", "btime": "number", "winc": "number",
		"binc": "number", "status": "string", "winner": "string?", "wdraw": "boolean?", "bdraw": "boolean?",
		"wtakeback": "boolean?", "btakeback": "boolean?"}
	lichessEvent     = schema{"type": "string", "game": "object"}
	lichessEventGame = schema{"gameId": "string", "fullId": "string", "color": "string", "fen": "string", "hasMoved": "boolean",
		"isMyTurn": "boolean", "lastMove": "string", "opponent": "object", "perf": "string", "rated": "boolean",
		"secondsLeft": "number|null", "source": "string", "status": "object", "speed": "string", "variant": "object",
		"compat": "object?", "winner": "string?"}
	lichessOpponent = schema{"id": "string|null", "username": "string", "rating": "number?", "ai": "number?"}
	lichessStatus   = schema{"id": "number", "name": "string"}
	// lichess's status names of a finished or running game.
	lichessStatuses = []string{"created", "started", "aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "cheat", "noStart", "unknownFinish", "variantEnd"}
)

// jsonType is the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	}
	return "object"
}

// conform checks that data, a JSON object, has sch's fields with their
// types, and returns it decoded.
func conform(t *testing.T, what string, data []byte, sch schema) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("%s: not a JSON object: %v: %s", what, err, data)
	}
	conformObject(t, what, obj, sch)
	return obj
}

// conformObject is conform on a decoded object.
func conformObject(t *testing.T, what string, obj map[string]any, sch schema) {
	t.Helper()
	for name, want := range sch {
		optional := strings.HasSuffix(want, "?")
		want = strings.TrimSuffix(want, "?")
		v, ok := obj[name]
		if !ok {
			if !optional {
				t.Errorf("%s: no %q: %v", what, name, obj)
			}
			continue
		}
		if got := jsonType(v); !strings.Contains("|"+want+"|", "|"+got+"|") {
			t.Errorf("%s: %q is a %s (%v), want %s", what, name, got, v, want)
		}
	}
}

// lichessT drives lichess's API on a live server.
type lichessT struct {
	*liveServer
}

// call sends method path with token and answers the status and body.
func (l *lichessT) call(token, method, path string) (int, []byte) {
	l.t.Helper()
	req, err := http.NewRequest(method, l.url+path, nil)
	if err != nil {
		l.t.Fatal(err)
	}
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

// read answers GET path's body, as anyone.
func (l *lichessT) read(path string) string {
	l.t.Helper()
	_, data := l.call("", http.MethodGet, path)
	return string(data)
}

// ok posts path as token and checks lichess's {"ok":true}.
func (l *lichessT) ok(token, path string) {
	l.t.Helper()
	code, data := l.call(token, http.MethodPost, path)
	if code != http.StatusOK {
		l.t.Fatalf("POST %s: %d %s", path, code, data)
	}
	if obj := conform(l.t, "POST "+path, data, lichessOK); obj["ok"] != true {
		l.t.Fatalf("POST %s: %s", path, data)
	}
}

// refused checks method path as token is refused with status, in
// lichess's shape, and answers the message.
func (l *lichessT) refused(token, method, path string, status int) string {
	l.t.Helper()
	code, data := l.call(token, method, path)
	if code != status {
		l.t.Fatalf("%s %s: %d, want %d: %s", method, path, code, status, data)
	}
	obj := conform(l.t, method+" "+path, data, lichessError)
	msg, _ := obj["error"].(string)
	if len(msg) < 10 {
		l.t.Fatalf("%s %s: error %q", method, path, msg)
	}
	return msg
}

// token signs in as name with scopes (none: a token not limited).
func (l *lichessT) token(name string, scopes ...string) string {
	l.t.Helper()
	body := `{"name":"` + name + `","password":"` + secret + `"`
	if scopes != nil {
		list, _ := json.Marshal(scopes)
		body += `,"scopes":` + string(list)
	}
	var tok api.Token
	l.post("", "/api/token", body+"}", http.StatusCreated, &tok)
	if tok.Scopes != strings.Join(scopes, " ") {
		l.t.Fatalf("a token of scopes %v: %+v", scopes, tok)
	}
	return tok.Token
}

// account names a new player and answers their token (not limited).
func (l *lichessT) account(name string) string {
	l.t.Helper()
	var tok api.Token
	l.post("", "/api/account", `{"name":"`+name+`","password":"`+secret+`"}`, http.StatusCreated, &tok)
	return tok.Token
}

// pair has maker seek a game at clock (maker White) and taker accept it:
// the game's id.
func (l *lichessT) pair(maker, taker, clock string, rated bool) string {
	l.t.Helper()
	var k api.Seek
	r := "false"
	if rated {
		r = "true"
	}
	l.post(maker, "/api/seeks", `{"clock":"`+clock+`","color":"white","rated":`+r+`}`, http.StatusCreated, &k)
	var p api.Paired
	l.post(taker, "/api/seeks/"+k.ID+"/accept", "", http.StatusOK, &p)
	return p.Game
}

// ndLines is an open NDJSON stream: its lines (keep-alive empty lines
// counted apart), until closed.
type ndLines struct {
	t      *testing.T
	c      chan []byte
	empty  chan struct{}
	cancel func()
}

// open opens the NDJSON stream at path as token.
func (l *lichessT) open(token, path string) *ndLines {
	l.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.url+path, nil)
	if err != nil {
		l.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/x-ndjson" {
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		l.t.Fatalf("GET %s: %d %q %s", path, res.StatusCode, res.Header.Get("Content-Type"), data)
	}
	s := &ndLines{t: l.t, c: make(chan []byte, 100), empty: make(chan struct{}, 100), cancel: func() { cancel(); res.Body.Close() }}
	go func() {
		defer close(s.c)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if len(strings.TrimSpace(sc.Text())) == 0 {
				select {
				case s.empty <- struct{}{}:
				default:
				}
				continue
			}
			s.c <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	l.t.Cleanup(s.close)
	return s
}

func (s *ndLines) close() { s.cancel() }

// next is the stream's next line, decoded.
func (s *ndLines) next() (map[string]any, []byte) {
	s.t.Helper()
	select {
	case line, ok := <-s.c:
		if !ok {
			s.t.Fatal("the stream ended")
		}
		var obj map[string]any
		if err := json.Unmarshal(line, &obj); err != nil {
			s.t.Fatalf("a line that is not JSON: %v: %s", err, line)
		}
		return obj, line
	case <-time.After(eventWait):
		s.t.Fatal("no line in time")
	}
	return nil, nil
}

// until reads lines until one satisfies ok, and answers it.
func (s *ndLines) until(what string, ok func(map[string]any) bool) (map[string]any, []byte) {
	s.t.Helper()
	deadline := time.Now().Add(eventWait)
	for time.Now().Before(deadline) {
		obj, line := s.next()
		if ok(obj) {
			return obj, line
		}
	}
	s.t.Fatalf("no %s in time", what)
	return nil, nil
}

// revisionOf is a game object's revision: it counts its changes.
func revisionOf(t *testing.T, game string) float64 {
	t.Helper()
	var g struct{ Revision float64 }
	if err := json.Unmarshal([]byte(game), &g); err != nil || g.Revision == 0 {
		t.Fatalf("not a game: %v: %s", err, game)
	}
	return g.Revision
}

// plies counts the plies of a gameState's moves.
func plies(state map[string]any) int { return len(strings.Fields(state["moves"].(string))) }

// banMateUCI is banMate as lichess's moves write it: squares only.
func banMateUCI() []string {
	out := make([]string, len(banMate))
	for i, a := range banMate {
		out[i] = a[2:]
	}
	return out
}

// TestLichessScopes: a token limited to scopes opens only the routes that
// take one of them (403 otherwise), a token is needed (401), and a token
// of scopes no one knows is not made.
func TestLichessScopes(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	l.account("Ann")
	board := l.token("Ann", "board:play")
	l.post("", "/api/token", `{"name":"Ann","password":"`+secret+`","scopes":["board:play","admin"]}`, http.StatusBadRequest, nil)
	l.post("", "/api/token", `{"name":"Ann","password":"`+secret+`","scopes":[]}`, http.StatusBadRequest, nil)
	l.post("", "/api/account", `{"name":"Bea","password":"`+secret+`","scopes":["board:play"]}`, http.StatusBadRequest, nil)
	if msg := l.refused(board, http.MethodPost, "/api/bot/account/upgrade", http.StatusForbidden); !strings.Contains(msg, "Missing scope") {
		t.Errorf("a board token upgrading: %q", msg)
	}
	l.refused("", http.MethodPost, "/api/bot/account/upgrade", http.StatusUnauthorized)
	l.refused("made-up", http.MethodPost, "/api/bot/account/upgrade", http.StatusUnauthorized)
	l.refused("", http.MethodGet, "/api/stream/event", http.StatusUnauthorized)
	challenge := l.token("Ann", "challenge:write")
	l.refused(challenge, http.MethodGet, "/api/stream/event", http.StatusForbidden)
	l.refused(challenge, http.MethodGet, "/api/board/game/stream/nothing", http.StatusForbidden)
	l.refused(challenge, http.MethodPost, "/api/board/game/nothing/move/e2e4", http.StatusForbidden)
	// The account is any token's, limited or not; a limited one's answer
	// says its scopes as lichess's do.
	req, _ := http.NewRequest(http.MethodGet, l.url+"/api/account", nil)
	req.Header.Set("Authorization", "Bearer "+board)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/account with a board token: %d", res.StatusCode)
	}
	code, _ := l.call(board, http.MethodGet, "/api/board/game/stream/nothing")
	if code != http.StatusNotFound {
		t.Errorf("a board token's stream of no game: %d, want 404", code)
	}
}

// TestLichessBotAccount: a named account with no rated game becomes a bot
// (title BOT), which the pools refuse and the Board API too, and which
// plays through the Bot API; an anonymous account, one with a rated game
// and a bot already are refused.
func TestLichessBotAccount(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	carl, dora, eve := l.account("Carl"), l.account("Dora"), l.account("Eve")
	code, data := l.call(carl, http.MethodGet, "/api/account")
	if obj := conform(t, "GET /api/account", data, lichessAccount); code != 200 || obj["id"] != "carl" || obj["username"] != "Carl" || obj["title"] != nil {
		t.Fatalf("Carl's account: %d %s", code, data)
	}
	bot := l.token("Carl", "bot:play")
	l.ok(bot, "/api/bot/account/upgrade")
	_, data = l.call(carl, http.MethodGet, "/api/account")
	if obj := conform(t, "a bot's account", data, lichessAccount); obj["title"] != "BOT" {
		t.Fatalf("Carl's account after the upgrade: %s", data)
	}
	l.refused(bot, http.MethodPost, "/api/bot/account/upgrade", http.StatusForbidden)
	l.post(carl, "/api/pools/5+3", "", http.StatusForbidden, nil)
	// Dora has played a rated game: she stays as she is.
	var g api.Game
	id := l.pair(dora, eve, "5+3", true)
	l.post(eve, "/api/games/"+id+"/actions", `{"action":"b:e2e4"}`, 200, &g)
	l.post(dora, "/api/games/"+id+"/actions", `{"action":"m:d2d4"}`, 200, &g)
	l.post(dora, "/api/games/"+id+"/resign", `{"color":"white"}`, 200, &g)
	l.refused(dora, http.MethodPost, "/api/bot/account/upgrade", http.StatusForbidden)
	_, data = l.call(dora, http.MethodGet, "/api/account")
	perfs, _ := conform(t, "Dora's account", data, lichessAccount)["perfs"].(map[string]any)
	ban, ok := perfs["banchess"].(map[string]any)
	if !ok || ban["games"] != float64(1) {
		t.Fatalf("Dora's perfs: %s", data)
	}
	conformObject(t, "Dora's Ban Chess perf", ban, lichessPerf)
	var anon api.Created
	l.post("", "/api/games", `{}`, http.StatusCreated, &anon)
	l.refused(anon.Token, http.MethodPost, "/api/bot/account/upgrade", http.StatusForbidden)

	// The bot plays Eve through the Bot API; the Board API is not its.
	id = l.pair(eve, carl, "5+3", false)
	l.refused(bot, http.MethodGet, "/api/board/game/stream/"+id, http.StatusForbidden)
	l.refused(eve, http.MethodGet, "/api/bot/game/stream/"+id, http.StatusForbidden)
	s := l.open(bot, "/api/bot/game/stream/"+id)
	full, line := s.next()
	conform(t, "the bot's gameFull", line, lichessGameFull)
	black, _ := full["black"].(map[string]any)
	if full["type"] != "gameFull" || black["title"] != "BOT" || black["name"] != "Carl" {
		t.Fatalf("the bot's gameFull: %s", line)
	}
	l.ok(bot, "/api/bot/game/"+id+"/move/e2e4")
	st, _ := s.until("the ban", func(o map[string]any) bool { return o["type"] == "gameState" && plies(o) == 1 })
	if st["moves"] != "e2e4" {
		t.Fatalf("after the bot's ban: %v", st)
	}
	l.refused(bot, http.MethodPost, "/api/bot/game/"+id+"/takeback/yes", http.StatusNotFound)
	l.ok(eve, "/api/board/game/"+id+"/move/d2d4") // a token not limited plays through the Board API too
	l.ok(bot, "/api/bot/game/"+id+"/draw/yes")
	s.until("the bot's offer", func(o map[string]any) bool { return o["bdraw"] == true && plies(o) == 2 })
	l.ok(bot, "/api/bot/game/"+id+"/resign")
	if st, line := s.until("the resignation", func(o map[string]any) bool { return o["status"] != "started" }); st["status"] != "resign" || st["winner"] != "white" {
		t.Fatalf("the bot resigned: %s", line)
	}
}

// TestLichessBoardGame: two accounts play a Ban Chess game through the
// Board API to a checkmate by ban, each answer and line checked against
// lichess's documented fields; the stream of events tells both of its
// start and end; a game stream dropped midway and opened again starts
// with every ply so far; bad plies change nothing.
func TestLichessBoardGame(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	ann, bob := l.account("Ann"), l.account("Bob")
	l.account("Carl")
	annB, bobB, carlB := l.token("Ann", "board:play"), l.token("Bob", "board:play"), l.token("Carl", "board:play")
	code, data := l.call(annB, http.MethodGet, "/api/account")
	if code != 200 {
		t.Fatalf("GET /api/account: %d %s", code, data)
	}
	conform(t, "GET /api/account", data, lichessAccount)

	events := l.open(annB, "/api/stream/event")
	// A game with a friend who has not come yet has not started: no
	// gameStart (the first must be the paired game's).
	l.post(ann, "/api/games", `{"mode":"invite","color":"white"}`, http.StatusCreated, nil)
	time.Sleep(1100 * time.Millisecond) // a look at the player's games
	id := l.pair(ann, bob, "5+3", false)
	start, line := events.until("gameStart", func(o map[string]any) bool { return o["type"] == "gameStart" })
	conform(t, "gameStart", line, lichessEvent)
	game, _ := start["game"].(map[string]any)
	conformObject(t, "gameStart's game", game, lichessEventGame)
	conformObject(t, "gameStart's opponent", game["opponent"].(map[string]any), lichessOpponent)
	conformObject(t, "gameStart's status", game["status"].(map[string]any), lichessStatus)
	conformObject(t, "gameStart's variant", game["variant"].(map[string]any), lichessVariant)
	if game["gameId"] != id || game["color"] != "white" || game["isMyTurn"] != false || game["speed"] != "blitz" ||
		game["variant"].(map[string]any)["key"] != "banchess" || game["opponent"].(map[string]any)["username"] != "Bob" ||
		game["status"].(map[string]any)["name"] != "started" || game["secondsLeft"] != float64(300) {
		t.Fatalf("gameStart: %s", line)
	}

	s := l.open(annB, "/api/board/game/stream/"+id)
	full, line := s.next()
	conform(t, "gameFull", line, lichessGameFull)
	conformObject(t, "gameFull's variant", full["variant"].(map[string]any), lichessVariant)
	conformObject(t, "gameFull's clock", full["clock"].(map[string]any), lichessClock)
	conformObject(t, "gameFull's white", full["white"].(map[string]any), lichessPlayer)
	conformObject(t, "gameFull's black", full["black"].(map[string]any), lichessPlayer)
	conformObject(t, "gameFull's state", full["state"].(map[string]any), lichessGameState)
	state := full["state"].(map[string]any)
	if full["id"] != id || full["initialFen"] != "startpos" || full["speed"] != "blitz" || full["rated"] != false ||
		full["white"].(map[string]any)["name"] != "Ann" || full["clock"].(map[string]any)["initial"] != float64(300000) ||
		state["moves"] != "" || state["status"] != "started" || state["winc"] != float64(3000) || state["wtime"] != float64(300000) {
		t.Fatalf("gameFull: %s", line)
	}

	// Bad plies change nothing: out of turn, not squares, illegal,
	// someone else's game, no such game.
	before := l.read("/api/games/" + id)
	l.refused(annB, http.MethodPost, "/api/board/game/"+id+"/move/e7e5", http.StatusBadRequest) // Black bans first
	l.refused(bobB, http.MethodPost, "/api/board/game/"+id+"/move/Nf3", http.StatusBadRequest)
	l.refused(bobB, http.MethodPost, "/api/board/game/"+id+"/move/e2e5", http.StatusBadRequest)
	l.refused(carlB, http.MethodPost, "/api/board/game/"+id+"/move/e2e4", http.StatusForbidden)
	l.refused(carlB, http.MethodGet, "/api/board/game/stream/"+id, http.StatusForbidden)
	l.refused(bobB, http.MethodPost, "/api/board/game/nosuchgame/move/e2e4", http.StatusNotFound)
	l.refused(bobB, http.MethodPost, "/api/board/game/"+id+"/draw/maybe", http.StatusBadRequest)
	if after := l.read("/api/games/" + id); revisionOf(t, after) != revisionOf(t, before) {
		t.Fatalf("a refused ply changed the game:\n%s\n%s", before, after)
	}

	mate := banMateUCI()
	var st map[string]any
	for i, ply := range mate {
		tok := bobB
		if i%4 == 1 || i%4 == 2 { // White moves at plies 2, 6…, bans at 3, 7…
			tok = annB
		}
		l.ok(tok, "/api/board/game/"+id+"/move/"+ply)
		var line []byte
		st, line = s.until("ply "+ply, func(o map[string]any) bool { return o["type"] == "gameState" && plies(o) == i+1 })
		conform(t, "gameState", line, lichessGameState)
		if want := strings.Join(mate[:i+1], " "); st["moves"] != want {
			t.Fatalf("after ply %d: moves %q, want %q", i+1, st["moves"], want)
		}
		if i == 4 {
			// The stream drops; opened again, it starts with gameFull and
			// every ply so far.
			s.close()
			s = l.open(annB, "/api/board/game/stream/"+id)
			full, line := s.next()
			conform(t, "gameFull again", line, lichessGameFull)
			if st := full["state"].(map[string]any); full["type"] != "gameFull" || st["moves"] != strings.Join(mate[:5], " ") || st["status"] != "started" {
				t.Fatalf("the stream opened again: %s", line)
			}
		}
	}
	if st["status"] != "mate" || st["winner"] != "white" || plies(st) != len(mate) {
		t.Fatalf("the checkmate by ban: %v", st)
	}
	found := false
	for _, name := range lichessStatuses {
		found = found || st["status"] == name
	}
	if !found {
		t.Errorf("status %v is not lichess's", st["status"])
	}
	fin, line := events.until("gameFinish", func(o map[string]any) bool { return o["type"] == "gameFinish" })
	conform(t, "gameFinish", line, lichessEvent)
	if g := fin["game"].(map[string]any); g["gameId"] != id || g["status"].(map[string]any)["name"] != "mate" || g["winner"] != "white" {
		t.Fatalf("gameFinish: %s", line)
	}
	l.refused(bobB, http.MethodPost, "/api/board/game/"+id+"/move/e1e2", http.StatusBadRequest) // over
}

// TestLichessKeepAlive: lichess's streams write an empty line when idle
// (every 6 s, or the streams' heartbeat when shorter).
func TestLichessKeepAlive(t *testing.T) {
	l := &lichessT{newLiveServer(t, WithStreamLimits(stream.Limits{Heartbeat: 50 * time.Millisecond}))}
	ann, bob := l.account("Ann"), l.account("Bob")
	id := l.pair(ann, bob, "5+3", false)
	for _, path := range []string{"/api/stream/event", "/api/board/game/stream/" + id} {
		s := l.open(ann, path)
		for range 2 {
			select {
			case <-s.empty:
			case <-time.After(eventWait):
				t.Fatalf("%s: no empty line in time", path)
			}
		}
		s.close()
	}
}

// TestLichessOffers: a draw offered with a move and accepted, a takeback
// asked and declined, an abort, a resignation, each seen on the game's
// stream; Classic is lichess's "standard".
func TestLichessOffers(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	ann, bob := l.account("Ann"), l.account("Bob")
	annB, bobB := l.token("Ann", "board:play"), l.token("Bob", "board:play")

	id := l.pair(ann, bob, "5+3", false)
	s := l.open(bobB, "/api/board/game/stream/"+id)
	s.next()
	l.ok(annB, "/api/board/game/"+id+"/abort")
	if st, line := s.until("the abort", func(o map[string]any) bool { return o["type"] == "gameState" }); st["status"] != "aborted" {
		t.Fatalf("aborted: %s", line)
	}

	id = l.pair(ann, bob, "5+3", false)
	s = l.open(bobB, "/api/board/game/stream/"+id)
	s.next()
	l.ok(bobB, "/api/board/game/"+id+"/move/e2e4")
	l.ok(annB, "/api/board/game/"+id+"/move/d2d4?offeringDraw=true")
	if st, line := s.until("the offer", func(o map[string]any) bool { return o["wdraw"] == true }); plies(st) != 2 {
		t.Fatalf("a draw offered with a move: %s", line)
	}
	l.ok(bobB, "/api/board/game/"+id+"/draw/no")
	s.until("the offer declined", func(o map[string]any) bool { return o["wdraw"] == false })
	l.ok(annB, "/api/board/game/"+id+"/move/e7e5")
	l.ok(bobB, "/api/board/game/"+id+"/move/d7d5")
	l.ok(bobB, "/api/board/game/"+id+"/takeback/yes")
	s.until("the takeback asked", func(o map[string]any) bool { return o["btakeback"] == true })
	l.ok(annB, "/api/board/game/"+id+"/takeback/no")
	s.until("the takeback declined", func(o map[string]any) bool { return o["btakeback"] == false })
	l.ok(annB, "/api/board/game/"+id+"/draw/yes")
	l.ok(bobB, "/api/board/game/"+id+"/draw/yes")
	if st, line := s.until("the draw", func(o map[string]any) bool { return o["status"] != "started" }); st["status"] != "draw" || st["winner"] != nil {
		t.Fatalf("a draw agreed: %s", line)
	}

	// Classic, resigned.
	var created api.Created
	l.post(ann, "/api/games", `{"mode":"invite","color":"white","variant":"classic"}`, http.StatusCreated, &created)
	l.post(bob, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`, http.StatusOK, nil)
	s = l.open(annB, "/api/board/game/stream/"+created.ID)
	full, line := s.next()
	if v := full["variant"].(map[string]any); v["key"] != "standard" || full["initialFen"] != "startpos" || full["clock"] != nil || full["speed"] != "correspondence" {
		t.Fatalf("a Classic game's gameFull: %s", line)
	}
	classic := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"} // castling as lichess's clients write it
	for i, mv := range classic {
		l.ok([]string{annB, bobB}[i%2], "/api/board/game/"+created.ID+"/move/"+mv)
	}
	l.ok(bobB, "/api/board/game/"+created.ID+"/resign")
	if st, line := s.until("the resignation", func(o map[string]any) bool { return o["status"] != "started" }); st["status"] != "resign" || st["winner"] != "white" || st["moves"] != strings.Join(classic, " ") {
		t.Fatalf("resigned: %s", line)
	}
}

// TestAccountPageMakesTokens: the account page makes a named player a
// token limited to the scopes ticked, shown once, which lichess's routes
// take within its scopes; none ticked is refused.
func TestAccountPageMakesTokens(t *testing.T) {
	e := newServer()
	c := newClientOn(t, e)
	c.get("/account")
	c.register("Ann")
	if d := c.get("/account"); d.Find(`form[action="/account/token"] input[name="scope"][value="board:play"]`).Length() != 1 {
		t.Fatal("the account page has no form to make a token")
	}
	rec := c.do(http.MethodPost, "/account/token", vals("scope", "board:play"), false)
	if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("POST /account/token: %d %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	d := parse(t, rec)
	tok := strings.TrimSpace(d.Find("#new-token").Text())
	if len(tok) < 40 || !strings.Contains(text(d, "main"), "limited to board:play") {
		t.Fatalf("the new token: %q in %q", tok, text(d, "main"))
	}
	a := newAPIT(t, e)
	a.fail(a.doAs(tok, http.MethodPost, "/api/bot/account/upgrade", ""), http.StatusForbidden, "missing_scope")
	var me api.Player
	a.decode(a.doAs(tok, http.MethodGet, "/api/account", ""), http.StatusOK, &me)
	if me.Username != "Ann" {
		t.Errorf("the token's account: %+v", me)
	}
	rec = c.do(http.MethodPost, "/account/token", vals(), false)
	if d := parse(t, rec); rec.Code != http.StatusBadRequest || !strings.Contains(text(d, "#account-error"), "Tick what the token may do") || d.Find("#new-token").Length() != 0 {
		t.Errorf("no scope ticked: %d %q", rec.Code, text(d, "main"))
	}
}

// TestLichessStreamAfterPremove: a premove queued (a change its opponent
// must not see, which the shown revision leaves out) does not make the
// game stream skip what follows: every ply after it comes as a gameState.
func TestLichessStreamAfterPremove(t *testing.T) {
	l := &lichessT{newLiveServer(t)}
	ann, bob := l.account("Ann"), l.account("Bob")
	annB, bobB := l.token("Ann", "board:play"), l.token("Bob", "board:play")
	id := l.pair(ann, bob, "5+3", false)
	s := l.open(annB, "/api/board/game/stream/"+id)
	s.next() // gameFull
	move := func(token, uci string, want int) {
		t.Helper()
		l.ok(token, "/api/board/game/"+id+"/move/"+uci)
		s.until(fmt.Sprintf("the state after ply %d", want), func(o map[string]any) bool { return o["type"] == "gameState" && plies(o) == want })
	}
	move(bobB, "e2e4", 1)
	move(annB, "d2d4", 2)
	move(annB, "e7e5", 3)
	req, err := http.NewRequest(http.MethodPut, l.url+"/api/games/"+id+"/premove", strings.NewReader(`{"actions":["m:c2c4","b:c7c5"]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+ann)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT premove: %d", res.StatusCode)
	}
	move(bobB, "d7d5", 4)
	move(bobB, "g1f3", 7) // the premove's move and ban come with it
	move(bobB, "g8f6", 8)
	move(bobB, "b1c3", 9)
}
