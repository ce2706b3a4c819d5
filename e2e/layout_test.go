package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLayoutKeepsThingsApart: the editor's palette has the white pieces
// on one row and the black on the next, on a wide window and a phone;
// the board's size handle leaves the h-file's name in the corner square
// clear; a card of "Your games" has its title on one line beside its
// thumbnail.
func TestLayoutKeepsThingsApart(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	for _, size := range [][2]int64{{1366, 800}, {390, 844}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/editor"), chromedp.WaitVisible(`.palette`)); err != nil {
			t.Fatal(err)
		}
		rows, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]float64](`(() => {
			const out = {w: [], b: []};
			for (const b of document.querySelectorAll(".palette [data-pick]")) {
				const c = b.dataset.pick[0];
				if (c === "w" || c === "b") out[c].push(Math.round(b.getBoundingClientRect().top));
			}
			return out;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		same := func(xs []float64) bool {
			for _, x := range xs {
				if x != xs[0] {
					return false
				}
			}
			return len(xs) > 0
		}
		if !same(rows["w"]) || !same(rows["b"]) || rows["w"][0] >= rows["b"][0] {
			t.Errorf("%dx%d: the palette's rows: white at %v, black at %v; want each on a row of its own, white first", size[0], size[1], rows["w"], rows["b"])
		}

		if err := chromedp.Do(ctx, hotSeat(base), waitPly(1), chromedp.WaitVisible(`[data-size-handle]`)); err != nil {
			t.Fatal(err)
		}
		handle, err := boxOf(ctx, `[data-size-handle]`)
		if err != nil {
			t.Fatal(err)
		}
		name, err := boxOf(ctx, `#board [data-square="h1"] .coord.file`)
		if err != nil {
			t.Fatal(err)
		}
		if handle.Left < name.Right && name.Left < handle.Right && handle.Top < name.Bottom && name.Top < handle.Bottom {
			t.Errorf("%dx%d: the size handle %+v covers the h-file's name %+v", size[0], size[1], handle, name)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.WaitVisible(`.game-list .game-title`)); err != nil {
			t.Fatal(err)
		}
		card, err := chromedp.Run(ctx, chromedp.Evaluate[[2]float64](`(() => {
			const title = document.querySelector(".game-list .game-title"), board = document.querySelector(".game-list .mini-board");
			const cs = getComputedStyle(title), line = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.25;
			return [title.getBoundingClientRect().height / line, board ? board.getBoundingClientRect().width : 0];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if card[0] > 1.5 || card[1] == 0 {
			t.Errorf("%dx%d: a card of your games has its title on %.1f lines, its thumbnail %.0f px wide", size[0], size[1], card[0], card[1])
		}
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
