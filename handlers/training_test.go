package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// shippedWhere returns a shipped puzzle ok accepts.
func shippedWhere(t *testing.T, ok func(puzzles.Puzzle) bool) puzzles.Puzzle {
	t.Helper()
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		if ok(p) {
			return p
		}
	}
	t.Fatal("no shipped puzzle of this kind")
	return puzzles.Puzzle{}
}

// banThenMove is a puzzle solved by a ban, the opponent's replies, then
// a move (the browser tests' too).
func banThenMove(p puzzles.Puzzle) bool {
	return len(p.Solution) == 4 && strings.HasPrefix(p.Solution[0], "b:") && strings.HasPrefix(p.Solution[3], "m:")
}

// startPly is the ply of a puzzle's position.
func startPly(t *testing.T, p puzzles.Puzzle) int {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	return g.Ply()
}

// boardInputOf is the form a board posts for action (BCN) at ply.
func boardInputOf(t *testing.T, bcn string, ply int) url.Values {
	t.Helper()
	a, err := rules.ParseAction(bcn)
	if err != nil {
		t.Fatal(err)
	}
	v := url.Values{"from": {a.From.String()}, "to": {a.To.String()}, "ply": {strconv.Itoa(ply)}}
	if a.Promotion != 0 {
		v.Set("promotion", strings.ToLower(string(a.Promotion.Letter())))
	}
	return v
}

// TestTrainingWithoutScripts: /training leads to a puzzle; its board is
// the solver's, live; a right ban by the board's form moves on to the
// solver's next moment with the replies said; the final move ends it:
// the result page says solved, with the rating's change and the
// solution step by step, and the rating shown is the new one. A wrong
// first action at another puzzle fails it with its reason; trying it
// again is not rated.
func TestTrainingWithoutScripts(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	rec := c.do(http.MethodGet, "/training", nil, false)
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/training/") {
		t.Fatalf("/training: %d %q", rec.Code, loc)
	}

	p := shippedWhere(t, banThenMove)
	ply := startPly(t, p)
	d := c.get("/training/" + p.ID)
	if got := d.Find("#player-rating").Text(); got != "1500?" {
		t.Errorf("rating shown %q", got)
	}
	if v, _ := d.Find("#board-ply").Attr("value"); v != strconv.Itoa(ply) {
		t.Errorf("the board's ply %q, want %d", v, ply)
	}
	d = c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[0], ply))
	if got := d.Find("#feedback.right").Text(); !strings.HasPrefix(got, "Right: the ban of ") {
		t.Errorf("after the ban: %q", got)
	}
	if v, _ := d.Find("#board-ply").Attr("value"); v != strconv.Itoa(ply+3) {
		t.Errorf("the board's ply after the replies %q, want %d", v, ply+3)
	}
	d = c.post("/training/"+p.ID+"/play", boardInputOf(t, p.Solution[3], ply+3))
	if d.Find("#result.right").Length() != 1 {
		t.Fatalf("not solved: %q", d.Find("#result").Text())
	}
	before, after := "1500?", d.Find("#player-rating").Text()
	if change := d.Find("#rating-change").Text(); after == before || !strings.Contains(change, before+" → "+after) {
		t.Errorf("rating %q → %q: %q", before, after, change)
	}
	if n := d.Find(".solution-steps li").Length(); n != len(p.Solution)+1 {
		t.Errorf("%d solution steps, want the start and %d", n, len(p.Solution))
	}
	href, _ := d.Find(".solution-steps li a").Eq(1).Attr("href")
	step := c.get(href)
	if step.Find("#board button").Length() != 0 || !strings.Contains(step.Find(".status-bar .hint").Text(), "After ply 1 of") {
		t.Errorf("the solution's first step: %q", step.Find(".status-bar").Text())
	}

	q := shippedWhere(t, func(q puzzles.Puzzle) bool { return q.ID != p.ID && q.Kind() != puzzles.MateIn1 })
	g, _ := q.Start()
	var wrong string
	for _, a := range g.Legal() {
		if a.String() != q.Solution[0] {
			wrong = a.String()
			break
		}
	}
	d = c.post("/training/"+q.ID+"/play", boardInputOf(t, wrong, g.Ply()))
	if got := d.Find("#result.wrong").Text(); !strings.HasPrefix(got, "That's not the move! ") {
		t.Errorf("a wrong first action: %q", got)
	}
	failed := d.Find("#player-rating").Text()
	if failed == after {
		t.Error("a failure did not change the rating shown")
	}
	d = c.post("/training/"+q.ID+"/play", boardInputOf(t, wrong, g.Ply()))
	if got := d.Find("#rating-change").Text(); !strings.Contains(got, "tried this puzzle before") || d.Find("#player-rating").Text() != failed {
		t.Errorf("a second try: %q", got)
	}
}

