package handlers

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// apiClock is the fixed time of the API tests.
func apiClock() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

// apiT talks to one server through its HTTP handler, as the creator of
// the games it creates: it keeps each one's token.
type apiT struct {
	t      *testing.T
	h      http.Handler
	tokens map[string]string // the token of each game created, by id
}

func newAPIT(t *testing.T, h http.Handler) *apiT {
	return &apiT{t: t, h: h, tokens: map[string]string{}}
}

// newAPI serves everything Register adds, as main does.
func newAPI(t *testing.T) *apiT {
	e := echo.New()
	New(newService(nil), apiClock).Register(e)
	return newAPIT(t, e)
}

// newBareAPI serves the API group alone, without the shared middleware.
func newBareAPI(t *testing.T) *apiT {
	e := echo.New()
	New(newService(nil), apiClock).apiRoutes(e.Group("/api"))
	return newAPIT(t, e)
}

// apiResp is an answer.
type apiResp struct {
	code int
	hdr  http.Header
	body []byte
}

// do sends body (JSON, when not empty) and returns the answer. A write
// to a game this apiT created carries that game's token, as its creator
// would send it; reads carry none.
func (a *apiT) do(method, path, body string) apiResp {
	a.t.Helper()
	return a.send(a.request(method, path, body))
}

// doAs sends body with token as the bearer token ("" for none).
func (a *apiT) doAs(token, method, path, body string) apiResp {
	a.t.Helper()
	req := a.request(method, path, body)
	req.Header.Del("Authorization")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return a.send(req)
}

// request is the request do sends.
func (a *apiT) request(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if rest, ok := strings.CutPrefix(path, "/api/games/"); ok && method != http.MethodGet {
		id, _, _ := strings.Cut(rest, "/")
		if tok := a.tokens[id]; tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	return req
}

func (a *apiT) send(req *http.Request) apiResp {
	rec := httptest.NewRecorder()
	a.h.ServeHTTP(rec, req)
	return apiResp{rec.Code, rec.Header(), rec.Body.Bytes()}
}

// gameFields are the game object's names, exactly.
var gameFields = []string{"id", "variant", "fen", "ply", "turn", "phase", "ban", "inCheck", "legal", "status", "reason", "winner", "result", "log", "pgn", "mode", "revision", "seats", "clock", "offers", "rematch", "bot"}

// game checks r is a game object with status want and decodes it. A new
// game (201) has its token too, which a keeps for the game's writes.
func (a *apiT) game(r apiResp, want int) gameObject {
	a.t.Helper()
	if r.code != want {
		a.t.Fatalf("status %d, want %d: %s", r.code, want, r.body)
	}
	if ct := r.hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		a.t.Fatalf("Content-Type %q", ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &raw); err != nil {
		a.t.Fatalf("%v: %s", err, r.body)
	}
	var names []string
	for k := range raw {
		names = append(names, k)
	}
	fields := gameFields
	if want == http.StatusCreated {
		fields = append(slices.Clip(fields), "token")
	}
	if want, got := slices.Sorted(slices.Values(fields)), slices.Sorted(slices.Values(names)); !slices.Equal(got, want) {
		a.t.Fatalf("game object fields %v, want %v", got, want)
	}
	for _, k := range []string{"legal", "log"} {
		if string(raw[k]) == "null" {
			a.t.Fatalf("%s is null, want a list", k)
		}
	}
	var g createdGame
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		a.t.Fatal(err)
	}
	if want == http.StatusCreated {
		if !games.Credential(g.Token).Valid() || len(g.Token) < 40 || strings.Contains(g.Token, g.ID) {
			a.t.Fatalf("token %q for game %q", g.Token, g.ID)
		}
		a.tokens[g.ID] = g.Token
	}
	return g.gameObject
}

// fail checks r is a failure with status and code, in the API's shape.
func (a *apiT) fail(r apiResp, status int, code string) string {
	a.t.Helper()
	if r.code != status {
		a.t.Fatalf("status %d, want %d: %s", r.code, status, r.body)
	}
	if ct := r.hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		a.t.Fatalf("Content-Type %q: %s", ct, r.body)
	}
	var e struct{ Error, Code string }
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		a.t.Fatalf("error body %s: %v", r.body, err)
	}
	if e.Code != code || !strings.HasSuffix(e.Error, ".") || len(e.Error) < 10 {
		a.t.Fatalf("error %q code %q, want code %q and a sentence", e.Error, e.Code, code)
	}
	return e.Error
}

// create starts a game from body and returns it.
func (a *apiT) create(body string) gameObject {
	a.t.Helper()
	return a.game(a.do(http.MethodPost, "/api/games", body), http.StatusCreated)
}

// play plays actions in order and returns the game after the last.
func (a *apiT) play(id string, actions ...string) gameObject {
	a.t.Helper()
	var g gameObject
	for _, act := range actions {
		g = a.game(a.do(http.MethodPost, "/api/games/"+id+"/actions", `{"action":"`+act+`"}`), http.StatusOK)
	}
	return g
}

// unchanged checks a failed request left the game as before.
func (a *apiT) unchanged(id string, before apiResp) {
	a.t.Helper()
	if after := a.do(http.MethodGet, "/api/games/"+id, ""); !bytes.Equal(after.body, before.body) {
		a.t.Fatalf("a refused request changed the game:\n%s\n%s", before.body, after.body)
	}
}

