package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// newAnalysisAPI serves everything Register adds, analysing with a.
func newAnalysisAPI(t *testing.T, a analysis.Analyser) *apiT {
	e := echo.New()
	New(newServiceWith(nil, testsite.Config{Engine: a}), apiClock).Register(e)
	return newAPIT(t, e)
}

func decodeAnalysis(t *testing.T, r apiResp) api.Analysis {
	t.Helper()
	if r.code != http.StatusOK {
		t.Fatalf("status %d: %s", r.code, r.body)
	}
	var obj api.Analysis
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
	} {
		a.fail(a.do(http.MethodGet, c.path, ""), c.status, c.code)
	}

	// EN-Chess: the engine analyses its positions too (a variant it does
	// not play is refused: TestFourthVariant).
	enStart := rules.New(enChess(t)).FEN()
	obj = decodeAnalysis(t, a.do(http.MethodGet, "/api/analysis?variant=en&depth=2&fen="+url.QueryEscape(enStart), ""))
	enLegal := map[string]bool{}
	for _, l := range rules.New(enChess(t)).Legal() {
		enLegal[l.String()] = true
	}
	if !enLegal[obj.Best] {
		t.Errorf("EN-Chess analysis: best %s is not a legal move of its start", obj.Best)
	}
}

// enChess is EN-Chess, looked up by its ID.
func enChess(t *testing.T) rules.Variant {
	t.Helper()
	v, err := rules.VariantByID("en")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// busyAnalyser refuses every search as a full pool does.
type busyAnalyser struct{}

func (busyAnalyser) Analyse(context.Context, *rules.Game, engine.Limits) (engine.Result, error) {
	return engine.Result{}, engine.ErrBusy
}

// Play waits for the pool, which never frees up.
func (busyAnalyser) Play(ctx context.Context, _ *rules.Game, _ engine.Limits) (engine.Result, error) {
	<-ctx.Done()
	return engine.Result{}, ctx.Err()
}

func TestAPIAnalysisBusy(t *testing.T) {
	a := newAnalysisAPI(t, busyAnalyser{})
	a.fail(a.do(http.MethodGet, "/api/analysis?fen="+url.QueryEscape(rules.StartFEN), ""), http.StatusTooManyRequests, "engine_busy")
}

// TestAnalysisPage checks the page the Analyse link answers, without
// JavaScript: the best action for the side to act, drawn over the board,
// a line, and the way back; a finished game's final position too.
// TestAnalysisPageENChess: the analysis board of an EN-Chess game shows
// the engine's best move, at the start and after Black's swap (x9e8), and
// no link to the board editor, which does not edit its board.
func TestAnalysisPageENChess(t *testing.T) {
	a := newAnalysisAPI(t, engine.NewPool(1, 1, 1))
	g := a.create(`{"variant":"en"}`)
	for _, plies := range [][]string{nil, {"m:e2e4", "m:x9e8"}} {
		a.play(g.ID, plies...)
		r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis", "")
		d := parseBody(t, r)
		if best := text(d, "#analysis-best"); r.code != http.StatusOK || !strings.HasPrefix(best, "White plays ") {
			t.Errorf("after %v: status %d, best %q; want 200 with White's best move", plies, r.code, best)
		}
		if d.Find("#analysis-edit").Length() != 0 {
			t.Errorf("after %v: a link to the board editor, which does not edit EN-Chess's board", plies)
		}
	}
}

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
	// The evaluation from White's side, the line as the move list writes it.
	for _, want := range []string{`<dd id="analysis-best">Black bans `, `<dd id="analysis-eval" title="`, `<p class="analysis-line" id="analysis-line">1. ⊘`, `href="/g/` + g.ID + `"`} {
		if !bytes.Contains(r.body, []byte(want)) {
			t.Errorf("no %q in the analysis page:\n%s", want, r.body)
		}
	}
	a.play(g.ID, "b:e2e4")
	a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"white"}`), http.StatusOK)
	// The final position of a finished game is analysed too (a
	// resignation leaves White a move to play).
	if r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis", ""); r.code != http.StatusOK || !bytes.Contains(r.body, []byte(`<dd id="analysis-best">White plays `)) {
		t.Errorf("finished game: status %d, want 200 with White's best move:\n%s", r.code, r.body)
	}
	// So is its history: ply 1 is the start, where the arrow drawn over
	// the board is one of Black's bans.
	r = a.do(http.MethodGet, "/g/"+g.ID+"/analysis?ply=1", "")
	if r.code != http.StatusOK {
		t.Fatalf("ply 1: status %d: %s", r.code, r.body)
	}
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	arrow := d.Find("#board .board > svg#analysis-arrow-board")
	line := arrow.Find("line")
	sq := func(x, y string) string {
		fx, _ := strconv.ParseFloat(line.AttrOr(x, ""), 64)
		fy, _ := strconv.ParseFloat(line.AttrOr(y, ""), 64)
		return string([]byte{'a' + byte(fx), '8' - byte(fy)})
	}
	best := "b:" + sq("x1", "y1") + sq("x2", "y2")
	start, _ := rules.Replay(rules.BanChess{}, "", nil)
	legal := false
	for _, l := range start.Legal() {
		legal = legal || l.String() == best
	}
	if best != "b:"+arrow.AttrOr("data-from", "")+arrow.AttrOr("data-to", "") {
		t.Errorf("ply 1: the arrow is drawn %s, says %s to %s", best, arrow.AttrOr("data-from", ""), arrow.AttrOr("data-to", ""))
	}
	if !legal || arrow.AttrOr("data-kind", "") != "ban" || d.Find("#analysis-ply").AttrOr("title", "") != "Ply 1" || text(d, "#analysis-ply") != "Move 1 · Black bans a White move" || d.Find(".eval-white").Length() != 1 {
		t.Errorf("ply 1: arrow %s (legal %v), kind %q, position %q", best, legal, arrow.AttrOr("data-kind", ""), text(d, "#analysis-ply"))
	}
	for _, q := range []string{"?ply=99", "?ply=x", "?ply=0"} {
		if r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis"+q, ""); r.code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", q, r.code)
		}
	}
}

// quickAnalyser answers every search at once with the first legal action,
// and keeps the limits of the last one.
type quickAnalyser struct {
	mu  sync.Mutex
	lim engine.Limits
}

// Play is Analyse.
func (q *quickAnalyser) Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	return q.Analyse(ctx, g, lim)
}

func (q *quickAnalyser) Analyse(_ context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	q.mu.Lock()
	q.lim = lim
	q.mu.Unlock()
	legal := g.Legal()
	if len(legal) == 0 {
		return engine.Result{}, engine.ErrNoAction
	}
	return engine.Result{Best: legal[0], PV: legal[:1], Score: 25, Depth: 1, Nodes: 1}, nil
}

func (q *quickAnalyser) budget() time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.lim.Time
}

func parseBody(t *testing.T, r apiResp) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// stepHrefs are the analysis page's step links (" " for one disabled).
func stepHrefs(d *goquery.Document) []string {
	var out []string
	for _, id := range []string{"step-first", "step-prev", "step-next", "step-last"} {
		el := d.Find("#" + id)
		switch {
		case el.Length() == 0:
			out = append(out, "")
		case el.Is("a"):
			out = append(out, el.AttrOr("href", ""))
		default:
			out = append(out, " ")
		}
	}
	return out
}

// TestAnalysisSteps steps through a game's analyses without JavaScript:
// each ply's page links the start, the plies either side and now (plain
// links, disabled at the ends) and the position in the game.
func TestAnalysisSteps(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	g := a.create(`{}`)
	a.play(g.ID, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5") // now at ply 5
	base := "/g/" + g.ID
	an := base + "/analysis"
	for _, c := range []struct {
		query            string
		ply              string
		steps            []string
		gameURL, fenWant string
	}{
		{"?ply=1", "1", []string{" ", " ", an + "?ply=2", an}, base + "/history/0", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"},
		{"?ply=3", "3", []string{an + "?ply=1", an + "?ply=2", an + "?ply=4", an}, base + "/history/2", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3"},
		{"?ply=4", "4", []string{an + "?ply=1", an + "?ply=3", an, an}, base + "/history/3", ""},
		{"?ply=5", "5", []string{an + "?ply=1", an + "?ply=4", " ", " "}, base, ""},
		{"", "5", []string{an + "?ply=1", an + "?ply=4", " ", " "}, base, ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			r := a.do(http.MethodGet, an+c.query, "")
			if r.code != http.StatusOK {
				t.Fatalf("status %d: %s", r.code, r.body)
			}
			d := parseBody(t, r)
			if got := stepHrefs(d); !slices.Equal(got, c.steps) {
				t.Errorf("steps %q, want %q", got, c.steps)
			}
			if got := d.Find("#analysis-game").AttrOr("href", ""); got != c.gameURL {
				t.Errorf("the position in the game is %q, want %q", got, c.gameURL)
			}
			if got := d.Find("#analysis-ply").AttrOr("title", ""); got != "Ply "+c.ply {
				t.Errorf("ply %q, want Ply %s", got, c.ply)
			}
			if got := text(d, "#analysis-fen"); c.fenWant != "" && got != c.fenWant {
				t.Errorf("FEN %q, want %q", got, c.fenWant)
			}
			if !strings.HasPrefix(d.Find("#analysis-edit").AttrOr("href", ""), "/editor?fen=") || d.Find("#analysis-play").Length() != 0 {
				t.Error("a game's analysis should lead to the editor, not to a new game")
			}
		})
	}
	// A finished game: its final position is analysed, and the page
	// steps back through it.
	a.game(a.do(http.MethodPost, "/api/games/"+g.ID+"/resign", `{"color":"white"}`), http.StatusOK)
	r := a.do(http.MethodGet, an, "")
	d := parseBody(t, r)
	if r.code != http.StatusOK || d.Find("#analysis-message").Length() != 0 || d.Find("#analysis-best").Length() != 1 {
		t.Errorf("finished game: status %d, message %q", r.code, text(d, "#analysis-message"))
	}
	if got := stepHrefs(d); got[1] != an+"?ply=4" || got[2] != " " {
		t.Errorf("finished game: steps %q", got)
	}
}

// TestAnalysisPanel checks the live panel's fragment: only the panel,
// analysed with the panel's short budget, its best action on its root;
// and its refusals, each a panel saying why with the refusal's status.
func TestAnalysisPanel(t *testing.T) {
	q := &quickAnalyser{}
	a := newAnalysisAPI(t, q)
	g := a.create(`{}`)
	a.play(g.ID, "b:e2e4", "m:d2d4")
	r := a.do(http.MethodGet, "/g/"+g.ID+"/analysis?panel=1&ply=2", "")
	if r.code != http.StatusOK || bytes.Contains(r.body, []byte("<html")) || !bytes.HasPrefix(r.body, []byte(`<div id="analysis-result"`)) {
		t.Fatalf("status %d, not the panel alone:\n%s", r.code, r.body)
	}
	if q.budget() != pages.PanelBudget {
		t.Errorf("the panel thought for %v, want %v", q.budget(), pages.PanelBudget)
	}
	d := parseBody(t, r)
	root := d.Find("#analysis-result")
	fen := root.AttrOr("data-fen", "")
	pos, err := rules.FromFEN(fen, rules.BanChess{})
	if err != nil {
		t.Fatalf("data-fen %q: %v", fen, err)
	}
	best := root.AttrOr("data-from", "") + root.AttrOr("data-to", "")
	if root.AttrOr("data-ply", "") != "2" || pos.Turn().Phase != rules.PhaseMove || root.AttrOr("data-kind", "") != "move" ||
		best != pos.Legal()[0].Coords()[:4] || !strings.Contains(root.AttrOr("data-said", ""), "Best: White plays") ||
		d.Find(".eval-bar").Length() != 1 || !strings.HasPrefix(text(d, "#analysis-line"), "1. ") {
		t.Errorf("panel at ply 2: %s", r.body)
	}
	if a.do(http.MethodGet, "/g/"+g.ID+"/analysis?ply=2", ""); q.budget() != analysis.DefaultAnalysisBudget {
		t.Errorf("the page thought for %v, want the default %v", q.budget(), analysis.DefaultAnalysisBudget)
	}
	// The analysis board's answer to a ply played with scripts thinks as
	// briefly as the panel.
	req := a.request(http.MethodGet, "/g/"+g.ID+"/analysis?line=&at=1", "")
	req.Header.Set("HX-Request", "true")
	if r := a.send(req); r.code != http.StatusOK || q.budget() != pages.PanelBudget {
		t.Errorf("the board's htmx answer: %d, thought for %v, want %v", r.code, q.budget(), pages.PanelBudget)
	}

	over := a.create(`{}`)
	a.game(a.do(http.MethodPost, "/api/games/"+over.ID+"/resign", `{"color":"white"}`), http.StatusOK)
	for _, c := range []struct {
		name, path string
		status     int
		says       string
	}{
		{"ply beyond", "/g/" + g.ID + "/analysis?panel=1&ply=9", http.StatusBadRequest, "plies run from 1 to 3"},
		{"ply 0", "/g/" + g.ID + "/analysis?panel=1&ply=0", http.StatusBadRequest, "is not a ply"},
		{"ply not a number", "/g/" + g.ID + "/analysis?panel=1&ply=x", http.StatusBadRequest, "is not a ply"},
		{"unknown game", "/g/nosuchgame/analysis?panel=1&ply=1", http.StatusNotFound, "no game"},
		{"finished game", "/g/" + over.ID + "/analysis?panel=1&ply=1", http.StatusConflict, "The game is over"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := a.do(http.MethodGet, c.path, "")
			d := parseBody(t, r)
			if r.code != c.status || bytes.Contains(r.body, []byte("<html")) || !strings.Contains(text(d, "#analysis-message"), c.says) ||
				d.Find("#analysis-result").AttrOr("data-from", "x") != "" {
				t.Errorf("status %d, want %d saying %q:\n%s", r.code, c.status, c.says, r.body)
			}
		})
	}
	busy := newAnalysisAPI(t, busyAnalyser{})
	g = busy.create(`{}`)
	r = busy.do(http.MethodGet, "/g/"+g.ID+"/analysis?panel=1&ply=1", "")
	if r.code != http.StatusTooManyRequests || !bytes.Contains(r.body, []byte("The engine is busy")) {
		t.Errorf("busy engine: status %d: %s", r.code, r.body)
	}
}

// TestAnalysisToggle checks the game page and the history view carry the
// live panel's toggle (for scripts only) and its empty panel, hidden, and
// keep the Analyse links for pages without scripts.
func TestAnalysisToggle(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	g := a.create(`{}`)
	a.play(g.ID, "b:e2e4", "m:d2d4")
	for _, c := range []struct {
		path, viewPly, link string
	}{
		{"/g/" + g.ID, "", "#analyse"},
		{"/g/" + g.ID + "/history/1", "2", "#history-analyse"},
	} {
		d := parseBody(t, a.do(http.MethodGet, c.path, ""))
		toggle := d.Find("button#analysis-toggle")
		panel := d.Find("#analysis-panel")
		_, hidden := panel.Attr("hidden")
		if toggle.AttrOr("aria-pressed", "") != "false" || !toggle.HasClass("js-only") || toggle.AttrOr("data-url", "") != "/g/"+g.ID+"/analysis" ||
			toggle.AttrOr("data-view-ply", "") != c.viewPly || !hidden || panel.Find("#analysis-body").Length() != 1 ||
			panel.Find(`[aria-live="polite"]`).Length() != 1 || d.Find(c.link).Length() != 1 {
			t.Errorf("%s: toggle %v, panel hidden %v, link %s: %d", c.path, toggle.Nodes, hidden, c.link, d.Find(c.link).Length())
		}
	}
}

// TestPositionAnalysis checks the analysis of a bare position, the board
// editor's: the page with no steps, leading to a game from it (unless the
// game would be over) and back to the editor, and its refusals, each
// saying what is wrong.
func TestPositionAnalysis(t *testing.T) {
	a := newAnalysisAPI(t, engine.NewPool(1, 1, 1))
	mateBan := "7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"
	for _, c := range []struct {
		name, query string
		status      int
		says        string // in the message, or the best action
	}{
		{"Ban Chess", "fen=" + url.QueryEscape(mateBan) + "&v=ban", http.StatusOK, "Black bans cxb6"},
		{"Classic", "fen=" + url.QueryEscape(rules.StartFEN) + "&v=classic", http.StatusOK, "White plays"},
		{"bad FEN", "fen=" + url.QueryEscape("8/8/8 w - - 0 1") + "&v=ban", http.StatusBadRequest, "FEN"},
		{"no kings", "fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1") + "&v=ban", http.StatusBadRequest, "king"},
		{"no FEN", "v=ban", http.StatusBadRequest, "The FEN is empty"},
		{"EN-Chess", "v=en&fen=" + url.QueryEscape(rules.New(enChess(t)).FEN()), http.StatusOK, "White plays"},
		{"unknown variant", "v=shogi&fen=" + url.QueryEscape(rules.StartFEN), http.StatusBadRequest, "shogi"},
		{"stalemate", "v=ban&fen=" + url.QueryEscape("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 4"), http.StatusConflict, "The game is over"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := a.do(http.MethodGet, "/analysis?"+c.query, "")
			d := parseBody(t, r)
			said := text(d, "#analysis-best") + text(d, "#analysis-message") + text(d, "#error")
			if r.code != c.status || !strings.Contains(said, c.says) {
				t.Fatalf("status %d, want %d saying %q; it says %q", r.code, c.status, c.says, said)
			}
			if r.code == http.StatusBadRequest {
				if h := text(d, "h1"); h != "This position cannot be analysed" {
					t.Errorf("heading %q", h)
				}
				return
			}
			fen := text(d, "#analysis-fen")
			asked, _ := url.ParseQuery(c.query)
			q := url.Values{"fen": {fen}, "v": {asked.Get("v")}}.Encode()
			play := "/?" + q
			if r.code != http.StatusOK { // a finished position: nothing left to play
				play = ""
			}
			edit := "/editor?" + q
			if asked.Get("v") == "en" {
				edit = "" // the editor does not edit EN-Chess's board
			}
			if d.Find("#steps").Length() != 0 || d.Find("#analysis-game").Length() != 0 ||
				d.Find("#analysis-play").AttrOr("href", "") != play || d.Find("#analysis-edit").AttrOr("href", "") != edit {
				t.Errorf("links: steps %d, game %d, play %q, edit %q", d.Find("#steps").Length(), d.Find("#analysis-game").Length(),
					d.Find("#analysis-play").AttrOr("href", ""), d.Find("#analysis-edit").AttrOr("href", ""))
			}
		})
	}
	// The editor's fields, as its form sends them, go to their FEN's address.
	r := a.do(http.MethodGet, "/analysis?board=4k3%2F8%2F8%2F8%2F8%2F8%2F8%2F4K3&turn=b&v=ban&act=move&ban=e8d8&pick=wP", "")
	want := "/analysis?" + url.Values{"fen": {"4k3/8/8/8/8/8/8/4K3 b - - 0 1 4:e8d8"}, "v": {"ban"}}.Encode()
	if r.code != http.StatusSeeOther || r.hdr.Get("Location") != want {
		t.Errorf("editor fields: status %d, to %q, want %q", r.code, r.hdr.Get("Location"), want)
	}
	if r := a.do(http.MethodGet, "/analysis?board=9/8&v=ban", ""); r.code != http.StatusBadRequest {
		t.Errorf("unreadable editor fields: status %d", r.code)
	}
}

// TestEditorAnalyseLink checks the board editor offers the analysis of a
// position that can be played, as a plain link to its address.
func TestEditorAnalyseLink(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	r := a.do(http.MethodGet, "/editor?fen="+url.QueryEscape(rules.StartFEN)+"&v=classic", "")
	if r.code != http.StatusSeeOther {
		t.Fatalf("status %d, want the editor's own address", r.code)
	}
	d := parseBody(t, a.do(http.MethodGet, r.hdr.Get("Location"), ""))
	want := "/analysis?" + url.Values{"fen": {rules.StartFEN}, "v": {"classic"}}.Encode()
	if got := d.Find("a#editor-analyse").AttrOr("href", ""); got != want {
		t.Errorf("Analyse this position: %q, want %q", got, want)
	}
	d = parseBody(t, a.do(http.MethodGet, "/editor?fen="+url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"), ""))
	if d.Find("#editor-analyse").Length() != 0 {
		t.Error("a position that cannot be played offers its analysis")
	}
}

// waitingAnalyser reports each search it starts, then waits for its
// context to end and reports that.
type waitingAnalyser struct{ started, ended chan struct{} }

// Play is Analyse.
func (w waitingAnalyser) Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	return w.Analyse(ctx, g, lim)
}

func (w waitingAnalyser) Analyse(ctx context.Context, _ *rules.Game, _ engine.Limits) (engine.Result, error) {
	w.started <- struct{}{}
	<-ctx.Done()
	w.ended <- struct{}{}
	return engine.Result{}, ctx.Err()
}

// TestAnalysisCancelled checks that a search ends when the browser gives
// up its request (the panel aborts the fetch of a position left behind).
func TestAnalysisCancelled(t *testing.T) {
	w := waitingAnalyser{started: make(chan struct{}, 1), ended: make(chan struct{}, 1)}
	e := echo.New()
	New(newServiceWith(nil, testsite.Config{Engine: w}), apiClock).Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	id := newAPIT(t, e).create(`{}`).ID
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/g/"+id+"/analysis?panel=1&ply=1", nil)
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case <-w.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not start")
	}
	cancel()
	select {
	case <-w.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the search went on after its request was given up")
	}
	<-done
}

// TestAnalysisLockedInLiveGames: a game between two players is closed to
// the engine until it ends — its API analysis, its panel and its page
// refuse, and its pages offer no Analyse link and tell the panel why —
// then open to it: its panel at every ply but the last (the game's own
// analysis refuses a finished game), its analysis board at every one,
// seen from the viewer's side.
func TestAnalysisLockedInLiveGames(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	id, white, black := a.liveGame()
	for _, path := range []string{"/api/games/" + id + "/analysis"} {
		if msg := a.fail(a.do(http.MethodGet, path, ""), http.StatusForbidden, "analysis_locked"); !strings.Contains(msg, "opens when it ends") {
			t.Errorf("GET %s: %q", path, msg)
		}
	}
	for _, path := range []string{"/g/" + id + "/analysis", "/g/" + id + "/analysis?panel=1&ply=1"} {
		if r := a.do(http.MethodGet, path, ""); r.code != http.StatusForbidden || !bytes.Contains(r.body, []byte("opens when it ends")) {
			t.Errorf("GET %s: %d %.300s", path, r.code, r.body)
		}
	}
	for _, path := range []string{"/g/" + id, "/g/" + id + "/history/1"} {
		d := parseBody(t, a.do(http.MethodGet, path, ""))
		if d.Find("#status").AttrOr("data-engine", "") != "locked" || d.Find("#analyse, #history-analyse").Length() != 0 {
			t.Errorf("GET %s: the page does not keep the engine out: %q, %d links", path, d.Find("#status").AttrOr("data-engine", ""), d.Find("#analyse, #history-analyse").Length())
		}
	}

	if r := a.doAs(white, http.MethodPost, "/api/games/"+id+"/resign", `{"color":"white"}`); r.code != http.StatusOK {
		t.Fatalf("resigning: %d %s", r.code, r.body)
	}
	if r := a.do(http.MethodGet, "/g/"+id+"/analysis?panel=1&ply=1", ""); r.code != http.StatusOK {
		t.Errorf("the game over, ply 1's analysis: %d %s", r.code, r.body)
	}
	d := parseBody(t, a.do(http.MethodGet, "/g/"+id+"/history/1", ""))
	if d.Find("#status[data-engine]").Length() != 0 || d.Find("#history-analyse").Length() != 1 {
		t.Error("the game over, its history view still keeps the engine out")
	}
	// Its analysis board, the last position included, is seen from the
	// viewer's side, as the game's page is.
	for _, c := range []struct {
		token   string
		flipped bool
	}{{white, false}, {black, true}, {"", false}} {
		req := a.request(http.MethodGet, "/g/"+id+"/analysis", "")
		if c.token != "" { // a browser's credential is its cookie
			req.AddCookie(&http.Cookie{Name: kit.PlayerCookie, Value: c.token})
		}
		r := a.send(req)
		d := parseBody(t, r)
		if r.code != http.StatusOK || d.Find("form#board").HasClass("flipped") != c.flipped || d.Find("#analysis-best").Length() != 1 {
			t.Errorf("the analysis board, flipped %v for %q: %d, flipped %v", c.flipped, c.token, r.code, d.Find("form#board").HasClass("flipped"))
		}
	}
}

// liveGame starts a game between two players through the API and plays
// its first two plies: its id and the players' tokens.
func (a *apiT) liveGame() (id, white, black string) {
	a.t.Helper()
	var created, joined struct{ ID, Token, InviteCode string }
	r := a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`)
	if err := json.Unmarshal(r.body, &created); r.code != http.StatusCreated || err != nil {
		a.t.Fatalf("creating a game between two players: %d %s (%v)", r.code, r.body, err)
	}
	id = created.ID
	r = a.doAs("", http.MethodPost, "/api/games/"+id+"/join", `{"invite":"`+created.InviteCode+`"}`)
	if err := json.Unmarshal(r.body, &joined); r.code != http.StatusOK || err != nil {
		a.t.Fatalf("joining: %d %s (%v)", r.code, r.body, err)
	}
	for i, act := range []string{"b:e2e4", "m:d2d4"} {
		token := []string{joined.Token, created.Token}[i]
		if r := a.doAs(token, http.MethodPost, "/api/games/"+id+"/actions", `{"action":"`+act+`"}`); r.code != http.StatusOK {
			a.t.Fatalf("%s: %d %s", act, r.code, r.body)
		}
	}
	return id, created.Token, joined.Token
}

