package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/rules"
)

// botWait bounds how long the computer's plies take to show: a search at
// level 1 is instant, and a page without JavaScript reloads every 3 s.
const botWait = 3*time.Second + liveWait

// legal returns the legal actions of game id, from the API.
func legal(t *testing.T, base, id string) []string {
	t.Helper()
	resp, err := http.Get(base + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g struct{ Legal []string }
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil {
		t.Fatal(err)
	}
	if len(g.Legal) == 0 {
		t.Fatal("no legal action")
	}
	return g.Legal
}

// playFirst plays the first legal action at ply by clicking it, and waits
// for the page to leave ply (the computer may answer at once, so the page
// may skip the next ply).
func playFirst(t *testing.T, ctx context.Context, base, id string, ply int) {
	t.Helper()
	a, err := rules.ParseAction(legal(t, base, id)[0])
	if err != nil {
		t.Fatal(err)
	}
	from := fmt.Sprintf(`#board [data-square="%s"]`, a.From)
	to := fmt.Sprintf(`#board [data-square="%s"]`, a.To)
	if err := chromedp.Do(ctx,
		chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, ply)),
		chromedp.Click(from),
		chromedp.WaitVisible(from+`.selected`),
		chromedp.WaitVisible(to+`.dest`),
		chromedp.Click(to),
		chromedp.WaitReady(fmt.Sprintf(`#status:not([data-ply="%d"])`, ply)),
	); err != nil {
		t.Fatalf("ply %d %s: %v", ply, a, err)
	}
}

func TestBotGameInBrowser(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		ctx, base, problems := browser(t, js)
		// White against the computer at level 1: it bans first, at once.
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.WaitVisible(`.bot-form`),
			chromedp.SetValue(`.bot-form select[name="color"]`, "white"),
			chromedp.SetValue(`.bot-form select[name="level"]`, "1"),
			chromedp.Click(`.bot-form button[type="submit"]`),
		); err != nil {
			t.Fatal(err)
		}
		if err := waitFor(ctx, `#status[data-ply="2"]`, botWait); err != nil {
			st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + " | " + (document.getElementById("status") || {}).textContent + " | " + (document.querySelector("#error, .error") || {}).textContent`))
			t.Fatalf("the computer's first ban did not show: %v; page %s", err, st)
		}
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		id := loc[strings.LastIndex(loc, "/g/")+3:]
		if i := strings.IndexAny(id, "?#"); i >= 0 {
			id = id[:i]
		}
		// Two rounds: White moves and bans, the computer moves and bans.
		for round := range 2 {
			ply := 2 + 4*round
			playFirst(t, ctx, base, id, ply)
			playFirst(t, ctx, base, id, ply+1)
			if err := waitFor(ctx, fmt.Sprintf(`#status[data-ply="%d"]`, ply+4), botWait); err != nil {
				st, _ := chromedp.Run(ctx, chromedp.Text(`#status`))
				t.Fatalf("round %d: the computer's answer did not show: %v; page %q, game %v", round, err, st, legal(t, base, id))
			}
		}
		// Undo takes back White's ban and the computer's move and ban.
		if err := chromedp.Do(ctx, chromedp.Click(`#undo`)); err != nil {
			t.Fatal(err)
		}
		if err := waitFor(ctx, `#status[data-ply="7"]`, liveWait); err != nil {
			t.Fatalf("undo: %v", err)
		}
		playFirst(t, ctx, base, id, 7)
		if err := waitFor(ctx, `#status[data-ply="10"]`, botWait); err != nil {
			t.Fatalf("after the undo, the computer's answer did not show: %v", err)
		}
		// The analysis of the position shown: its arrow is a legal action.
		// Analyse is in the folded "Share / export" panel.
		// A delta still arriving swaps the controls whole (a game against
		// the computer), and with them the button: a click that lost its
		// node tries again on the new one.
		var clickErr error
		for try := 0; try < 3; try++ {
			if clickErr = unfold(ctx, "share-fold"); clickErr == nil {
				clickErr = chromedp.Do(ctx, chromedp.Click(`#analyse`), chromedp.WaitVisible(`#analysis-arrow-board line`))
			}
			if clickErr == nil || !strings.Contains(clickErr.Error(), "Could not find node") {
				break
			}
		}
		if clickErr != nil {
			t.Fatal(clickErr)
		}
		// The arrow drawn over the analysis board's squares.
		best, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const a = document.getElementById("analysis-arrow-board"), box = a.querySelector("line").getBoundingClientRect();
			if (box.width + box.height < 1) return "an arrow not drawn";
			return (a.dataset.kind === "ban" ? "b:" : "m:") + a.dataset.from + a.dataset.to;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if acts := legal(t, base, id); !slices.ContainsFunc(acts, func(a string) bool { return strings.HasPrefix(a, best) }) {
			t.Errorf("the analysis' best action %s is not among the legal %v", best, acts)
		}
		if err := chromedp.Do(ctx, chromedp.Click(`a[href="/g/`+id+`"]`), chromedp.WaitVisible(`#status[data-ply="10"]`)); err != nil {
			t.Fatal(err)
		}
		// White resigns, asked in place first: the game is over.
		if err := chromedp.Do(ctx, chromedp.Click(`#resign`), chromedp.Click(`#resign-yes`), chromedp.WaitVisible(`#banner`)); err != nil {
			t.Fatal(err)
		}
		banner, err := chromedp.Run(ctx, chromedp.Text(`#banner`))
		if err != nil || !strings.Contains(banner, "Black wins") {
			t.Fatalf("banner %q (%v)", banner, err)
		}
		// The page's own answer and the live change the computer's ply
		// causes race; a delta that lost (Delta-Ply) is not swapped.
		if len(*problems) > 0 {
			t.Errorf("the page reported problems: %q", *problems)
		}
	})
}
