package e2e

import (
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// clockScript times, in the page, each ply clicked on the board: from the
// click on its destination to the first frame after it (the ply drawn
// ahead), and to the first frame showing the server's answer (the
// status at the next ply). Frames are requestAnimationFrame callbacks:
// the page paints what a callback sees right after it.
const clockScript = `(() => {
	window.plyTimes = [];
	document.addEventListener("click", ev => {
		if (!ev.target.closest || !ev.target.closest("#board button.dest")) return;
		const t0 = ev.timeStamp, ply = document.getElementById("status").dataset.ply, times = {};
		requestAnimationFrame(() => { times.drawn = performance.now() - t0; });
		const answered = () => requestAnimationFrame(() => {
			if (document.getElementById("status").dataset.ply === ply) return answered();
			times.answered = performance.now() - t0;
			window.plyTimes.push(times);
		});
		answered();
	}, true);
	return true;
})()`

// nextPly picks the page's next ply from the destinations it offers (a
// promotion's picker aside), the n-th of them, as two squares.
const nextPly = `((n) => {
	const field = document.getElementById("board-ply"), phase = document.getElementById("status").dataset.phase;
	const plies = [];
	for (const set of (field.dataset.dests || "").split(" ").filter(Boolean)) {
		const [from, tos] = set.split(":");
		const pawn = (document.querySelector('#board [data-square="' + from + '"] img[data-piece]')?.dataset.piece || "").toUpperCase().endsWith("P");
		for (const to of tos.split(",")) if (!(phase === "move" && pawn && /[18]$/.test(to))) plies.push([from, to]);
	}
	return plies.length ? plies[n % plies.length] : [];
})`

// BenchmarkClickToPaint plays hot-seat plies by clicking the board in
// Chromium and reports, per ply, the time from the click to the frame
// that draws it (p50 and p99) and to the frame that shows the server's
// answer, measured in the page:
//
//	go test ./e2e -run '^$' -bench ClickToPaint -benchtime 200x
func BenchmarkClickToPaint(b *testing.B) {
	ctx, base, problems := browser(b, true)
	newGame := func() {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1)); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](clockScript)); err != nil {
			b.Fatal(err)
		}
	}
	newGame()
	ply := 1
	b.ResetTimer()
	for i := range b.N {
		squares, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](nextPly+"("+strconv.Itoa(i*7)+")"))
		if err != nil {
			b.Fatal(err)
		}
		if len(squares) != 2 || ply > 80 {
			newGame()
			ply = 1
			continue
		}
		if err := clicks(ctx, squares...); err != nil {
			b.Fatal(err)
		}
		if err := chromedp.Do(ctx, waitPly(ply+1)); err != nil {
			b.Fatal(err)
		}
		ply++
	}
	b.StopTimer()
	// The last ply's answered frame may come after its status was seen.
	if err := chromedp.Do(ctx, chromedp.Sleep(100*1e6)); err != nil {
		b.Fatal(err)
	}
	type times struct{ Drawn, Answered float64 }
	all, err := chromedp.Run(ctx, chromedp.Evaluate[[]times](`window.plyTimes`))
	if err != nil {
		b.Fatal(err)
	}
	if len(all) == 0 {
		b.Fatal("no ply was timed")
	}
	var drawn, answered []float64
	for _, t := range all {
		drawn = append(drawn, t.Drawn)
		answered = append(answered, t.Answered)
	}
	b.ReportMetric(quantile(drawn, 0.5), "drawn-p50-ms")
	b.ReportMetric(quantile(drawn, 0.99), "drawn-p99-ms")
	b.ReportMetric(quantile(answered, 0.5), "answered-p50-ms")
	b.ReportMetric(quantile(answered, 0.99), "answered-p99-ms")
	if len(*problems) > 0 {
		b.Errorf("the page reported: %v", *problems)
	}
}

// quantile is the q-quantile of xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}
