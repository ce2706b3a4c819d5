package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

// firstLegal is an engine whose best line is the first legal action,
// three plies deep: a refutation known in advance.
type firstLegal struct{}

func (firstLegal) Analyse(_ context.Context, g *rules.Game, _ engine.Limits) (engine.Result, error) {
	var pv []rules.Action
	for range 3 {
		legal := g.Legal()
		if len(legal) == 0 || g.Play(legal[0]) != nil {
			break
		}
		pv = append(pv, legal[0])
	}
	for range pv {
		g.Undo()
	}
	if len(pv) == 0 {
		return engine.Result{}, engine.ErrNoAction
	}
	return engine.Result{PV: pv, Best: pv[0], Score: -300}, nil
}

// refutedEcho serves training on the shipped puzzles with firstLegal as
// its engine.
func refutedEcho(t *testing.T) *echo.Echo {
	t.Helper()
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory()
	tr := training.New(set, lessons.All(), st, training.WithClock(apiClock), training.WithAnalyser(firstLegal{}))
	return newServerOn(st, withTraining(tr))
}

// refutedServer is a browser's client of refutedEcho.
func refutedServer(t *testing.T) *client {
	t.Helper()
	return newClientOn(t, refutedEcho(t))
}

// moveFirstMate is a mate in 2 by a move and the ban after it: after a
// wrong move the solver bans before the opponent answers.
func moveFirstMate(p puzzles.Puzzle) bool {
	return p.Kind() == puzzles.MateIn2 && len(p.Solution) == 2 && strings.HasPrefix(p.Solution[0], "m:")
}

// wrongAndRefuted is a first action of p that is not its solution's and
// does not end the game, and the position firstLegal's refutation leads
// to after it: the solver's ban (after a move), then the opponent's
// action.
func wrongAndRefuted(t *testing.T, p puzzles.Puzzle) (wrong rules.Action, after *rules.Game) {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range g.Legal() {
		if a.String() == p.Solution[0] || g.Play(a) != nil {
			continue
		}
		if !g.Outcome().Over() {
			solver := g.Turn().Actor // the solver bans after its move
			for g.Turn().Actor == solver {
				g.Play(g.Legal()[0])
			}
			g.Play(g.Legal()[0])
			return a, g
		}
		g.Undo()
	}
	t.Fatalf("puzzle %s: every first action but the solution ends the game", p.ID)
	return rules.Action{}, nil
}

// drawnPieces are the pieces a page's board draws, by square: "e4": "wP".
func drawnPieces(d *goquery.Document) map[string]string {
	out := map[string]string{}
	d.Find(`#board [data-square]`).Each(func(_ int, s *goquery.Selection) {
		if p, ok := s.Find("[data-piece]").Attr("data-piece"); ok {
			out[s.AttrOr("data-square", "")] = p
		}
	})
	return out
}

// piecesOf are g's pieces by square, as drawnPieces reads them.
func piecesOf(g *rules.Game) map[string]string {
	out := map[string]string{}
	b := g.Position().Board
	for i := range 64 {
		if p := b[i]; p != 0 {
			out[rules.Square(i).String()] = p.Code()
		}
	}
	return out
}

// samePieces says how drawn differs from want ("" when alike).
func samePieces(drawn, want map[string]string) string {
	var diff []string
	for sq, p := range want {
		if drawn[sq] != p {
			diff = append(diff, sq+": "+drawn[sq]+" drawn, "+p+" wanted")
		}
	}
	for sq, p := range drawn {
		if _, ok := want[sq]; !ok {
			diff = append(diff, sq+": "+p+" drawn, none wanted")
		}
	}
	return strings.Join(diff, "; ")
}

