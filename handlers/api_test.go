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
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/players"
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
	s := New(newService(nil), apiClock)
	api.Register(e.Group("/api"), s.apiDeps())
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
var gameFields = []string{"id", "variant", "fen", "ply", "turn", "phase", "ban", "inCheck", "legal", "status", "reason", "winner", "result", "log", "pgn", "mode", "revision", "seats", "clock", "offers", "declined", "rematch", "bot", "rated", "players"}

// game checks r is a game object with status want and decodes it. A new
// game (201) has its token too, which a keeps for the game's writes.
func (a *apiT) game(r apiResp, want int) api.Game {
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
	var g api.Created
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		a.t.Fatal(err)
	}
	if want == http.StatusCreated {
		if !players.Credential(g.Token).Valid() || len(g.Token) < 40 || strings.Contains(g.Token, g.ID) {
			a.t.Fatalf("token %q for game %q", g.Token, g.ID)
		}
		a.tokens[g.ID] = g.Token
	}
	return g.Game
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
	var e struct {
		Error, Code string
		Game        json.RawMessage // a 409's: the game as it stands
	}
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		a.t.Fatalf("error body %s: %v", r.body, err)
	}
	if e.Game != nil && status != http.StatusConflict {
		a.t.Fatalf("a %d carries a game: %s", status, r.body)
	}
	if e.Code != code || !strings.HasSuffix(e.Error, ".") || len(e.Error) < 10 {
		a.t.Fatalf("error %q code %q, want code %q and a sentence", e.Error, e.Code, code)
	}
	return e.Error
}

// create starts a game from body and returns it.
func (a *apiT) create(body string) api.Game {
	a.t.Helper()
	return a.game(a.do(http.MethodPost, "/api/games", body), http.StatusCreated)
}

// play plays actions in order and returns the game after the last.
func (a *apiT) play(id string, actions ...string) api.Game {
	a.t.Helper()
	var g api.Game
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

func equalGames(x, y api.Game) bool {
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
		{"clock in a hot-seat game", `{"variant":"ban","clock":"5+0"}`, "application/json", 400, "bad_mode"},
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

// TestAPIJoinHoldingASeat: joining a game with a friend with the token
// that holds one of its seats is refused (409 already_seated, saying which
// seat it holds and, while the other is free, to send the invite to the
// opponent) and changes nothing; the opponent's token joins as before,
// and joining again with it is refused too.
func TestAPIJoinHoldingASeat(t *testing.T) {
	a := newAPI(t)
	r := a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`)
	var created api.Created
	if err := json.Unmarshal(r.body, &created); err != nil || r.code != http.StatusCreated || created.InviteCode == "" {
		t.Fatalf("creating: %d %s", r.code, r.body)
	}
	id, join := created.ID, "/api/games/"+created.ID+"/join"
	body := `{"invite":"` + created.InviteCode + `"}`
	before := a.do(http.MethodGet, "/api/games/"+id, "")
	msg := a.fail(a.doAs(created.Token, http.MethodPost, join, body), http.StatusConflict, "already_seated")
	if msg != "You already hold White in this game: send the invite link to your opponent, who takes Black with it." {
		t.Errorf("the creator joining: %q", msg)
	}
	a.unchanged(id, before)

	var joined api.Created
	if r := a.doAs("", http.MethodPost, join, body); r.code != http.StatusOK || json.Unmarshal(r.body, &joined) != nil || !joined.Seats.Black || joined.Token == "" {
		t.Fatalf("the opponent joining: %d %s", r.code, r.body)
	}
	before = a.do(http.MethodGet, "/api/games/"+id, "")
	for _, tok := range []string{created.Token, joined.Token} {
		a.fail(a.doAs(tok, http.MethodPost, join, body), http.StatusConflict, "already_seated")
		a.unchanged(id, before)
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

// banMate is a whole game from the initial position ending in checkmate by
// a ban: without a bishop on c4, Qxf7+ leaves only Kxf7, which White bans.
var banMate = []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7", "b:e8f7"}

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
		{"DELETE", "/api/games", "GET, POST", 405, "method_not_allowed"},
		{"DELETE", "/api/games/" + g.ID, "GET", 405, "method_not_allowed"},
		{"PUT", "/api/games/" + g.ID, "GET", 405, "method_not_allowed"},
		{"GET", "/api/games/" + g.ID + "/actions", "POST", 405, "method_not_allowed"},
		{"POST", "/api/games/" + g.ID + "/pgn", "GET", 405, "method_not_allowed"},
		// lichess's routes too
		{"GET", "/api/bot/game/" + g.ID + "/move/e2e4", "POST", 405, "method_not_allowed"},
		{"POST", "/api/stream/event", "GET", 405, "method_not_allowed"},
		{"GET", "/api/challenge/ann", "POST", 405, "method_not_allowed"},
		{"DELETE", "/api/challenge/xyz/accept", "POST", 405, "method_not_allowed"},
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
	big := `{"pgn":"` + strings.Repeat("1. e4 e5 ", kit.MaxBody/9+1) + `*"}`
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
			ok := `{"pgn":"` + strings.Repeat(" ", kit.MaxBody-20) + `"}`
			a.fail(a.do(http.MethodPost, "/api/games", ok), 400, "bad_pgn")
		})
	}
}

// TestMiddlewareRefusal checks a refusal of middleware that runs before
// the API's own (as the shared middleware's do) has the API's body.
func TestMiddlewareRefusal(t *testing.T) {
	e := echo.New()
	s := New(newService(nil), nil)
	e.Use(s.kit.AnswerErrors, func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error { return &http.MaxBytesError{Limit: kit.MaxBody} }
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
	e.GET("/api/boom", func(c echo.Context) error { panic("boom") }, s.kit.AnswerErrors)
	a := newAPIT(t, e)
	a.fail(a.do(http.MethodGet, "/api/boom", ""), 500, "internal")
	if !strings.Contains(log.String(), "level=ERROR") || !strings.Contains(log.String(), "panic: boom") {
		t.Errorf("log: %q", log.String())
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

// TestAPIFields: ?fields= answers only the members asked for, "compact"
// all but the log and the PGN (so a bot's ply answer does not grow with
// the game), and an unknown member is refused without playing the ply.
func TestAPIFields(t *testing.T) {
	e := newServer()
	rec := hit{method: http.MethodPost, target: "/api/games", json: "{}"}.serve(t, e)
	var g api.Created
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
