package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestAPIOpenChallenge: POST /api/challenge/open makes an open challenge
// with lichess's fields (a clock, a variant, a name), answered in
// lichess's shape with url, urlWhite and urlBlack and no destUser; it is
// listed out to its maker alone; rated, a bad clock, a long name and no
// token are refused; another player accepts it through the API, once,
// and the game starts with them seated.
func TestAPIOpenChallenge(t *testing.T) {
	a := newAPI(t)
	ann, bob, cat := a.account("Ann"), a.account("Bob"), a.account("Cat")
	form := func(token, body string) apiResp {
		req := a.request(http.MethodPost, "/api/challenge/open", body)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return a.send(req)
	}

	for _, bad := range []struct {
		token, body string
		status      int
		code        string
	}{
		{"", "", http.StatusUnauthorized, "unauthorized"},
		{ann, "rated=true&clock.limit=300", http.StatusBadRequest, "bad_rated"},
		{ann, "clock.limit=90", http.StatusBadRequest, "bad_clock"},
		{ann, "variant=atomic", http.StatusBadRequest, "bad_variant"},
		{ann, "name=" + strings.Repeat("x", 101), http.StatusBadRequest, "bad_name"},
	} {
		r := form(bad.token, bad.body)
		if r.code != bad.status || !strings.Contains(string(r.body), bad.code) {
			t.Errorf("open challenge %q: %d %s, want %d %s", bad.body, r.code, r.body, bad.status, bad.code)
		}
	}

	r := form(ann, "clock.limit=300&clock.increment=3&variant=standard&name=Friday+game")
	var c map[string]any
	if r.code != http.StatusOK || json.Unmarshal(r.body, &c) != nil {
		t.Fatalf("open challenge: %d %s", r.code, r.body)
	}
	id, _ := c["id"].(string)
	url, _ := c["url"].(string)
	if id == "" || !strings.HasSuffix(url, "/challenges/"+id) || c["urlWhite"] != url+"?color=white" || c["urlBlack"] != url+"?color=black" {
		t.Errorf("the links: %s", r.body)
	}
	if c["destUser"] != nil || c["rated"] != false || c["name"] != "Friday game" || c["status"] != "created" || c["open"] == nil {
		t.Errorf("the open challenge: %s", r.body)
	}
	if tc, _ := c["timeControl"].(map[string]any); tc["limit"] != 300.0 || tc["increment"] != 3.0 {
		t.Errorf("its clock: %v", c["timeControl"])
	}
	if v, _ := c["variant"].(map[string]any); v["key"] != "standard" {
		t.Errorf("its variant: %v", c["variant"])
	}
	var lists struct{ In, Out []map[string]any }
	a.decode(a.doAs(ann, http.MethodGet, "/api/challenge", ""), http.StatusOK, &lists)
	if len(lists.Out) != 1 || lists.Out[0]["id"] != id || len(lists.In) != 0 {
		t.Errorf("Ann's challenges: %+v", lists)
	}
	a.decode(a.doAs(bob, http.MethodGet, "/api/challenge", ""), http.StatusOK, &lists)
	if len(lists.Out)+len(lists.In) != 0 {
		t.Errorf("Bob's challenges: %+v", lists)
	}

	if r := a.doAs(ann, http.MethodPost, "/api/challenge/"+id+"/accept", ""); r.code != http.StatusBadRequest {
		t.Errorf("Ann accepting her own: %d %s", r.code, r.body)
	}
	if r := a.doAs(bob, http.MethodPost, "/api/challenge/"+id+"/decline", ""); r.code != http.StatusNotFound {
		t.Errorf("Bob declining an open challenge: %d %s", r.code, r.body)
	}
	if r := a.doAs(bob, http.MethodPost, "/api/challenge/"+id+"/accept", ""); r.code != http.StatusOK {
		t.Fatalf("Bob accepting: %d %s", r.code, r.body)
	}
	if r := a.doAs(cat, http.MethodPost, "/api/challenge/"+id+"/accept", ""); r.code != http.StatusNotFound {
		t.Errorf("Cat accepting it after Bob: %d %s", r.code, r.body)
	}
	var games struct{ Games []map[string]any }
	a.decode(a.doAs(bob, http.MethodGet, "/api/games", ""), http.StatusOK, &games)
	if len(games.Games) != 1 || games.Games[0]["opponent"] != "Ann" {
		t.Errorf("Bob's games after accepting: %+v", games)
	}
}
