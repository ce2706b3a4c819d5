package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestArenaInBrowsers: Ann creates an arena from the form and joins it,
// Bob joins from the list; once the server pairs them, Ann's page shows,
// without a reload (htmx asks for the standings every 3 s), her game one
// click away and the standings drawn with both players; the link takes
// her to the game.
func TestArenaInBrowsers(t *testing.T) {
	long(t)
	svc := playground(t)
	ctxs, base := browsersOn(t, 2, true, svc)
	ann, bob := ctxs[0], ctxs[1]
	chooseName(t, ann, base, "Ann")
	chooseName(t, bob, base, "Bob")
	err := chromedp.Do(ann,
		chromedp.Navigate(base+"/tournaments"),
		chromedp.Click(`#new-tournament`),
		chromedp.WaitVisible(`#create-tournament`),
		chromedp.SendKeys(`input[name="name"]`, "Browser arena"),
		chromedp.SetValue(`input[name="clock"]`, "3+2"),
		chromedp.SetValue(`input[name="minutes"]`, "20"),
		chromedp.Click(`#create-tournament`),
		chromedp.WaitVisible(`#join`),
		chromedp.Click(`#join`),
		chromedp.WaitVisible(`#withdraw`),
	)
	if err != nil {
		t.Fatalf("creating and joining: %v", err)
	}
	err = chromedp.Do(bob,
		chromedp.Navigate(base+"/tournaments"),
		chromedp.Click(`li[data-tournament] a`), // upcoming until the server starts it
		chromedp.WaitVisible(`#join`),
		chromedp.Click(`#join`),
		chromedp.WaitVisible(`#withdraw`),
	)
	if err != nil {
		t.Fatalf("Bob joining: %v", err)
	}
	mark(t, ann) // the game must come live, not by a reload
	if err := svc.Tournaments.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := present(ann, `#your-game a`, 5*time.Second); err != nil {
		t.Fatalf("Ann's page shows no game: %v", err)
	}
	if !marked(ann) {
		t.Error("Ann's page reloaded to show her game")
	}
	rows, err := chromedp.Run(ann, chromedp.Evaluate[string](`[...document.querySelectorAll("#standings tbody tr")].map(r => r.dataset.player + ":" + r.querySelector(".playing")?.textContent).join(",")`))
	if err != nil || !strings.Contains(rows, "Ann:playing") || !strings.Contains(rows, "Bob:playing") {
		t.Errorf("the standings read %q (%v)", rows, err)
	}
	if err := chromedp.Do(ann, chromedp.Click(`#your-game a`), chromedp.WaitVisible(`main#game`)); err != nil {
		t.Errorf("the game one click away: %v", err)
	}
}
