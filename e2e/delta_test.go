package e2e

import (
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestStaleDeltaIsNotSwapped: a delta made from another ply than the page
// shows (one that crossed another answer on the way) is not swapped in;
// the page asks again from where it stands and stays as it renders fresh.
func TestStaleDeltaIsNotSwapped(t *testing.T) {
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(startFEN)), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	for i, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c2c4", "b:g8f6", "m:e7e6"} {
		if err := play(ctx, i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	state := `JSON.stringify([document.getElementById("status").dataset.ply,
		[...document.querySelectorAll("#board [data-square]")].map(b => b.className + b.innerHTML).join(""),
		[...document.querySelectorAll("#history [data-ply]")].map(a => a.dataset.ply).join(" "),
		document.getElementById("board-ply").dataset.dests])`
	before, err := chromedp.Run(ctx, chromedp.Evaluate[string](state))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("game").dataset.mark = "kept"`)); err != nil {
		t.Fatal(err)
	}
	// The delta from ply 2 to now, asked for by a page that shows ply 9:
	// swapped in, it would append history rows the page has. It brings no
	// revision the page lacks, so the page is left alone, not asked again.
	stale := `htmx.ajax("GET", document.getElementById("game").dataset.delta + "?ply=2", {target: "#game", swap: "outerHTML"})`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](stale), chromedp.Sleep(500*time.Millisecond), chromedp.WaitVisible(`#status[data-ply="9"]`)); err != nil {
		t.Fatal(err)
	}
	after, err := chromedp.Run(ctx, chromedp.Evaluate[string](state))
	if err != nil {
		t.Fatal(err)
	}
	if mark, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("game").dataset.mark || ""`)); err != nil || mark != "kept" {
		t.Errorf("the page was replaced after a stale delta that brought nothing new (%v)", err)
	}
	if after != before {
		t.Errorf("after a stale delta the page changed:\n%s\nwas\n%s", after, before)
	}
	if err := play(ctx, 9, "b:b1c3"); err != nil {
		t.Fatalf("playing on after the stale delta: %v", err)
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported problems: %q", *problems)
	}
}
