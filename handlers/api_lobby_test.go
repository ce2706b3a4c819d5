package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/api"
	"github.com/labstack/echo/v4"
)

// account names a new player through the API and returns their token.
func (a *apiT) account(name string) string {
	a.t.Helper()
	r := a.do(http.MethodPost, "/api/account", `{"name":"`+name+`","password":"`+secret+`"}`)
	var tok api.Token
	if r.code != http.StatusCreated || json.Unmarshal(r.body, &tok) != nil || tok.Token == "" || tok.Name != name {
		a.t.Fatalf("POST /api/account %s: %d %s", name, r.code, r.body)
	}
	return tok.Token
}

// decode checks r's status and decodes its body into out.
func (a *apiT) decode(r apiResp, want int, out any) {
	a.t.Helper()
	if r.code != want {
		a.t.Fatalf("status %d, want %d: %s", r.code, want, r.body)
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		a.t.Fatalf("%v: %s", err, r.body)
	}
}

func TestAPIAccount(t *testing.T) {
	a := newAPI(t)
	ann := a.account("Ann")
	var me api.Player
	a.decode(a.doAs(ann, http.MethodGet, "/api/account", ""), 200, &me)
	if me.Name == nil || *me.Name != "Ann" || len(me.Ratings) != 0 || me.Results != (api.Results{}) {
		t.Errorf("GET /api/account: %+v", me)
	}
	a.fail(a.doAs("", http.MethodGet, "/api/account", ""), 401, "unauthorized")
	a.fail(a.doAs("made-up", http.MethodGet, "/api/account", ""), 401, "unauthorized")
	a.fail(a.do(http.MethodPost, "/api/account", `{"name":"ANN","password":"`+secret+`"}`), 409, "name_taken")
	a.fail(a.do(http.MethodPost, "/api/account", `{"name":"a","password":"`+secret+`"}`), 400, "bad_name")
	a.fail(a.do(http.MethodPost, "/api/account", `{"name":"Carl","password":"short"}`), 400, "bad_password")
	a.fail(a.do(http.MethodPost, "/api/account", `{"name":"Carl","pw":"x"}`), 400, "unknown_field")
	a.fail(a.doAs(ann, http.MethodPost, "/api/account", `{"name":"Annie","password":"`+secret+`"}`), 409, "named")
	// An anonymous program's token takes the name, and keeps its games.
	g := a.create("")
	anon := a.tokens[g.ID]
	var tok api.Token
	a.decode(a.doAs(anon, http.MethodPost, "/api/account", `{"name":"Dora","password":"`+secret+`"}`), 201, &tok)
	if tok.Token == anon || tok.Name != "Dora" {
		t.Errorf("naming an anonymous token: %+v, want a new token", tok)
	}
	// The token named is replaced by the one answered (issue 45, item 8).
	a.fail(a.doAs(anon, http.MethodGet, "/api/account", ""), 401, "unauthorized")
	a.tokens[g.ID] = tok.Token
	a.play(g.ID, "b:e2e4")
	// A second token for Ann, then signed out alone.
	a.decode(a.do(http.MethodPost, "/api/token", `{"name":"ann","password":"`+secret+`"}`), 201, &tok)
	if tok.Token == ann || tok.Name != "Ann" {
		t.Fatalf("a new token: %+v", tok)
	}
	a.decode(a.doAs(tok.Token, http.MethodGet, "/api/account", ""), 200, &me)
	if r := a.doAs(tok.Token, http.MethodDelete, "/api/token", ""); r.code != http.StatusNoContent {
		t.Errorf("DELETE /api/token: %d %s", r.code, r.body)
	}
	a.fail(a.doAs(tok.Token, http.MethodGet, "/api/account", ""), 401, "unauthorized")
	a.decode(a.doAs(ann, http.MethodGet, "/api/account", ""), 200, &me)
	a.fail(a.do(http.MethodPost, "/api/token", `{"name":"ann","password":"wrong horse"}`), 401, "bad_login")
}

