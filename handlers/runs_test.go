package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

// newRunServer is newTrainingServer with its training and store at hand.
func newRunServer(t *testing.T) (*echo.Echo, *training.Service, *store.Memory) {
	t.Helper()
	st := store.NewMemory()
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tr := training.New(set, lessons.All(), st, training.WithClock(apiClock))
	return newServerOn(st, withTraining(tr)), tr, st
}

// runOf returns the run a page's address names and its puzzles.
func runOf(t *testing.T, tr *training.Service, st *store.Memory, path string) (training.Run, []puzzles.Puzzle) {
	t.Helper()
	id := path[strings.LastIndex(path, "/")+1:]
	id, _, _ = strings.Cut(id, "?")
	r, ok, err := st.Run(context.Background(), id)
	if err != nil || !ok {
		t.Fatalf("no run %q: %v", id, err)
	}
	return r, tr.Runs().Puzzles(r)
}

// startRun starts a run by its start page's form and returns the run's
// page and address.
func startRun(t *testing.T, c *client, base string) string {
	t.Helper()
	d := c.get(base)
	if d.Find("#run-start").Length() != 1 {
		t.Fatalf("%s has no start button", base)
	}
	rec := c.do(http.MethodPost, base, url.Values{}, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, base+"/") {
		t.Fatalf("POST %s: %d %q", base, rec.Code, loc)
	}
	return loc
}

