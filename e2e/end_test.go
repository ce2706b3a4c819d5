package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// endActions are the ids of what a game page's actions offer, in order.
func endActions(ctx context.Context) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#controls .actions > *"))
		.map(el => el.matches("a, button") ? el : el.querySelector("summary, button, a"))
		.filter(el => el && el.getBoundingClientRect().height > 0)
		.map(el => el.id || el.textContent.trim()).join(" ")`))
}

// shown reports whether the page draws the element sel names.
func shown(ctx context.Context, sel string) (bool, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const el = document.querySelector(`+jsString(sel)+`); return !!el && el.getBoundingClientRect().height > 0; })()`))
}

// TestEndOfGameOffers: a finished game offers what follows it first — its
// review, a rematch, a new game — and nothing of the game that was
// (resign, draw); an aborted game with no ply offers no "Play from here";
// the engine's toggle is not offered while the engine is off (a live
// game), and comes with the end.
func TestEndOfGameOffers(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1)); err != nil {
		t.Fatal(err)
	}
	for i, a := range mateLine {
		if err := play(ctx, i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#banner`)); err != nil {
		t.Fatal(err)
	}
	got, err := endActions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "request-review new-game") || strings.Contains(got, "resign") || strings.Contains(got, "draw") {
		t.Errorf("a finished hot-seat game offers %q, want its review and a new game first, no resign or draw", got)
	}
	if ok, _ := shown(ctx, "#request-review.primary"); !ok {
		t.Error("the review is not the finished game's first choice (primary)")
	}

	ctxs, _ := friends(t, 2, true, "5+3")
	white, black := ctxs[0], ctxs[1]
	if err := chromedp.Do(white, waitPly(1)); err != nil {
		t.Fatal(err)
	}
	if on, _ := shown(white, "#analysis-toggle"); on {
		t.Error("a live game offers the engine's analysis, which it refuses")
	}
	if err := chromedp.Do(white, chromedp.Click(`#abort`), chromedp.Click(`#abort-yes`), chromedp.WaitVisible(`#banner`)); err != nil {
		t.Fatal(err)
	}
	for name, ctx := range map[string]context.Context{"White": white, "Black": black} {
		if err := waitFor(ctx, `#banner`, liveWait); err != nil {
			t.Fatalf("%s's page: %v", name, err)
		}
		if on, _ := shown(ctx, "#branch"); on {
			t.Errorf("%s's page offers to play on from an aborted game with no ply", name)
		}
		got, _ := endActions(ctx)
		if strings.Contains(got, "resign") || strings.Contains(got, "abort") {
			t.Errorf("%s's page of the aborted game offers %q", name, got)
		}
		if on, _ := shown(ctx, "#analysis-toggle"); !on {
			t.Errorf("%s's page: the engine's toggle did not come with the end", name)
		}
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
