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
