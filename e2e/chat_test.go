package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestChatInBrowsers: at a game with a friend White writes a line in the
// players' chat; it appears on Black's page, a 390-pixel-wide phone,
// without a reload, as text (its markup and link are words), while the
// spectator's page, showing the spectators' room, never gets it; White's
// field is emptied for the next line.
func TestChatInBrowsers(t *testing.T) {
	long(t)
	ctxs, watch := friends(t, 3, true, "")
	white, black, watcher := ctxs[0], ctxs[1], ctxs[2]
	if err := chromedp.Do(black, chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateScale(2)),
		chromedp.Reload(), chromedp.WaitVisible(`#chat-form`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(watcher, chromedp.Navigate(watch), chromedp.WaitVisible(`#watching`), chromedp.WaitVisible(`#chat-form`)); err != nil {
		t.Fatal(err)
	}
	if title, err := chromedp.Run(watcher, chromedp.Evaluate[string](`document.getElementById("chat-title").textContent`)); err != nil || title != "Spectators' chat" {
		t.Fatalf("the spectator's chat is %q (%v)", title, err)
	}
	// The pages' streams are open once each says who watches.
	if err := waitFor(white, `[data-spectators="1"]`, liveWait); err != nil {
		t.Fatalf("White's page does not follow the game live: %v", err)
	}
	mark(t, white, black, watcher)

	const line = `gg <b>hi</b> https://example.com/x`
	if err := chromedp.Do(white, chromedp.SendKeys(`#chat-text`, line), chromedp.Click(`#chat-send`)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(black, `#chat-log .chat-line`, liveWait); err != nil {
		t.Fatalf("White's line did not appear on Black's page within %v: %v", liveWait, err)
	}
	got, err := chromedp.Run(black, chromedp.Text(`#chat-log .chat-line .chat-text`))
	if err != nil || got != line {
		t.Errorf("Black's page shows %q (%v), want %q", got, err, line)
	}
	if n, _ := chromedp.Run(black, chromedp.Evaluate[int](`document.querySelectorAll("#chat-log a, #chat-log b").length`)); n != 0 {
		t.Errorf("the line's markup or link became %d elements", n)
	}
	if !marked(black) {
		t.Error("Black's page reloaded to show the line")
	}
	if err := waitFor(white, `#chat-log .chat-line`, liveWait); err != nil {
		t.Errorf("White's own line did not appear on White's page: %v", err)
	}
	if v, err := chromedp.Run(white, chromedp.Value(`#chat-text`)); err != nil || v != "" {
		t.Errorf("White's field holds %q after sending (%v)", v, err)
	}
	// Black's phone: nothing wider than the screen, the form within it.
	wide, err := chromedp.Run(black, chromedp.Evaluate[[]float64](`[innerWidth, document.documentElement.scrollWidth, document.getElementById("chat-send").getBoundingClientRect().right]`))
	if err != nil || len(wide) != 3 || wide[1] > wide[0] || wide[2] > wide[0] {
		t.Errorf("on a 390-pixel phone: width, scroll width, the send button's right edge %v (%v)", wide, err)
	}

	// The spectator's room never gets it.
	time.Sleep(500 * time.Millisecond)
	if n, err := chromedp.Run(watcher, chromedp.Evaluate[int](`document.querySelectorAll("#chat-log .chat-line").length`)); err != nil || n != 0 {
		t.Errorf("the spectator's page shows %d lines of the players' chat (%v)", n, err)
	}
	if !marked(watcher) || !marked(white) {
		t.Error("a page reloaded")
	}
}
