package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/stream"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// arenaSite is a server with tournaments on a manual clock.
type arenaSite struct {
	t     *testing.T
	e     *echo.Echo
	site  testsite.Site
	st    *store.Memory
	mu    sync.Mutex
	now   time.Time
	extra time.Duration
}

func (s *arenaSite) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.extra += time.Millisecond // every read a little later, as the ticker's
	return s.now.Add(s.extra)
}

func (s *arenaSite) advance(d time.Duration) {
	s.mu.Lock()
	s.now = s.now.Add(d)
	s.mu.Unlock()
}

func newArenaSite(t *testing.T) *arenaSite {
	s := &arenaSite{t: t, st: store.NewMemory(), now: apiClock()}
	s.site = testsite.New(s.st, testsite.Config{Now: s.clock, LobbyAsMain: true})
	t.Cleanup(s.site.Close)
	svc := servicesOf(s.site)
	svc.Tournaments = s.site.Tournaments
	s.e = echo.New()
	New(svc, s.clock).Register(s.e)
	return s
}

// tick runs the tournaments once, after the games whose clocks are due
// ended.
func (s *arenaSite) tick() {
	s.t.Helper()
	ctx := context.Background()
	if _, err := s.site.Games.Clocks().Sweep(ctx, s.st); err != nil {
		s.t.Fatal(err)
	}
	if err := s.site.Tournaments.Tick(ctx); err != nil {
		s.t.Fatal(err)
	}
}