func TestAPICreate(t *testing.T) {
	const banFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"
	tests := []struct {
		name, body          string
		variant, fen, phase string
		ply                 int
		log                 []string
	}{
		{"no body", "", "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"empty object", "{}", "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"whitespace around", " \n{ }\n", "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"ban", `{"variant":"ban"}`, "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"empty variant", `{"variant":""}`, "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"classic", `{"variant":"classic"}`, "classic", rules.StartFEN, "move", 1, nil},
		{"variant by name", `{"variant":"Ban Chess"}`, "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"variant in capitals", `{"variant":"CLASSIC"}`, "classic", rules.StartFEN, "move", 1, nil},
		{"six-field FEN", `{"fen":"` + rules.StartFEN + `"}`, "ban", rules.StartFEN + " 1", "ban", 1, nil},
		{"FEN with a ban", `{"fen":"` + banFEN + `"}`, "ban", banFEN, "move", 2, nil},
		{"classic FEN", `{"variant":"classic","fen":"4k3/8/8/8/8/8/8/4K2R b K - 3 20"}`, "classic", "4k3/8/8/8/8/8/8/4K2R b K - 3 20", "move", 40, nil},
		{"PGN with bans", `{"pgn":"1. {banning: e2e4} d4 {banning: e7e5} d5 {banning: c2c4} *"}`, "ban",
			"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2 6:c2c4", "move", 6, []string{"b:e2e4", "d4", "b:e7e5", "d5", "b:c2c4"}},
		{"PGN without bans", `{"pgn":"[Event \"x\"]\n\n1. e4 e5 2. Nf3 *"}`, "classic",
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "move", 4, []string{"e4", "e5", "Nf3"}},
		{"classic PGN", `{"variant":"classic","pgn":"1. e4 e5 *"}`, "classic",
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "move", 3, []string{"e4", "e5"}},
		{"EN-Chess", `{"variant":"en"}`, "en", rules.ENStartFEN, "move", 1, nil},
		{"EN-Chess FEN", `{"variant":"en","fen":"3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n"}`, "en", "3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n", "move", 1, nil},
		{"EN-Chess PGN", `{"pgn":"[Variant \"EN-Chess\"]\n\n1. A@e1 e5 *"}`, "en",
			"rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQABNR w kq e6 0 2 Ka", "move", 3, []string{"A@e1", "e5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t)
			r := a.do(http.MethodPost, "/api/games", tc.body)
			g := a.game(r, http.StatusCreated)
			if loc := r.hdr.Get("Location"); loc != "/api/games/"+g.ID || len(g.ID) < 16 {
				t.Errorf("Location %q for id %q", loc, g.ID)
			}
			if g.Variant != tc.variant || g.FEN != tc.fen || g.Phase != tc.phase || g.Ply != tc.ply || g.Status != "ongoing" || g.Result != "*" {
				t.Errorf("got %s %q %s ply %d %s %s", g.Variant, g.FEN, g.Phase, g.Ply, g.Status, g.Result)
			}
			if !slices.Equal(g.Log, tc.log) && !(len(g.Log) == 0 && tc.log == nil) {
				t.Errorf("log %v, want %v", g.Log, tc.log)
			}
			if len(g.Legal) == 0 || !slices.IsSorted(g.Legal) || !strings.HasPrefix(g.Legal[0], map[string]string{"ban": "b:", "move": "m:"}[g.Phase]) {
				t.Errorf("legal %v", g.Legal)
			}
			// The game is stored: GET answers the same object.
			if again := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK); !equalGames(again, g) {
				t.Errorf("GET differs from the 201 body:\n%+v\n%+v", again, g)
			}
		})
	}
}

func equalGames(x, y gameObject) bool {
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

func TestAPICreateRefused(t *testing.T) {
	tests := []struct {
		name, body, ctype string
		status            int
		code              string
	}{
		{"not JSON", `variant=ban`, "application/json", 400, "bad_json"},
		{"cut short", `{"fen":`, "application/json", 400, "bad_json"},
		{"not an object", `["ban"]`, "application/json", 400, "bad_json"},
		{"null", `null`, "application/json", 400, "bad_json"},
		{"trailing data", `{"variant":"ban"} {}`, "application/json", 400, "bad_json"},
		{"trailing garbage", `{"variant":"ban"}x`, "application/json", 400, "bad_json"},
		{"number for a string", `{"variant":1}`, "application/json", 400, "bad_json"},
		{"null for a string", `{"fen":null}`, "application/json", 400, "bad_json"},
		{"object for a string", `{"pgn":{"text":"1. e4"}}`, "application/json", 400, "bad_json"},
		{"repeated field", `{"variant":"ban","variant":"classic"}`, "application/json", 400, "bad_json"},
		{"unknown field", `{"variant":"ban","timer":"5+0"}`, "application/json", 400, "unknown_field"},
		{"clock without invite", `{"variant":"ban","clock":"5+0"}`, "application/json", 400, "bad_mode"},
		{"unknown mode", `{"mode":"robot"}`, "application/json", 400, "bad_mode"},
		{"bad clock", `{"mode":"invite","clock":"5"}`, "application/json", 400, "bad_clock"},
		{"bad colour", `{"mode":"invite","color":"red"}`, "application/json", 400, "bad_color"},
		{"field in another case", `{"Variant":"ban"}`, "application/json", 400, "unknown_field"},
		{"form", `variant=ban`, "application/x-www-form-urlencoded", 415, "not_json"},
		{"no content type", `{"variant":"ban"}`, "", 415, "not_json"},
		{"FEN and PGN", `{"fen":"` + rules.StartFEN + `","pgn":"1. e4 *"}`, "application/json", 400, "fen_and_pgn"},
		{"unknown variant", `{"variant":"atomic"}`, "application/json", 400, "bad_variant"},
		{"variant misspelt", `{"variant":"Ban-Chess"}`, "application/json", 400, "bad_variant"},
		{"bad variant with a PGN", `{"variant":"x","pgn":"1. e4 *"}`, "application/json", 400, "bad_variant"},
		{"empty FEN", `{"fen":""}`, "application/json", 400, "bad_fen"},
		{"no kings", `{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}`, "application/json", 400, "bad_fen"},
		{"ply and side disagree", `{"fen":"` + rules.StartFEN + ` 3"}`, "application/json", 400, "bad_fen"},
		{"ban matching no move", `{"fen":"` + rules.StartFEN + ` 2:e2e5"}`, "application/json", 400, "bad_fen"},
		{"ban in a classic FEN", `{"variant":"classic","fen":"` + rules.StartFEN + ` 2:e2e4"}`, "application/json", 400, "bad_fen"},
		{"side not to move in check", `{"fen":"8/8/4k3/8/8/3K4/4R3/8 w - - 90 80 1"}`, "application/json", 400, "bad_fen"},
		{"illegal PGN move", `{"pgn":"1. e4 e5 2. Ke3 *"}`, "application/json", 400, "bad_pgn"},
		{"illegal PGN ban", `{"pgn":"1. {banning: e2e5} e4 *"}`, "application/json", 400, "bad_pgn"},
		{"banned move in PGN", `{"pgn":"1. {banning: e2e4} e4 *"}`, "application/json", 400, "bad_pgn"},
		{"empty PGN", `{"pgn":""}`, "application/json", 400, "bad_pgn"},
		{"ban PGN without bans", `{"variant":"ban","pgn":"1. e4 e5 *"}`, "application/json", 400, "bad_pgn"},
		{"classic PGN with bans", `{"variant":"classic","pgn":"1. {banning: e2e4} d4 *"}`, "application/json", 400, "bad_pgn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAPI(t)
			req := httptest.NewRequest(http.MethodPost, "/api/games", strings.NewReader(tc.body))
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			r := a.send(req)
			msg := a.fail(r, tc.status, tc.code)
			if r.hdr.Get("Location") != "" {
				t.Errorf("a refused create has a Location")
			}
			t.Logf("%s", msg)
		})
	}
}

func TestAPIGet(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	got := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
	if got.ID != g.ID || got.Turn != "black" || got.Phase != "ban" || got.Ban != nil || got.InCheck || len(got.Legal) != 20 || len(got.Log) != 0 {
		t.Errorf("new game: %+v", got)
	}
	if !strings.Contains(got.PGN, `[Date "2026.11.22"]`) || !strings.Contains(got.PGN, `[Site "example.com"]`) || !strings.HasSuffix(strings.TrimSpace(got.PGN), "*") {
		t.Errorf("pgn %q", got.PGN)
	}
	if r := a.do(http.MethodGet, "/api/games/"+g.ID, ""); r.hdr.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", r.hdr.Get("Cache-Control"))
	}
	a.fail(a.do(http.MethodGet, "/api/games/nosuchgame", ""), 404, "not_found")
	a.fail(a.do(http.MethodGet, "/api/games/"+g.ID+"x", ""), 404, "not_found")
}

