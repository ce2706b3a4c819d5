package e2e

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/puzzles"
)

// costMetrics are the Performance.getMetrics counters the probe reports:
// durations in seconds (cumulative, so a page's are the difference
// across its load) and counts.
var costMetrics = []string{"TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount", "RecalcStyleCount", "Nodes"}

// pageCost is what one load of a page cost the browser: the metrics'
// differences across the load (Nodes: the count after it) and the time to
// DOMContentLoaded.
type pageCost map[string]float64

// costPage is a page the probe loads: a name, and its path ({id}: a game
// the probe plays first).
type costPage struct{ name, path string }

// TestPageCostInBrowser loads each main page a few times from a warm cache,
// with JavaScript on and off, and logs the medians of what Chromium spent
// on it (CDP Performance.getMetrics: task, script, layout and style time,
// layouts and style recalcs, and the DOM's nodes; and the time to
// DOMContentLoaded; idle/s: the task time of the second after, the page's
// timers). It asserts only bounds that cannot flake: no page
// holds more than 20,000 nodes nor lays out more than 60 times on load.
//
//	PAGECOST_RUNS=3 go test ./e2e -run TestPageCostInBrowser -v
func TestPageCostInBrowser(t *testing.T) {
	long(t)
	runs, err := strconv.Atoi(os.Getenv("PAGECOST_RUNS"))
	if err != nil || runs < 1 {
		t.Skip("a probe of about four minutes, not part of the suite: PAGECOST_RUNS=3 runs it")
	}
	p := shipped(t, func(p puzzles.Puzzle) bool { return true })
	pages := []costPage{
		{"home", "/"},
		{"game (4 plies)", "/g/{id}"},
		{"lobby", "/lobby"},
		{"learn", "/learn"},
		{"lesson step", "/learn/ply-order/1"},
		{"training", "/training"},
		{"puzzle", "/training/" + p.ID},
		{"rules", "/rules"},
		{"analysis", "/analysis"},
		{"review", "/g/{id}/review"},
		{"tournaments", "/tournaments"},
	}
	for _, js := range []bool{true, false} {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-16s %7s %7s %7s %7s %7s %6s %6s %6s %6s %7s\n", "page", "dcl-ms", "task", "script", "layout", "style", "lays", "recalc", "nodes", "elems", "idle/s")
		for _, pg := range pages {
			t.Run(map[bool]string{true: "js", false: "nojs"}[js]+"/"+pg.name, func(t *testing.T) {
				ctx, base, problems := browser(t, js)
				path := pg.path
				if strings.Contains(path, "{id}") {
					link := base + "/?v=ban&fen=" + url.QueryEscape(backRank) + "&a=b:g1f1,m:f2f3,b:h8g8,m:h7h6"
					if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(`#status[data-ply="5"]`)); err != nil {
						t.Fatal(err)
					}
					path = strings.ReplaceAll(path, "{id}", gameID(t, ctx))
				}
				if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
					t.Fatal(err)
				}
				var costs []pageCost
				for i := range runs + 1 { // the first load warms the cache
					c, err := loadCost(ctx, base, path)
					if err != nil {
						t.Fatal(err)
					}
					if i > 0 {
						costs = append(costs, c)
					}
				}
				m := medianCost(costs)
				fmt.Fprintf(&table, "%-16s %7.0f %7.1f %7.1f %7.1f %7.1f %6.0f %6.0f %6.0f %6.0f %7.2f\n", pg.name, m["dcl"],
					m["TaskDuration"]*1000, m["ScriptDuration"]*1000, m["LayoutDuration"]*1000, m["RecalcStyleDuration"]*1000,
					m["LayoutCount"], m["RecalcStyleCount"], m["Nodes"], m["elements"], m["idle"]*1000)
				if m["Nodes"] > 20000 {
					t.Errorf("%s holds %.0f nodes (more than 20,000)", pg.name, m["Nodes"])
				}
				if m["LayoutCount"] > 60 {
					t.Errorf("%s laid out %.0f times on load (more than 60)", pg.name, m["LayoutCount"])
				}
				if len(*problems) > 0 {
					t.Errorf("the page reported: %v", *problems)
				}
			})
		}
		t.Logf("JavaScript %v, medians of %d loads, times in ms:%s", js, runs, table.String())
	}
}

// loadCost navigates to u, lets the page settle for half a second (its
// startup timers and frames), and returns what the load cost.
func loadCost(ctx context.Context, base, path string) (pageCost, error) {
	// The counters start again with each document; a small page of the
	// same site between loads (about:blank would start a new renderer
	// process each time, whose start-up would count) and a collection
	// keep the last page's nodes out of the count.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/static/htmx.LICENSE")); err != nil {
		return nil, err
	}
	if _, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		return nil, fmt.Errorf("collecting garbage: %w", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+path), chromedp.Sleep(500*time.Millisecond)); err != nil {
		return nil, err
	}
	after, err := metricsNow(ctx)
	if err != nil {
		return nil, err
	}
	c := pageCost{}
	for _, name := range costMetrics {
		c[name] = after[name]
	}
	elements, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementsByTagName("*").length`))
	if err != nil {
		elements = -1
	}
	c["elements"] = elements
	// What the page costs while nobody touches it: its timers' and
	// frames' work over the next second.
	if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil {
		return nil, err
	}
	idle, err := metricsNow(ctx)
	if err != nil {
		return nil, err
	}
	c["idle"] = idle["TaskDuration"] - after["TaskDuration"]
	dcl, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(performance.getEntriesByType("navigation")[0] || {}).domContentLoadedEventEnd || -1`))
	if err != nil {
		dcl = -1
	}
	c["dcl"] = dcl
	return c, nil
}

// metricsNow is the tab's Performance.getMetrics, by name.
func metricsNow(ctx context.Context) (map[string]float64, error) {
	res, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("reading the metrics: %w", err)
	}
	m := map[string]float64{}
	for _, x := range res.Metrics {
		m[x.Name] = x.Value
	}
	return m, nil
}

// medianCost is each figure's median over costs.
func medianCost(costs []pageCost) pageCost {
	m := pageCost{}
	for name := range costs[0] {
		var xs []float64
		for _, c := range costs {
			xs = append(xs, c[name])
		}
		slices.Sort(xs)
		m[name] = xs[len(xs)/2]
	}
	return m
}

// countIntervals records, before any page script runs, the period of every
// setInterval the page starts.
const countIntervals = `window.intervalsStarted = [];
(() => {
	const start = window.setInterval;
	window.setInterval = function (f, ms) { window.intervalsStarted.push(ms); return start.apply(this, arguments); };
})();`

// TestNoTimerWithoutClocks: a page without a running clock starts no
// periodic timer (live.js ticked every 100 ms on every page; clocks
// still tick, TestLiveClockInBrowsers).
func TestNoTimerWithoutClocks(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countIntervals}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/rules", "/learn/ply-order/1", "/tournaments"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+path), chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		started, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`window.intervalsStarted`))
		if err != nil {
			t.Fatal(err)
		}
		if len(started) > 0 {
			t.Errorf("%s started timers every %v ms", path, started)
		}
	}
	if len(*problems) > 0 {
		t.Errorf("the pages reported: %v", *problems)
	}
}
