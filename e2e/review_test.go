package e2e

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// reviewWait bounds a review of a few plies at the default budget on a
// loaded machine.
const reviewWait = 60 * time.Second

// backRank: White to move after Black's ban; Ra8+ leaves Black's king one
// way out, whose ban by White mates. White plays f3 instead.
const backRank = "7k/7p/6p1/8/7r/8/5PPP/R5K1 w - - 0 1"

// TestReviewInBrowser asks for a game's review from its review view and
// waits for it (with JavaScript the panel asks again by itself; without,
// the page reloads itself): the graph is shown, the marks are in the list,
// clicking a point on the graph shows that ply, and the arrow keys step.
func TestReviewInBrowser(t *testing.T) {
	long(t)
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "js", false: "nojs"}[js], func(t *testing.T) {
			ctx, base, problems := browser(t, js)
			link := base + "/?v=ban&fen=" + url.QueryEscape(backRank) + "&a=b:g1f1,m:f2f3"
			if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(`#status[data-ply="3"]`)); err != nil {
				t.Fatal(err)
			}
			id := gameID(t, ctx)
			if err := chromedp.Do(ctx,
				chromedp.Navigate(base+"/g/"+id+"/review"),
				chromedp.Click(`#review-request button`),
				chromedp.WaitReady(`#review-panel[data-status]`),
			); err != nil {
				t.Fatal(err)
			}
			if err := waitFor(ctx, `#review-panel[data-status="done"] #eval-graph`, reviewWait); err != nil {
				st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("review-status") || {}).textContent || "no panel"`))
				t.Fatalf("no review: %v (%s)", err, st)
			}
			if js { // the review view passes the accessibility audit
				v, err := audit(ctx, axeScript(t))
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range v {
					t.Errorf("the review view: %s", s)
				}
			}
			marks, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#history a[data-ply] .review-mark")).map(m => m.closest("a").dataset.ply + m.textContent.trim().slice(0, 2)).join(" ")`))
			if err != nil || !strings.Contains(marks, "2⊘#") {
				t.Errorf("the marks in the list: %q (%v)", marks, err)
			}
			// A click on the graph's first ply shows it.
			if err := chromedp.Do(ctx,
				chromedp.Click(`#eval-graph a[data-index="1"]`),
				chromedp.WaitReady(`#eval-graph a.current[data-index="1"]`),
				chromedp.WaitReady(`#history a[aria-current="step"][data-ply="1"]`),
			); err != nil {
				t.Fatal(err)
			}
			if loc, _ := chromedp.Run(ctx, chromedp.Location()); pathOf(t, loc) != "/g/"+id+"/review/1" {
				t.Errorf("the point led to %s", loc)
			}
			if js { // the arrow keys step through the review
				if err := chromedp.Do(ctx,
					chromedp.KeyEvent(kb.ArrowRight),
					chromedp.WaitReady(`#eval-graph a.current[data-index="2"]`),
					chromedp.WaitReady(`#review-shown[data-ply="2"]`),
				); err != nil {
					t.Fatal(err)
				}
			}
			if len(*problems) > 0 {
				t.Errorf("browser reported problems: %q", *problems)
			}
		})
	}
}

// current waits for the ply the analysis board's list marks current, by
// its words ("played c4").
func current(said string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(`a.line-ply[aria-current="step"][title*="` + said + `"]`)
}

// listed is the analysis board's list of lines as text.
func listed(ctx context.Context) string {
	list, _ := chromedp.Run(ctx, chromedp.Text(`#lines`))
	return strings.Join(strings.Fields(list), " ")
}

// TestAnalysisBoardInBrowser plays on a game's analysis board: an action
// other than the game's next makes a variation in the list, which is
// stepped with the arrow keys and is in the game's PGN.
func TestAnalysisBoardInBrowser(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?v=ban&a=b:e2e4,m:d2d4,b:e7e5,m:d7d5"), chromedp.WaitVisible(`#status[data-ply="5"]`)); err != nil {
		t.Fatal(err)
	}
	id := gameID(t, ctx)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/g/"+id+"/analysis?ply=2"),
		current("banned e4"),
		chromedp.SendKeys(`#line-action`, "c4"), chromedp.Submit(`#line-action`), current("played c4"),
		chromedp.WaitVisible(`#lines .variation`),
		chromedp.SendKeys(`#line-action`, "b:d7d5"), chromedp.Submit(`#line-action`), current("banned d5"),
	); err != nil {
		t.Fatal(err)
	}
	v, err := audit(ctx, axeScript(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range v {
		t.Errorf("the analysis board: %s", s)
	}
	if got := listed(ctx); got != "Start 1. ⊘e4 d4 (1. c4 ⊘d5 ) ⊘e5 d5" {
		t.Errorf("the list: %q", got)
	}
	pgn, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("/g/`+id+`/pgn").then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(pgn, "(1. c4 {banning: d7d5})") {
		t.Errorf("the PGN: %q (%v)", pgn, err)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent(kb.ArrowLeft), current("played c4"),
		chromedp.KeyEvent(kb.ArrowLeft), current("banned e4"),
		chromedp.KeyEvent(kb.ArrowRight), current("played d4"),
	); err != nil {
		t.Fatal(err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestAnalysisBoardEditsInBrowser promotes an imported game's variation
// on its analysis board, then deletes the old main line's moves.
func TestAnalysisBoardEditsInBrowser(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	pgn := "1. {banning: e2e4} d4 (1. c4 {banning: d7d5}) 1... {banning: e7e5} d5 *"
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?pgn="+url.QueryEscape(pgn)), chromedp.WaitVisible(`#status[data-ply="5"]`)); err != nil {
		t.Fatal(err)
	}
	id := gameID(t, ctx)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/g/"+id+"/analysis?ply=2"),
		chromedp.Click(`#lines .variation a`), current("played c4"),
		chromedp.Click(`#line-promote`), // c4 is the main line's now, not in a variation
		chromedp.WaitReady(`#lines > a.line-ply[aria-current="step"][title*="played c4"]`),
	); err != nil {
		t.Fatal(err)
	}
	if got := listed(ctx); got != "Start 1. ⊘e4 c4 (1. d4 ⊘e5 d5 ) ⊘d5" {
		t.Errorf("promoted: %q", got)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(`#lines .variation a`), current("played d4"),
		chromedp.Click(`#line-delete`), current("banned e4"),
	); err != nil {
		t.Fatal(err)
	}
	if got := listed(ctx); got != "Start 1. ⊘e4 c4 ⊘d5" {
		t.Errorf("deleted: %q", got)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}