// TestAPISeeks: a seek made, listed, refused to its maker, accepted once
// into a rated game whose object and PGN name both players and their
// ratings; played to a checkmate by ban, the players' objects show the
// ratings moved. Every refusal has its code.
func TestAPISeeks(t *testing.T) {
	a := newAPI(t)
	ann, bob := a.account("Ann"), a.account("Bob")
	anon := a.tokens[a.create("").ID]
	for _, c := range []struct {
		token, body string
		status      int
		code        string
	}{
		{"", `{"clock":"5+3"}`, 401, "unauthorized"},
		{"made-up", `{"clock":"5+3"}`, 401, "unauthorized"},
		{anon, `{"clock":"5+3","rated":true}`, 403, "name_needed"},
		{ann, `{"clock":"5+x"}`, 400, "bad_clock"},
		{ann, `{}`, 400, "bad_clock"},
		{ann, `{"clock":"5+3","variant":"go"}`, 400, "bad_variant"},
		{ann, `{"clock":"5+3","variant":"en"}`, 400, "unsupported_variant"},
		{ann, `{"clock":"5+3","color":"green"}`, 400, "bad_color"},
		{ann, `{"clock":"5+3","rated":"maybe"}`, 400, "bad_json"},
		{ann, `{"clock":"5+3","pool":"5+3"}`, 400, "unknown_field"},
	} {
		a.fail(a.doAs(c.token, http.MethodPost, "/api/seeks", c.body), c.status, c.code)
	}
	var k api.Seek
	r := a.doAs(ann, http.MethodPost, "/api/seeks", `{"variant":"ban","clock":"5+3","color":"white","rated":true}`)
	a.decode(r, 201, &k)
	if k.ID == "" || r.hdr.Get("Location") != "/api/seeks/"+k.ID || *k.Name != "Ann" || *k.Rating != 1500 || !k.Provisional || !k.Rated ||
		k.Clock != "5+3" || k.Speed != "blitz" || k.Color != "white" || k.Pool != nil {
		t.Fatalf("the seek: %+v", k)
	}
	var list struct {
		Seeks []api.Seek
		Pools map[string]int
	}
	a.decode(a.do(http.MethodGet, "/api/seeks", ""), 200, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != k.ID || len(list.Pools) != 4 {
		t.Errorf("GET /api/seeks: %+v", list)
	}
	a.fail(a.doAs(ann, http.MethodPost, "/api/seeks/"+k.ID+"/accept", ""), 409, "own_seek")
	a.fail(a.doAs(anon, http.MethodPost, "/api/seeks/"+k.ID+"/accept", ""), 403, "name_needed")
	a.fail(a.doAs(bob, http.MethodDelete, "/api/seeks/"+k.ID, ""), 404, "seek_gone")
	var paired api.Paired
	a.decode(a.doAs(bob, http.MethodPost, "/api/seeks/"+k.ID+"/accept", ""), 200, &paired)
	a.fail(a.doAs(anon, http.MethodPost, "/api/seeks/"+k.ID+"/accept", ""), 404, "seek_gone")
	a.fail(a.doAs(ann, http.MethodDelete, "/api/seeks/"+k.ID, ""), 404, "seek_gone")

	g := a.game(a.do(http.MethodGet, "/api/games/"+paired.Game, ""), 200)
	w, b := g.Players.White, g.Players.Black
	if !g.Rated || g.Mode != "invite" || w.Name == nil || *w.Name != "Ann" || *b.Name != "Bob" || *w.Rating != 1500 || !b.Provisional || g.Clock == nil || g.Clock.Running != nil || g.Clock.FirstAction == nil {
		t.Fatalf("the game: rated %v, players %+v %+v, clock %+v", g.Rated, w, b, g.Clock)
	}
	for _, tag := range []string{`[White "Ann"]`, `[Black "Bob"]`, `[WhiteElo "1500"]`, `[BlackElo "1500"]`, `[TimeControl "300+3"]`, `[Rated "true"]`} {
		if !strings.Contains(g.PGN, tag) {
			t.Errorf("the PGN has no %s:\n%s", tag, g.PGN)
		}
	}
	for i, act := range banMate {
		tok := bob
		if i%4 == 1 || i%4 == 2 { // White moves at plies 2, 6…, bans at 3, 7…
			tok = ann
		}
		a.game(a.doAs(tok, http.MethodPost, "/api/games/"+paired.Game+"/actions", `{"action":"`+act+`"}`), 200)
	}
	var winner, loser api.Player
	a.decode(a.do(http.MethodGet, "/api/players/ann", ""), 200, &winner)
	a.decode(a.do(http.MethodGet, "/api/players/BOB", ""), 200, &loser)
	wr, lr := winner.Ratings["ban"]["blitz"], loser.Ratings["ban"]["blitz"]
	if wr.Rating <= 1500 || lr.Rating >= 1500 || wr.Games != 1 || lr.Games != 1 || !wr.Provisional || wr.RD < 100 ||
		winner.Results != (api.Results{Win: 1}) || loser.Results != (api.Results{Loss: 1}) {
		t.Errorf("after the game: Ann %+v, Bob %+v", winner, loser)
	}
	a.fail(a.do(http.MethodGet, "/api/players/nobody", ""), 404, "no_player")
	a.fail(a.do(http.MethodGet, "/api/players/no!body", ""), 404, "no_player")

	// Pools, and the limit on custom seeks.
	var waiting api.Seek
	a.decode(a.doAs(ann, http.MethodPost, "/api/pools/3+2", ""), 202, &waiting)
	if waiting.Pool == nil || *waiting.Pool != "3+2" {
		t.Errorf("waiting in a pool: %+v", waiting)
	}
	a.decode(a.doAs(anon, http.MethodPost, "/api/pools/3+2", ""), 200, &paired)
	a.fail(a.doAs(anon, http.MethodPost, "/api/pools/4+4", ""), 400, "bad_pool")
	for range 3 {
		a.decode(a.doAs(bob, http.MethodPost, "/api/seeks", `{"clock":"10+5"}`), 201, &k)
	}
	a.fail(a.doAs(bob, http.MethodPost, "/api/seeks", `{"clock":"10+5"}`), 409, "too_many_seeks")
	if r := a.doAs(bob, http.MethodDelete, "/api/seeks/"+k.ID, ""); r.code != http.StatusNoContent {
		t.Errorf("DELETE a seek: %d %s", r.code, r.body)
	}
}

// TestAPILobbyEvents: a program's lobby stream tells of seeks made and
// gone, the pools' counts, and the games its player is paired into.
func TestAPILobbyEvents(t *testing.T) {
	svc := newService(nil)
	t.Cleanup(closer(svc))
	e := echo.New()
	s := New(svc, apiClock) // the service's clock starts there too
	s.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(func() { s.CloseStreams(); srv.Close() })
	l := &liveServer{t: t, s: s, url: srv.URL}
	a := newAPIT(t, e)
	ann, bob := a.account("Ann"), a.account("Bob")
	var old api.Seek
	a.decode(a.doAs(bob, http.MethodPost, "/api/seeks", `{"clock":"3+2"}`), 201, &old)

	st, res := l.openStream("/api/lobby/events", "", ann)
	if st == nil {
		t.Fatalf("the stream: %d", res.StatusCode)
	}
	expect := func(name string, check func(data string) bool) {
		t.Helper()
		for {
			ev := st.next()
			if ev.name == name && check(ev.data) {
				return
			}
			if ev.name != "pools" && ev.name != "seek" && ev.name != "seekRemoved" {
				t.Fatalf("event %q %s while waiting for %s", ev.name, ev.data, name)
			}
		}
	}
	expect("seek", func(d string) bool { return strings.Contains(d, old.ID) })
	expect("pools", func(d string) bool { return d == `{"3+2":0,"5+3":0,"10+5":0,"15+10":0}` })
	var mine api.Seek
	a.decode(a.doAs(ann, http.MethodPost, "/api/seeks", `{"clock":"5+3","rated":true}`), 201, &mine)
	expect("seek", func(d string) bool { return strings.Contains(d, mine.ID) && strings.Contains(d, `"name":"Ann"`) })
	if r := a.doAs(bob, http.MethodDelete, "/api/seeks/"+old.ID, ""); r.code != http.StatusNoContent {
		t.Fatal(r.code)
	}
	expect("seekRemoved", func(d string) bool { return d == `{"id":"`+old.ID+`"}` })
	var paired api.Paired
	a.decode(a.doAs(bob, http.MethodPost, "/api/seeks/"+mine.ID+"/accept", ""), 200, &paired)
	expect("paired", func(d string) bool { return d == `{"game":"`+paired.Game+`","seek":"`+mine.ID+`"}` })
}

// TestAPIPoolInPath: a pool's name in the path may come escaped, as URL
// libraries and encodeURIComponent write it (3%2B2), or not (3+2: in a
// path + is itself, not a space); either joins the pool, and a name that
// is no pool, escaped or not, is refused with bad_pool.
func TestAPIPoolInPath(t *testing.T) {
	a := newAPI(t)
	ann, bob := a.account("Ann"), a.account("Bob")
	for _, pool := range []string{"3%2B2", "3+2", "10%2b5", "%31%30+5"} {
		var waiting api.Seek
		a.decode(a.doAs(ann, http.MethodPost, "/api/pools/"+pool, ""), 202, &waiting)
		want, _ := url.PathUnescape(pool)
		if waiting.Pool == nil || *waiting.Pool != want {
			t.Errorf("POST /api/pools/%s: waiting %+v, want in pool %s", pool, waiting, want)
		}
		var paired api.Paired
		a.decode(a.doAs(bob, http.MethodPost, "/api/pools/"+pool, ""), 200, &paired)
		if paired.Game == "" {
			t.Errorf("POST /api/pools/%s: no game", pool)
		}
	}
	for _, pool := range []string{"4%2B4", "4+4", "3%202", "3%252B2"} {
		a.fail(a.doAs(ann, http.MethodPost, "/api/pools/"+pool, ""), 400, "bad_pool")
	}
}