// TestAPIActions plays and refuses single actions.
// TestAPIENChess plays EN-Chess through the API: a swap with the king,
// an x square in coordinates, and a pawn that stays a pawn.
func TestAPIENChess(t *testing.T) {
	a := newAPI(t)
	r := a.do(http.MethodPost, "/api/games", `{"variant":"en","fen":"7k/3P4/8/8/8/8/8/4K3 w - - 0 1 A-"}`)
	g := a.game(r, http.StatusCreated)
	if !slices.Contains(g.Legal, "m:x0e1") || !slices.Contains(g.Legal, "m:d7d8") || !slices.Contains(g.Legal, "m:d7d8k") {
		t.Fatalf("legal %v", g.Legal)
	}
	g = a.play(g.ID, "m:x0e1")
	if g.Variant != "en" || g.FEN != "7k/3P4/8/8/8/8/8/4A3 b - - 1 1 K-" || !slices.Equal(g.Log, []string{"A@e1"}) {
		t.Fatalf("after the swap: %+v", g)
	}
	g = a.play(g.ID, "m:h8g7")
	g = a.play(g.ID, "d8") // SAN: the pawn stays a pawn
	if g.FEN != "3P4/6k1/8/8/8/8/8/4A3 b - - 0 2 K-" || !strings.Contains(g.PGN, `[Variant "EN-Chess"]`) {
		t.Fatalf("after d8: %+v", g)
	}
}

func TestAPIActions(t *testing.T) {
	a := newAPI(t)
	g := a.create("")

	// A ban, then a move: turn, phase and ban follow.
	g = a.play(g.ID, "b:e2e4")
	if g.Ply != 2 || g.Turn != "white" || g.Phase != "move" || g.Ban == nil || *g.Ban != "e2e4" ||
		g.FEN != rules.StartFEN+" 2:e2e4" || slices.Contains(g.Legal, "m:e2e4") || !slices.Contains(g.Legal, "m:d2d4") || !slices.Equal(g.Log, []string{"b:e2e4"}) {
		t.Fatalf("after b:e2e4: %+v", g)
	}
	g = a.play(g.ID, "m:d2d4+") // an indicator is accepted and ignored
	if g.Ply != 3 || g.Turn != "white" || g.Phase != "ban" || g.Ban != nil || !slices.Equal(g.Log, []string{"b:e2e4", "d4"}) ||
		g.FEN != "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3" || !strings.Contains(g.PGN, "1. {banning: e2e4} d4 *") {
		t.Fatalf("after d4: %+v", g)
	}

	tests := []struct {
		name, body string
		status     int
		code       string
	}{
		{"no action", `{}`, 400, "not_bcn"},
		{"no body", ``, 400, "not_bcn"},
		{"empty", `{"action":""}`, 400, "not_bcn"},
		{"blank", `{"action":"  "}`, 400, "not_bcn"},
		{"words", `{"action":"hello"}`, 400, "not_bcn"},
		{"too long", `{"action":"b:e7e5b:e7e5b:e7e5"}`, 400, "not_bcn"},
		{"bad square", `{"action":"b:e7e9"}`, 400, "not_bcn"},
		{"bad square typed", `{"action":"e7e9"}`, 400, "not_bcn"},
		{"bad promotion", `{"action":"m:e7e8k"}`, 400, "not_bcn"},
		{"promotion at a ban", `{"action":"e7e8q"}`, 400, "not_bcn"},
		{"not a string", `{"action":["b:e7e5"]}`, 400, "bad_json"},
		{"unknown field", `{"action":"b:e7e5","by":"white"}`, 400, "unknown_field"},
		{"bad JSON", `{"action":"b:e7e5"`, 400, "bad_json"},
		{"ply not a number", `{"action":"b:e7e5","ply":"three"}`, 400, "bad_json"},
		{"ply zero", `{"action":"b:e7e5","ply":0}`, 400, "bad_json"},
		{"ply a fraction", `{"action":"b:e7e5","ply":3.5}`, 400, "bad_json"},
		{"ply a bool", `{"action":"b:e7e5","ply":true}`, 400, "bad_json"},
		{"stale ply", `{"action":"b:e7e5","ply":2}`, 409, "conflict"},
		{"future ply", `{"action":"b:e7e5","ply":"4"}`, 409, "conflict"},
		{"a move at a ban", `{"action":"m:e7e5"}`, 422, "illegal"},
		{"a ban of no move", `{"action":"b:e7e4"}`, 422, "illegal"},
		{"a ban of White's move", `{"action":"b:e2e4"}`, 422, "illegal"},
		{"SAN naming no move", `{"action":"Nf5"}`, 422, "illegal"},
		{"SAN of White's move", `{"action":"Nf3"}`, 422, "illegal"},
	}
	before := a.do(http.MethodGet, "/api/games/"+g.ID, "")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", tc.body), tc.status, tc.code)
			a.unchanged(g.ID, before)
		})
	}

	// At Black's move with e7e5 banned: the banned move, however it is
	// written, is "banned"; other moves Black cannot play are "illegal".
	g = a.play(g.ID, "b:e7e5")
	before = a.do(http.MethodGet, "/api/games/"+g.ID, "")
	for act, want := range map[string]string{"m:e7e5": "e7e5 is banned", "M:E7E5": "M:E7E5 (e7e5) is banned", "e7e5": "e7e5 is banned", "e5": "e5 (e7e5) is banned", "m:e7e5+": "e7e5 is banned"} {
		msg := a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"`+act+`"}`), 422, "banned")
		if !strings.HasPrefix(msg, want) {
			t.Errorf("%s: message %q, want %q…", act, msg, want)
		}
		a.unchanged(g.ID, before)
	}
	for _, act := range []string{"b:e7e6", "m:d2d4", "m:e7e4", "m:g8g6", "Ke7"} {
		a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"`+act+`"}`), 422, "illegal")
		a.unchanged(g.ID, before)
	}
	// The game is looked up first: an unknown id is 404 whatever the action.
	for _, act := range []string{"b:e2e4", "x", "m:e7e5"} {
		a.fail(a.do(http.MethodPost, "/api/games/nosuchgame/actions", `{"action":"`+act+`"}`), 404, "not_found")
	}
}

