package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/internal/race"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

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

// TestAPIReferenceGames replays every tenth reference game (of those with
// a legal start) through HTTP,
// checking legal, fen and status at every ply.
func TestAPIReferenceGames(t *testing.T) {
	a := newAPI(t)
	kept, games, plies, refused, illegalSeen := 0, 0, 0, 0, false
	// Every tenth game, and under the race detector every fortieth: one
	// request at a time, ten times slower there (CI replays every tenth
	// without it).
	every := 10
	if race.Enabled {
		every = 40
	}
	for _, ref := range loadRefGames(t) {
		if ref.Start == illegalStart {
			if !illegalSeen {
				illegalSeen = true
				a.fail(a.do(http.MethodPost, "/api/games", `{"fen":`+jsonString(ref.Start)+`}`), 400, "bad_fen")
				refused++
			}
			continue
		}
		if kept++; kept%every != 1 {
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
	if games < 200/every || refused != 1 {
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
			// Only issued tokens hold seats, and one the server did not
			// issue is answered as one that holds none here: word for
			// word, so the answer tells nothing of which tokens exist.
			{"the game id", g.ID, 403, "forbidden"},
			{"a token nobody holds", string(players.NewCredential()), 403, "forbidden"},
			{"an overlong token", strings.Repeat("t", 200), 403, "forbidden"},
			{"another game's token", otherTok, 403, "forbidden"},
		} {
			a.fail(a.doAs(tc.token, http.MethodPost, path, w.body), tc.status, tc.code)
			a.unchanged(g.ID, before)
		}
		unknown := string(a.doAs(string(players.NewCredential()), http.MethodPost, path, w.body).body)
		if wrong := string(a.doAs(otherTok, http.MethodPost, path, w.body).body); wrong != unknown {
			t.Errorf("%s: an unknown token is answered %s, another game's %s", w.path, unknown, wrong)
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
	// A token the server did not issue creates nothing (it once held the
	// game's seats: "Bearer mybot" played).
	for _, h := range []string{"Bearer mybot", "Bearer " + strings.Repeat("t", 200), "Bearer " + g.ID} {
		req := a.request(http.MethodPost, "/api/games", "")
		req.Header.Set("Authorization", h)
		a.fail(a.send(req), 401, "unauthorized")
	}
	// A create without one gets a fresh one.
	for _, h := range []string{"", "Basic " + tok} {
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
	rec := c.do(http.MethodPost, kit.GamePath(api.ID)+"/ply", vals("text", "e2e4"), false)
	if rec.Code != http.StatusForbidden {
		t.Errorf("the browser's ply in the API's game: %d", rec.Code)
	}
}

// TestAPIRetriedAction: an action sent again with the ply it was played at
// (a retry whose answer was lost) by the player who played it answers 409
// conflict with the game as it stands, which shows it was played, even
// when the turn has passed to the opponent (whose seat the retry does not
// hold); the game is unchanged. A ply the sender did not play is still
// refused for the seat (403).
func TestAPIRetriedAction(t *testing.T) {
	a := newAPI(t)
	r := a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`)
	var created api.Created
	if err := json.Unmarshal(r.body, &created); err != nil || r.code != http.StatusCreated {
		t.Fatalf("creating: %d %s", r.code, r.body)
	}
	var joined api.Created
	if r := a.doAs("", http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`); r.code != http.StatusOK || json.Unmarshal(r.body, &joined) != nil {
		t.Fatalf("joining: %d %s", r.code, r.body)
	}
	id, white, black := created.ID, created.Token, joined.Token
	actions := "/api/games/" + id + "/actions"
	for _, step := range []struct {
		token, action string
		ply           int
	}{
		{black, "b:e2e4", 1}, // then White moves
		{white, "m:d2d4", 2}, // then White bans: the same side
		{white, "b:e7e5", 3}, // then Black moves
	} {
		body := fmt.Sprintf(`{"action":%q,"ply":%d}`, step.action, step.ply)
		played := a.game(a.doAs(step.token, http.MethodPost, actions, body), http.StatusOK)
		before := a.do(http.MethodGet, "/api/games/"+id, "")
		retry := a.doAs(step.token, http.MethodPost, actions, body)
		a.fail(retry, http.StatusConflict, "conflict")
		var refused struct{ Game api.Game }
		if err := json.Unmarshal(retry.body, &refused); err != nil || refused.Game.ID != id || refused.Game.Ply != played.Ply || !slices.Equal(refused.Game.Log, played.Log) {
			t.Fatalf("%s sent again: the 409 carries %+v (%v), want the game after it, at ply %d", step.action, refused.Game, err, played.Ply)
		}
		a.unchanged(id, before)
	}
	// At Black's move, White sends ply 1, which Black played: out of turn.
	a.fail(a.doAs(white, http.MethodPost, actions, `{"action":"b:e2e4","ply":1}`), http.StatusForbidden, "forbidden")
	a.fail(a.doAs("", http.MethodPost, actions, `{"action":"b:e2e4","ply":1}`), http.StatusUnauthorized, "unauthorized")
}
