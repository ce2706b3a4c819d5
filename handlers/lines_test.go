package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/internal/testsite"
)

// newLinesClient is a browser on a server whose engine answers at once.
func newLinesClient(t *testing.T) *client {
	e := echo.New()
	New(newServiceWith(nil, testsite.Config{Engine: &quickAnalyser{}}), apiClock).Register(e)
	return newClientOn(t, e)
}

// lines is the analysis board's list of lines as text.
func lines(d *goquery.Document) string { return text(d, "#lines") }

// TestAnalysisBoardVariations: on the analysis board of a game, an action
// other than the game's next makes a variation shown in the list; the
// game's next steps on; a variation is stepped, extended, promoted and
// deleted; the game's PGN carries it; without JavaScript throughout.
func TestAnalysisBoardVariations(t *testing.T) {
	c := newLinesClient(t)
	c.start()
	for _, a := range []string{"b:e2e4", "d4", "b:e7e5", "d5"} {
		c.post(c.path("ply"), vals("text", a))
	}
	board := c.get(c.path("analysis") + "?ply=2") // White's move, after Black's ban
	if got := lines(board); got != "Start 1. ⊘e4 d4 ⊘e5 d5" {
		t.Fatalf("the list: %q", got)
	}
	if cur := text(board, "#lines [aria-current=step]"); cur != "⊘e4" {
		t.Errorf("the current ply: %q", cur)
	}
	play := func(d *goquery.Document, action string) *goquery.Document {
		t.Helper()
		form := url.Values{"action": {action}}
		for _, f := range []string{"line", "at", "moves"} {
			form.Set(f, d.Find("#line-play input[name="+f+"]").AttrOr("value", ""))
		}
		return c.post(c.path("lines/play"), form)
	}
	// The game's next ply steps on.
	d := play(board, "d4")
	if cur := text(d, "#lines [aria-current=step]"); cur != "d4" || strings.Contains(lines(d), "(") {
		t.Errorf("d4: current %q, list %q", cur, lines(d))
	}
	// Another makes a variation, kept with the game (the viewer holds both seats).
	d = play(board, "c4")
	if got := lines(d); got != "Start 1. ⊘e4 d4 (1. c4 ) ⊘e5 d5" {
		t.Errorf("after c4: %q", got)
	}
	if cur := text(d, "#lines [aria-current=step]"); cur != "c4" || d.Find("#analysis-best").Length() != 1 {
		t.Errorf("after c4: current %q, analysis %q", cur, text(d, "#analysis-best"))
	}
	d = play(d, "b:d7d5")
	if got := lines(d); got != "Start 1. ⊘e4 d4 (1. c4 ⊘d5 ) ⊘e5 d5" {
		t.Errorf("extended: %q", got)
	}
	pgn := c.do(http.MethodGet, c.path("pgn"), nil, false).Body.String()
	if !strings.Contains(pgn, "(1. c4 {banning: d7d5})") {
		t.Errorf("the PGN lacks the variation:\n%s", pgn)
	}
	// Stepping: back one ply is the variation's first, then where it branched.
	back := c.get(d.Find("#step-prev").AttrOr("href", ""))
	if cur := text(back, "#lines [aria-current=step]"); cur != "c4" {
		t.Errorf("one back: %q", cur)
	}
	back = c.get(back.Find("#step-prev").AttrOr("href", ""))
	if cur := text(back, "#lines [aria-current=step]"); cur != "⊘e4" {
		t.Errorf("two back: %q", cur)
	}
	// Promoted, the variation is the main line (a hot-seat game's), at the same position.
	d = c.post(c.path("lines/promote"), url.Values{"line": {d.Find("#line-promote").Parent().Find("input[name=line]").AttrOr("value", "")}, "at": {"2"}})
	if got := lines(d); got != "Start 1. ⊘e4 c4 (1. d4 ⊘e5 d5 ) ⊘d5" {
		t.Errorf("promoted: %q", got)
	}
	if cur := text(d, "#lines [aria-current=step]"); cur != "⊘d5" {
		t.Errorf("promoted: current %q", cur)
	}
	// Deleted, the board stands where it branched.
	if v := c.get(c.path("analysis") + "?line=1.0&at=1"); v.Find("#lines").Length() == 0 {
		t.Error("the variation's page has no list")
	}
	d = c.post(c.path("lines/delete"), url.Values{"line": {"1.0"}})
	if got := lines(d); got != "Start 1. ⊘e4 c4 ⊘d5" {
		t.Errorf("deleted: %q", got)
	}
	// Refusals explain and change nothing.
	for _, bad := range []struct {
		path string
		form url.Values
		code int
	}{
		{"lines/play", url.Values{"ply": {"2"}, "action": {"e2e4"}}, http.StatusUnprocessableEntity},      // banned there
		{"lines/play", url.Values{"line": {"9.9"}, "at": {"0"}, "action": {"d4"}}, http.StatusBadRequest}, // no such variation
		{"lines/play", url.Values{"line": {"x"}, "at": {"0"}, "action": {"d4"}}, http.StatusBadRequest},   // unreadable
		{"lines/play", url.Values{"ply": {"4"}, "action": {"b:e2e4"}}, http.StatusConflict},               // the game now: its own page's
		{"lines/delete", url.Values{"line": {""}}, http.StatusBadRequest},                                 // the main line
		{"lines/promote", url.Values{"line": {"1.0"}}, http.StatusBadRequest},                             // none there now
	} {
		before := c.do(http.MethodGet, c.path("pgn"), nil, false).Body.String()
		rec := c.do(http.MethodPost, c.path(bad.path), bad.form, false)
		if rec.Code != bad.code {
			t.Errorf("%s %v: %d, want %d: %s", bad.path, bad.form, rec.Code, bad.code, rec.Body)
		}
		if after := c.do(http.MethodGet, c.path("pgn"), nil, false).Body.String(); after != before {
			t.Errorf("%s %v changed the game", bad.path, bad.form)
		}
	}
	// A refused action is explained on the board it was played on.
	rec := c.do(http.MethodPost, c.path("lines/play"), url.Values{"ply": {"2"}, "action": {"e2e4"}}, false)
	if d := parse(t, rec); text(d, "#line-error") != "e2e4 is banned this turn." || text(d, "#lines [aria-current=step]") != "⊘e4" {
		t.Errorf("the refusal: %q at %q", text(d, "#line-error"), text(d, "#lines [aria-current=step]"))
	}
}