// TestAnalysisBoardIsPlayable: the analysis page draws the position on the
// game page's board, whose squares play plies without JavaScript (a
// square picked, then where it goes, as on the game's page): a ban, the
// game's next ply stepped on to, then a move of the analyst's own, a
// variation, drawn on its new square.
func TestAnalysisBoardIsPlayable(t *testing.T) {
	c := newLinesClient(t)
	c.get("/?v=ban&a=b:e2e4,m:d2d4,b:e7e5")
	d := c.get(c.path("analysis") + "?ply=1") // the start: Black bans
	board := d.Find("main#game.game.analysis-page form#board")
	if board.Find(".board button[data-square]").Length() != 64 || d.Find("svg#analysis-board").Length() != 0 ||
		!strings.Contains(d.Find("#board-ply").AttrOr("data-dests", ""), "e2:e3,e4") || d.Find(`#status[data-phase="ban"]`).Length() != 1 {
		t.Fatalf("not the game page's board, playable by Black's ban: %d squares, dests %q", board.Find(".board button[data-square]").Length(), d.Find("#board-ply").AttrOr("data-dests", ""))
	}
	pickURL, plyURL := board.AttrOr("action", ""), board.AttrOr("data-ply-url", "")
	if !strings.HasPrefix(pickURL, c.path("lines/select?")) || !strings.HasPrefix(plyURL, c.path("lines/play?")) {
		t.Fatalf("the board's forms post to %q and %q", pickURL, plyURL)
	}
	// Picked without JavaScript: a form post, then the page with its marks.
	d = c.post(pickURL, url.Values{"square": {"e2"}, "from": {""}, "ply": {"1"}})
	to := d.Find("button#sq-e4.dest")
	if d.Find(`#sq-e2[aria-pressed="true"]`).Length() != 1 || to.AttrOr("name", "") != "to" || to.AttrOr("formaction", "") != plyURL {
		t.Fatalf("e2 picked: %s", d.Find("#board").Text())
	}
	// The ban is the game's first ply: the board steps on to it.
	d = c.post(plyURL, url.Values{"from": {"e2"}, "to": {"e4"}, "ply": {"1"}})
	if cur := text(d, "#lines [aria-current=step]"); cur != "⊘e4" || d.Find("#ban-line rect").Length() != 2 || d.Find(`#status[data-phase="move"]`).Length() != 1 {
		t.Errorf("after the ban: current %q, ban drawn %d", cur, d.Find("#ban-line rect").Length())
	}
	// White's move of the analyst's own: a variation, its knight on f3.
	board = d.Find("form#board")
	d = c.post(board.AttrOr("data-ply-url", ""), url.Values{"from": {"g1"}, "to": {"f3"}, "ply": {"2"}})
	if got := lines(d); !strings.Contains(got, "(1. Nf3 )") || text(d, "#lines [aria-current=step]") != "Nf3" {
		t.Errorf("after Nf3: %q", got)
	}
	if d.Find(`#sq-f3 img[data-piece="wN"]`).Length() != 1 || d.Find("#sq-g1 img").Length() != 0 || d.Find("#analysis-best").Length() != 1 {
		t.Errorf("Nf3 is not drawn on f3, or no analysis: %s", d.Find("#board").Text())
	}
	// With htmx the same answer is the page's main alone, its address pushed.
	rec := c.do(http.MethodGet, c.path("analysis")+"?ply=2", nil, true)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "<html") || !strings.HasPrefix(rec.Body.String(), `<main id="game"`) ||
		rec.Header().Get("HX-Push-Url") != c.path("analysis")+"?ply=2" {
		t.Errorf("htmx: %d, pushed %q: %.200s", rec.Code, rec.Header().Get("HX-Push-Url"), rec.Body)
	}
	if said := text(parse(t, rec), `#announce[hx-swap-oob="innerHTML"]`); !strings.HasPrefix(said, "Black banned e4") || !strings.Contains(said, ". Best: White plays ") {
		t.Errorf("htmx: a screen reader hears %q", said)
	}
	// A square picked on a spot that cannot be read is refused, saying why.
	if rec := c.do(http.MethodPost, c.path("lines/select?line=x&at=0"), url.Values{"square": {"e2"}}, false); rec.Code != http.StatusBadRequest {
		t.Errorf("a pick on an unreadable line: %d", rec.Code)
	}
	// Where the game stands, plies are the game's own: the board is read-only.
	d = c.get(c.path("analysis"))
	if d.Find("form#board button").Length() != 0 || d.Find("#line-play").Length() != 0 || d.Find("#analysis-best").Length() != 1 {
		t.Errorf("the game now: %d buttons on the board", d.Find("form#board button").Length())
	}
}

