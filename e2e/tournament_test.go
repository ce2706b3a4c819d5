package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestArenaInBrowsers: Ann creates an arena from the form and joins it,
// Bob joins from the list; once the server pairs them both pages go to
// the game by themselves (htmx asks for the standings every 3 s), and
// back on the tournament's page Ann sees the standings drawn with both
// players playing, and her game one click away.
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
	page, err := chromedp.Run(ann, chromedp.Location())
	if err != nil || !strings.Contains(page, "?since=") {
		t.Fatalf("after joining, the page %q does not follow Ann (%v)", page, err)
	}
	page, _, _ = strings.Cut(page, "?")
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
	if err := svc.Tournaments.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Both pages go to the game (htmx asks for the standings every 3 s).
	for name, ctx := range map[string]context.Context{"Ann": ann, "Bob": bob} {
		if err := present(ctx, `main#game`, 5*time.Second); err != nil {
			t.Fatalf("%s's page did not go to the game: %v", name, err)
		}
	}
	game, err := chromedp.Run(ann, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ann, chromedp.Navigate(page), chromedp.WaitVisible(`#standings`))
	if err != nil {
		t.Fatalf("back to the tournament: %v", err)
	}
	rows, err := chromedp.Run(ann, chromedp.Evaluate[string](`[...document.querySelectorAll("#standings tbody tr")].map(r => r.dataset.player + ":" + r.querySelector(".playing")?.textContent).join(",")`))
	if err != nil || !strings.Contains(rows, "Ann:playing") || !strings.Contains(rows, "Bob:playing") {
		t.Errorf("the standings read %q (%v)", rows, err)
	}
	link, err := chromedp.Run(ann, chromedp.Evaluate[string](`document.querySelector("#your-game a").getAttribute("href")`))
	if err != nil || link == "" || !strings.HasSuffix(game, link) {
		t.Errorf("the game one click away: %q, the game %q (%v)", link, game, err)
	}
}