// TestAnalysisBoardSpectator: a viewer without a seat plays on the board
// too; their line stays in the page's address, and the game is unchanged.
func TestAnalysisBoardSpectator(t *testing.T) {
	c := newLinesClient(t)
	c.start()
	for _, a := range []string{"b:e2e4", "d4", "b:e7e5", "d5"} {
		c.post(c.path("ply"), vals("text", a))
	}
	before := c.do(http.MethodGet, c.path("pgn"), nil, false).Body.String()
	s := c.session()
	s.id = c.id
	d := s.get(s.path("analysis") + "?ply=2")
	play := func(d *goquery.Document, action string) *goquery.Document {
		t.Helper()
		form := url.Values{"action": {action}}
		for _, f := range []string{"line", "at", "moves"} {
			form.Set(f, d.Find("#line-play input[name="+f+"]").AttrOr("value", ""))
		}
		return s.post(s.path("lines/play"), form)
	}
	d = play(d, "c4")
	d = play(d, "b:d7d5")
	if got := text(d, "#pending-line"); got != "Your line, not kept with the game: 1. c4 ⊘d5" {
		t.Errorf("the page's line: %q", got)
	}
	if cur := text(d, "#pending-line [aria-current=step]"); cur != "⊘d5" {
		t.Errorf("current %q", cur)
	}
	if d.Find("#line-promote, #line-delete").Length() != 0 {
		t.Error("a spectator is offered to promote or delete")
	}
	// The game's next ply, played by the spectator, steps on as for anyone.
	d = play(s.get(s.path("analysis")+"?ply=2"), "d4")
	if cur := text(d, "#lines [aria-current=step]"); cur != "d4" {
		t.Errorf("d4: %q", cur)
	}
	if after := c.do(http.MethodGet, c.path("pgn"), nil, false).Body.String(); after != before {
		t.Errorf("a spectator changed the game:\n%s", after)
	}
	// A page's line that does not replay is refused.
	if rec := s.do(http.MethodGet, s.path("analysis")+"?ply=2&moves=m:e2e4", nil, false); rec.Code != http.StatusBadRequest {
		t.Errorf("an illegal page line: %d", rec.Code)
	}
}