// TestAPITypedActions: an action may be written in BCN in any case, as
// squares, or in SAN, with the ply seen as a number or a string.
func TestAPITypedActions(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	for i, step := range []struct{ body, log string }{
		{`{"action":"B:E2E4"}`, "b:e2e4"},
		{`{"action":"d4","ply":2}`, "d4"},
		{`{"action":"Nf6","ply":"3"}`, "b:g8f6"}, // SAN at a ban names the move to ban
		{`{"action":"e7e5","ply":4}`, "e5"},
		{`{"action":"  c2c4  "}`, "b:c2c4"}, // squares at a ban are the pair to ban
		{`{"action":"dxe5"}`, "dxe5"},
		{`{"action":"d7d6","ply":7}`, "b:d7d6"},
		{`{"action":"m:b8c6"}`, "Nc6"},
	} {
		g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", step.body), http.StatusOK)
		if g.Ply != i+2 || g.Log[len(g.Log)-1] != step.log {
			t.Fatalf("after %s: ply %d, log %v, want %s", step.body, g.Ply, g.Log, step.log)
		}
	}
}

// banMate is a whole game from the initial position ending in checkmate by
// a ban: without a bishop on c4, Qxf7+ leaves only Kxf7, which White bans.
var banMate = []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7", "b:e8f7"}

func TestAPICheckmateByBan(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	for i, act := range banMate[:len(banMate)-1] {
		g = a.play(g.ID, act)
		if g.Ply != i+2 || g.Status != "ongoing" || len(g.Legal) == 0 {
			t.Fatalf("after %s: ply %d %s", act, g.Ply, g.Status)
		}
	}
	if !g.InCheck || g.Turn != "white" || g.Phase != "ban" || !slices.Equal(g.Legal, []string{"b:e8f7"}) {
		t.Fatalf("before the mate: %+v", g)
	}
	g = a.play(g.ID, "b:e8f7")
	if g.Status != "checkmate" || g.Reason != "ban" || g.Winner != "white" || g.Result != "1-0" || len(g.Legal) != 0 || !g.InCheck || g.Ply != 12 {
		t.Fatalf("after the ban: %+v", g)
	}
	if !strings.HasSuffix(g.FEN, " 12:e8f7#") || g.Log[len(g.Log)-1] != "b:e8f7#" || !strings.Contains(g.PGN, "{banning: e8f7#} 1-0") || !strings.Contains(g.PGN, `[Result "1-0"]`) {
		t.Fatalf("records of the mate: %q %v\n%s", g.FEN, g.Log, g.PGN)
	}
	wantLog := []string{"b:d2d4", "e4", "b:d7d5", "e5", "b:f1c4", "Qh5", "b:g7g6", "Nc6", "b:h5e5", "Qxf7+", "b:e8f7#"}
	if !slices.Equal(g.Log, wantLog) {
		t.Fatalf("log %v, want %v", g.Log, wantLog)
	}

	// A finished game refuses every action, resignation and draw, and
	// stays as it is.
	before := a.do(http.MethodGet, "/api/games/"+g.ID, "")
	for _, act := range []string{"m:e8f7", "m:e8e7", "b:e8f7", "b:a2a3"} {
		a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"`+act+`"}`), 409, "game_over")
		a.unchanged(g.ID, before)
	}
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"nonsense"}`), 409, "game_over")
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"b:a2a3","ply":12}`), 409, "game_over")
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"black"}`), 409, "game_over")
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/draw", ""), 409, "game_over")
	a.unchanged(g.ID, before)
	if pgn := a.do(http.MethodGet, "/api/games/"+g.ID+"/pgn", ""); pgn.code != 200 || string(pgn.body) != g.PGN {
		t.Fatalf("export of a finished game: %d", pgn.code)
	}

	// Undo reopens it.
	g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 200)
	if g.Status != "ongoing" || g.Result != "*" || !slices.Equal(g.Legal, []string{"b:e8f7"}) || g.Ply != 11 {
		t.Fatalf("after undo: %+v", g)
	}
}

