package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// newAnalysisAPI serves everything Register adds, analysing with a.
func newAnalysisAPI(t *testing.T, a games.Analyser) *apiT {
	e := echo.New()
	New(newService(nil, games.WithAnalyser(a)), apiClock).Register(e)
	return newAPIT(t, e)
}

func decodeAnalysis(t *testing.T, r apiResp) analysisObject {
	t.Helper()
	if r.code != http.StatusOK {
		t.Fatalf("status %d: %s", r.code, r.body)
	}
	var obj analysisObject
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s: %v", r.body, err)
	}
	return obj
}

func TestAPIAnalysis(t *testing.T) {
	a := newAnalysisAPI(t, engine.NewPool(1, 1, 1))
	// The mate by the ban of the only escape, en passant.
	fen := "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"
	obj := decodeAnalysis(t, a.do(http.MethodGet, "/api/analysis?depth=2&ms=2000&fen="+url.QueryEscape(fen), ""))
	if obj.Best != "b:c5b6" || obj.Mate == nil || *obj.Mate != 1 || obj.Score != nil || len(obj.PV) == 0 {
		t.Errorf("mate by ban: %+v", obj)
	}
	obj = decodeAnalysis(t, a.do(http.MethodGet, "/api/analysis?level=3&fen="+url.QueryEscape(rules.StartFEN), ""))
	if obj.Score == nil || obj.Mate != nil || obj.Best[:2] != "b:" || obj.Nodes == 0 {
		t.Errorf("start: %+v", obj)
	}
	g := a.create(`{}`)
	a.play(g.ID, "b:e2e4", "m:d2d4")
	obj = decodeAnalysis(t, a.do(http.MethodGet, "/api/games/"+g.ID+"/analysis?depth=2", ""))
	after := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK)
	legal := map[string]bool{}
	for _, l := range after.Legal {
		legal[l] = true
	}
	if !legal[obj.Best] {
		t.Errorf("game analysis: best %s is not among the legal %v", obj.Best, after.Legal)
	}

	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/analysis?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"), http.StatusBadRequest, "bad_fen"},
		{"/api/analysis", http.StatusBadRequest, "bad_fen"},
		{"/api/analysis?ms=10001&fen=" + url.QueryEscape(rules.StartFEN), http.StatusBadRequest, "bad_budget"},
		{"/api/analysis?ms=soon&fen=" + url.QueryEscape(rules.StartFEN), http.StatusBadRequest, "bad_budget"},
		{"/api/analysis?level=9&fen=" + url.QueryEscape(rules.StartFEN), http.StatusBadRequest, "bad_level"},
		{"/api/analysis?depth=0&fen=" + url.QueryEscape(rules.StartFEN), http.StatusBadRequest, "bad_depth"},
		{"/api/analysis?fen=" + url.QueryEscape("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 4"), http.StatusConflict, "game_over"},
		{"/api/games/nosuchgame/analysis", http.StatusNotFound, "not_found"},
		{"/api/analysis?variant=en&fen=" + url.QueryEscape(rules.New(rules.ENChess{}).FEN()), http.StatusBadRequest, "unsupported_variant"},
	} {
		a.fail(a.do(http.MethodGet, c.path, ""), c.status, c.code)
	}
}

// busyAnalyser refuses every search as a full pool does.
type busyAnalyser struct{}

func (busyAnalyser) Analyse(context.Context, *rules.Game, engine.Limits) (engine.Result, error) {
	return engine.Result{}, engine.ErrBusy
}

func TestAPIAnalysisBusy(t *testing.T) {
	a := newAnalysisAPI(t, busyAnalyser{})
	a.fail(a.do(http.MethodGet, "/api/analysis?fen="+url.QueryEscape(rules.StartFEN), ""), http.StatusTooManyRequests, "engine_busy")
}

// TestAnalysisPage checks the page the Analyse link answers, without
// JavaScript: the best action for the side to act, a line, and the way
// back; a finished game is refused.
func TestAnalysisPage(t *testing.T) {
	a := newAnalysisAPI(t, engine.NewPool(1, 1, 1))
	g := a.create(`{}`)
	game := a.do(http.MethodGet, "/g/"+g.ID, "")
	if !bytes.Contains(game.body, []byte(`id="analyse" href="/g/`+g.ID+`/analysis"`)) {
		t.Fatalf("the game page has no Analyse link:\n%s", game.body)
	}
	r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis", "")
	if r.code != http.StatusOK {
		t.Fatalf("status %d: %s", r.code, r.body)
	}
	for _, want := range []string{`<dd id="analysis-best">Black bans `, `for Black</dd>`, `<ol class="analysis-line"><li>Black bans`, `<li>White plays`, `href="/g/` + g.ID + `"`} {
		if !bytes.Contains(r.body, []byte(want)) {
			t.Errorf("no %q in the analysis page:\n%s", want, r.body)
		}
	}
	a.play(g.ID, "b:e2e4")
	a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"white"}`), http.StatusOK)
	if r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis", ""); r.code != http.StatusConflict {
		t.Errorf("finished game: status %d, want 409", r.code)
	}
	// Its history can still be analysed: ply 1 is the start, where the
	// arrow is one of Black's bans.
	r = a.do(http.MethodGet, "/g/"+g.ID+"/analysis?ply=1", "")
	if r.code != http.StatusOK {
		t.Fatalf("ply 1: status %d: %s", r.code, r.body)
	}
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	arrow := d.Find("#analysis-arrow")
	sq := func(x, y string) string {
		fx, _ := strconv.ParseFloat(arrow.AttrOr(x, ""), 64)
		fy, _ := strconv.ParseFloat(arrow.AttrOr(y, ""), 64)
		return string([]byte{'a' + byte(fx), '8' - byte(fy)})
	}
	best := "b:" + sq("x1", "y1") + sq("x2", "y2")
	start, _ := rules.Replay(rules.BanChess{}, "", nil)
	legal := false
	for _, l := range start.Legal() {
		legal = legal || l.String() == best
	}
	if !legal || !arrow.HasClass("arrow-ban") || text(d, "#analysis-ply") != "1" || d.Find(".eval-white").Length() != 1 {
		t.Errorf("ply 1: arrow %s (legal %v), ban %v, ply %q", best, legal, arrow.HasClass("arrow-ban"), text(d, "#analysis-ply"))
	}
	for _, q := range []string{"?ply=99", "?ply=x", "?ply=0"} {
		if r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis"+q, ""); r.code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", q, r.code)
		}
	}
}
