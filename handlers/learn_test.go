package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

// newTrainingServer serves everything Register adds with training on the
// shipped puzzles and the lessons, on st (a new memory store for nil).
func newTrainingServer(t *testing.T, st *store.Memory) *echo.Echo {
	t.Helper()
	if st == nil {
		st = store.NewMemory()
	}
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tr := training.New(set, lessons.All(), st, training.WithClock(apiClock))
	return newServerOn(st, withTraining(tr))
}

// TestLearnPages: the lessons list with no progress; a lesson leads to
// its first step not done; a step's board is the learner's side, live,
// with the step's prompt; a wrong answer by squares comes back with its
// reason and the board to try again; a right one by typing shows why,
// the position it led to and the next step, and is kept: the list and
// the lesson's link move on. With htmx the answer is the main element,
// its address pushed.
func TestLearnPages(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	d := c.get("/learn")
	if n := d.Find(".lesson-list li").Length(); n != len(lessons.All()) {
		t.Fatalf("%d lessons listed", n)
	}
	if got := d.Find(".lesson-progress").First().Text(); got != "0 of 4 steps" {
		t.Errorf("progress %q", got)
	}
	rec := c.do(http.MethodGet, "/learn/ply-order", nil, false)
	if loc := rec.Header().Get("Location"); loc != "/learn/ply-order/1" {
		t.Errorf("the lesson leads to %q", loc)
	}

	d = c.get("/learn/ply-order/1")
	if !d.Find("#board.flipped").Is("form") || d.Find("#board button[data-square=e2]").Length() != 1 {
		t.Error("step 1's board is not Black's, live")
	}
	if !strings.Contains(d.Find("#prompt").Text(), "Ban White's most popular first move") {
		t.Errorf("prompt %q", d.Find("#prompt").Text())
	}

	d = c.post("/learn/ply-order/1", url.Values{"from": {"g1"}, "to": {"f3"}})
	if got := d.Find("#feedback.wrong").Text(); !strings.Contains(got, "Pick White's pawn on e2") {
		t.Errorf("a wrong answer's feedback %q", got)
	}
	if d.Find("#board button[data-square=e2]").Length() != 1 || d.Find("#next-step").Length() != 0 {
		t.Error("after a wrong answer the board is not live again, or leads on")
	}

	d = c.post("/learn/ply-order/1", url.Values{"text": {"e4"}})
	if got := d.Find("#feedback.right").Text(); !strings.Contains(got, "Black banned e2–e4") {
		t.Errorf("a right answer's feedback %q", got)
	}
	if href, _ := d.Find("#next-step").Attr("href"); href != "/learn/ply-order/2" {
		t.Errorf("next step %q", href)
	}
	if d.Find("#board button").Length() != 0 || banDrawn(d) != "e2e4" {
		t.Error("after a right answer the board is not the position it led to, read-only")
	}
	if got := c.get("/learn").Find(".lesson-progress").First().Text(); got != "1 of 4 steps" {
		t.Errorf("progress after a right answer %q", got)
	}
	if loc := c.do(http.MethodGet, "/learn/ply-order", nil, false).Header().Get("Location"); loc != "/learn/ply-order/2" {
		t.Errorf("the lesson now leads to %q", loc)
	}

	rec = c.do(http.MethodPost, "/learn/ply-order/2", url.Values{"from": {"d2"}, "to": {"d4"}}, true)
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Push-Url") != "/learn/ply-order/2?played=m%3Ad2d4" {
		t.Fatalf("htmx answer: %d, pushed %q", rec.Code, rec.Header().Get("HX-Push-Url"))
	}
	hd := parse(t, rec)
	if hd.Find("html").Length() > 0 && strings.Contains(rec.Body.String(), "<html") || hd.Find("main#game #feedback.right").Length() != 1 {
		t.Errorf("htmx answer is not the main element with its feedback: %.300s", rec.Body)
	}
}