// TestAPIBanInForce starts from a FEN whose ban is in force.
func TestAPIBanInForce(t *testing.T) {
	a := newAPI(t)
	g := a.create(`{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"}`)
	if g.Ban == nil || *g.Ban != "e2e4" || g.Turn != "white" || g.Phase != "move" || g.Ply != 2 || len(g.Legal) != 19 || slices.Contains(g.Legal, "m:e2e4") {
		t.Fatalf("%+v", g)
	}
	if !strings.Contains(g.PGN, `[SetUp "1"]`) || !strings.Contains(g.PGN, `[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"]`) {
		t.Errorf("pgn %s", g.PGN)
	}
	before := a.do(http.MethodGet, "/api/games/"+g.ID, "")
	msg := a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"m:e2e4"}`), 422, "banned")
	if !strings.Contains(msg, "banned") {
		t.Errorf("message %q", msg)
	}
	a.unchanged(g.ID, before)
	g = a.play(g.ID, "m:e2e3")
	if g.Ban != nil || g.Phase != "ban" || g.Turn != "white" || !slices.Equal(g.Log, []string{"e3"}) {
		t.Fatalf("%+v", g)
	}
	// The game started at ply 2: one undo goes back to it, a second has
	// nothing to take back.
	g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 200)
	if g.Ban == nil || *g.Ban != "e2e4" || g.Ply != 2 {
		t.Fatalf("after undo: %+v", g)
	}
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 409, "nothing_to_undo")
}

func TestAPIClassic(t *testing.T) {
	a := newAPI(t)
	g := a.create(`{"variant":"classic"}`)
	for _, act := range []string{"m:f2f3", "m:e7e5", "m:g2g4"} {
		if g.Phase != "move" || g.Ban != nil {
			t.Fatalf("classic at ply %d: %+v", g.Ply, g)
		}
		g = a.play(g.ID, act)
	}
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"b:g2g3"}`), 422, "illegal")
	g = a.play(g.ID, "m:d8h4#")
	if g.Status != "checkmate" || g.Reason != "move" || g.Winner != "black" || g.Result != "0-1" || g.Phase != "move" || g.Ban != nil || len(g.Legal) != 0 ||
		g.Variant != "classic" || !strings.Contains(g.PGN, "Qh4#") || strings.Contains(g.PGN, "banning") {
		t.Fatalf("fool's mate: %+v", g)
	}
}

func TestAPIUndo(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	tests := []struct {
		name, id, body string
		status         int
		code           string
	}{
		{"at the start", g.ID, "", 409, "nothing_to_undo"},
		{"unknown game", "nosuchgame", "", 404, "not_found"},
		{"a field", g.ID, `{"plies":"2"}`, 400, "unknown_field"},
		{"bad JSON", g.ID, `{`, 400, "bad_json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a.fail(a.do(http.MethodPost, "/api/games/"+tc.id+"/undo", tc.body), tc.status, tc.code)
		})
	}
	a.play(g.ID, "b:e2e4", "m:d2d4")
	g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 200)
	if g.Ply != 2 || g.Ban == nil || *g.Ban != "e2e4" || !slices.Equal(g.Log, []string{"b:e2e4"}) {
		t.Fatalf("after one undo: %+v", g)
	}
	g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", "{}"), 200)
	if g.Ply != 1 || g.Ban != nil || len(g.Log) != 0 || g.FEN != rules.StartFEN+" 1" {
		t.Fatalf("after two: %+v", g)
	}
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 409, "nothing_to_undo")
}

func TestAPIResign(t *testing.T) {
	for _, tc := range []struct{ color, winner, result string }{{"white", "black", "0-1"}, {"black", "white", "1-0"}} {
		a := newAPI(t)
		g := a.create("")
		g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"`+tc.color+`"}`), 200)
		if g.Status != "resigned" || g.Reason != "resignation" || g.Winner != tc.winner || g.Result != tc.result || len(g.Legal) != 0 || !strings.Contains(g.PGN, `[Result "`+tc.result+`"]`) {
			t.Fatalf("%s resigns: %+v", tc.color, g)
		}
		a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"`+tc.color+`"}`), 409, "game_over")
		a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"b:e2e4"}`), 409, "game_over")
		// Undo withdraws the resignation.
		g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/undo", ""), 200)
		if g.Status != "ongoing" || g.Ply != 1 {
			t.Fatalf("after undo: %+v", g)
		}
	}
	a := newAPI(t)
	g := a.create("")
	before := a.do(http.MethodGet, "/api/games/"+g.ID, "")
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"no body", "", 400, "bad_color"},
		{"no color", "{}", 400, "bad_color"},
		{"short color", `{"color":"w"}`, 400, "bad_color"},
		{"capitalised", `{"color":"White"}`, 400, "bad_color"},
		{"nobody", `{"color":""}`, 400, "bad_color"},
		{"not a string", `{"color":true}`, 400, "bad_json"},
		{"unknown field", `{"color":"white","reason":"tired"}`, 400, "unknown_field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", tc.body), tc.status, tc.code)
			a.unchanged(g.ID, before)
		})
	}
	a.fail(a.do(http.MethodPost, "/api/games/nosuchgame/resign", `{"color":"white"}`), 404, "not_found")
}

func TestAPIDraw(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	a.play(g.ID, "b:e2e4", "m:d2d4")
	g = a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/draw", ""), 200)
	if g.Status != "draw" || g.Reason != "agreement" || g.Winner != "" || g.Result != "1/2-1/2" || len(g.Legal) != 0 || !strings.HasSuffix(g.FEN, " 3=") {
		t.Fatalf("draw: %+v", g)
	}
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/draw", ""), 409, "game_over")
	a.fail(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"white"}`), 409, "game_over")
	a.fail(a.do(http.MethodPost, "/api/games/nosuchgame/draw", ""), 404, "not_found")
	g2 := a.create("")
	a.fail(a.do(http.MethodPost, "/api/games/"+g2.ID+"/draw", `{"by":"both"}`), 400, "unknown_field")
	a.game(a.do(http.MethodPost, "/api/games/"+g2.ID+"/draw", `{}`), 200)
}

