package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestOpenChallengePages: a named player makes a challenge to anyone with
// a link (a plain form on the challenges page); it is listed with its
// link; its page shows its maker the links to share; a guest without a
// name who opens the Black link gets a player and accepts it as a plain
// form, lands in the game as Black, and the maker's waiting list follows
// them there; the link then says it is gone to anyone else.
func TestOpenChallengePages(t *testing.T) {
	e := newServer()
	ann, guest, other := newClientOn(t, e), newClientOn(t, e), newClientOn(t, e)
	ann.register("Ann")

	d := ann.get("/challenges")
	if d.Find("form#open-form").Length() != 1 || d.Find("#open-variant option").Length() < 2 {
		t.Fatal("the challenges page has no form to challenge anyone")
	}
	if rec := ann.do(http.MethodPost, "/challenges/open", vals("clock", "9+x"), false); rec.Code != http.StatusBadRequest {
		t.Errorf("an open challenge with a bad clock: %d", rec.Code)
	}
	rec := ann.do(http.MethodPost, "/challenges/open", vals("variant", "classic", "clock", "3+2", "color", "random", "name", "Lunch game"), false)
	waiting := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(waiting, "/challenges?since=") {
		t.Fatalf("making an open challenge: %d %q", rec.Code, waiting)
	}
	d = ann.get(waiting)
	link := d.Find(".challenges-out li a.open-challenge-link")
	path := link.AttrOr("href", "")
	if link.Length() != 1 || !strings.HasPrefix(path, "/challenges/") || !strings.Contains(link.Text(), "Anyone with the link") {
		t.Fatalf("Ann's challenges: %q", d.Find("#challenges").Text())
	}
	list := d.Find("#challenge-lists").AttrOr("hx-get", "")

	if rec := ann.do(http.MethodGet, path, nil, true); rec.Code != http.StatusNoContent {
		t.Errorf("the link's page read again by its maker before: %d", rec.Code)
	}
	mine := ann.get(path)
	if !refreshes(mine) {
		t.Errorf("the maker's page of the link does not reload itself without scripts")
	}
	if mine.Find("#open-challenge-accept").Length() != 0 || !strings.HasSuffix(mine.Find("#open-link-black").AttrOr("value", ""), path+"?color=black") ||
		!strings.Contains(mine.Find("main").Text(), "Lunch game") {
		t.Errorf("the challenge's page to its maker: %q", mine.Find("main").Text())
	}

	page := guest.get(path + "?color=black")
	if guest.player() == nil {
		t.Fatal("the link's page gave the guest no player")
	}
	if terms := page.Find("#open-challenge-terms").Text(); !strings.Contains(terms, "3+2") || !strings.Contains(terms, "you play Black") {
		t.Errorf("the link's terms: %q", terms)
	}
	form := page.Find("form#open-challenge-accept")
	if form.Find(`input[name=color][value=black]`).Length() != 1 {
		t.Fatalf("the Accept form: %q", form.Text())
	}
	rec = guest.do(http.MethodPost, form.AttrOr("action", ""), vals("color", "black"), false)
	game := gameOf(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || game == "" {
		t.Fatalf("the guest accepting: %d %q %s", rec.Code, rec.Header().Get("Location"), errorText(parse(t, rec)))
	}
	if got := guest.get("/g/" + game).Find(".strip.you[data-player]").Length(); got != 1 {
		t.Errorf("the guest holds %d seats of the game", got)
	}
	if rec := ann.do(http.MethodGet, list, nil, true); rec.Header().Get("HX-Redirect") != "/g/"+game {
		t.Errorf("Ann's list after the acceptance: %d, HX-Redirect %q", rec.Code, rec.Header().Get("HX-Redirect"))
	}
	if rec := ann.do(http.MethodGet, path, nil, true); rec.Header().Get("HX-Redirect") != "/g/"+game {
		t.Errorf("the link's page read again by its maker after: %d, HX-Redirect %q", rec.Code, rec.Header().Get("HX-Redirect"))
	}
	if rec := guest.do(http.MethodGet, path, nil, false); rec.Code != http.StatusSeeOther || gameOf(rec.Header().Get("Location")) != game {
		t.Errorf("the link to its acceptor after: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if d := other.get(path); d.Find("#open-challenge-gone").Length() != 1 || d.Find("#open-challenge-accept").Length() != 0 {
		t.Errorf("the link to another after: %q", d.Find("main").Text())
	}
	if rec := other.do(http.MethodPost, path+"/accept", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("another accepting after: %d", rec.Code)
	}
	if rec := other.do(http.MethodGet, "/challenges/nosuchid", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("no such challenge: %d", rec.Code)
	}
}
