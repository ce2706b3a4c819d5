package e2e

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// plyWire records, from Chromium's DevTools Network events, what each
// ply's answer (POST …/ply) cost on the wire: Network.loadingFinished's
// encodedDataLength, the bytes Chromium received for it (over HTTP/1.1:
// status line, headers and body), and the response headers' size alone.
type plyWire struct {
	mu      sync.Mutex
	plies   map[network.RequestID]bool
	headers map[network.RequestID]int
	sizes   []int // encodedDataLength of each ply's answer, in order
	heads   []int // the response headers' bytes of each
}

func (w *plyWire) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request.Method == "POST" && strings.HasSuffix(ev.Request.URL, "/ply") {
			w.plies[ev.RequestID] = true
		}
	case *network.EventResponseReceivedExtraInfo:
		w.headers[ev.RequestID] = len(ev.HeadersText)
	case *network.EventLoadingFinished:
		if w.plies[ev.RequestID] {
			w.sizes = append(w.sizes, int(ev.EncodedDataLength))
			w.heads = append(w.heads, w.headers[ev.RequestID])
		}
	}
}

// TestPlyOnTheWireInChromium plays 160 random plies (80 under the race
// detector: the median is the same, 1,951 B) of a game through the
// page in Chromium (clicking squares, as a player does: each ply an htmx
// POST answered by its delta) and reads what each ply's answer cost on
// the wire from DevTools, headers included: 1,952 B at the median when
// written (2,143 B while a delta re-sent the link of the ply the page
// showed), and it checks issue 29's 2,000 B. With E2E_WIRE_WHOLE=1 it
// plays the game to its end (428 plies, about a minute; TestPlyOnTheWire
// in loadtest/ measures six whole games at the server). After the plies
// the move list is the one a fresh page shows: the deltas' swaps applied
// by htmx itself.
func TestPlyOnTheWireInChromium(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	w := &plyWire{plies: map[network.RequestID]bool{}, headers: map[network.RequestID]int{}}
	if err := chromedp.Listen(ctx, w.listen); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, hotSeat(base), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	g := rules.New(rules.BanChess{})
	rng := rand.New(rand.NewPCG(29, 0))
	plies := 160
	if race.Enabled {
		plies = 80 // the detector slows each ply's answer, not what it costs on the wire
	}
	if os.Getenv("E2E_WIRE_WHOLE") != "" {
		plies = 1 << 20
	}
	for ply := 1; ply <= plies && !g.Outcome().Over(); ply++ {
		legal := g.Legal()
		a := legal[rng.IntN(len(legal))]
		if err := play(ctx, ply, a.String()); err != nil {
			t.Fatal(err)
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete"`)); err != nil {
		t.Fatal(err)
	}
	// The move list as the deltas left it, and as the page renders fresh.
	same, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const list = d => [...d.querySelectorAll("#history > li")].map(li => li.id + ":" + [...li.querySelectorAll("a[data-ply]")].map(a => a.dataset.ply + a.className + (a.getAttribute("aria-current") || "") + a.textContent).join(","));
		const fresh = new DOMParser().parseFromString(await (await fetch(location.href)).text(), "text/html");
		const a = list(document).join(" "), b = list(fresh).join(" ");
		return a === b ? "" : a + "\n  fresh: " + b;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if same != "" {
		t.Errorf("the move list after the deltas differs from the page's:\n  page:  %s", same)
	}
	w.mu.Lock()
	sizes, heads := slices.Clone(w.sizes), slices.Clone(w.heads)
	w.mu.Unlock()
	if played := g.Ply() - g.StartPly(); len(sizes) < played/2 {
		t.Fatalf("%d plies' answers seen, want about %d", len(sizes), played)
	}
	t.Logf("%d plies in Chromium: on the wire (encodedDataLength) median %d B, p90 %d B, largest %d B; headers median %d B",
		len(sizes), medianOf(sizes), quantileOf(sizes, 0.9), slices.Max(sizes), medianOf(heads))
	if m := medianOf(sizes); m > 2000 {
		t.Errorf("median ply answer on the wire %d B, want at most 2,000", m)
	}
	if len(*problems) > 0 {
		t.Errorf("page problems: %v", *problems)
	}
}

// medianOf is the middle of sizes (the upper one of the two middles).
func medianOf(sizes []int) int { return quantileOf(sizes, 0.5) }

// quantileOf is the q quantile of sizes.
func quantileOf(sizes []int, q float64) int {
	s := slices.Clone(sizes)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
