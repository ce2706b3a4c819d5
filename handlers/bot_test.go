package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
)

// gatedEngine plays each position's first legal action once the test
// lets it (one search per receive from go).
type gatedEngine struct{ go_ chan struct{} }

func (g *gatedEngine) Analyse(ctx context.Context, gm *rules.Game, _ engine.Limits) (engine.Result, error) {
	select {
	case <-g.go_:
		return engine.Result{Best: gm.Legal()[0]}, nil
	case <-ctx.Done():
		return engine.Result{}, ctx.Err()
	}
}

// Play is Analyse: the computer's plies wait for the test the same way.
func (g *gatedEngine) Play(ctx context.Context, gm *rules.Game, lim engine.Limits) (engine.Result, error) {
	return g.Analyse(ctx, gm, lim)
}

// newBotServer serves everything Register adds, the computer playing on a.
func newBotServer(t *testing.T, a analysis.Analyser) *echo.Echo {
	svc := newServiceWith(nil, testsite.Config{Engine: a})
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	return e
}

// waitFor reloads the page until cond holds.
func waitFor(t *testing.T, c *client, what string, cond func(ply string) bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond(c.get(c.page()).Find("#status").AttrOr("data-ply", "")) {
			return
		}
	}
	t.Fatalf("waited in vain for %s", what)
}

func TestBotGameOnPages(t *testing.T) {
	eng := &gatedEngine{go_: make(chan struct{})}
	c := newClientOn(t, newBotServer(t, eng))
	d := c.post("/new", vals("mode", "bot", "color", "black", "level", "2", "variant", "ban"))
	// Black bans first: the human acts, and nothing waits.
	if refreshes(d) || d.Find("#thinking").Length() != 0 {
		t.Fatal("the human's turn shows the computer thinking")
	}
	if _, off := d.Find("#undo").Attr("disabled"); !off {
		t.Fatal("undo is offered before the human played")
	}
	c.post(c.path("ply"), vals("text", "b:e2e4", "ply", "1"))
	d = c.get(c.page())
	if !refreshes(d) || !strings.Contains(text(d, "#thinking"), "level 2") {
		t.Fatalf("while the computer thinks: refresh %v, %q", refreshes(d), text(d, "#thinking"))
	}
	if r := c.do(http.MethodPost, c.path("ply"), vals("text", "m:d2d4", "ply", "2"), false); r.Code != http.StatusForbidden {
		t.Fatalf("the human played the computer's move: %d", r.Code)
	}
	eng.go_ <- struct{}{} // White moves
	eng.go_ <- struct{}{} // and bans
	waitFor(t, c, "the computer's move and ban", func(ply string) bool { return ply == "4" })
	d = c.get(c.page())
	if refreshes(d) || d.Find("#thinking").Length() != 0 {
		t.Fatal("the human's turn still shows the computer thinking")
	}
	if _, off := d.Find("#undo").Attr("disabled"); off {
		t.Fatal("undo is not offered after the human played")
	}
	// Undo takes back the human's ban and the computer's two plies.
	c.post(c.path("undo"), url0())
	if ply := c.get(c.page()).Find("#status").AttrOr("data-ply", ""); ply != "1" {
		t.Fatalf("after undo at ply %s, want 1", ply)
	}
}

func url0() map[string][]string { return map[string][]string{} }

func TestBotFormRefused(t *testing.T) {
	c := newClientOn(t, newBotServer(t, &gatedEngine{go_: make(chan struct{})}))
	for _, tc := range []struct {
		name string
		form map[string][]string
		want string
	}{
		{"level 0", vals("mode", "bot", "level", "0"), "not a level"},
		{"level x", vals("mode", "bot", "level", "x"), "not a level"},
		{"colour", vals("mode", "bot", "level", "3", "color", "green"), "not a colour"},
	} {
		r := c.do(http.MethodPost, "/new", tc.form, false)
		if r.Code != http.StatusBadRequest || !strings.Contains(r.Body.String(), tc.want) {
			t.Errorf("%s: %d, want 400 %q", tc.name, r.Code, tc.want)
		}
	}
}

