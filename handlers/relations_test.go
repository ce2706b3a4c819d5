package handlers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/banchess/banchess/handlers/api"
)

// related reads an NDJSON list of /api/rel.
func (a *apiT) related(token, path string) []api.RelatedPlayer {
	a.t.Helper()
	r := a.doAs(token, http.MethodGet, path, "")
	if r.code != http.StatusOK || r.hdr.Get("Content-Type") != "application/x-ndjson" {
		a.t.Fatalf("GET %s: %d %q %s", path, r.code, r.hdr.Get("Content-Type"), r.body)
	}
	var out []api.RelatedPlayer
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	for sc.Scan() {
		var p api.RelatedPlayer
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			a.t.Fatalf("GET %s: line %q: %v", path, sc.Text(), err)
		}
		out = append(out, p)
	}
	return out
}

// TestAPIRelations: follow, unfollow, block and unblock on lichess's
// paths answer {"ok":true}; the lists say who is followed (online,
// playing now) and blocked; refusals answer their codes and change
// nothing.
func TestAPIRelations(t *testing.T) {
	a := newAPI(t)
	ann, bob, cat := a.account("Ann"), a.account("Bob"), a.account("Cat")
	ok := func(token, path string) {
		t.Helper()
		r := a.doAs(token, http.MethodPost, path, "")
		if r.code != http.StatusOK || string(bytes.TrimSpace(r.body)) != `{"ok":true}` {
			t.Fatalf("POST %s: %d %s", path, r.code, r.body)
		}
	}
	ok(ann, "/api/rel/follow/bob")
	ok(ann, "/api/rel/follow/Cat")
	game := a.chatGame(bob, cat) // bob and cat play now
	list := a.related(ann, "/api/rel/following")
	if len(list) != 2 || list[0].Username != "Cat" || list[1].ID != "bob" {
		t.Fatalf("ann follows %+v", list)
	}
	for _, p := range list {
		if p.Online == nil || !*p.Online || p.PlayingID != game {
			t.Errorf("%s: online %v, playing %q; want %s", p.Username, p.Online, p.PlayingID, game)
		}
	}
	for _, c := range []struct {
		token, method, path string
		status              int
		code                string
	}{
		{"", http.MethodPost, "/api/rel/follow/bob", 401, "unauthorized"},
		{a.anonymous(), http.MethodPost, "/api/rel/follow/bob", 403, "name_needed"},
		{ann, http.MethodPost, "/api/rel/follow/ann", 400, "self_relation"},
		{ann, http.MethodPost, "/api/rel/block/nobody", 404, "no_player"},
		{ann, http.MethodGet, "/api/rel/follow/bob", 405, "method_not_allowed"},
		{"", http.MethodGet, "/api/rel/following", 401, "unauthorized"},
	} {
		a.fail(a.doAs(c.token, c.method, c.path, ""), c.status, c.code)
	}
	ok(ann, "/api/rel/block/bob")
	if list := a.related(ann, "/api/rel/following"); len(list) != 1 || list[0].Username != "Cat" {
		t.Errorf("after blocking bob ann follows %+v", list)
	}
	if list := a.related(ann, "/api/rel/blocking"); len(list) != 1 || list[0].Username != "Bob" || list[0].Online != nil {
		t.Errorf("ann blocks %+v", list)
	}
	ok(ann, "/api/rel/unblock/bob")
	ok(ann, "/api/rel/unfollow/cat")
	if list := a.related(ann, "/api/rel/blocking"); len(list) != 0 {
		t.Errorf("after unblocking ann blocks %+v", list)
	}
	if list := a.related(ann, "/api/rel/following"); len(list) != 0 {
		t.Errorf("after unfollowing ann follows %+v", list)
	}
}

// TestFollowingPages: the profile's buttons follow and block (plain
// forms, Post/Redirect/Get), /following lists the followed player with a
// link to watch the game they play and the blocked one with its button;
// no buttons on one's own profile or for an anonymous viewer.
func TestFollowingPages(t *testing.T) {
	e := newServer()
	ann := newClientOn(t, e)
	ann.register("Ann")
	bob := newClientOn(t, e)
	bob.register("Bob")
	cat := newClientOn(t, e)
	cat.register("Cat")

	if d := ann.get("/@/Ann"); d.Find("#relation").Length() != 0 {
		t.Error("one's own profile offers to follow oneself")
	}
	if d := newClientOn(t, e).get("/@/Ann"); d.Find("#relation").Length() != 0 {
		t.Error("an anonymous viewer is offered to follow")
	}
	d := ann.get("/@/Bob")
	if d.Find(`form[action="/@/Bob/follow"] button#follow`).Length() != 1 || d.Find(`form[action="/@/Bob/block"]`).Length() != 1 {
		t.Fatalf("bob's profile has no follow and block forms: %s", text(d, "#relation"))
	}
	d = ann.post("/@/Bob/follow", nil)
	if d.Find("main#profile").Length() != 1 || d.Find(`form[action="/@/Bob/unfollow"]`).Length() != 1 {
		t.Errorf("after following, the profile offers: %s", text(d, "#relation"))
	}
	if d := ann.get("/following"); d.Find(`li[data-followed="Bob"][data-online="false"]`).Length() != 1 || d.Find("a.watch").Length() != 0 {
		t.Errorf("/following before bob plays: %s", text(d, "main"))
	}

	// bob plays cat: ann sees a link to watch.
	bob.lobbyWait("/lobby/pool", map[string]string{"pool": "5+3"})
	game := cat.lobbyGame("/lobby/pool", "pool", "5+3")
	d = ann.get("/following")
	if href, _ := d.Find(`li[data-followed="Bob"][data-online="true"] a.watch`).Attr("href"); href != "/g/"+game {
		t.Errorf("/following while bob plays links to %q, want /g/%s: %s", href, game, text(d, "main"))
	}
	ann.post("/@/Cat/block", nil)
	d = ann.get("/following")
	if d.Find(`li[data-blocked="Cat"] form[action="/@/Cat/unblock"] input[name="back"]`).Length() != 1 {
		t.Errorf("/following lists no blocked cat: %s", text(d, "main"))
	}
	d = ann.post("/@/Cat/unblock", vals("back", "following"))
	if d.Find("main#following").Length() != 1 || d.Find(`li[data-blocked]`).Length() != 0 {
		t.Errorf("unblocking from /following: %s", text(d, "main"))
	}
	d = ann.post("/@/Bob/unfollow", vals("back", "following"))
	if d.Find(`li[data-followed]`).Length() != 0 {
		t.Errorf("after unfollowing: %s", text(d, "main"))
	}

	// Refusals: the error page, nothing changed.
	for _, c := range []struct {
		who    *client
		path   string
		status int
	}{
		{ann, "/@/Ann/follow", http.StatusBadRequest},
		{ann, "/@/Nobody/follow", http.StatusNotFound},
		{newClientOn(t, e), "/@/Bob/follow", http.StatusUnauthorized},
	} {
		if rec := c.who.do(http.MethodPost, c.path, nil, false); rec.Code != c.status {
			t.Errorf("POST %s: %d, want %d", c.path, rec.Code, c.status)
		}
	}
	if rec := newClientOn(t, e).do(http.MethodGet, "/following", nil, false); rec.Code != http.StatusUnauthorized {
		t.Errorf("/following for an anonymous browser: %d", rec.Code)
	}
}
