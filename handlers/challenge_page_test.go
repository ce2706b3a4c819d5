package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestChallengePages: a named player challenges another from their
// profile (a plain form); the challenge is listed on both players'
// challenges pages and on the receiver's lobby, and on the htmx list;
// declined, cancelled and accepted by plain forms, an accepted one takes
// its receiver to the game and its challenger's page (plain or htmx) to
// it too; bad input shows a clear refusal and changes nothing.
func TestChallengePages(t *testing.T) {
	e := newServer()
	ann, bob, anon := newClientOn(t, e), newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")
	bob.register("Bob")

	// The form is on others' profiles, for players with a name.
	if d := ann.get("/@/Bob"); d.Find("form#challenge-form").Length() != 1 || d.Find("#challenge-variant option").Length() < 2 {
		t.Fatalf("Bob's profile to Ann has no challenge form")
	}
	if ann.get("/@/Ann").Find("form#challenge-form").Length() != 0 {
		t.Errorf("Ann's own profile offers to challenge her")
	}
	if anon.get("/@/Bob").Find("form#challenge-form").Length() != 0 {
		t.Errorf("a player without a name is offered the challenge form")
	}

	// Bad input.
	for _, bad := range []struct {
		form   []string
		status int
		says   string
	}{
		{[]string{"dest", "Bob", "clock", "9+x"}, http.StatusBadRequest, "not a clock"},
		{[]string{"dest", "Bob", "variant", "atomic"}, http.StatusBadRequest, "variant"},
		{[]string{"dest", "Nobody"}, http.StatusNotFound, "No player"},
		{[]string{"dest", "Ann"}, http.StatusBadRequest, "yourself"},
		{[]string{"dest", "Bob", "rated", "yes"}, http.StatusBadRequest, "rated game needs a clock"},
	} {
		rec := ann.do(http.MethodPost, "/challenges/new", vals(bad.form...), false)
		if rec.Code != bad.status || !strings.Contains(rec.Body.String(), bad.says) {
			t.Errorf("challenging with %v: %d, want %d saying %q: %s", bad.form, rec.Code, bad.status, bad.says, errorText(parse(t, rec)))
		}
	}
	if rec := anon.do(http.MethodPost, "/challenges/new", vals("dest", "Bob"), false); rec.Code != http.StatusUnauthorized {
		t.Errorf("an anonymous challenge: %d", rec.Code)
	}
	if bob.get("/challenges").Find(".challenges-in li").Length() != 0 {
		t.Fatal("a refused challenge is listed")
	}

	// Declined.
	d := ann.post("/challenges/new", vals("dest", "Bob", "variant", "classic", "clock", "3+2", "color", "white"))
	if rows := d.Find(".challenges-out li"); rows.Length() != 1 || !strings.Contains(rows.Text(), "Bob") || !strings.Contains(rows.Text(), "3+2") {
		t.Fatalf("Ann's challenges after challenging: %s", d.Find("#challenges").Text())
	}
	if !refreshes(d) {
		t.Errorf("Ann's page waiting for an answer does not reload itself without scripts")
	}
	d = bob.get("/challenges")
	row := d.Find(".challenges-in li")
	if row.Length() != 1 || !strings.Contains(row.Text(), "Ann") || !strings.Contains(row.Text(), "you play Black") {
		t.Fatalf("Bob's challenges: %s", d.Find("#challenges").Text())
	}
	if bob.get("/lobby").Find("#incoming-challenges .challenges-in li").Length() != 1 {
		t.Errorf("Bob's lobby does not show Ann's challenge")
	}
	if hx := parse(t, bob.do(http.MethodGet, "/challenges/incoming", nil, true)); hx.Find(".challenges-in li").Length() != 1 {
		t.Errorf("the incoming fragment does not show Ann's challenge")
	}
	id := row.AttrOr("data-challenge", "")
	d = bob.post("/challenges/"+id+"/decline", vals("reason", "later"))
	if d.Find(".challenges-in li").Length() != 0 {
		t.Fatalf("a declined challenge still listed")
	}
	if rec := bob.do(http.MethodPost, "/challenges/"+id+"/accept", nil, false); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "No such open challenge") {
		t.Errorf("accepting a declined challenge: %d %s", rec.Code, errorText(parse(t, rec)))
	}

	// Cancelled.
	ann.post("/challenges/new", vals("dest", "Bob"))
	id = bob.get("/challenges").Find(".challenges-in li").AttrOr("data-challenge", "")
	if rec := bob.do(http.MethodPost, "/challenges/"+id+"/cancel", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("Bob cancelling Ann's challenge: %d", rec.Code)
	}
	if d := ann.post("/challenges/"+id+"/cancel", nil); d.Find(".challenges-out li").Length() != 0 {
		t.Fatalf("a cancelled challenge still listed")
	}

	// Accepted: Bob goes to the game; Ann's waiting page (plain and htmx)
	// follows her there.
	rec := ann.do(http.MethodPost, "/challenges/new", vals("dest", "Bob", "clock", "5+3", "color", "black"), false)
	waiting := rec.Header().Get("Location")
	if !strings.HasPrefix(waiting, "/challenges?since=") {
		t.Fatalf("after a challenge: %d %q", rec.Code, waiting)
	}
	list := ann.get(waiting).Find("#challenge-lists").AttrOr("hx-get", "")
	id = bob.get("/challenges").Find(".challenges-in li").AttrOr("data-challenge", "")
	rec = bob.do(http.MethodPost, "/challenges/"+id+"/accept", nil, false)
	game := gameOf(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || game == "" {
		t.Fatalf("accepting: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := ann.do(http.MethodGet, list, nil, true); rec.Header().Get("HX-Redirect") != "/g/"+game {
		t.Errorf("Ann's list after the acceptance: %d, HX-Redirect %q", rec.Code, rec.Header().Get("HX-Redirect"))
	}
	if rec := ann.do(http.MethodGet, waiting, nil, false); rec.Code != http.StatusSeeOther || gameOf(rec.Header().Get("Location")) != game {
		t.Errorf("Ann's page after the acceptance: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if d := bob.get("/g/" + game); d.Find("main#game").Length() != 1 {
		t.Fatalf("Bob's game page")
	}
}
