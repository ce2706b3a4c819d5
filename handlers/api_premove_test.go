package handlers

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/api"
)

// TestAPIPremove: a player queues a move and the ban after it while the
// opponent acts (PUT), sees it (GET; the opponent sees nothing of it),
// and the opponent's ban plays both at once, in the answer to that ban; a
// premove the opponent bans is dropped and says so; DELETE cancels; what
// is not a premove is refused and changes nothing.
func TestAPIPremove(t *testing.T) {
	a := newAPI(t)
	var created, joined api.Created
	if r := a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`); r.code != http.StatusCreated || json.Unmarshal(r.body, &created) != nil {
		t.Fatalf("creating: %d %s", r.code, r.body)
	}
	if r := a.doAs("", http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`); r.code != http.StatusOK || json.Unmarshal(r.body, &joined) != nil {
		t.Fatalf("joining: %d %s", r.code, r.body)
	}
	id, white, black := created.ID, created.Token, joined.Token
	path, actions := "/api/games/"+id+"/premove", "/api/games/"+id+"/actions"
	act := func(token, action string) api.Game {
		t.Helper()
		return a.game(a.doAs(token, http.MethodPost, actions, `{"action":"`+action+`"}`), http.StatusOK)
	}
	premove := func(r apiResp) api.Premove {
		t.Helper()
		var p api.Premove
		if r.code != http.StatusOK || json.Unmarshal(r.body, &p) != nil || p.Actions == nil {
			t.Fatalf("premove: %d %s", r.code, r.body)
		}
		return p
	}
	act(black, "b:e2e4")
	act(white, "m:d2d4")
	act(white, "b:e7e5")

	before := a.do(http.MethodGet, "/api/games/"+id, "")
	for _, body := range []string{`{}`, `{"actions":"m:c2c4"}`, `{"actions":["b:c7c5"]}`, `{"actions":["m:c2c4","m:g1f3"]}`, `{"actions":["m:e7e5"]}`, `{"actions":["zz"]}`} {
		r := a.doAs(white, http.MethodPut, path, body)
		if r.code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", body, r.code, r.body)
		}
	}
	a.fail(a.doAs("", http.MethodPut, path, `{"actions":["m:c2c4"]}`), http.StatusUnauthorized, "unauthorized")
	a.unchanged(id, before)

	if p := premove(a.doAs(white, http.MethodPut, path, `{"actions":["m:c2c4","b:c7c5"]}`)); !slices.Equal(p.Actions, []string{"m:c2c4", "b:c7c5"}) {
		t.Fatalf("queued: %+v", p)
	}
	if p := premove(a.doAs(white, http.MethodGet, path, "")); !slices.Equal(p.Actions, []string{"m:c2c4", "b:c7c5"}) {
		t.Errorf("White's premove: %+v", p)
	}
	if p := premove(a.doAs(black, http.MethodGet, path, "")); len(p.Actions) != 0 {
		t.Errorf("Black sees White's premove: %+v", p)
	}
	a.unchanged(id, before) // the game object shows nothing of it

	act(black, "m:d7d5")
	g := act(black, "b:g1f3")
	if g.Ply != 8 || !slices.Equal(g.Log[len(g.Log)-2:], []string{"c4", "b:c7c5"}) {
		t.Fatalf("the answer to Black's ban: ply %d, log %v; want White's premove played in it", g.Ply, g.Log)
	}
	if p := premove(a.doAs(white, http.MethodGet, path, "")); len(p.Actions) != 0 || p.Dropped != "" {
		t.Errorf("after it was played: %+v", p)
	}

	// Banned: dropped, and White is told why.
	premove(a.doAs(white, http.MethodPut, path, `{"actions":["m:b1c3"]}`))
	act(black, "m:e7e6")
	act(black, "b:b1c3")
	if p := premove(a.doAs(white, http.MethodGet, path, "")); len(p.Actions) != 0 || !strings.Contains(p.Dropped, "b1c3 was banned") {
		t.Errorf("a banned premove: %+v", p)
	}
	// Cancelled: not played.
	act(white, "m:g1f3")
	act(white, "b:a7a6")
	premove(a.doAs(white, http.MethodPut, path, `{"actions":["m:b1c3"]}`))
	if p := premove(a.doAs(white, http.MethodDelete, path, "")); len(p.Actions) != 0 {
		t.Errorf("after DELETE: %+v", p)
	}
	act(black, "m:a7a5")
	if g := act(black, "b:h2h3"); g.Ply != 14 {
		t.Errorf("a cancelled premove changed the game: ply %d, log %v", g.Ply, g.Log)
	}
}