// TestAnalysisOfTheEnd: the final position of a finished game is shown,
// not refused: after a resignation it is analysed and played on (a
// variation from the last position); after a mate it is shown with its
// result and no engine line.
func TestAnalysisOfTheEnd(t *testing.T) {
	c := newLinesClient(t)
	c.get("/?v=ban&a=b:e2e4,m:d2d4")
	c.post(c.path("resign"), url.Values{"ply": {"3"}, "side": {"black"}})
	d := c.get(c.path("analysis"))
	if d.Find("#analysis-best").Length() != 1 || d.Find("form#board .board button[data-square]").Length() != 64 {
		t.Fatalf("a resigned game's end: best %q, message %q", text(d, "#analysis-best"), text(d, "#analysis-message"))
	}
	board := d.Find("form#board")
	d = c.post(board.AttrOr("data-ply-url", ""), url.Values{"from": {"e7"}, "to": {"e5"}, "ply": {"3"}})
	if got := text(d, "#pending-line [aria-current=step]"); got != "⊘e5" || d.Find("#ban-line rect").Length() != 2 || d.Find("#analysis-best").Length() != 1 {
		t.Errorf("a ban from the end: current %q in %q", got, text(d, "#pending-line"))
	}

	mate := newLinesClient(t)
	mate.get("/?v=ban&fen=" + url.QueryEscape("7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"))
	mate.post(mate.path("ply"), vals("text", "b:c5b6")) // the only escape banned: mate
	rec := mate.do(http.MethodGet, mate.path("analysis"), nil, false)
	d = parse(t, rec)
	if rec.Code != http.StatusOK || !strings.Contains(text(d, "#banner"), "heckmate") || d.Find("#analysis-best").Length() != 0 ||
		!strings.Contains(text(d, "#analysis-message"), "no line") || d.Find("form#board .board [data-square]").Length() != 64 || d.Find("form#board button").Length() != 0 {
		t.Errorf("a mate's end: %d, banner %q, message %q, best %q", rec.Code, text(d, "#banner"), text(d, "#analysis-message"), text(d, "#analysis-best"))
	}
}

