package handlers

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/store"
)

// deleteStores are the stores the deletion is tried on.
func deleteStores(t *testing.T) map[string]func() testsite.Store {
	return map[string]func() testsite.Store{
		"memory": func() testsite.Store { return store.NewMemory() },
		"sqlite": func() testsite.Store {
			st, err := store.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "games.db"), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
}

// TestDeleteAccount: Ann deletes her account over the API once her
// password is confirmed: the game she played stays, her name in it
// "deleted", her chat lines gone and Bob's kept; her token stops working,
// she cannot sign in, and no one takes her name. Cy deletes his from the
// account page: a wrong password is refused, the right one signs out
// every browser of his. On the memory store and SQLite.
func TestDeleteAccount(t *testing.T) {
	for name, open := range deleteStores(t) {
		t.Run(name, func(t *testing.T) {
			svc := newService(open())
			t.Cleanup(closer(svc))
			e := echo.New()
			New(svc, apiClock).Register(e)
			a := newAPIT(t, e)
			ann, bob := a.account("Ann"), a.account("Bob")
			id := a.chatGame(ann, bob)
			for _, l := range []struct{ token, text string }{{ann, "good luck"}, {bob, "have fun"}, {ann, "thanks"}} {
				if r := a.doAs(l.token, http.MethodPost, "/api/games/"+id+"/chat", `{"text":"`+l.text+`","room":"player"}`); r.code != http.StatusCreated {
					t.Fatalf("chat %q: %d %s", l.text, r.code, r.body)
				}
			}
			for i, act := range []string{"b:e2e4", "m:d2d4"} {
				if r := a.doAs([]string{bob, ann}[i], http.MethodPost, "/api/games/"+id+"/actions", `{"action":"`+act+`"}`); r.code != http.StatusOK {
					t.Fatalf("%s: %d %s", act, r.code, r.body)
				}
			}
			if r := a.doAs(ann, http.MethodPost, "/api/games/"+id+"/resign", `{"color":"white"}`); r.code != http.StatusOK {
				t.Fatalf("resigning: %d %s", r.code, r.body)
			}
			pgn := string(a.doAs("", http.MethodGet, "/api/games/"+id+"/pgn", "").body)
			if !strings.Contains(pgn, `[White "Ann"]`) {
				t.Fatalf("the PGN before: %s", pgn)
			}

			for _, body := range []string{`{"password":"not her password"}`, `{}`} {
				if r := a.doAs(ann, http.MethodPost, "/api/account/delete", body); r.code != http.StatusForbidden || !strings.Contains(string(r.body), "wrong_password") {
					t.Errorf("deleting with %s: %d %s", body, r.code, r.body)
				}
			}
			if r := a.doAs("", http.MethodPost, "/api/account/delete", `{"password":"`+secret+`"}`); r.code != http.StatusUnauthorized {
				t.Errorf("deleting without a token: %d %s", r.code, r.body)
			}
			if r := a.doAs(ann, http.MethodPost, "/api/account/delete", `{"password":"`+secret+`"}`); r.code != http.StatusNoContent {
				t.Fatalf("deleting: %d %s", r.code, r.body)
			}

			after := string(a.doAs("", http.MethodGet, "/api/games/"+id+"/pgn", "").body)
			if !strings.Contains(after, `[White "deleted"]`) || !strings.Contains(after, `[Black "Bob"]`) || strings.Contains(after, "Ann") {
				t.Errorf("the PGN after: %s", after)
			}
			if d := newClientOn(t, e).get("/@/Bob"); strings.Contains(text(d, "main"), "Ann") || !strings.Contains(text(d, "main"), "deleted") {
				t.Errorf("Bob's profile after: %s", text(d, "main"))
			}
			room := a.chatRoom(bob, id, "?room=player")
			if len(room.Lines) != 1 || room.Lines[0].Text != "have fun" {
				t.Errorf("the chat after: %+v", room.Lines)
			}
			if r := a.doAs(ann, http.MethodGet, "/api/account", ""); r.code == http.StatusOK && strings.Contains(string(r.body), "Ann") {
				t.Errorf("her token still works: %d %s", r.code, r.body)
			}
			if r := a.do(http.MethodPost, "/api/token", `{"name":"Ann","password":"`+secret+`"}`); r.code < 400 {
				t.Errorf("signing in to a deleted account: %d %s", r.code, r.body)
			}
			for _, n := range []string{"Ann", "ann", "deleted"} {
				if r := a.do(http.MethodPost, "/api/account", `{"name":"`+n+`","password":"`+secret+`"}`); r.code < 400 {
					t.Errorf("signing up as %s: %d %s", n, r.code, r.body)
				}
			}
			var rec api.Token
			a.decode(a.do(http.MethodPost, "/api/token", `{"name":"Bob","password":"`+secret+`"}`), http.StatusCreated, &rec)

			// The account page's form.
			cy := newClientOn(t, e)
			cy.register("Cy")
			other := newClientOn(t, e)
			other.post("/login", vals("name", "Cy", "password", secret))
			r := cy.do(http.MethodPost, "/account/delete", vals("password", "wrong password"), false)
			if d := parse(t, r); r.Code != http.StatusForbidden || !strings.Contains(text(d, "#delete-error"), "not your password") || text(d, "#account-name") != "Cy" {
				t.Errorf("a wrong password: %d %q", r.Code, text(d, "#delete-error"))
			}
			if r := cy.do(http.MethodPost, "/account/delete", vals("password", secret), false); r.Code != http.StatusSeeOther {
				t.Fatalf("deleting from the page: %d %s", r.Code, r.Body)
			}
			for who, c := range map[string]*client{"this browser": cy, "the other": other} {
				if d := c.get("/account"); d.Find("#account-name").Length() != 0 {
					t.Errorf("%s is still signed in", who)
				}
			}
			if d := newClientOn(t, e).get("/@/Cy"); strings.Contains(text(d, "main h1"), "Cy") {
				t.Errorf("the profile still says %q", text(d, "main h1"))
			}
		})
	}
}