// TestTrainingWithScripts: with htmx a right ban answers the moment
// after it, read-only, which loads the solver's next moment after a
// pause (its address pushed); the final move answers the result.
func TestTrainingWithScripts(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	p := shippedWhere(t, banThenMove)
	ply := startPly(t, p)
	c.get("/training/" + p.ID)
	rec := c.do(http.MethodPost, "/training/"+p.ID+"/play", boardInputOf(t, p.Solution[0], ply), true)
	d := parse(t, rec)
	next := "/training/" + p.ID + "?at=3"
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Push-Url") != next {
		t.Fatalf("%d, pushed %q", rec.Code, rec.Header().Get("HX-Push-Url"))
	}
	if pending, _ := d.Find("#pending").Attr("hx-get"); pending != next || d.Find("#board button").Length() != 0 {
		t.Errorf("pending %q; live squares %d", pending, d.Find("#board button").Length())
	}
	rec = c.do(http.MethodGet, next, nil, true)
	if v, _ := parse(t, rec).Find("#board-ply").Attr("value"); v != strconv.Itoa(ply+3) {
		t.Errorf("the next moment's ply %q", v)
	}
	rec = c.do(http.MethodPost, "/training/"+p.ID+"/play", boardInputOf(t, p.Solution[3], ply+3), true)
	if d := parse(t, rec); d.Find("#result.right").Length() != 1 || rec.Header().Get("HX-Push-Url") != "/training/"+p.ID+"/result" {
		t.Errorf("the final move: %q pushed %q", d.Find("#result").Text(), rec.Header().Get("HX-Push-Url"))
	}
}

// TestTrainingRefusals: an unknown puzzle or theme is not found; a
// moment where the opponent acts is refused; an illegal action comes
// back with the rules' refusal and changes nothing; a result before any
// attempt leads to the puzzle; a theme's link leads to a puzzle of it.
func TestTrainingRefusals(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	for _, path := range []string{"/training/nope", "/training/nope/result"} {
		if rec := c.do(http.MethodGet, path, nil, false); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d", path, rec.Code)
		}
	}
	p := shippedWhere(t, banThenMove)
	ply := startPly(t, p)
	rec := c.do(http.MethodPost, "/training/"+p.ID+"/play", boardInputOf(t, p.Solution[1], ply+1), false)
	if rec.Code != http.StatusConflict {
		t.Errorf("the opponent's moment: %d", rec.Code)
	}
	rec = c.do(http.MethodPost, "/training/"+p.ID+"/play", url.Values{"text": {"hello"}, "ply": {strconv.Itoa(ply)}}, false)
	if d := parse(t, rec); rec.Code != http.StatusBadRequest || d.Find("#error").Length() != 1 {
		t.Errorf("hello: %d", rec.Code)
	}
	if loc := c.do(http.MethodGet, "/training/"+p.ID+"/result", nil, false).Header().Get("Location"); loc != "/training/"+p.ID {
		t.Errorf("a result before an attempt leads to %q", loc)
	}
	loc := c.do(http.MethodGet, "/training/mateByBan", nil, false).Header().Get("Location")
	u, _ := url.Parse(loc)
	set, _ := puzzles.Shipped()
	if q, ok := set.ByID(strings.TrimPrefix(u.Path, "/training/")); !ok || !q.Has(puzzles.MateByBan) || u.Query().Get("theme") != "mateByBan" {
		t.Errorf("/training/mateByBan leads to %q", loc)
	}
}

// TestDailyPuzzleOnTheGamePage: a game's page links to the puzzle of the
// day.
func TestDailyPuzzleOnTheGamePage(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	d := c.start()
	href, ok := d.Find("#daily-link").Attr("href")
	set, _ := puzzles.Shipped()
	daily, _ := set.Daily(apiClock())
	if !ok || href != "/training/"+daily.ID {
		t.Errorf("daily link %q, want the puzzle of the day %s", href, daily.ID)
	}
}
