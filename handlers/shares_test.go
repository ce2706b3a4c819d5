package handlers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/boardimage"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// from sends requests as the client at addr.
type from struct {
	*apiT
	addr string
}

func (f from) get(path string) apiResp {
	f.t.Helper()
	req := f.request(http.MethodGet, path, "")
	req.RemoteAddr = f.addr + ":4711"
	return f.send(req)
}

func (f from) post(path, body string) apiResp {
	f.t.Helper()
	req := f.request(http.MethodPost, path, body)
	req.RemoteAddr = f.addr + ":4711"
	return f.send(req)
}

// TestAnalysisShareAmongClients: one client firing 100 analyses at once
// gets one searched at a time and the rest refused (429 analysis_running, with
// Retry-After), while a second client's analysis and a third's game
// against the computer are answered.
func TestAnalysisShareAmongClients(t *testing.T) {
	a := newAPIT(t, newBotServer(t, engine.NewPool(1, 4, 1)))
	flood, other, player := from{a, "198.51.100.1"}, from{a, "198.51.100.2"}, from{a, "2001:db8::7"}
	start := "/api/analysis?fen=" + url.QueryEscape(rules.StartFEN)

	const n = 100 // issue 30: one client firing 100 analyses at once
	var wg sync.WaitGroup
	answers := make([]apiResp, n)
	began := time.Now()
	for i := range answers {
		wg.Go(func() { answers[i] = flood.get(start + "&ms=1500") })
	}
	g := player.post("/api/games", `{"bot":{"color":"black","level":1}}`)
	if g.code != http.StatusCreated {
		t.Fatalf("the game against the computer: %d %s", g.code, g.body)
	}
	game := a.game(g, http.StatusCreated)
	mine := other.get(start + "&ms=200")
	wg.Wait()
	took := time.Since(began)
	if mine.code != http.StatusOK {
		t.Errorf("the other client's analysis: %d %s", mine.code, mine.body)
	}
	searched, searching := 0, time.Duration(0)
	for _, r := range answers {
		switch {
		case r.code == http.StatusOK:
			searched++
			var a api.Analysis
			if err := json.Unmarshal(r.body, &a); err != nil {
				t.Fatalf("an analysis: %v: %s", err, r.body)
			}
			searching += time.Duration(a.MS) * time.Millisecond
		case r.code != http.StatusTooManyRequests || !bytes.Contains(r.body, []byte(`"code":"analysis_running"`)) || r.hdr.Get("Retry-After") == "":
			t.Errorf("a flooding analysis: %d (Retry-After %q) %s", r.code, r.hdr.Get("Retry-After"), r.body)
		default:
			if secs, err := strconv.Atoi(r.hdr.Get("Retry-After")); err != nil || secs < 1 {
				t.Errorf("Retry-After %q", r.hdr.Get("Retry-After"))
			}
		}
	}
	// One at a time: on a loaded machine a goroutine of the flood may
	// send only after the first search ended, and be searched in its
	// turn; never two at once, so their searches' times add up to no
	// more than the flood took.
	if searched < 1 || searching > took {
		t.Errorf("%d of the flood's %d analyses searched, for %v in all, in the flood's %v: want 1, or one at a time", searched, n, searching, took)
	}
	deadline := time.Now().Add(5 * time.Second)
	for game.Ply != 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		game = a.game(player.get("/api/games/"+game.ID), http.StatusOK)
	}
	if game.Ply != 2 {
		t.Errorf("the computer's first ply: the game is at ply %d, want 2", game.Ply)
	}
}

// as sends body as token ("" for none), from the test's one address.
func (a *apiT) as(token, path, body string, want int) []byte {
	a.t.Helper()
	r := a.doAs(token, http.MethodPost, path, body)
	if r.code != want {
		a.t.Fatalf("POST %s: %d, want %d: %s", path, r.code, want, r.body)
	}
	return r.body
}