func TestAPIPGN(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	g = a.play(g.ID, "b:e2e4", "m:d2d4", "b:e7e5")
	r := a.do(http.MethodGet, "/api/games/"+g.ID+"/pgn", "")
	if r.code != 200 || r.hdr.Get("Content-Type") != "application/x-chess-pgn" ||
		r.hdr.Get("Content-Disposition") != `attachment; filename="banchess-`+g.ID+`.pgn"` || string(r.body) != g.PGN {
		t.Fatalf("%d %v\n%s", r.code, r.hdr, r.body)
	}
	want := "[Event \"Ban Chess game\"]\n[Site \"example.com\"]\n[Date \"2026.11.22\"]\n"
	if !strings.HasPrefix(g.PGN, want) || !strings.Contains(g.PGN, "1. {banning: e2e4} d4 {banning: e7e5} *") {
		t.Fatalf("pgn:\n%s", g.PGN)
	}
	// The PGN reads back to the same game, ban in force included.
	back := a.create(`{"pgn":` + jsonString(g.PGN) + `}`)
	if back.FEN != g.FEN || !slices.Equal(back.Log, g.Log) || back.PGN != g.PGN {
		t.Fatalf("read back: %+v", back)
	}
	// Site is the request's host, or "banchess" when it names none worth
	// printing.
	for host, site := range map[string]string{"banchess.example:8080": "banchess.example:8080", "": "banchess", `evil"] [x`: "banchess"} {
		req := httptest.NewRequest(http.MethodGet, "/api/games/"+g.ID+"/pgn", nil)
		req.Host = host
		if r := a.send(req); !strings.Contains(string(r.body), `[Site "`+site+`"]`) {
			t.Errorf("host %q: %s", host, r.body)
		}
	}
	a.fail(a.do(http.MethodGet, "/api/games/nosuchgame/pgn", ""), 404, "not_found")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestAPIErrorShape checks Echo's own failures under /api are JSON too.
func TestAPIErrorShape(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	for _, tc := range []struct {
		method, path, allow string
		status              int
		code                string
	}{
		{"GET", "/api", "", 404, "not_found"},
		{"GET", "/api/", "", 404, "not_found"},
		{"GET", "/api/nowhere", "", 404, "not_found"},
		{"GET", "/api/games/" + g.ID + "/moves", "", 404, "not_found"},
		{"POST", "/api/games/" + g.ID + "/actions/1", "", 404, "not_found"},
		{"GET", "/api/games/", "", 404, "not_found"},
		{"GET", "/api/games", "POST", 405, "method_not_allowed"},
		{"DELETE", "/api/games/" + g.ID, "GET", 405, "method_not_allowed"},
		{"PUT", "/api/games/" + g.ID, "GET", 405, "method_not_allowed"},
		{"GET", "/api/games/" + g.ID + "/actions", "POST", 405, "method_not_allowed"},
		{"POST", "/api/games/" + g.ID + "/pgn", "GET", 405, "method_not_allowed"},
	} {
		r := a.do(tc.method, tc.path, "")
		a.fail(r, tc.status, tc.code)
		if r.hdr.Get("Allow") != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, r.hdr.Get("Allow"), tc.allow)
		}
	}
}

// TestAPIBodyLimit sends bodies over the limit, with and without a declared
// length, to the API alone and behind the shared middleware.
func TestAPIBodyLimit(t *testing.T) {
	big := `{"pgn":"` + strings.Repeat("1. e4 e5 ", maxBody/9+1) + `*"}`
	for name, a := range map[string]*apiT{"bare": newBareAPI(t), "registered": newAPI(t)} {
		t.Run(name, func(t *testing.T) {
			g := a.create("")
			// Without Content-Length (chunked): refused on reading.
			req := a.request(http.MethodPost, "/api/games/"+g.ID+"/actions", "{}")
			req.Body, req.ContentLength = io.NopCloser(strings.NewReader(big)), -1
			a.fail(a.send(req), 413, "too_large")
			// With a declared length: refused before reading.
			// Behind the shared middleware, that refuses it before the
			// API's own runs, the body still has the API's shape.
			a.fail(a.do(http.MethodPost, "/api/games", big), 413, "too_large")
			// A body just under the limit is read (and refused for what it says).
			ok := `{"pgn":"` + strings.Repeat(" ", maxBody-20) + `"}`
			a.fail(a.do(http.MethodPost, "/api/games", ok), 400, "bad_pgn")
		})
	}
}

// TestMiddlewareRefusal checks a refusal of middleware that runs before
// the API's own (as the shared middleware's do) has the API's body.
func TestMiddlewareRefusal(t *testing.T) {
	e := echo.New()
	s := New(newService(nil), nil)
	e.Use(s.answerErrors, func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error { return tooLarge(maxBody) }
	})
	e.POST("/api/games", func(c echo.Context) error { return nil })
	a := newAPIT(t, e)
	if msg := a.fail(a.do(http.MethodPost, "/api/games", "{}"), 413, "too_large"); !strings.Contains(msg, "256 KiB") {
		t.Errorf("message %q", msg)
	}
}

