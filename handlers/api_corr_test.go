package handlers

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
)

// TestAPICorrespondence: a game with a friend of days a move, its clock
// in the game object (days, speed), listed by GET /api/games for each
// player with whose turn it is and the time left; unlimited games; a
// correspondence seek; the refusals' codes.
func TestAPICorrespondence(t *testing.T) {
	a := newAPI(t)
	var created, joined struct{ ID, Token, InviteCode string }
	a.decode(a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white","clock":"3d"}`), http.StatusCreated, &created)
	a.decode(a.doAs("", http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`), http.StatusOK, &joined)
	var obj struct {
		Clock struct {
			White, Black int64
			Days         int
			Unlimited    bool
			Speed        string
			FirstAction  *int64
		}
	}
	days := (3 * 24 * time.Hour).Milliseconds()
	near := func(ms *int64) bool { return ms != nil && max(*ms-days, days-*ms) < time.Minute.Milliseconds() } // the test's clock ticks
	a.decode(a.do(http.MethodGet, "/api/games/"+created.ID, ""), http.StatusOK, &obj)
	if c := obj.Clock; c.Days != 3 || c.Unlimited || c.Speed != "correspondence" || c.White != days || c.Black != days || !near(c.FirstAction) {
		t.Errorf("the game's clock: %+v", c)
	}
	list := func(token string) api.OngoingGames {
		t.Helper()
		var out api.OngoingGames
		a.decode(a.doAs(token, http.MethodGet, "/api/games?status=ongoing", ""), http.StatusOK, &out)
		return out
	}
	// Black bans first.
	if l := list(joined.Token); l.Awaiting != 1 || len(l.Games) != 1 || !l.Games[0].YourTurn || l.Games[0].Color != "black" ||
		l.Games[0].Days == nil || *l.Games[0].Days != 3 || !near(l.Games[0].Left) || *l.Games[0].Speed != "correspondence" {
		b, _ := json.Marshal(l)
		t.Errorf("Black's games: %s", b)
	}
	if l := list(created.Token); l.Awaiting != 0 || len(l.Games) != 1 || l.Games[0].YourTurn || l.Games[0].Color != "white" || l.Games[0].Turn != "black" {
		b, _ := json.Marshal(l)
		t.Errorf("White's games: %s", b)
	}
	if r := a.doAs(joined.Token, http.MethodPost, "/api/games/"+created.ID+"/actions", `{"action":"b:e2e4"}`); r.code != http.StatusOK {
		t.Fatalf("Black's ban: %d %s", r.code, r.body)
	}
	if l := list(created.Token); l.Awaiting != 1 || !l.Games[0].YourTurn {
		t.Errorf("White's games after Black's ban: %+v", l)
	}

	a.decode(a.do(http.MethodPost, "/api/games", `{"mode":"invite","clock":"unlimited"}`), http.StatusCreated, &created)
	obj.Clock.Days = 0
	a.decode(a.do(http.MethodGet, "/api/games/"+created.ID, ""), http.StatusOK, &obj)
	if c := obj.Clock; !c.Unlimited || c.Days != 0 || c.Speed != "correspondence" {
		t.Errorf("an unlimited game's clock: %+v", c)
	}

	ann := a.account("Ann")
	var k api.Seek
	a.decode(a.doAs(ann, http.MethodPost, "/api/seeks", `{"clock":"7d","color":"white"}`), http.StatusCreated, &k)
	if k.Clock != "7d" || k.Speed != "correspondence" {
		t.Errorf("a correspondence seek: %+v", k)
	}

	a.fail(a.do(http.MethodPost, "/api/games", `{"mode":"invite","clock":"4d"}`), http.StatusBadRequest, "bad_clock")
	a.fail(a.doAs(ann, http.MethodPost, "/api/seeks", `{"clock":"0d"}`), http.StatusBadRequest, "bad_clock")
	a.fail(a.doAs(ann, http.MethodGet, "/api/games?status=finished", ""), http.StatusBadRequest, "bad_status")
	a.fail(a.doAs("", http.MethodGet, "/api/games", ""), http.StatusUnauthorized, "unauthorized")
	a.fail(a.doAs("made-up", http.MethodGet, "/api/games", ""), http.StatusUnauthorized, "unauthorized")
	if l := list(ann); len(l.Games) != 0 || l.Games == nil {
		t.Errorf("Ann's games before any: %+v", l)
	}
}

// TestAPIForecasts: White stores a forecast at a correspondence game while
// Black is to act; Black cannot see it; Black's ban that follows it brings
// White's reply in the same answer; the line is then gone. Every refusal
// has its code.
func TestAPIForecasts(t *testing.T) {
	a := newAPI(t)
	var created, joined struct{ ID, Token, InviteCode string }
	a.decode(a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white","clock":"3d"}`), http.StatusCreated, &created)
	a.decode(a.doAs("", http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`), http.StatusOK, &joined)
	path := "/api/games/" + created.ID + "/forecasts"
	var f api.Forecasts
	a.decode(a.doAs(created.Token, http.MethodPost, path, `{"lines":[["b:e2e4","d4","b:e7e5"],["b:d2d4","m:e2e4"]]}`), http.StatusOK, &f)
	if len(f.Lines) != 2 || f.Lines[0].Ply != 1 || len(f.Lines[0].Actions) != 3 || f.Lines[0].Actions[1] != "m:d2d4" {
		t.Fatalf("the forecasts stored: %+v", f)
	}
	a.decode(a.doAs(joined.Token, http.MethodGet, path, ""), http.StatusOK, &f)
	if len(f.Lines) != 0 {
		t.Errorf("Black sees White's forecasts: %+v", f)
	}
	g := a.game(a.doAs(joined.Token, http.MethodPost, "/api/games/"+created.ID+"/actions", `{"action":"b:e2e4"}`), http.StatusOK)
	if g.Ply != 4 || g.Turn != "black" {
		t.Errorf("after Black's ban the game is at ply %d, %s to act; want White's forecast played", g.Ply, g.Turn)
	}
	a.decode(a.doAs(created.Token, http.MethodGet, path, ""), http.StatusOK, &f)
	if len(f.Lines) != 0 {
		t.Errorf("White's forecasts after use: %+v", f)
	}
	for _, c := range []struct {
		token, body string
		status      int
		code        string
	}{
		{joined.Token, `{"lines":[["m:d7d5","b:c2c4","m:c2c3"]]}`, 400, "bad_forecast"}, // Black's own turn
		{created.Token, `{"lines":[["m:d7d4","b:c2c4","m:c2c3"]]}`, 400, "bad_forecast"},
		{created.Token, `{}`, 400, "bad_forecast"},
		{created.Token, `{"lines":[["m:d7d5","b:c2c4","m:c2c3"]],"ply":3}`, 400, "unknown_field"},
		{created.Token, `{"lines":"m:d7d5"}`, 400, "bad_json"},
		{"", `{"lines":[]}`, 401, "unauthorized"},
	} {
		a.fail(a.doAs(c.token, http.MethodPut, path, c.body), c.status, c.code)
	}
	a.decode(a.doAs(created.Token, http.MethodPut, path, `{"lines":[["m:d7d5","b:c2c4","m:c2c3"]]}`), http.StatusOK, &f)
	if len(f.Lines) != 1 || f.Lines[0].Ply != 4 {
		t.Errorf("White's forecast at ply 4: %+v", f)
	}
	a.decode(a.doAs(created.Token, http.MethodPut, path, `{"lines":[]}`), http.StatusOK, &f)
	if f.Lines == nil || len(f.Lines) != 0 {
		t.Errorf("cleared: %+v", f)
	}
}
