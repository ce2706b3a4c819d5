package handlers

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// pseudo sets c's language to the pseudo-locale.
func pseudo(c *client) *client {
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	return c
}

// pseudoCheck fails t if c's page at path (an htmx fragment when htmx)
// shows, in the pseudo-locale, a text no catalog gave; ids are names
// and words the same in every language.
func pseudoCheck(t *testing.T, c *client, path string, htmx bool, ids ...string) {
	t.Helper()
	rec := c.do(http.MethodGet, path, nil, htmx)
	if rec.Code >= 300 {
		t.Errorf("%s: %d", path, rec.Code)
	}
	pseudoCheckDoc(t, path, parse(t, rec), ids...)
}

// pseudoCheckDoc fails t for each text of d that no catalog gave.
func pseudoCheckDoc(t *testing.T, what string, d *goquery.Document, ids ...string) {
	t.Helper()
	for _, s := range untranslatedTexts(d, ids...) {
		if !strings.HasPrefix(s, "<meta http-equiv=") { // a <noscript>'s refresh, read as text
			t.Errorf("%s shows %q, which no catalog gave", what, s)
		}
	}
}

// pseudoCheckParts is pseudoCheck for the want parts of the page that
// sel selects (the rest of the page is another's).
func pseudoCheckParts(t *testing.T, c *client, path, sel string, want int, ids ...string) {
	t.Helper()
	parts := c.get(path).Find(sel)
	if parts.Length() != want {
		t.Errorf("%s has %d of %s, want %d", path, parts.Length(), sel, want)
	}
	parts.Each(func(_ int, p *goquery.Selection) {
		pseudoCheckDoc(t, path+" "+sel, goquery.NewDocumentFromNode(p.Nodes[0]), ids...)
	})
}

