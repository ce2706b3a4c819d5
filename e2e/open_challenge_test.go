package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOpenChallengeByLink: Ann makes a challenge to anyone with a link
// (Ban Chess, 3+2, either colour) on her challenges page; a guest without
// a name opens its Black link, sees its terms drawn and accepts; both are
// in the game, the guest Black and Ann White (her page followed her).
func TestOpenChallengeByLink(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 2, true)
	ann, guest := ctxs[0], ctxs[1]
	chooseName(t, ann, base, "Ann")
	err := chromedp.Do(ann,
		chromedp.Navigate(base+"/challenges"),
		chromedp.WaitVisible(`#open-form`),
		chromedp.SetValue(`#open-clock`, "3+2"),
		chromedp.SendKeys(`#open-name`, "Coffee game"),
		chromedp.Click(`#open-button`),
		chromedp.WaitVisible(`.challenges-out a.open-challenge-link`),
	)
	if err != nil {
		t.Fatalf("making the link: %v", err)
	}
	path, err := chromedp.Run(ann, chromedp.Evaluate[string](`document.querySelector(".challenges-out a.open-challenge-link").getAttribute("href")`))
	if err != nil || !strings.HasPrefix(path, "/challenges/") {
		t.Fatalf("the link: %q (%v)", path, err)
	}
	if err := chromedp.Do(guest, chromedp.Navigate(base+path+"?color=black"), chromedp.WaitVisible(`#open-challenge-accept button`)); err != nil {
		t.Fatalf("the guest opening the link: %v", err)
	}
	terms, err := chromedp.Run(guest, chromedp.Text(`#open-challenge`))
	if err != nil || !strings.Contains(strings.ToLower(terms), "ann challenges anyone") || !strings.Contains(terms, "3+2") || !strings.Contains(terms, "you play Black") || !strings.Contains(terms, "Coffee game") {
		t.Errorf("the link's page reads %q (%v)", terms, err)
	}
	if ok, err := shown(guest, `#open-challenge-accept button`); err != nil || !ok {
		t.Errorf("Accept is not drawn (%v)", err)
	}
	if err := clickNow(guest, `#open-challenge-accept button`); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		who, color string
		ctx        context.Context
	}{{"the guest", "black", guest}, {"Ann", "white", ann}} {
		if err := present(p.ctx, `main#game .strip.you[data-player]`, challengeWait); err != nil {
			t.Fatalf("%s is not in the game: %v", p.who, err)
		}
		if got := side(t, p.ctx); got != p.color {
			t.Errorf("%s plays %q, want %s", p.who, got, p.color)
		}
	}
}
