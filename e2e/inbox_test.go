package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/players"
)

// TestInboxBell: a named player's bell counts a challenge to them; "Mark
// all read" on /inbox clears it; a new challenge then shows on the open
// page within a poll (notify.js), in the bell and the tab's title.
func TestInboxBell(t *testing.T) {
	long(t)
	svc := playground(t)
	ctx, base, problems := browserOn(t, true, svc)
	bg := context.Background()
	signUp := func(name string) players.Credential {
		in, err := svc.Players.Register(bg, players.SignUp{Name: name, Password: "correct horse battery", Kind: players.Cookie})
		if err != nil {
			t.Fatal(err)
		}
		return in.Credential
	}
	ann, bob := signUp("Ann"), signUp("Bob")
	challenge := func() {
		if _, err := svc.Challenges.Create(bg, bob, "Ann", challenges.Terms{}); err != nil {
			t.Fatal(err)
		}
	}
	challenge()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/rules")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: "banchess_player", Value: string(ann), URL: base}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/rules"), chromedp.WaitVisible(`#bell`)); err != nil {
		t.Fatal(err)
	}
	count := `(b => b && !b.hidden ? b.textContent : "0")(document.getElementById("bell-count"))`
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](count)); err != nil || got != "1" {
		t.Fatalf("the bell shows %q (%v), want 1", got, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#bell`), chromedp.WaitVisible(`#inbox-read-all`), chromedp.Click(`#inbox-read-all`),
		chromedp.WaitVisible(`#inbox-settings`)); err != nil {
		t.Fatal(err)
	}
	// Marking all read posts a form: the page it loads is polled, again
	// if the post's navigation interrupts a poll.
	var err error
	for range 3 {
		if _, err = chromedp.Run(ctx, chromedp.Poll[bool](count+` === "0" && !document.getElementById("inbox-read-all")`)); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("the bell after marking all read: %v", err)
	}
	challenge()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](count+` === "1" && document.title.startsWith("(1) ")`, chromedp.WithPollingTimeout(25*time.Second))); err != nil {
		title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
		t.Errorf("a new challenge did not reach the open page: %v (title %q)", err, title)
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %s", strings.Join(*problems, "; "))
	}
}