// TestBotRefusesOtherVariant: a variant the engine does not play
// (rulestest.NoFifty) is refused for a game against the computer, by the
// form and the API, saying which it plays, and for an analysis.
func TestBotRefusesOtherVariant(t *testing.T) {
	svc := newServiceWith(nil, testsite.Config{Engine: engine.NewPool(1, 2, 1),
		Games: []games.Option{games.WithLoader(games.NewLoader(games.DefaultLimits(), rulestest.Variants()...))}})
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	r := newClientOn(t, e).do(http.MethodPost, "/new", vals("mode", "bot", "level", "3", "variant", "nofifty"), false)
	if r.Code != http.StatusBadRequest || !strings.Contains(r.Body.String(), "Ban Chess, Classic and EN-Chess only") {
		t.Errorf("the form: %d, want 400 naming the variants the computer plays", r.Code)
	}
	a := newAPIT(t, e)
	a.fail(a.do(http.MethodPost, "/api/games", `{"bot":"white:3","variant":"nofifty"}`), http.StatusBadRequest, "unsupported_variant")
	a.fail(a.do(http.MethodGet, "/api/analysis?variant=nofifty&fen="+url.QueryEscape("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), ""), http.StatusBadRequest, "unsupported_variant")
}

func TestAPIBotGame(t *testing.T) {
	a := newAPIT(t, newBotServer(t, engine.NewPool(1, 2, 1)))
	for _, body := range []string{`{"bot":{"color":"black","level":1}}`, `{"bot":"black:2","variant":"classic"}`} {
		g := a.create(body)
		if g.Mode != "bot" || g.Bot == nil || g.Bot.Color != "black" || !g.Seats.White || !g.Seats.Black {
			t.Fatalf("%s: mode %q bot %+v seats %+v", body, g.Mode, g.Bot, g.Seats)
		}
		want := 2 // the computer, Black, bans first
		if g.Variant == "classic" {
			want = 1 // White moves first: the computer waits
		}
		deadline := time.Now().Add(5 * time.Second)
		for g.Ply != want && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			g = a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
		}
		if g.Ply != want {
			t.Errorf("%s: at ply %d, want %d", body, g.Ply, want)
		}
	}
	for _, tc := range []struct{ body, code string }{
		{`{"bot":{"color":"black","level":9}}`, "bad_level"},
		{`{"bot":{"color":"green","level":3}}`, "bad_bot"},
		{`{"bot":{"colour":"black"}}`, "unknown_field"},
		{`{"bot":{"color":["black"]}}`, "bad_json"},
		{`{"bot":"black:3","mode":"invite"}`, "bad_mode"},
		{`{"mode":"bot"}`, "bad_bot"},
		{`{"bot":"white:3","clock":"soon"}`, "bad_clock"},
	} {
		a.fail(a.do(http.MethodPost, "/api/games", tc.body), http.StatusBadRequest, tc.code)
	}
}

// TestAPIBotGameENChess: a game against the computer in EN-Chess. The
// computer, White, moves first; after the human's swap of Auror and king
// (x9e8) it answers again (the service plays the computer's moves through
// the rules, so each is legal).
func TestAPIBotGameENChess(t *testing.T) {
	a := newAPIT(t, newBotServer(t, engine.NewPool(1, 2, 1)))
	g := a.create(`{"bot":{"color":"white","level":3},"variant":"en"}`)
	if g.Variant != "en" || g.Mode != "bot" || g.Bot == nil || g.Bot.Color != "white" {
		t.Fatalf("variant %q mode %q bot %+v", g.Variant, g.Mode, g.Bot)
	}
	wait := func(ply int) api.Game {
		t.Helper()
		g := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
		for deadline := time.Now().Add(10 * time.Second); g.Ply != ply && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
			g = a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
		}
		if g.Ply != ply {
			t.Fatalf("at ply %d, want %d: the computer did not move (log %v)", g.Ply, ply, g.Log)
		}
		return g
	}
	g = wait(2)
	if len(g.Log) != 1 || g.Turn != "black" || !slices.Contains(g.Legal, "m:x9e8") {
		t.Fatalf("after the computer's first move: log %v, turn %s, legal %v", g.Log, g.Turn, g.Legal)
	}
	a.play(g.ID, "m:x9e8")
	g = wait(4)
	if len(g.Log) != 3 || g.Log[1] != "A@e8" || g.Turn != "black" {
		t.Errorf("after the swap: log %v, turn %s", g.Log, g.Turn)
	}
}

// TestAPIBotClock: a game against the computer may have a clock, which
// runs from the start (both seats are taken): the computer, Black, bans on
// its own time, then White's runs.
func TestAPIBotClock(t *testing.T) {
	a := newAPIT(t, newBotServer(t, engine.NewPool(1, 2, 1)))
	g := a.create(`{"bot":{"color":"black","level":1},"clock":"1+2"}`)
	if c := g.Clock; c == nil || c.Initial != 60_000 || c.Increment != 2000 || c.Running == nil {
		t.Fatalf("clock %+v, want 1+2, running", g.Clock)
	}
	deadline := time.Now().Add(5 * time.Second)
	for g.Ply != 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		g = a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
	}
	if c := g.Clock; g.Ply != 2 || c.Running == nil || *c.Running != "white" {
		t.Errorf("after the computer's ban: ply %d, clock %+v; want ply 2 with White's time running", g.Ply, c)
	}
}