// TestTournamentPages: an arena through its pages, without scripts: the
// list, the form (and its refusals), joining, the pairing with the
// player's game one click away, berserk, withdrawing, the standings'
// fragment, the podium at the end and the result on the profile.
func TestTournamentPages(t *testing.T) {
	s := newArenaSite(t)
	ann, bob, anon := newClientOn(t, s.e), newClientOn(t, s.e), newClientOn(t, s.e)
	ann.register("Ann")
	bob.register("Bob")

	if d := anon.get("/tournaments"); d.Find("#new-tournament").Length() != 0 || d.Find("[data-tournaments=now] .empty").Length() != 1 {
		t.Errorf("the list for an anonymous player: %s", errorText(d))
	}
	if d := ann.get("/tournaments"); d.Find("#new-tournament").Length() != 1 {
		t.Error("no link to create a tournament for a named player")
	}
	if d := ann.get("/tournaments/new"); d.Find("form[action='/tournaments/new'] input[name=clock]").Length() != 1 {
		t.Error("no form")
	}
	// Refusals show the form again with what was posted.
	for _, bad := range []struct{ field, value, want string }{
		{"minutes", "5", "20 to 180"},
		{"minutes", "x", "not a number"},
		{"clock", "fast", "not a clock"},
		{"name", "", "name of 1 to 40"},
		{"starts", "tomorrow", "not a date"},
	} {
		form := vals("name", "Evening arena", "variant", "", "clock", "3+2", "minutes", "30", "starts", "")
		form.Set(bad.field, bad.value)
		rec := ann.do(http.MethodPost, "/tournaments/new", form, false)
		d := parse(t, rec)
		if rec.Code != http.StatusBadRequest || !strings.Contains(d.Find("#tournament-error").Text(), bad.want) {
			t.Errorf("%s=%q: %d %q", bad.field, bad.value, rec.Code, d.Find("#tournament-error").Text())
		}
	}
	if rec := anon.do(http.MethodPost, "/tournaments/new", vals("name", "Mine", "clock", "3+2", "minutes", "30"), false); rec.Code != http.StatusUnauthorized {
		t.Errorf("an anonymous player's tournament: %d", rec.Code)
	}

	d := ann.post("/tournaments/new", vals("name", "Evening arena", "variant", "", "clock", "3+2", "minutes", "30", "rated", "1"))
	id, _ := d.Find("main#tournament").Attr("data-tournament")
	if id == "" || d.Find("h1").Text() != "Evening arena" || d.Find("#join").Length() != 1 {
		t.Fatalf("the new tournament's page: %s", errorText(d))
	}
	if !strings.Contains(d.Find("noscript").Text(), "refresh") || d.Find("#tournament-live[hx-get]").Length() != 1 {
		t.Error("the page neither reloads itself without scripts nor asks for its standings with them")
	}
	page := "/tournament/" + id
	if rec := ann.do(http.MethodPost, page+"/join", nil, false); !strings.HasPrefix(rec.Header().Get("Location"), page+"?since=") {
		t.Fatalf("joining: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	d = ann.get(page)
	if d.Find("#withdraw").Length() != 1 || d.Find("#standings tr[data-player=Ann]").Length() != 1 {
		t.Fatalf("after joining: %s", errorText(d))
	}
	bob.post(page+"/join", nil)
	if rec := anon.do(http.MethodPost, page+"/join", nil, false); rec.Code != http.StatusUnauthorized || parse(t, rec).Find("#tournament-error").Text() == "" {
		t.Errorf("an anonymous player joined: %d", rec.Code)
	}

	s.tick()
	// A page that follows Ann (since she joined: ?since=) goes to her game.
	followed := ann.do(http.MethodGet, page+"?since=1", nil, false)
	frag := ann.do(http.MethodGet, page+"/standings?since=1", nil, true)
	later := ann.do(http.MethodGet, page+"?since=9999999999999", nil, false)
	d = ann.get(page)
	game := strings.TrimPrefix(d.Find("#your-game a").AttrOr("href", ""), "/g/")
	if followed.Code != http.StatusSeeOther || followed.Header().Get("Location") != "/g/"+game || frag.Header().Get("HX-Redirect") != "/g/"+game || later.Code != http.StatusOK {
		t.Errorf("following Ann: %d %q; htmx %q; a game before since: %d", followed.Code, followed.Header().Get("Location"), frag.Header().Get("HX-Redirect"), later.Code)
	}
	if game == "" || d.Find("#berserk").Length() != 1 {
		t.Fatalf("paired, Ann's page has no game: %s", d.Find("#tournament-live").Text())
	}
	gd := ann.get("/g/" + game)
	if href := gd.Find("#tournament-link").AttrOr("href", ""); href != page {
		t.Errorf("the game's page links to %q, not to its tournament", href)
	}
	if gd.Find("form[action='"+page+"/berserk'] #berserk-game").Length() != 1 {
		t.Error("the game's page offers no berserk before the first action")
	}
	if rec := anon.do(http.MethodPost, page+"/berserk", vals("game", game), false); rec.Code != http.StatusForbidden {
		t.Errorf("a stranger's berserk: %d", rec.Code)
	}
	if d := ann.post(page+"/berserk", vals("game", game)); d.Find("main#game").Length() != 1 || d.Find("#berserk-game").Length() != 0 {
		t.Error("berserk did not go back to the game, or offers it again")
	}
	if anon.get("/g/"+game).Find("#berserk-game").Length() != 0 {
		t.Error("a watcher is offered berserk")
	}
	if rec := ann.do(http.MethodPost, page+"/berserk", vals("game", game), false); rec.Code != http.StatusConflict {
		t.Errorf("berserk twice: %d", rec.Code)
	}
	// Bob bans, Ann moves, Bob resigns: Ann's berserk win of one move
	// scores 2.
	ctx := context.Background()
	cred := func(c *client) players.Credential { return players.Credential(c.player().Value) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.site.Games.Play(ctx, game, cred(bob), games.Input{Text: "b:e2e4"}, nil))
	must(s.site.Games.Play(ctx, game, cred(ann), games.Input{Text: "d4"}, nil))
	must(s.site.Games.Resign(ctx, game, cred(bob), rules.Black, nil))
	d = bob.post(page+"/withdraw", nil)
	if d.Find("#join").Text() == "" || !strings.Contains(d.Find("#join").Text(), "Join again") {
		t.Errorf("after withdrawing: %q", d.Find("#join").Text())
	}
	s.tick()
	frag = ann.do(http.MethodGet, page+"/standings", nil, true)
	if frag.Code != http.StatusOK || strings.Contains(frag.Body.String(), "<html") {
		t.Fatalf("the standings' fragment: %d", frag.Code)
	}
	fd := parse(t, frag)
	if got := fd.Find("tr[data-player=Ann]").AttrOr("data-sheet", ""); got != "2" {
		t.Errorf("Ann's sheet %q, want 2", got)
	}
	if fd.Find("tr[data-player=Ann] .mark.berserk").Length() != 1 || fd.Find("tr[data-player=Bob] .withdrawn").Length() != 1 {
		t.Error("no berserk mark, or Bob not shown withdrawn")
	}
	if fd.Find("#your-game").Length() != 0 {
		t.Error("Ann is shown a game though Bob withdrew")
	}
	if d := anon.get("/tournaments"); d.Find("[data-tournaments=now] [data-tournament='"+id+"']").Length() != 1 {
		t.Error("the tournament is not listed as playing now")
	}
	// The end: the podium, and the result on the profile.
	s.advance(31 * time.Minute)
	s.tick()
	d = anon.get(page)
	if d.Find("main").AttrOr("data-status", "") != "finished" || d.Find("#podium li").Length() != 2 || d.Find("#podium li[data-rank='1']").Text() == "" {
		t.Errorf("the end: %s", d.Find("#tournament-live").Text())
	}
	if strings.Contains(d.Find("noscript").Text(), "refresh") || d.Find("#join").Length() != 0 {
		t.Error("a finished tournament reloads itself, or may be joined")
	}
	if d := anon.get("/@/Ann"); d.Find(".tournament-results li[data-rank='1']").Length() != 1 {
		t.Errorf("Ann's profile has no result: %s", d.Find("main").Text())
	}
	if rec := anon.do(http.MethodGet, "/tournament/nope", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown tournament: %d", rec.Code)
	}
}

// TestTournamentAPI: create, list, join, read the standings, berserk and
// withdraw through the API, and its refusals with their codes.
func TestTournamentAPI(t *testing.T) {
	s := newArenaSite(t)
	a := newAPIT(t, s.e)
	ann, bob := a.account("Ann"), a.account("Bob")
	for _, bad := range []struct {
		token, body string
		code        int
		detail      string
	}{
		{"", `{"name":"X","clock":"3+2","minutes":30}`, http.StatusUnauthorized, ""},
		{ann, `{"name":"X","clock":"3+2","minutes":10}`, http.StatusBadRequest, "bad_duration"},
		{ann, `{"name":"X","clock":"3+2","minutes":"ten"}`, http.StatusBadRequest, "bad_duration"},
		{ann, `{"name":"X","clock":"3+2","minutes":30,"startsAt":"soon"}`, http.StatusBadRequest, "bad_start"},
		{ann, `{"name":"X","clock":"3+2","minutes":30,"kind":"knockout"}`, http.StatusBadRequest, "bad_kind"},
		{ann, `{"name":"X","clock":"3+2","kind":"swiss","rounds":16}`, http.StatusBadRequest, "bad_rounds"},
		{ann, `{"name":"X","clock":"3+2","kind":"swiss","rounds":"seven"}`, http.StatusBadRequest, "bad_rounds"},
		{ann, `{"name":"X","clock":"3+2","kind":"swiss","rounds":5,"interval":-1}`, http.StatusBadRequest, "bad_interval"},
		{ann, `{"name":"X","clock":"3+2","minutes":30,"variant":"nope"}`, http.StatusBadRequest, "bad_variant"},
		{ann, `{"name":"","clock":"3+2","minutes":30}`, http.StatusBadRequest, "bad_tournament_name"},
		{ann, `{"name":"X","clock":"3+2","minutes":30,"laps":3}`, http.StatusBadRequest, "unknown_field"},
	} {
		r := a.doAs(bad.token, http.MethodPost, "/api/tournaments", bad.body)
		var e struct{ Code string }
		json.Unmarshal(r.body, &e)
		if r.code != bad.code || bad.detail != "" && e.Code != bad.detail {
			t.Errorf("%s: %d %s, want %d %s", bad.body, r.code, r.body, bad.code, bad.detail)
		}
	}
	r := a.doAs(ann, http.MethodPost, "/api/tournaments", `{"kind":"arena","name":"Bots' arena","clock":"1+0","minutes":20,"rated":false}`)
	var tr api.Tournament
	a.decode(r, http.StatusCreated, &tr)
	if tr.ID == "" || tr.Status != "created" || tr.Kind != "arena" || tr.Clock != "1+0" || r.hdr.Get("Location") != "/api/tournaments/"+tr.ID {
		t.Fatalf("created %+v", tr)
	}
	for _, tok := range []string{ann, bob} {
		a.decode(a.doAs(tok, http.MethodPost, "/api/tournaments/"+tr.ID+"/join", ""), http.StatusOK, &tr)
	}
	if len(tr.Standings) != 2 {
		t.Fatalf("standings %+v", tr.Standings)
	}
	s.tick()
	var got api.Tournament
	a.decode(a.do(http.MethodGet, "/api/tournament/"+tr.ID, ""), http.StatusOK, &got)
	if got.Status != "started" || got.Standings[0].Game == nil {
		t.Fatalf("started: %+v", got)
	}
	game := *got.Standings[0].Game
	if r := a.doAs(ann, http.MethodPost, "/api/games/"+game+"/berserk", ""); r.code != http.StatusOK {
		t.Errorf("berserk: %d %s", r.code, r.body)
	}
	r = a.doAs(ann, http.MethodPost, "/api/games/"+game+"/berserk", "")
	if r.code != http.StatusConflict || !strings.Contains(string(r.body), "berserk_late") {
		t.Errorf("berserk twice: %d %s", r.code, r.body)
	}
	var lists map[string][]api.Tournament
	a.decode(a.do(http.MethodGet, "/api/tournaments", ""), http.StatusOK, &lists)
	if len(lists["started"]) != 1 || lists["started"][0].ID != tr.ID {
		t.Errorf("lists %+v", lists)
	}
	a.decode(a.doAs(bob, http.MethodPost, "/api/tournaments/"+tr.ID+"/withdraw", ""), http.StatusOK, &got)
	for _, row := range got.Standings {
		if row.Name == "Bob" && !row.Withdrawn {
			t.Error("Bob not withdrawn")
		}
	}
	if r := a.do(http.MethodGet, "/api/tournaments/nope", ""); r.code != http.StatusNotFound || !strings.Contains(string(r.body), "no_tournament") {
		t.Errorf("an unknown tournament: %d %s", r.code, r.body)
	}
}

// TestTournamentStream: GET /api/tournaments/{id}/events sends the
// standings at once and at each change, "paired" with the bearer's game
// when the server pairs them, and "end" once the tournament finished.
func TestTournamentStream(t *testing.T) {
	l, site, _ := liveTournaments(t)
	var ann, bob api.Token
	l.post("", "/api/account", `{"name":"Ann","password":"`+secret+`"}`, http.StatusCreated, &ann)
	l.post("", "/api/account", `{"name":"Bob","password":"`+secret+`"}`, http.StatusCreated, &bob)
	var tr api.Tournament
	l.post(ann.Token, "/api/tournaments", `{"name":"Streamed","clock":"3+2","minutes":20}`, http.StatusCreated, &tr)
	l.post(ann.Token, "/api/tournaments/"+tr.ID+"/join", "", http.StatusOK, nil)
	st, res := l.openStream("/api/tournaments/"+tr.ID+"/events", "", ann.Token)
	if st == nil {
		t.Fatalf("the stream: %d", res.StatusCode)
	}
	if ev := st.next(); ev.name != "standings" || !strings.Contains(ev.data, `"name":"Ann"`) {
		t.Fatalf("first event %+v", ev)
	}
	l.post(bob.Token, "/api/tournaments/"+tr.ID+"/join", "", http.StatusOK, nil)
	if ev := st.next(); ev.name != "standings" || !strings.Contains(ev.data, `"name":"Bob"`) {
		t.Fatalf("after Bob joined: %+v", ev)
	}
	if err := site.Tournaments.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The tick starts the arena, then pairs it: each change wakes the
	// stream, which may tell the start's standings before the pairing.
	ev := st.next()
	for ev.name == "standings" && !strings.Contains(ev.data, `"game":"`) {
		ev = st.next()
	}
	var paired struct{ Game, Tournament string }
	if ev.name != "paired" || json.Unmarshal([]byte(ev.data), &paired) != nil || paired.Game == "" || paired.Tournament != tr.ID {
		t.Fatalf("paired: %+v", ev)
	}
	if ev := st.next(); ev.name != "standings" || !strings.Contains(ev.data, paired.Game) {
		t.Errorf("standings after the pairing: %+v", ev)
	}
}

// TestTournamentPairedOnLobbyStream: a bot learns of its tournament games
// on its lobby stream, as of its lobby games: "paired" with the game and
// the tournament, once, and only for its own player.
func TestTournamentPairedOnLobbyStream(t *testing.T) {
	l, site, hs := liveTournaments(t)
	var ann, bob, cid api.Token
	for _, p := range []struct {
		name string
		tok  *api.Token
	}{{"Ann", &ann}, {"Bob", &bob}, {"Cid", &cid}} {
		l.post("", "/api/account", `{"name":"`+p.name+`","password":"`+secret+`"}`, http.StatusCreated, p.tok)
	}
	var tr api.Tournament
	l.post(ann.Token, "/api/tournaments", `{"name":"By the lobby","clock":"3+2","minutes":20}`, http.StatusCreated, &tr)
	l.post(ann.Token, "/api/tournaments/"+tr.ID+"/join", "", http.StatusOK, nil)
	l.post(bob.Token, "/api/tournaments/"+tr.ID+"/join", "", http.StatusOK, nil)
	bobs, res := l.openStream("/api/lobby/events", "", bob.Token)
	if bobs == nil {
		t.Fatalf("Bob's lobby stream: %d", res.StatusCode)
	}
	cids, res := l.openStream("/api/lobby/events", "", cid.Token)
	if cids == nil {
		t.Fatalf("Cid's lobby stream: %d", res.StatusCode)
	}
	if err := site.Tournaments.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	var paired struct{ Game, Tournament string }
	for ev := bobs.next(); ; ev = bobs.next() {
		if ev.name != "paired" {
			continue
		}
		if json.Unmarshal([]byte(ev.data), &paired) != nil || paired.Game == "" || paired.Tournament != tr.ID {
			t.Fatalf("paired: %+v", ev)
		}
		break
	}
	res, err := http.Get(hs.URL + "/api/games/" + paired.Game)
	if err != nil {
		t.Fatal(err)
	}
	var g api.Game
	err = json.NewDecoder(res.Body).Decode(&g)
	res.Body.Close()
	if err != nil || g.Status != "ongoing" || g.Players.White.Name == nil || g.Players.Black.Name == nil {
		t.Errorf("Bob's game: %v %+v", err, g)
	}
	// Nothing more for Bob within two polls, and nothing for Cid, who
	// plays in no tournament.
	deadline := time.After(2*stream.PollEvery + 200*time.Millisecond)
	for {
		select {
		case ev := <-bobs.events:
			if ev.name == "paired" {
				t.Errorf("Bob told twice: %+v", ev)
			}
			continue
		case ev := <-cids.events:
			if ev.name == "paired" {
				t.Errorf("Cid told of a game: %+v", ev)
			}
			continue
		case <-deadline:
		}
		break
	}
}

// TestNotificationsOnLobbyStream (issue 39): a bot's lobby stream tells
// it of each notification it gets while the stream is open
// ("notification", as GET /api/notifications lists them), once.
func TestNotificationsOnLobbyStream(t *testing.T) {
	l, _, hs := liveTournaments(t)
	var ann, bob api.Token
	l.post("", "/api/account", `{"name":"Ann","password":"`+secret+`"}`, http.StatusCreated, &ann)
	l.post("", "/api/account", `{"name":"Bob","password":"`+secret+`"}`, http.StatusCreated, &bob)
	st, res := l.openStream("/api/lobby/events", "", ann.Token)
	if st == nil {
		t.Fatalf("Ann's lobby stream: %d", res.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, hs.URL+"/api/challenge/Ann", strings.NewReader("clock.limit=300&clock.increment=3"))
	req.Header.Set("Authorization", "Bearer "+bob.Token)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("Bob's challenge: %v %v", res, err)
	}
	deadline := time.After(7 * stream.PollEvery) // notifications are read every 5 polls
	seen := 0
	for {
		select {
		case ev := <-st.events:
			if ev.name != "notification" {
				continue
			}
			var n struct{ Kind, Text, Link string }
			if err := json.Unmarshal([]byte(ev.data), &n); err != nil || n.Kind != "challenge" || !strings.Contains(n.Text, "Bob") || n.Link == "" {
				t.Errorf("notification %s (%v)", ev.data, err)
			}
			seen++
			continue
		case <-deadline:
		}
		break
	}
	if seen != 1 {
		t.Errorf("Ann was told of %d notifications, want the challenge once", seen)
	}
}

// liveTournaments serves a site with tournaments over HTTP, for the tests
// of its streams: the client, the site and the server.
func liveTournaments(t *testing.T) (*liveServer, testsite.Site, *httptest.Server) {
	site := testsite.New(store.NewMemory(), testsite.Config{})
	svc := servicesOf(site)
	svc.Tournaments = site.Tournaments
	t.Cleanup(closer(svc))
	e := echo.New()
	srv := New(svc, nil)
	srv.Register(e)
	hs := httptest.NewServer(e)
	t.Cleanup(func() { srv.CloseStreams(); hs.Close() })
	return &liveServer{t: t, s: srv, url: hs.URL}, site, hs
}
