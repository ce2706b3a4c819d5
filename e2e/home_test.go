package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestHomePageInBrowsers (issue 37, item 9): a first visit, on a phone
// (390×844) and at 1366×800, with JavaScript and without, lands on a page
// that says what Ban Chess is in one line and shows three ways in — play
// someone online, play the computer, learn the rules — in its first
// screen, nothing wider than the screen, each leading where it says, and
// a game on this device one click away. Once a ply is played, the home
// page offers that game to continue, one click away.
func TestHomePageInBrowsers(t *testing.T) {
	long(t)
	for _, size := range [][2]int64{{390, 844}, {1366, 800}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			withAndWithoutJS(t, func(t *testing.T, js bool) {
				ctx, base, problems := browser(t, js)
				home := chromedp.Steps(chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#home`))
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/")); err != nil {
					t.Fatal(err)
				}
				if err := waitFor(ctx, "#home", 5*time.Second); err != nil {
					loc, _ := chromedp.Run(ctx, chromedp.Location())
					t.Fatalf("a first visit lands on %s, not on the home page: %v", loc, err)
				}
				pitch, err := chromedp.Run(ctx, chromedp.Text(`#pitch`))
				if err != nil || !strings.Contains(pitch, "bans one of your moves") {
					t.Errorf("the pitch reads %q (%v)", pitch, err)
				}
				const firstScreen = `["#pitch", "#home-online", "#home-computer", "#home-learn"].filter(s => {
					const r = document.querySelector(s).getBoundingClientRect();
					return !(r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth);
				}).concat(document.documentElement.scrollWidth > innerWidth ? ["the page is wider than the screen"] : [])`
				if out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](firstScreen)); err != nil || len(out) > 0 {
					t.Errorf("not in the first screen: %q (%v)", out, err)
				}
				if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#last-game").length`)); n != 0 {
					t.Error("a first visit is offered a last game")
				}
				for _, c := range []struct{ link, lands string }{
					{"#home-online", "#make-seek"},
					{"#home-computer", ".bot-form"},
					{"#home-learn", "#learn"},
				} {
					if err := chromedp.Do(ctx, home, chromedp.Click(c.link), chromedp.WaitVisible(c.lands)); err != nil {
						t.Errorf("%s does not lead to %s: %v", c.link, c.lands, err)
					}
				}
				if err := chromedp.Do(ctx, home, chromedp.Click(`#home-hotseat`), chromedp.WaitVisible(`#status[data-ply="1"]`)); err != nil {
					t.Fatalf("playing on this device: %v", err)
				}
				if err := play(ctx, 1, "b:e2e4"); err != nil {
					t.Fatal(err)
				}
				game, err := chromedp.Run(ctx, chromedp.Location())
				if err != nil {
					t.Fatal(err)
				}
				if err := chromedp.Do(ctx, home, chromedp.WaitVisible(`#last-game`)); err != nil {
					t.Fatal(err)
				}
				if title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#home-last-title").textContent.trim()`)); title != "Continue your game" {
					t.Errorf("the last game's card is titled %q", title)
				}
				if err := chromedp.Do(ctx, chromedp.Click(`#last-game`), chromedp.WaitVisible(`#status[data-ply="2"]`)); err != nil {
					t.Fatalf("the last game's link: %v", err)
				}
				if now, _ := chromedp.Run(ctx, chromedp.Location()); pathOf(t, now) != pathOf(t, game) {
					t.Errorf("the last game's link went to %s, want %s", now, game)
				}
				if len(*problems) > 0 {
					t.Errorf("the pages reported: %v", *problems)
				}
			})
		})
	}
}
