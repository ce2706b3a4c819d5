package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestChallengeBanner: a challenge shows under the header of every page
// of its receiver (home, a profile, the rules, the lobby), in a live
// region, and on no page of anyone else; the fragment htmx reads again
// answers 204 while the challenges it shows stand; a decline from the
// banner, with a reason, comes back to the page it was on (plain) or
// answers the banner anew (htmx), and never goes to another site; the challenger's waiting page says it
// was declined, and why.
func TestChallengeBanner(t *testing.T) {
	e := newServer()
	ann, bob, cat, anon := newClientOn(t, e), newClientOn(t, e), newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")
	bob.register("Bob")
	cat.register("Cat")
	anon.get("/")

	if d := bob.get("/"); d.Find("#challenge-banner li").Length() != 0 || d.Find("#challenge-banner[aria-live]").Length() != 1 {
		t.Fatalf("Bob's home before any challenge: %q", d.Find("#challenge-banner").Text())
	}
	if anon.get("/").Find("#challenge-banner").Length() != 0 {
		t.Errorf("a player without a name gets the banner")
	}
	waiting := ann.do(http.MethodPost, "/challenges/new", vals("dest", "Bob", "clock", "3+2", "color", "white"), false).Header().Get("Location")
	list := ann.get(waiting).Find("#challenge-lists").AttrOr("hx-get", "")

	for _, page := range []string{"/", "/@/Cat", "/rules", "/lobby", "/players"} {
		d := bob.get(page)
		b := d.Find("header + #challenge-banner[role=region][aria-live=polite]")
		row := b.Find("#incoming-challenges li[data-challenge]")
		if row.Length() != 1 || !strings.Contains(row.Text(), "Ann") || !strings.Contains(row.Text(), "3+2") || !strings.Contains(row.Text(), "you play Black") {
			t.Fatalf("Bob's %s: banner %q", page, b.Text())
		}
		if row.Find(`form[method=post] button.accept-challenge`).Length() != 1 || row.Find(`select[name=reason] option[value=later]`).Length() != 1 {
			t.Errorf("Bob's %s: the banner lacks its forms", page)
		}
		if back := row.Find(`input[name=back]`).AttrOr("value", ""); back != page {
			t.Errorf("Bob's %s: the decline comes back to %q", page, back)
		}
	}
	for who, c := range map[string]*client{"Ann": ann, "Cat": cat, "anon": anon} {
		if n := c.get("/").Find("#incoming-challenges li").Length(); n != 0 {
			t.Errorf("%s's home shows %d challenges for Bob", who, n)
		}
	}
	if bob.get("/challenges").Find("#challenge-banner").Length() != 0 {
		t.Errorf("the challenges page, which lists them, carries the banner too")
	}

	// The fragment: 204 while the same challenges stand.
	row := bob.get("/").Find("#incoming-challenges li")
	id := row.AttrOr("data-challenge", "")
	poll := bob.get("/").Find("#incoming-challenges").AttrOr("hx-get", "")
	if !strings.Contains(poll, "have="+id) {
		t.Fatalf("the banner reads itself again from %q", poll)
	}
	if rec := bob.do(http.MethodGet, poll, nil, true); rec.Code != http.StatusNoContent {
		t.Errorf("polling an unchanged banner: %d", rec.Code)
	}
	req := bob.request(http.MethodGet, "/challenges/incoming?have=", nil, true)
	req.Header.Set("HX-Current-URL", "http://example.com/rules?x=1")
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if d := parse(t, rec); rec.Code != http.StatusOK || d.Find(`li[data-challenge="`+id+`"]`).Length() != 1 || d.Find("input[name=back]").AttrOr("value", "") != "/rules?x=1" {
		t.Errorf("polling a banner that lacks the challenge: %d %s", rec.Code, rec.Body)
	}

	// Declined from the banner, plainly: back to the page, with the reason.
	rec = bob.do(http.MethodPost, "/challenges/"+id+"/decline", vals("reason", "tooFast", "banner", "1", "back", "/rules"), false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/rules" {
		t.Fatalf("declining from the banner: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if bob.get("/rules").Find("#incoming-challenges li").Length() != 0 {
		t.Errorf("a declined challenge still in the banner")
	}
	// Its challenger's waiting page (htmx's list, and the page) says so.
	for _, d := range []*goquery.Document{parse(t, ann.do(http.MethodGet, list, nil, true)), ann.get(waiting)} {
		if got := text(d, ".challenge-declined"); got != "Bob declined your challenge: Too fast" {
			t.Errorf("Ann's list after the decline: %q", got)
		}
	}

	// Declined with htmx: the banner anew; a foreign back is not followed.
	ann.post("/challenges/new", vals("dest", "Bob"))
	id = bob.get("/").Find("#incoming-challenges li").AttrOr("data-challenge", "")
	d := bob.hxPost("/challenges/"+id+"/decline", vals("reason", "variant", "banner", "1", "back", "/"))
	if d.Find("#incoming-challenges").Length() != 1 || d.Find("#incoming-challenges li").Length() != 0 {
		t.Errorf("the htmx decline answers %q", d.Text())
	}
	ann.post("/challenges/new", vals("dest", "Bob"))
	id = bob.get("/").Find("#incoming-challenges li").AttrOr("data-challenge", "")
	for _, bad := range []string{"https://evil.example/", "//evil.example/", "/\\evil.example"} {
		if rec := bob.do(http.MethodPost, "/challenges/"+id+"/decline", url.Values{"banner": {"1"}, "back": {bad}}, false); rec.Code == http.StatusSeeOther && rec.Header().Get("Location") != "/" {
			t.Errorf("a decline coming back to %q goes to %q", bad, rec.Header().Get("Location"))
		}
		ann.post("/challenges/new", vals("dest", "Bob"))
		id = bob.get("/").Find("#incoming-challenges li").AttrOr("data-challenge", "")
	}
}
