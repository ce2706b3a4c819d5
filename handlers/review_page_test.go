package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/internal/testsite"
)

// newReviewClient is a browser on a server that reviews at depth 2.
func newReviewClient(t *testing.T) *client {
	svc := newServiceWith(nil, testsite.Config{Engine: engine.NewPool(1, 4, 8),
		Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Depth: 2}})}})
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	return newClientOn(t, e)
}

// TestReviewPage: without JavaScript, a game's page offers a review once
// the game has a ply, and its review view the request form; posted, the
// view shows the review's progress and reloads itself until it is done;
// then the graph's points are links to their positions, the marked plies
// are marked in the list and the summary is there; the position a point
// leads to is shown and marked.
func TestReviewPage(t *testing.T) {
	c := newReviewClient(t)
	c.start()
	if c.get(c.page()).Find("#request-review").Length() != 0 {
		t.Errorf("a game without a ply offers a review, which would be refused")
	}
	c.post("/import", url.Values{"text": {`[FEN "` + backRankFEN + `"]

1. {banning: g1f1} f3 *`}})
	if form := c.get(c.page()).Find("form.review-request"); form.AttrOr("action", "") != c.path("review") || form.Find("#request-review").Length() != 1 {
		t.Errorf("the game page has no Request a review button")
	}
	view := c.get(c.path("review"))
	if view.Find("form#review-request").Length() != 1 || !strings.Contains(text(view, "#review-status"), "no review yet") {
		t.Fatalf("before a review: %s", text(view, "#review-panel"))
	}
	d := c.post(view.Find("form#review-request").AttrOr("action", ""), url.Values{})
	deadline := time.Now().Add(time.Minute)
	for d.Find("#review-panel").AttrOr("data-status", "") != "done" {
		if !strings.Contains(d.Find("head noscript").Text(), `http-equiv="refresh"`) || d.Find("#review-progress").Length() != 1 {
			t.Fatalf("a review under way: no refresh or progress: %s", text(d, "#review-panel"))
		}
		if time.Now().After(deadline) {
			t.Fatal("the review did not finish")
		}
		time.Sleep(20 * time.Millisecond)
		d = c.get(c.path("review"))
	}
	points := d.Find("#eval-graph a.graph-point")
	if points.Length() != 3 {
		t.Fatalf("%d points on the graph", points.Length())
	}
	// White's f3 missed the mate by ban: marked in the list, with the better line.
	f3 := d.Find("#history a[data-ply='2']")
	if !strings.Contains(f3.Text(), "⊘#") || !strings.Contains(f3.Find(".mark-banmate").AttrOr("title", ""), "Missed a mate by ban") {
		t.Errorf("f3 in the list: %q", f3.Text())
	}
	if best := text(d, "#review-marked [data-ply='2'] .review-best"); !strings.HasPrefix(best, "Best: 1. Ra8+") {
		t.Errorf("f3's better line: %q", best)
	}
	if d.Find("#review-summary td.accuracy").Length() != 2 {
		t.Error("no accuracy per side")
	}
	// A point leads to its position, shown and marked.
	href := points.Eq(1).AttrOr("href", "")
	at := c.get(href)
	if href != "/g/"+c.id+"/review/1" || at.Find("#eval-graph a.current").AttrOr("data-index", "") != "1" ||
		at.Find("#history a[aria-current=step]").AttrOr("data-ply", "") != "1" || at.Find("#graph-current").Length() != 1 {
		t.Errorf("the point %s: current point %q, list %q", href, at.Find("#eval-graph a.current").AttrOr("data-index", ""), at.Find("#history a[aria-current=step]").AttrOr("data-ply", ""))
	}
	if at.Find("#step-next").AttrOr("href", "") != "/g/"+c.id+"/review/2" || at.Find("#history a[data-ply='2']").AttrOr("href", "") != "/g/"+c.id+"/review/2" {
		t.Error("the steps and the list do not lead through the review")
	}
	// The view is the game's: its strips and list; htmx's steps get its main element.
	if at.Find("[data-player]").Length() != 2 || at.Find("[data-moves]").Length() != 1 {
		t.Error("the review view has no strips or list")
	}
	if hx := parse(t, c.do(http.MethodGet, href, nil, true)); hx.Find("html body header").Length() != 0 || hx.Find("main#game #eval-graph").Length() != 1 {
		t.Error("htmx's step to a review view is not its main element")
	}
	// Asked again, the review is there at once.
	if rec := c.do(http.MethodPost, c.path("review"), url.Values{}, false); rec.Code != http.StatusSeeOther {
		t.Errorf("asked again: %d", rec.Code)
	}
}

// TestReviewPageRefusals: a live game between two players is locked: its
// review view says why and offers no form, and a post is refused with the
// message; a game without plies has nothing to review; no such ply.
func TestReviewPageRefusals(t *testing.T) {
	c := newReviewClient(t)
	c.start()
	if d := c.get(c.path("review")); d.Find("form#review-request").Length() != 0 || !strings.Contains(text(d, "#review-message"), "no ply") {
		t.Errorf("a game without plies: %s", text(d, "#review-panel"))
	}
	if rec := c.do(http.MethodPost, c.path("review"), url.Values{}, false); rec.Code != http.StatusConflict {
		t.Errorf("a review of no plies: %d", rec.Code)
	}
	c.post("/new", vals("mode", "invite", "color", "white", "variant", "ban"))
	if c.get(c.page()).Find("#request-review").Length() != 0 {
		t.Error("a live game between two players offers a review")
	}
	rec := c.do(http.MethodPost, c.path("review"), url.Values{}, false)
	msg := text(parse(t, rec), "#review-message")
	if rec.Code != http.StatusForbidden || !strings.Contains(msg, "opens when it ends") {
		t.Errorf("a live game between two players: %d %q", rec.Code, msg)
	}
	for _, bad := range []string{"/review/99", "/review/x"} {
		if rec := c.do(http.MethodGet, c.page()+bad, nil, false); rec.Code != http.StatusNotFound && rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d", bad, rec.Code)
		}
	}
}
