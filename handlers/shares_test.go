package handlers

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

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

// TestAnalysisShareAmongClients: one client firing many analyses at once
// gets one searched and the rest refused (429 analysis_running, with
// Retry-After), while a second client's analysis and a third's game
// against the computer are answered.
func TestAnalysisShareAmongClients(t *testing.T) {
	a := newAPIT(t, newBotServer(t, engine.NewPool(1, 4, 1)))
	flood, other, player := from{a, "198.51.100.1"}, from{a, "198.51.100.2"}, from{a, "2001:db8::7"}
	start := "/api/analysis?fen=" + url.QueryEscape(rules.StartFEN)

	const n = 30
	var wg sync.WaitGroup
	answers := make([]apiResp, n)
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
	if mine.code != http.StatusOK {
		t.Errorf("the other client's analysis: %d %s", mine.code, mine.body)
	}
	searched := 0
	for _, r := range answers {
		switch {
		case r.code == http.StatusOK:
			searched++
		case r.code != http.StatusTooManyRequests || !bytes.Contains(r.body, []byte(`"code":"analysis_running"`)) || r.hdr.Get("Retry-After") == "":
			t.Errorf("a flooding analysis: %d (Retry-After %q) %s", r.code, r.hdr.Get("Retry-After"), r.body)
		default:
			if secs, err := strconv.Atoi(r.hdr.Get("Retry-After")); err != nil || secs < 1 {
				t.Errorf("Retry-After %q", r.hdr.Get("Retry-After"))
			}
		}
	}
	if searched != 1 {
		t.Errorf("%d of the flood's %d analyses searched, want 1", searched, n)
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
