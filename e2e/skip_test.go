package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSkipLinkToTheBoard: a keyboard's first Tab on a game's page is a
// link past the header's links, shown while focused; following it, the
// next Tab is on the board. A page without a board has no such link.
func TestSkipLinkToTheBoard(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, hotSeat(base), waitPly(1), chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.textContent.trim()`))
	if err != nil || first != "Skip to the board" {
		t.Fatalf("the first Tab is on %q (%v), want the link to the board", first, err)
	}
	if err := inView(ctx, ".skip-link:focus"); err != nil {
		t.Errorf("the focused skip link is not drawn: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if sq := focusedSquare(ctx); sq == "" {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.outerHTML.slice(0, 120)`))
		t.Errorf("after the skip link, Tab is on %s, not the board", got)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/rules"), chromedp.WaitVisible(`h1`), chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if first, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.textContent.trim()`)); first == "Skip to the board" {
		t.Error("a page without a board offers to skip to it")
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