// TestPseudoLocaleTournaments (issue 43): the tournaments' pages in the
// pseudo-locale show no text that came from outside the catalogs: the
// list (now, upcoming, finished), the form and its refusals, an arena's
// page before, during (a game on fire and berserked, a withdrawal) and
// after (the podium), its standings' fragment, a Swiss event's round with
// its boards and bye, a tournament game's page, and the results on a
// profile.
func TestPseudoLocaleTournaments(t *testing.T) {
	s := newArenaSite(t)
	names := []string{"Ann", "Bob", "Cat"}
	cs := map[string]*client{}
	for _, n := range names {
		cs[n] = pseudo(newClientOn(t, s.e))
		cs[n].register(n)
	}
	ann, bob := cs["Ann"], cs["Bob"]
	anon := pseudo(newClientOn(t, s.e))
	ids := append([]string{"Evening arena", "Later arena", "Swiss event", "Bots"}, names...)
	check := func(c *client, path string, htmx bool) { t.Helper(); pseudoCheck(t, c, path, htmx, ids...) }
	checkParts := func(c *client, path, sel string, want int) {
		t.Helper()
		pseudoCheckParts(t, c, path, sel, want, ids...)
	}

	// The form, and a refusal shown on it.
	check(ann, "/tournaments/new", false)
	check(anon, "/tournaments/new", false)
	for _, bad := range [][2]string{{"rounds", "2"}, {"minutes", "5"}, {"starts", "tomorrow"}, {"name", ""}} {
		form := vals("kind", "arena", "name", "Evening arena", "clock", "3+2", "minutes", "30", "rounds", "7")
		if bad[0] == "rounds" {
			form.Set("kind", "swiss")
		}
		form.Set(bad[0], bad[1])
		rec := ann.do(http.MethodPost, "/tournaments/new", form, false)
		d := parse(t, rec)
		if rec.Code != http.StatusBadRequest || d.Find("#tournament-error").Text() == "" {
			t.Errorf("%s=%q: %d, no refusal shown", bad[0], bad[1], rec.Code)
		}
		pseudoCheckDoc(t, "the form refusing "+bad[0]+"="+bad[1], d, ids...)
	}

	// An arena: before, during and after.
	d := ann.post("/tournaments/new", vals("name", "Evening arena", "clock", "3+2", "minutes", "30", "rated", "1"))
	id := d.Find("main#tournament").AttrOr("data-tournament", "")
	if id == "" {
		t.Fatalf("no arena made: %s", errorText(d))
	}
	later := ann.post("/tournaments/new", vals("name", "Later arena", "clock", "3+2", "minutes", "30", "starts", s.clock().UTC().Add(48*time.Hour).Format("2006-01-02T15:04")))
	laterID := later.Find("main#tournament").AttrOr("data-tournament", "")
	page := "/tournament/" + id
	check(anon, page, false)
	check(anon, "/tournament/"+laterID, false)
	ann.post(page+"/join", nil)
	bob.post(page+"/join", nil)
	check(anon, "/tournaments", false)
	s.tick()
	game := ann.get(page).Find("#your-game a").AttrOr("href", "")
	if game == "" {
		t.Fatal("Ann has no game in the arena")
	}
	check(ann, page, false)
	checkParts(ann, game, "#berserk-game, #tournament-link", 2)
	ctx := context.Background()
	cred := func(c *client) players.Credential { return players.Credential(c.player().Value) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	gid := game[len("/g/"):]
	ann.post(page+"/berserk", vals("game", gid))
	must(s.site.Games.Play(ctx, gid, cred(bob), games.Input{Text: "b:e2e4"}, nil))
	must(s.site.Games.Play(ctx, gid, cred(ann), games.Input{Text: "d4"}, nil))
	must(s.site.Games.Resign(ctx, gid, cred(bob), rules.Black, nil))
	bob.post(page+"/withdraw", nil)
	s.tick()
	check(ann, page, false)
	check(bob, page, false)
	check(ann, page+"/standings", true)
	// A refusal on the tournament's page: berserk after the game ended.
	rec := ann.do(http.MethodPost, page+"/berserk", vals("game", "nope"), false)
	pseudoCheckDoc(t, "a refused berserk", parse(t, rec), ids...)
	s.advance(31 * time.Minute)
	s.tick()
	check(anon, page, false)
	check(anon, "/tournaments", false)
	checkParts(anon, "/@/Ann", ".tournament-results", 1)

	// A Swiss event of three: a round with a board and a bye.
	d = ann.post("/tournaments/new", vals("kind", "swiss", "name", "Swiss event", "clock", "3+2", "rounds", "3", "interval", "0"))
	sid := d.Find("main#tournament").AttrOr("data-tournament", "")
	if sid == "" {
		t.Fatalf("no Swiss event made: %s", errorText(d))
	}
	check(anon, "/tournament/"+sid, false)
	for _, n := range names {
		cs[n].post("/tournament/"+sid+"/join", nil)
	}
	s.tick()
	if ann.get("/tournament/"+sid).Find("#boards tbody tr").Length() != 1 {
		t.Fatal("the Swiss round has no board")
	}
	check(ann, "/tournament/"+sid, false)
	check(anon, "/tournament/"+sid+"/standings", true)
	check(anon, "/tournaments", false)
}

// TestPseudoLocaleChallenges (issue 43): the challenges' pages in the
// pseudo-locale show no text that came from outside the catalogs: the
// page to a player without a name, the form on a profile (its clocks of
// days a move too), both players' lists and their fragments, the banner,
// a declined challenge's sentence, an open challenge's page to its maker
// and to another, and a refusal.
func TestPseudoLocaleChallenges(t *testing.T) {
	e := newServer()
	ann, bob, anon := pseudo(newClientOn(t, e)), pseudo(newClientOn(t, e)), pseudo(newClientOn(t, e))
	ann.register("Ann")
	bob.register("Bob")
	ids := []string{"Ann", "Bob", "Coffee game"}
	pseudoCheck(t, anon, "/challenges", false, ids...)
	pseudoCheckParts(t, ann, "/@/Bob", "section[aria-labelledby=challenge-title]", 1, ids...)
	if ann.get("/@/Bob").Find("#challenge-clock option[value='3d']").Length() != 1 {
		t.Error("the challenge form offers no 3 days a move")
	}
	rec := ann.do(http.MethodPost, "/challenges/new", vals("dest", "Bob", "variant", "classic", "clock", "3d", "color", "white"), false)
	waiting := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(waiting, "/challenges?since=") {
		t.Fatalf("challenging Bob: %d %q", rec.Code, waiting)
	}
	ann.post("/challenges/open", vals("variant", "classic", "clock", "5+3", "color", "black", "name", "Coffee game"))
	for _, p := range []struct {
		c    *client
		path string
		htmx bool
	}{{ann, "/challenges", false}, {ann, "/challenges/list", true}, {bob, "/challenges", false}, {bob, "/challenges/list", true}, {bob, "/challenges/incoming", true}, {bob, "/lobby", false}} {
		pseudoCheck(t, p.c, p.path, p.htmx, ids...)
	}
	open := ann.get("/challenges").Find(".open-challenge-link").AttrOr("href", "")
	if open == "" {
		t.Fatal("Ann's open challenge has no link")
	}
	pseudoCheck(t, ann, open, false, ids...)
	pseudoCheck(t, anon, open, false, ids...)
	id := bob.get("/challenges").Find(".challenges-in li").AttrOr("data-challenge", "")
	bob.post("/challenges/"+id+"/decline", vals("reason", "tooFast"))
	d := ann.get(waiting)
	if d.Find(".challenge-declined").Length() != 1 {
		t.Error("Ann's page does not say her challenge was declined")
	}
	pseudoCheckDoc(t, waiting, d, ids...)
	pseudoCheckDoc(t, "a refused challenge", parse(t, ann.do(http.MethodPost, "/challenges/new", vals("dest", "Bob", "clock", "9+x"), false)), ids...)
	pseudoCheckDoc(t, "a gone challenge", parse(t, bob.do(http.MethodPost, "/challenges/"+id+"/accept", nil, false)), ids...)
}

// TestPseudoLocaleCorrespondence (issue 43): a correspondence game in the
// pseudo-locale shows no text that came from outside the catalogs: the
// days a move offered by the new game's form, the lobby's seek form and
// a seek of days, the game's page to each player (the clocks in days, the
// time for the first action, the forecasts' form and lines, and while
// the opponent acts) and /games.
func TestPseudoLocaleCorrespondence(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	pseudo(white)
	black := pseudo(newClientOn(t, e))
	black.join(invite)
	game := func(c *client) {
		t.Helper()
		rec := c.do(http.MethodGet, white.page(), nil, false)
		d := parse(t, rec)
		if rec.Code != http.StatusOK || d.Find(".clock.days").Length() != 2 {
			t.Fatalf("the game's page: %d, %d clocks in days", rec.Code, d.Find(".clock.days").Length())
		}
		pseudoCheckDoc(t, "the game's page", d)
	}
	for _, p := range []struct {
		c    *client
		path string
	}{{white, "/new"}, {white, "/lobby"}, {white, "/games"}, {black, "/games"}} {
		pseudoCheck(t, p.c, p.path, false)
	}
	game(white)
	game(black)
	if black.get(white.page()).Find(".clock.days").Length() != 2 || white.get(white.page()).Find("form textarea#forecast-text").Length() != 1 {
		t.Fatal("the game's page has no clocks in days, or no forecast form")
	}
	white.post(white.path("forecasts"), vals("lines", "b:e2e4 d2d4 e7e5"))
	if white.get(white.page()).Find("#forecast-lines li").Length() != 1 {
		t.Error("White's forecast is not shown")
	}
	game(white)
	refused := parse(t, white.do(http.MethodPost, white.path("forecasts"), vals("lines", "b:e2e4 d2d5"), false))
	pseudoCheckDoc(t, "a forecast refused", refused)
	black.post(white.path("ply"), vals("text", "b:c2c4"))
	game(white)
	game(black)
	ann := pseudo(newClientOn(t, e))
	ann.get(ann.lobbyWait("/lobby/seek", map[string]string{"clock": "5d", "color": "white"}))
	pseudoCheck(t, black, "/lobby", false)
}