func TestAPIPanic(t *testing.T) {
	e := echo.New()
	var log bytes.Buffer
	s := New(newService(nil), nil, WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	e.GET("/api/boom", func(c echo.Context) error { panic("boom") }, s.answerErrors)
	a := newAPIT(t, e)
	a.fail(a.do(http.MethodGet, "/api/boom", ""), 500, "internal")
	if !strings.Contains(log.String(), "level=ERROR") || !strings.Contains(log.String(), "panic: boom") {
		t.Errorf("log: %q", log.String())
	}
}

// TestAPIConcurrent races requests on one game: the per-game lock lets
// exactly one of the same ban through.
func TestAPIConcurrent(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	var wg sync.WaitGroup
	codes := make([]int, 16)
	for i := range codes {
		wg.Go(func() {
			codes[i] = a.send(a.request(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"b:e2e4"}`)).code
			a.do(http.MethodGet, "/api/games/"+g.ID, "")
		})
	}
	wg.Wait()
	slices.Sort(codes)
	if codes[0] != 200 || codes[1] != 422 || codes[len(codes)-1] != 422 {
		t.Fatalf("codes %v: want one 200, the rest 422", codes)
	}
	if g := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), 200); g.Ply != 2 {
		t.Fatalf("ply %d", g.Ply)
	}
}

// apiRefGame is one reference game of rules/testdata (see rules/vectors_test.go).
type apiRefGame struct {
	Seed  int    `json:"seed"`
	Start string `json:"start"`
	Plies []struct {
		Legal []string `json:"legal"`
		Play  string   `json:"play"`
		SAN   string   `json:"san"`
		FEN   string   `json:"fen"`
	} `json:"plies"`
	Final struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		Winner string `json:"winner"`
	} `json:"final"`
	ActionLog []string `json:"actionLog"`
}

// illegalStart is the reference start position docs/rules.md §2.2 rejects
// (Black in check with White to move).
const illegalStart = "8/8/4k3/8/8/3K4/4R3/8 w - - 90 80 1"

// TestAPIReferenceGames replays every tenth reference game (of those with
// a legal start) through HTTP,
// checking legal, fen and status at every ply.
func TestAPIReferenceGames(t *testing.T) {
	a := newAPI(t)
	kept, games, plies, refused, illegalSeen := 0, 0, 0, 0, false
	for _, ref := range loadRefGames(t) {
		if ref.Start == illegalStart {
			if !illegalSeen {
				illegalSeen = true
				a.fail(a.do(http.MethodPost, "/api/games", `{"fen":`+jsonString(ref.Start)+`}`), 400, "bad_fen")
				refused++
			}
			continue
		}
		if kept++; kept%10 != 1 {
			continue
		}
		games++
		g := a.create(`{"fen":` + jsonString(ref.Start) + `}`)
		for i, p := range ref.Plies {
			if g.Status != "ongoing" || !slices.Equal(g.Legal, p.Legal) {
				t.Fatalf("seed %d ply %d (%s): status %s, legal\n got %v\nwant %v", ref.Seed, i+1, g.FEN, g.Status, g.Legal, p.Legal)
			}
			g = a.play(g.ID, p.Play)
			if g.FEN != p.FEN {
				t.Fatalf("seed %d ply %d after %s: fen\n got %s\nwant %s", ref.Seed, i+1, p.Play, g.FEN, p.FEN)
			}
			if p.SAN != "" && g.Log[len(g.Log)-1] != p.SAN {
				t.Fatalf("seed %d ply %d: SAN %q, want %q", ref.Seed, i+1, g.Log[len(g.Log)-1], p.SAN)
			}
			plies++
		}
		if g.Status != ref.Final.Status || g.Reason != ref.Final.Reason || g.Winner != ref.Final.Winner {
			t.Fatalf("seed %d: outcome %s/%s/%s, want %s/%s/%s", ref.Seed, g.Status, g.Reason, g.Winner, ref.Final.Status, ref.Final.Reason, ref.Final.Winner)
		}
		if g.Status != "ongoing" && len(g.Legal) != 0 {
			t.Fatalf("seed %d: a finished game offers %v", ref.Seed, g.Legal)
		}
		if ref.ActionLog != nil && !slices.Equal(g.Log, ref.ActionLog) {
			t.Fatalf("seed %d: log\n got %v\nwant %v", ref.Seed, g.Log, ref.ActionLog)
		}
	}
	if games < 20 || refused != 1 {
		t.Fatalf("replayed %d games, refused %d starts", games, refused)
	}
	t.Logf("replayed %d reference games (%d plies) through the API", games, plies)
}

// TestAPIAuth: writes take the token of the game's seats; reads take
// nothing but the id.
func TestAPIAuth(t *testing.T) {
	a := newAPI(t)
	g := a.create("")
	other := a.create("")
	tok, otherTok := a.tokens[g.ID], a.tokens[other.ID]
	writes := []struct{ path, body string }{
		{"/actions", `{"action":"b:e2e4"}`},
		{"/actions", `{"action":"b:e2e4","ply":1}`},
		{"/undo", ""},
		{"/resign", `{"color":"white"}`},
		{"/resign", `{"color":"black"}`},
		{"/draw", "{}"},
	}
	before := a.do(http.MethodGet, "/api/games/"+g.ID, "")
	for _, w := range writes {
		path := "/api/games/" + g.ID + w.path
		for _, tc := range []struct {
			name, token string
			status      int
			code        string
		}{
			{"no token", "", 401, "unauthorized"},
			{"the game id", g.ID, 401, "unauthorized"},
			{"a token nobody holds", string(games.NewCredential()), 401, "unauthorized"},
			{"an overlong token", strings.Repeat("t", 200), 401, "unauthorized"},
			{"another game's token", otherTok, 403, "forbidden"},
		} {
			a.fail(a.doAs(tc.token, http.MethodPost, path, w.body), tc.status, tc.code)
			a.unchanged(g.ID, before)
		}
		// Not a bearer token at all.
		for _, h := range []string{tok, "Basic " + tok, "Token " + tok, "Bearer", "Bearer" + tok} {
			req := a.request(http.MethodPost, path, w.body)
			req.Header.Set("Authorization", h)
			a.fail(a.send(req), 401, "unauthorized")
			a.unchanged(g.ID, before)
		}
		// An unknown id is 404 whoever asks.
		for _, token := range []string{"", tok, "nosuchgame"} {
			a.fail(a.doAs(token, http.MethodPost, "/api/games/nosuchgame"+w.path, w.body), 404, "not_found")
		}
	}
	// The other game's token plays the other game only.
	a.fail(a.doAs(tok, http.MethodPost, "/api/games/"+other.ID+"/actions", `{"action":"b:e2e4"}`), 403, "forbidden")
	a.game(a.doAs(otherTok, http.MethodPost, "/api/games/"+other.ID+"/actions", `{"action":"b:e2e4"}`), 200)
	a.unchanged(g.ID, before)

	// The right token, in a scheme of any case.
	req := a.request(http.MethodPost, "/api/games/"+g.ID+"/actions", `{"action":"b:e2e4"}`)
	req.Header.Set("Authorization", "bearer "+tok)
	if got := a.game(a.send(req), 200); got.Ply != 2 {
		t.Fatalf("ply %d", got.Ply)
	}
	for _, w := range []struct{ path, body string }{{"/undo", ""}, {"/draw", ""}, {"/undo", "{}"}, {"/resign", `{"color":"black"}`}} {
		a.game(a.doAs(tok, http.MethodPost, "/api/games/"+g.ID+w.path, w.body), 200)
	}

	// Reads take no token, and answer the same with any.
	for _, path := range []string{"/api/games/" + g.ID, "/api/games/" + g.ID + "/pgn"} {
		plain := a.doAs("", http.MethodGet, path, "")
		for _, token := range []string{tok, otherTok, "junk"} {
			if r := a.doAs(token, http.MethodGet, path, ""); r.code != 200 || !bytes.Equal(r.body, plain.body) {
				t.Errorf("GET %s with %q: %d", path, token, r.code)
			}
		}
	}

	// A create with a bearer token gives the new game's seats to it.
	r := a.doAs(tok, http.MethodPost, "/api/games", `{"variant":"classic"}`)
	mine := a.game(r, http.StatusCreated)
	if a.tokens[mine.ID] != tok {
		t.Errorf("create with a token answered another: %q", a.tokens[mine.ID])
	}
	a.game(a.doAs(tok, http.MethodPost, "/api/games/"+mine.ID+"/actions", `{"action":"e4"}`), 200)
	a.fail(a.doAs(otherTok, http.MethodPost, "/api/games/"+mine.ID+"/actions", `{"action":"e5"}`), 403, "forbidden")
	// A create without one, or with one not of our shape, gets a fresh one.
	for _, h := range []string{"", "Bearer " + strings.Repeat("t", 200), "Basic " + tok} {
		req := a.request(http.MethodPost, "/api/games", "")
		if h != "" {
			req.Header.Set("Authorization", h)
		}
		fresh := a.game(a.send(req), http.StatusCreated)
		if got := a.tokens[fresh.ID]; got == tok || got == otherTok || len(got) > 128 {
			t.Errorf("create with %q answered token %q", h, got)
		}
	}
}

// TestAPIPlaysBrowserGames: a browser's game is open to the API for
// reading; writing it takes a seat the browser's cookie holds, which no
// API token does.
func TestAPIPlaysBrowserGames(t *testing.T) {
	e := newServer()
	c := newClientOn(t, e)
	c.start()
	a := newAPIT(t, e)
	got := a.game(a.do(http.MethodGet, "/api/games/"+c.id, ""), 200)
	if got.ID != c.id || got.Ply != 1 {
		t.Fatalf("the browser's game through the API: %+v", got)
	}
	api := a.create("")
	before := a.do(http.MethodGet, "/api/games/"+c.id, "")
	a.fail(a.doAs("", http.MethodPost, "/api/games/"+c.id+"/actions", `{"action":"b:e2e4"}`), 401, "unauthorized")
	a.fail(a.doAs(a.tokens[api.ID], http.MethodPost, "/api/games/"+c.id+"/actions", `{"action":"b:e2e4"}`), 403, "forbidden")
	a.unchanged(c.id, before)
	// And a browser holds no seat in a game made through the API.
	rec := c.do(http.MethodPost, gamePath(api.ID)+"/ply", vals("text", "e2e4"), false)
	if rec.Code != http.StatusForbidden {
		t.Errorf("the browser's ply in the API's game: %d", rec.Code)
	}
}

// TestAPIFields: ?fields= answers only the members asked for, "compact"
// all but the log and the PGN (so a bot's ply answer does not grow with
// the game), and an unknown member is refused without playing the ply.
func TestAPIFields(t *testing.T) {
	e := newServer()
	rec := hit{method: http.MethodPost, target: "/api/games", json: "{}"}.serve(t, e)
	var g createdGame
	if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	auth := map[string]string{"Authorization": "Bearer " + g.Token}
	keys := func(rec *httptest.ResponseRecorder) []string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, rec.Body)
		}
		return slices.Sorted(maps.Keys(m))
	}
	play := func(action, fields string) *httptest.ResponseRecorder {
		return hit{method: http.MethodPost, target: "/api/games/" + g.ID + "/actions?fields=" + fields, json: `{"action":"` + action + `"}`, header: auth}.serve(t, e)
	}
	if rec := play("b:e2e4", "fen,ply"); rec.Code != http.StatusOK || !slices.Equal(keys(rec), []string{"fen", "ply"}) {
		t.Errorf("fields=fen,ply: %d %s", rec.Code, rec.Body)
	}
	rec = play("m:d2d4", "compact")
	want := slices.DeleteFunc(slices.Clone(gameFields), func(s string) bool { return s == "log" || s == "pgn" })
	if rec.Code != http.StatusOK || !slices.Equal(keys(rec), slices.Sorted(slices.Values(want))) {
		t.Errorf("fields=compact: %d %s", rec.Code, rec.Body)
	}
	if rec := play("b:e7e5", "fen,nope"); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "bad_fields") {
		t.Errorf("fields=fen,nope: %d %s", rec.Code, rec.Body)
	}
	rec = hit{method: http.MethodGet, target: "/api/games/" + g.ID + "?fields=ply,log"}.serve(t, e)
	if !strings.Contains(rec.Body.String(), `"ply":3`) || !strings.Contains(rec.Body.String(), `"log":["b:e2e4","d4"]`) || !slices.Equal(keys(rec), []string{"log", "ply"}) {
		t.Errorf("GET fields=ply,log after a refused ply: %s", rec.Body)
	}
}