// TestAnalysisBoardPromotes: a pawn's move to the last rank from the
// analysis board opens the promotion picker (the page again, without
// JavaScript), whose choice plays the move.
func TestAnalysisBoardPromotes(t *testing.T) {
	c := newLinesClient(t)
	c.get("/?v=ban&fen=" + url.QueryEscape("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") + "&a=b:e1d1,m:e1e2")
	d := c.get(c.path("analysis") + "?ply=2") // White to move, e1d1 banned
	plyURL := d.Find("form#board").AttrOr("data-ply-url", "")
	d = c.post(plyURL, url.Values{"from": {"a7"}, "to": {"a8"}, "ply": {"2"}})
	picker := d.Find("form#promotion")
	if picker.AttrOr("action", "") != plyURL || picker.Find(`button[name="promotion"][value="q"]`).Length() != 1 {
		t.Fatalf("no promotion picker posting to %q: %s", plyURL, d.Find("#promotion-slot").Text())
	}
	form := url.Values{"promotion": {"q"}}
	picker.Find("input[type=hidden]").Each(func(_ int, s *goquery.Selection) { form.Set(s.AttrOr("name", ""), s.AttrOr("value", "")) })
	d = c.post(plyURL, form)
	if d.Find(`#sq-a8 img[data-piece="wQ"]`).Length() != 1 || !strings.Contains(lines(d), "a8=Q") {
		t.Errorf("promoted: a8 %q, list %q", d.Find("#sq-a8 img").AttrOr("data-piece", ""), lines(d))
	}
}