// solveOnPage plays p's solution by the board's plain forms at the run's
// page base; it returns the page after the last action.
func solveOnPage(t *testing.T, c *client, base string, p puzzles.Puzzle) string {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	solver, start := g.Turn().Actor, g.Ply()
	var html string
	for i, text := range p.Solution {
		if g.Turn().Actor == solver {
			d := c.post(base+"/play", boardInputOf(t, text, start+i))
			html, _ = d.Html()
		}
		a, _ := rules.ParseAction(text)
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	return html
}

// wrongAction is a legal first action of p that is not its solution's and
// does not end the game.
func wrongAction(t *testing.T, p puzzles.Puzzle) (string, int) {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range g.Legal() {
		if a.String() == p.Solution[0] {
			continue
		}
		if v, err := p.Judge([]rules.Action{a}); err == nil && !v.Correct {
			return a.String(), g.Ply()
		}
	}
	t.Fatalf("puzzle %s has no wrong first action", p.ID)
	return "", 0
}

// TestStreakPages: the start page shows the rules and a start button; a
// run's page shows the puzzle at hand on the solver's live board; solving
// it by plain forms moves on to the next with the score said; the skip
// passes one and is gone; bad input is refused on the page and changes
// nothing; a wrong action ends the run, with the best and a new start;
// another browser has no such run.
func TestStreakPages(t *testing.T) {
	e, tr, st := newRunServer(t)
	c := newClientOn(t, e)
	if d := c.get("/training/streak"); !strings.Contains(d.Find(".hint").Text(), "first mistake ends the run") || !strings.Contains(d.Find("#run-best").Text(), "0") {
		t.Errorf("the start page: %q", d.Find(".trainer-panel").Text())
	}
	base := startRun(t, c, "/training/streak")
	r, ps := runOf(t, tr, st, base)
	d := c.get(base)
	if d.Find("#board button").Length() == 0 || d.Find("#run-skip").Length() != 1 || d.Find("#run-score").Text() != "Streak: 0" {
		t.Fatalf("the run's page: %q", d.Find(".trainer-panel").Text())
	}
	solveOnPage(t, c, base, ps[0])
	d = c.get(base)
	if got := d.Find("#run-score").Text(); got != "Streak: 1" {
		t.Errorf("after the first puzzle: %q", got)
	}

	if href, _ := d.Find("#board").Attr("action"); href != base+"/select?p="+ps[1].ID {
		t.Errorf("the board posts to %q", href)
	}
	g0, _ := ps[0].Start()
	again := c.do(http.MethodPost, base+"/play?p="+ps[0].ID, boardInputOf(t, ps[0].Solution[0], g0.Ply()), false)
	if again.Code != http.StatusConflict || !strings.Contains(errorText(parse(t, again)), "moved on") || parse(t, again).Find("#run-panel").AttrOr("data-puzzle", "") != ps[1].ID {
		t.Errorf("a form of the puzzle before, sent again: %d %q", again.Code, errorText(parse(t, again)))
	}
	rec := c.do(http.MethodPost, base+"/play", url.Values{"from": {"z9"}, "to": {"e4"}}, false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(errorText(parse(t, rec)), "is not a square") {
		t.Errorf("bad input: %d %q", rec.Code, errorText(parse(t, rec)))
	}
	if now, _ := runOf(t, tr, st, base); now != (training.Run{ID: r.ID, Player: r.Player, Kind: r.Kind, Seed: r.Seed, Started: now.Started, Pos: 1, Score: 1}) {
		t.Errorf("bad input changed the run: %+v", now)
	}

	d = c.post(base+"/skip", url.Values{})
	if d.Find("#run-skip").Length() != 0 || d.Find("#run-score").Text() != "Streak: 1" {
		t.Errorf("after the skip: %q", d.Find(".trainer-panel").Text())
	}
	if rec := c.do(http.MethodPost, base+"/skip", url.Values{}, false); rec.Code != http.StatusConflict {
		t.Errorf("a second skip: %d", rec.Code)
	}
	wrong, ply := wrongAction(t, ps[2])
	d = c.post(base+"/play", boardInputOf(t, wrong, ply))
	if got := d.Find("#result").Text(); !strings.Contains(got, "The streak is over: 1 solved.") {
		t.Errorf("a wrong action: %q", got)
	}
	if got := d.Find("#run-best").Text(); !strings.Contains(got, "Your best streak: 1") || d.Find("#run-start").Length() != 1 || d.Find("#board").Length() != 0 {
		t.Errorf("the end: best %q", got)
	}
	if href, _ := d.Find("#run-last").Attr("href"); href != "/training/"+ps[2].ID {
		t.Errorf("the puzzle that ended it: %q", href)
	}
	if rec := c.do(http.MethodPost, base+"/play", boardInputOf(t, wrong, ply), false); rec.Code != http.StatusConflict {
		t.Errorf("playing a run over: %d", rec.Code)
	}
	if rec := c.session().do(http.MethodGet, base, nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("another browser's look at the run: %d", rec.Code)
	}
}

// TestStormPages: the start page says the storm needs scripts; a run's
// page draws the clock with the server's time left; a right action
// scores; with htmx the answer is the main element; the end shows the
// score and the bests.
func TestStormPages(t *testing.T) {
	e, tr, st := newRunServer(t)
	c := newClientOn(t, e)
	if d := c.get("/storm"); d.Find("noscript").Length() == 0 || !strings.Contains(d.Find(".hint").Text(), "10 seconds") {
		t.Errorf("the start page: %q", d.Find(".trainer-panel").Text())
	}
	base := startRun(t, c, "/storm")
	_, ps := runOf(t, tr, st, base)
	d := c.get(base)
	if ms, _ := d.Find("#storm-clock").Attr("data-remaining"); ms != "180000" || d.Find("#storm-clock").Text() != "3:00" {
		t.Errorf("the clock: %q %q", ms, d.Find("#storm-clock").Text())
	}
	if d.Find(`script[src*="storm.js"]`).Length() != 1 {
		t.Error("no storm.js")
	}
	solveOnPage(t, c, base, ps[0])
	d = c.get(base)
	if got := d.Find("#run-score").Text(); !strings.HasPrefix(got, "Solved: 1 · Combo: ") {
		t.Errorf("after a right answer: %q", got)
	}
	wrong, ply := wrongAction(t, ps[1])
	d = c.hxPost(base+"/play", boardInputOf(t, wrong, ply))
	if ms, _ := d.Find("#storm-clock").Attr("data-remaining"); ms != "170000" || !strings.Contains(d.Find("#run-score").Text(), "Combo: 0") || d.Find("#feedback.wrong").Text() != "Wrong: 10 seconds off the clock." {
		t.Errorf("after a wrong action: %q, %q", ms, d.Find("#run-score").Text())
	}
	d = c.post(base+"/end", url.Values{})
	if !strings.Contains(d.Find("#result").Text(), "1 solved") || !strings.Contains(d.Find("#run-best").Text(), "Your best: 1 · today: 1") {
		t.Errorf("the end: %q %q", d.Find("#result").Text(), d.Find("#run-best").Text())
	}
}

// TestThemesPage: every theme with its puzzles; a solved puzzle shows
// in its themes' rows (one attempt, 100%, the rating's gain); the
// difficulty form keeps the choice, which /training applies (a bad one
// is refused and changes nothing); the trainer links to the page.
func TestThemesPage(t *testing.T) {
	e, tr, _ := newRunServer(t)
	c := newClientOn(t, e)
	d := c.get("/training/themes")
	rows := d.Find("#theme-table tbody tr")
	if rows.Length() < 5 || !strings.Contains(rows.First().Find("th a").AttrOr("href", ""), "/training/") {
		t.Fatalf("%d themes: %q", rows.Length(), rows.Text())
	}
	p := shippedWhere(t, banThenMove)
	c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[0], startPly(t, p)))
	d = c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[3], startPly(t, p)+3))
	if d.Find("#result.right").Length() != 1 {
		t.Fatal("not solved")
	}
	if d.Find("#all-themes").AttrOr("href", "") != "/training/themes" {
		t.Error("the trainer does not link to the themes")
	}
	d = c.get("/training/themes")
	name := d.Find("#theme-table tbody th a[href='/training/" + string(p.Themes[0]) + "']")
	cells := name.Closest("tr").Find("td")
	if cells.Eq(1).Text() != "1" || cells.Eq(2).Text() != "100%" || !strings.HasPrefix(cells.Eq(3).Text(), "+") {
		t.Errorf("the row of %s after one solved: %q", p.Themes[0], cells.Text())
	}
	if v, _ := d.Find("#difficulty-form input[checked]").Attr("value"); v != "normal" {
		t.Errorf("difficulty %q at first", v)
	}
	rec := c.do(http.MethodPost, "/training/difficulty", url.Values{"difficulty": {"hardest"}}, false)
	if rec.Code != http.StatusBadRequest || c.jar["puzzle_difficulty"] != nil {
		t.Errorf("a bad difficulty: %d", rec.Code)
	}
	d = c.post("/training/difficulty", url.Values{"difficulty": {"harder"}})
	if v, _ := d.Find("#difficulty-form input[checked]").Attr("value"); v != "harder" {
		t.Errorf("difficulty %q after choosing harder", v)
	}
	rec = c.do(http.MethodGet, "/training", nil, false)
	loc := rec.Header().Get("Location")
	id := strings.TrimPrefix(loc, "/training/")
	id, _, _ = strings.Cut(id, "?")
	pz, err := tr.Puzzle(context.Background(), id)
	if err != nil || pz.Rating < 1600 {
		t.Errorf("harder: %q (rating %d), want one near the rating + 300", loc, pz.Rating)
	}
}
