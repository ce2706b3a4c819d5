package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// TestSwissPages: a Swiss event of three players through its pages,
// without scripts: the form's kind, the round with its boards and bye,
// the standings with Buchholz and Sonneborn-Berger, the list, the podium.
func TestSwissPages(t *testing.T) {
	s := newArenaSite(t)
	clients := map[string]*client{}
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		clients[n] = newClientOn(t, s.e)
		clients[n].register(n)
	}
	ann := clients["Ann"]
	if d := ann.get("/tournaments/new"); d.Find("input[name=kind][value=swiss]").Length() != 1 || d.Find("input[name=rounds]").Length() != 1 {
		t.Fatal("the form offers no Swiss")
	}
	rec := ann.do(http.MethodPost, "/tournaments/new", vals("kind", "swiss", "name", "Swiss", "clock", "3+2", "minutes", "45", "rounds", "2"), false)
	if d := parse(t, rec); rec.Code != http.StatusBadRequest || !strings.Contains(d.Find("#tournament-error").Text(), "3 to 15 rounds") {
		t.Errorf("2 rounds: %d %q", rec.Code, d.Find("#tournament-error").Text())
	}
	d := ann.post("/tournaments/new", vals("kind", "swiss", "name", "Swiss", "clock", "3+2", "minutes", "", "rounds", "3", "interval", "0"))
	id := d.Find("main#tournament").AttrOr("data-tournament", "")
	if id == "" || !strings.Contains(d.Find(".results").Text(), "Swiss") || !strings.Contains(d.Find(".results").Text(), "3 rounds") {
		t.Fatalf("the new Swiss event's page: %s", errorText(d))
	}
	page := "/tournament/" + id
	for _, c := range clients {
		c.post(page+"/join", nil)
	}
	ctx := context.Background()
	byes := map[string]bool{}
	for round := 1; round <= 3; round++ {
		s.tick()
		d = ann.get(page)
		if h := d.Find("#round-title").Text(); !strings.Contains(h, "Round "+string(rune('0'+round))+" of 3") {
			t.Fatalf("round %d: the heading %q", round, h)
		}
		boards := d.Find("#boards tbody tr")
		bye := strings.TrimPrefix(d.Find("#bye").Text(), "Bye (1 point): ")
		if boards.Length() != 1 || bye == "" || byes[bye] {
			t.Fatalf("round %d: %d boards, bye %q (before: %v)", round, boards.Length(), bye, byes)
		}
		byes[bye] = true
		game := boards.AttrOr("data-game", "")
		if boards.Find("a[href='/g/"+game+"']").Length() != 1 || d.Find("#berserk").Length() != 0 {
			t.Errorf("round %d: no link to the game, or berserk offered", round)
		}
		white, black := boards.Find("td").Eq(1).Text(), boards.Find("td").Eq(2).Text()
		if gd := clients[white].get("/g/" + game); gd.Find("#tournament-link").Length() != 1 || gd.Find("#berserk-game").Length() != 0 {
			t.Errorf("round %d: the game's page has no link to its event, or offers berserk", round)
		}
		cred := func(name string) players.Credential { return players.Credential(clients[name].player().Value) }
		for _, err := range []error{
			s.site.Games.Play(ctx, game, cred(black), games.Input{Text: "b:e2e4"}, nil),
			s.site.Games.Play(ctx, game, cred(white), games.Input{Text: "d4"}, nil),
			s.site.Games.Resign(ctx, game, cred(black), rules.Black, nil),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		if d := parse(t, ann.do(http.MethodGet, "/tournaments", nil, false)); d.Find("[data-tournaments=now] [data-tournament='"+id+"']").Length() != 1 {
			t.Errorf("round %d: the event is not listed as playing now", round)
		}
	}
	s.tick()
	d = ann.get(page)
	if d.Find("main").AttrOr("data-status", "") != "finished" || d.Find("#podium li").Length() != 3 {
		t.Fatalf("the end: %s", d.Find("#tournament-live").Text())
	}
	rows := d.Find("#standings tbody tr")
	if rows.Length() != 3 || d.Find("#standings th abbr[title=Buchholz]").Length() != 1 {
		t.Fatalf("the standings: %s", d.Find("#standings").Text())
	}
	total := 0.0
	rows.Each(func(_ int, r *goquery.Selection) {
		v, _ := strconv.ParseFloat(r.AttrOr("data-score", ""), 64)
		total += v
		if r.AttrOr("data-buchholz", "") == "" || r.Find(".mark").Length() != 3 {
			t.Errorf("row %s", r.Text())
		}
	})
	if total != 6 { // 3 games and 3 byes
		t.Errorf("the scores add up to %v, want 6", total)
	}
	// Each player's profile shows the event's score in points, as the
	// standings do (a Swiss score is kept in half-points).
	rows.Each(func(_ int, r *goquery.Selection) {
		name, want := r.AttrOr("data-player", ""), r.AttrOr("data-score", "")
		got := ann.get("/@/" + name).Find(".tournament-results li[data-tournament='" + id + "'] .game-status").Text()
		if !strings.HasPrefix(got, want+" points") {
			t.Errorf("%s's profile says %q of the event, want %s points", name, got, want)
		}
	})
}

// TestSwissAPI: POST /api/tournaments creates a Swiss event; its object
// has kind, rounds and round, and each standing its tiebreaks.
func TestSwissAPI(t *testing.T) {
	s := newArenaSite(t)
	a := newAPIT(t, s.e)
	ann, bob, cat := a.account("Ann"), a.account("Bob"), a.account("Cat")
	var tr api.Tournament
	a.decode(a.doAs(ann, http.MethodPost, "/api/tournaments", `{"kind":"swiss","name":"Bots' Swiss","clock":"3+2","rounds":7,"interval":60}`), http.StatusCreated, &tr)
	if tr.Kind != "swiss" || tr.Rounds != 7 || tr.Round != 0 || tr.Interval != 60 || tr.Minutes != 0 {
		t.Fatalf("created %+v", tr)
	}
	for _, tok := range []string{ann, bob, cat} {
		a.decode(a.doAs(tok, http.MethodPost, "/api/tournaments/"+tr.ID+"/join", ""), http.StatusOK, &tr)
	}
	s.tick()
	var got api.Tournament
	a.decode(a.do(http.MethodGet, "/api/tournaments/"+tr.ID, ""), http.StatusOK, &got)
	if got.Status != "started" || got.Round != 1 || len(got.Standings) != 3 {
		t.Fatalf("started: %+v", got)
	}
	byes := 0
	for _, r := range got.Standings {
		if r.Buchholz == nil || r.SonnebornBerger == nil || r.Points == nil || len(r.Sheet) != 1 {
			t.Fatalf("a standing without its tiebreaks: %+v", r)
		}
		if r.Game == nil && r.Sheet[0] == 2 && *r.Points == 1 {
			byes++
		}
	}
	if byes != 1 {
		t.Errorf("%d byes in round 1 of 3 players: %+v", byes, got.Standings)
	}
}