// TestAnalysisBoardFlipped: the analysis board turned round (flip=1)
// stays turned round through its links and its forms, and Flip board
// turns it back.
func TestAnalysisBoardFlipped(t *testing.T) {
	c := newLinesClient(t)
	c.get("/?v=ban&a=b:e2e4,m:d2d4,b:e7e5")
	d := c.get(c.path("analysis") + "?ply=2&flip=1")
	board := d.Find("form#board")
	if !board.HasClass("flipped") || board.Find(`input[name="flip"][value="1"]`).Length() != 1 ||
		d.Find("#analysis-flip").AttrOr("href", "") != c.path("analysis")+"?ply=2" {
		t.Fatalf("turned round: flipped %v, flip link %q", board.HasClass("flipped"), d.Find("#analysis-flip").AttrOr("href", ""))
	}
	for _, sel := range []string{"#step-prev", "#step-next", "#lines a.line-ply"} {
		if href := d.Find(sel).AttrOr("href", ""); !strings.Contains(href, "flip=1") {
			t.Errorf("%s leads to %q, not turned round", sel, href)
		}
	}
	rec := c.do(http.MethodPost, board.AttrOr("data-ply-url", ""), url.Values{"from": {"g1"}, "to": {"f3"}, "ply": {"2"}, "flip": {"1"}}, false)
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.Contains(loc, "flip=1") {
		t.Errorf("a ply played: %d to %q", rec.Code, loc)
	}
	d = c.get(rec.Header().Get("Location"))
	if !d.Find("form#board").HasClass("flipped") || d.Find(`#line-play input[name="flip"][value="1"]`).Length() != 1 {
		t.Errorf("after a ply the board is not turned round")
	}
}