// TestWrongPuzzleAnswerWithoutScripts: before answering, the puzzle's
// goal and the themes' names are shown; a wrong move's result draws the
// wrong move, the solver's best ban and the opponent's answer, says
// "That's not the move!", offers Retry and View the solution (the steps
// not shown until then), and its status is no one's turn; the solution
// is a click away, the status still over; Retry is the puzzle from its
// start, live, and solving it then is not rated again.
func TestWrongPuzzleAnswerWithoutScripts(t *testing.T) {
	c := refutedServer(t)
	p := shippedWhere(t, moveFirstMate)
	ply := startPly(t, p)
	d := c.get("/training/" + p.ID)
	if got := d.Find("#goal").Text(); !strings.Contains(got, "checkmate in 2") {
		t.Errorf("the goal before answering: %q", got)
	}
	themes := d.Find(".theme-list").Text()
	for _, want := range []string{"Mate in 2", "Checkmate by ban", "Winning material"} {
		if !strings.Contains(themes, want) {
			t.Errorf("the themes %q name no %q", themes, want)
		}
	}
	if strings.Contains(themes, "mateIn2") {
		t.Errorf("the themes show their keys: %q", themes)
	}

	wrong, after := wrongAndRefuted(t, p)
	d = c.post("/training/"+p.ID+"/play", boardInputOf(t, wrong.String(), ply))
	if got := d.Find("#result.wrong").Text(); !strings.HasPrefix(got, "That's not the move!") {
		t.Errorf("the result: %q", got)
	}
	if diff := samePieces(drawnPieces(d), piecesOf(after)); diff != "" {
		t.Errorf("the board after the wrong move and its refutation: %s", diff)
	}
	if v := d.Find("#board-ply").AttrOr("value", ""); v != strconv.Itoa(ply+3) || d.Find("#board button").Length() != 0 {
		t.Errorf("the board's ply %q (want %d), %d live squares", v, ply+3, d.Find("#board button").Length())
	}
	status, hint := d.Find("#status").Text(), d.Find(".status-bar .hint").Text()
	if strings.TrimSpace(status) != "Puzzle failed" || strings.Contains(strings.ToLower(status), "your") {
		t.Errorf("the status after the puzzle ended: %q", status)
	}
	if !strings.HasPrefix(hint, "You played "+lessons.Name(mustStart(t, p), wrong).String()) || !strings.Contains(hint, "Even after your best ban") {
		t.Errorf("the caption: %q", hint)
	}
	if d.Find(".solution-steps").Length() != 0 {
		t.Error("the solution is shown before it is asked for")
	}
	retry, view := d.Find("#retry").AttrOr("href", ""), d.Find("#view-solution").AttrOr("href", "")
	if retry != "/training/"+p.ID || !strings.HasPrefix(view, "/training/"+p.ID+"/result?at=1") {
		t.Fatalf("retry %q, view the solution %q", retry, view)
	}
	failed := d.Find("#player-rating").Text()

	d = c.get(view)
	if d.Find(".solution-steps a[aria-current=step]").Length() != 1 || d.Find("#view-solution").Length() != 0 {
		t.Errorf("the solution: %q", d.Find(".solution").Text())
	}
	if got := d.Find("#status").Text(); strings.TrimSpace(got) != "Puzzle failed" {
		t.Errorf("the status of the solution: %q", got)
	}

	d = c.get(retry)
	if d.Find("#board button").Length() == 0 || d.Find("#board-ply").AttrOr("value", "") != strconv.Itoa(ply) || !strings.Contains(d.Find("#status").Text(), "your move") {
		t.Errorf("retry: ply %q, status %q", d.Find("#board-ply").AttrOr("value", ""), d.Find("#status").Text())
	}
	c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[0], ply))
	d = c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[1], ply+1))
	if d.Find("#result.right").Length() != 1 || !strings.Contains(d.Find("#rating-change").Text(), "tried this puzzle before") || d.Find("#player-rating").Text() != failed {
		t.Errorf("solved on retry: %q %q, rating %q (was %q)", d.Find("#result").Text(), d.Find("#rating-change").Text(), d.Find("#player-rating").Text(), failed)
	}
	if got := d.Find("#status").Text(); strings.TrimSpace(got) != "Puzzle solved" {
		t.Errorf("the status once solved: %q", got)
	}
}

// TestWrongPuzzleAnswerWithScripts: with htmx the wrong action comes
// first, alone on the board, with the result; the refutation is loaded
// after a pause, its address the result's.
func TestWrongPuzzleAnswerWithScripts(t *testing.T) {
	c := refutedServer(t)
	p := shippedWhere(t, moveFirstMate)
	ply := startPly(t, p)
	wrong, after := wrongAndRefuted(t, p)
	c.get("/training/" + p.ID)
	rec := c.do(http.MethodPost, "/training/"+p.ID+"/play", boardInputOf(t, wrong.String(), ply), true)
	d := parse(t, rec)
	result := "/training/" + p.ID + "/result"
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Push-Url") != result || d.Find("#result.wrong").Length() != 1 {
		t.Fatalf("%d, pushed %q: %q", rec.Code, rec.Header().Get("HX-Push-Url"), d.Find("#result").Text())
	}
	g := mustStart(t, p)
	g.Play(wrong)
	if diff := samePieces(drawnPieces(d), piecesOf(g)); diff != "" || d.Find("#board-ply").AttrOr("value", "") != strconv.Itoa(ply+1) {
		t.Errorf("the wrong move alone: %s", diff)
	}
	then, _ := d.Find("#pending").Attr("hx-get")
	if then != result || d.Find("#pending[hx-push-url]").Length() != 0 {
		t.Fatalf("the refutation comes from %q", then)
	}
	d = parse(t, c.do(http.MethodGet, then, nil, true))
	if diff := samePieces(drawnPieces(d), piecesOf(after)); diff != "" || d.Find("#pending").Length() != 0 {
		t.Errorf("the refutation: %s", diff)
	}
}

// mustStart is p's position.
func mustStart(t *testing.T, p puzzles.Puzzle) *rules.Game {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	return g
}
