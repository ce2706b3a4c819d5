package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// challengeWait bounds how long a challenge takes to show in the banner
// of its receiver's page (read again every 2 s) and an acceptance to take
// the challenger's page (read again every 3 s) to the game.
const challengeWait = 8 * time.Second

// TestChallengeFromProfile: Ann challenges Bob from his profile (Ban
// Chess, 3+2, White); the challenge shows, drawn, in the banner under the
// header of the home page Bob has open, within a few seconds and without
// a reload; he accepts it and is in the game, and Ann's challenges page
// follows her there; she plays White, he Black.
func TestChallengeFromProfile(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 2, true)
	ann, bob := ctxs[0], ctxs[1]
	chooseName(t, ann, base, "Ann")
	chooseName(t, bob, base, "Bob")
	if err := chromedp.Do(bob, chromedp.Navigate(base+"/"), chromedp.WaitReady(`#challenge-banner`)); err != nil {
		t.Fatal(err)
	}
	mark(t, bob) // the challenge must come live, not by a reload
	err := chromedp.Do(ann,
		chromedp.Navigate(base+"/@/Bob"),
		chromedp.WaitVisible(`#challenge-form`),
		chromedp.SetValue(`#challenge-clock`, "3+2"),
		chromedp.Click(`#challenge-form input[value="white"]`),
		chromedp.Click(`#challenge-button`),
		chromedp.WaitVisible(`.challenges-out li[data-challenge]`),
	)
	if err != nil {
		t.Fatalf("challenging from the profile: %v", err)
	}
	made := time.Now()
	row, err := chromedp.Run(ann, chromedp.Evaluate[string](`document.querySelector(".challenges-out li").textContent`))
	if err != nil || !strings.Contains(row, "Bob") || !strings.Contains(row, "3+2") || !strings.Contains(row, "you play White") {
		t.Errorf("Ann's challenge reads %q (%v)", row, err)
	}
	if err := present(bob, `#challenge-banner .accept-challenge`, challengeWait); err != nil {
		t.Fatalf("the challenge did not show on Bob's home page: %v", err)
	}
	t.Logf("the banner showed %v after the challenge", time.Since(made).Round(100*time.Millisecond))
	if !marked(bob) {
		t.Error("Bob's home page reloaded to show the challenge")
	}
	banner, err := chromedp.Run(bob, chromedp.Evaluate[string](`(() => { const b = document.querySelector("#challenge-banner"), r = b.getBoundingClientRect(),
		h = document.querySelector("header").getBoundingClientRect(); return r.height > 20 && r.width > 100 && r.top >= h.bottom - 1 ? b.innerText : "hidden"; })()`))
	if err != nil || !strings.Contains(banner, "Ann") || !strings.Contains(banner, "3+2") || !strings.Contains(banner, "you play Black") {
		t.Errorf("Bob's banner draws %q (%v)", banner, err)
	}
	if err := clickNow(bob, `#challenge-banner .accept-challenge`); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		who, color string
		ctx        context.Context
	}{{"Bob", "black", bob}, {"Ann", "white", ann}} {
		if err := present(p.ctx, `main#game .strip.you[data-player]`, challengeWait); err != nil {
			t.Fatalf("%s is not in the game: %v", p.who, err)
		}
		if got := side(t, p.ctx); got != p.color {
			t.Errorf("%s plays %q, want %s", p.who, got, p.color)
		}
	}
}