// TestLearnRefusals: what the rules refuse comes back as the step with
// the refusal (the banned pair, an illegal move, not a move), changing
// nothing; an unknown lesson or step is not found; a pawn's move to the
// last rank without a piece opens the picker.
func TestLearnRefusals(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	for _, typed := range []string{"e4", "Nf6", "hello"} {
		rec := c.do(http.MethodPost, "/learn/ply-order/2", url.Values{"text": {typed}}, false)
		d := parse(t, rec)
		if rec.Code < 400 || rec.Code >= 500 || d.Find("#error").Length() != 1 || d.Find("#board button[data-square=d2]").Length() != 1 {
			t.Errorf("%s: %d %q", typed, rec.Code, d.Find("#error").Text())
		}
	}
	if got := c.get("/learn").Find(".lesson-progress").First().Text(); got != "0 of 4 steps" {
		t.Errorf("progress after refusals %q", got)
	}
	for _, path := range []string{"/learn/nope", "/learn/nope/1", "/learn/ply-order/0", "/learn/ply-order/5", "/learn/ply-order/x"} {
		if rec := c.do(http.MethodGet, path, nil, false); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d", path, rec.Code)
		}
	}
	rec := c.do(http.MethodPost, "/learn/promotion/2", url.Values{"from": {"e7"}, "to": {"d8"}}, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.Contains(loc, "sel=e7") || !strings.Contains(loc, "to=d8") {
		t.Fatalf("a promotion without a piece: %d %q", rec.Code, loc)
	}
	d := c.get(loc)
	if d.Find("#promotion button[value=q]").Length() != 1 {
		t.Error("no promotion picker")
	}
	d = c.post("/learn/promotion/2", url.Values{"from": {"e7"}, "to": {"d8"}, "promotion": {"q"}})
	if d.Find("#feedback.right").Length() != 1 {
		t.Errorf("exd8=Q: %q", d.Find("#feedback").Text())
	}
}

// TestLearnSelectWithoutScripts: picking a piece is a form post that
// comes back with its destinations marked, as on a game's page.
func TestLearnSelectWithoutScripts(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	d := c.post("/learn/ply-order/1/select", url.Values{"square": {"e2"}})
	if d.Find("#sq-e2.selected").Length() != 1 || d.Find("#sq-e4.dest").Length() != 1 {
		t.Error("e2 picked: no destinations marked")
	}
	if f, _ := d.Find("#sq-e4").Attr("formaction"); f != "/learn/ply-order/1" {
		t.Errorf("e4 posts to %q", f)
	}
}

// TestLearnProgressFollowsAccount: progress is the player's. Named, it
// stays; signed in on another browser, that browser shows it and adds
// the steps it did before signing in; signed out, a browser starts
// afresh.
func TestLearnProgressFollowsAccount(t *testing.T) {
	e := newTrainingServer(t, nil)
	phone := newClientOn(t, e)
	progress := func(c *client) string { return c.get("/learn").Find(".lesson-progress").First().Text() }
	phone.post("/learn/ply-order/1", url.Values{"text": {"e4"}})
	phone.register("Ann")
	if got := progress(phone); got != "1 of 4 steps" {
		t.Errorf("named, the phone's progress is %q", got)
	}

	laptop := phone.session()
	laptop.post("/learn/ply-order/2", url.Values{"from": {"d2"}, "to": {"d4"}})
	if got := progress(laptop); got != "1 of 4 steps" {
		t.Fatalf("the laptop's own progress is %q", got)
	}
	if d := laptop.post("/login", vals("name", "ann", "password", secret)); d.Find("#account-name").AttrOr("data-name", "") != "Ann" {
		t.Fatalf("signing in: %q", text(d, "main"))
	}
	for name, c := range map[string]*client{"laptop": laptop, "phone": phone} {
		if got := progress(c); got != "2 of 4 steps" {
			t.Errorf("signed in, the %s's progress is %q", name, got)
		}
	}
	if rec := laptop.do(http.MethodPost, "/logout", vals(), false); rec.Code != http.StatusSeeOther {
		t.Fatalf("signing out: %d", rec.Code)
	}
	if got := progress(laptop); got != "0 of 4 steps" {
		t.Errorf("signed out, the laptop's progress is %q", got)
	}
}