// TestRematchCountsAsAGame: a chain of resign, offer, accept from one
// address starts games as fast as it goes, so each rematch counts against
// the games a minute of the address that accepts it; past them it is
// refused (429 too_many_games, Retry-After) and nothing changes. A
// request that starts no rematch (an offer the opponent has not made,
// an answer to none) spends nothing.
func TestRematchCountsAsAGame(t *testing.T) {
	e := echo.New()
	New(newService(nil), apiClock, WithLimits(kit.Limits{GamesPerMinute: 4})).Register(e)
	a := newAPIT(t, e)
	var created api.Created
	json.Unmarshal(a.as("", "/api/games", `{"mode":"invite","color":"white"}`, http.StatusCreated), &created)
	var joined api.Created
	json.Unmarshal(a.as("", "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`, http.StatusOK), &joined)
	id, white, black := created.ID, created.Token, joined.Token
	// resign resigns for White once each side has made its first action.
	resign := func(id, white, black string) {
		a.as(black, "/api/games/"+id+"/actions", `{"action":"b:e2e4"}`, http.StatusOK)
		a.as(white, "/api/games/"+id+"/actions", `{"action":"m:d2d4"}`, http.StatusOK)
		a.as(white, "/api/games/"+id+"/resign", `{"color":"white"}`, http.StatusOK)
	}
	for i := range 3 { // the first game and three rematches: four games
		resign(id, white, black)
		a.as(black, "/api/games/"+id+"/offers/accept", `{"offer":"rematch"}`, http.StatusConflict) // none made
		a.as(white, "/api/games/"+id+"/offers", `{"offer":"rematch"}`, http.StatusOK)
		accept := "/offers/accept"
		if i == 1 {
			accept = "/offers" // offering what the opponent offered accepts it
		}
		var g api.Game
		json.Unmarshal(a.as(black, "/api/games/"+id+accept, `{"offer":"rematch"}`, http.StatusOK), &g)
		if g.Rematch == nil {
			t.Fatalf("the accepted rematch names no game: %+v", g)
		}
		id, white, black = *g.Rematch, black, white
	}
	resign(id, white, black)
	a.as(white, "/api/games/"+id+"/offers", `{"offer":"rematch"}`, http.StatusOK)
	r := a.doAs(black, http.MethodPost, "/api/games/"+id+"/offers/accept", `{"offer":"rematch"}`)
	if r.code != http.StatusTooManyRequests || !bytes.Contains(r.body, []byte(`"too_many_games"`)) || r.hdr.Get("Retry-After") == "" {
		t.Fatalf("a fifth game in the minute: %d (Retry-After %q) %s", r.code, r.hdr.Get("Retry-After"), r.body)
	}
	if g := a.game(a.do(http.MethodGet, "/api/games/"+id, ""), http.StatusOK); g.Rematch != nil || g.Offers.Rematch == nil || *g.Offers.Rematch != "white" {
		t.Errorf("the refused rematch changed the game: %s", a.do(http.MethodGet, "/api/games/"+id, "").body)
	}
}

// TestImagesPerClient: one address asking for many distinct images (each
// drawn, 12 ms of a core for a large PNG) gets its burst, then 429
// too_many_images with Retry-After; another address's image is drawn.
func TestImagesPerClient(t *testing.T) {
	e := echo.New()
	New(newService(nil), apiClock, WithLimits(kit.Limits{ImagesPerSecond: 1, ImageBurst: 5})).Register(e)
	a := newAPIT(t, e)
	flood, other := from{a, "198.51.100.1"}, from{a, "198.51.100.2"}
	drawn := 0
	for size := boardimage.MinSize; size < boardimage.MinSize+20; size++ {
		r := flood.get(imageURL(rules.StartFEN, "png", "size="+strconv.Itoa(size)))
		switch {
		case r.code == http.StatusOK:
			drawn++
		case r.code != http.StatusTooManyRequests || r.hdr.Get("Retry-After") == "":
			t.Fatalf("image %d: %d (Retry-After %q) %s", size, r.code, r.hdr.Get("Retry-After"), r.body)
		}
	}
	if drawn != 5 {
		t.Errorf("%d of 20 images drawn for one address, want its burst of 5", drawn)
	}
	if r := other.get(imageURL(rules.StartFEN, "svg", "")); r.code != http.StatusOK {
		t.Errorf("another address's image: %d %s", r.code, r.body)
	}
}
