package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFollowingInBrowser: Ann follows Bob from his profile (the button,
// a plain form); /following lists him offline; once Bob plays Cat it
// lists him online with a link to watch, which opens the game as a
// spectator.
func TestFollowingInBrowser(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 3, true)
	ann, bob, cat := ctxs[0], ctxs[1], ctxs[2]
	chooseName(t, ann, base, "Ann")
	chooseName(t, bob, base, "Bob")
	chooseName(t, cat, base, "Cat")
	if err := chromedp.Do(ann, chromedp.Navigate(base+"/@/Bob"), chromedp.Click(`#follow`), chromedp.WaitVisible(`#unfollow`)); err != nil {
		t.Fatalf("following Bob from his profile: %v", err)
	}
	if err := chromedp.Do(ann, chromedp.Navigate(base+"/following"), chromedp.WaitVisible(`li[data-followed="Bob"][data-online="false"]`)); err != nil {
		t.Fatalf("/following does not list Bob offline: %v", err)
	}
	invite, watch := inviteGame(t, bob, base, "white", "5+3")
	join(t, cat, invite)
	if err := chromedp.Do(ann, chromedp.Reload(), chromedp.WaitVisible(`li[data-followed="Bob"][data-online="true"] a.watch`)); err != nil {
		t.Fatalf("/following does not show Bob playing: %v", err)
	}
	if err := chromedp.Do(ann, chromedp.Click(`a.watch`), chromedp.WaitVisible(`#watching`)); err != nil {
		t.Fatalf("the watch link: %v", err)
	}
	if u, err := chromedp.Run(ann, chromedp.Location()); err != nil || pathOf(t, u) != pathOf(t, watch) {
		t.Errorf("the watch link opened %q (%v), want %s", u, err, watch)
	}
}
