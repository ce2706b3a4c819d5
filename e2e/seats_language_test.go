package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestSeatNamesInLanguages (issue 43): on a phone, a game with a friend
// that waits for them shows the free seat and its creator without a name
// in the reader's language (German, Russian, Hebrew), drawn inside the
// window, and nothing overflows it.
func TestSeatNamesInLanguages(t *testing.T) {
	long(t)
	ctxs, base := browsers(t, 1, true)
	ctx := ctxs[0]
	type drawn struct {
		Free, Creator string
		Inside        bool // both names drawn, each within the window's width
		Overflow      float64
	}
	for _, tc := range []struct{ lang, free, creator string }{
		{"de", "Wartet auf einen Spieler", "Anonym"},
		{"ru", "Ждём игрока", "Аноним"},
		{"he", "ממתינים לשחקן", "אנונימי"},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/rules")); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: "banchess_lang", Value: tc.lang, URL: base}); err != nil {
			t.Fatal(err)
		}
		inviteGame(t, ctx, base, "white", "5+3")
		got, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](`(() => {
			const name = side => document.querySelector('[data-player="' + side + '"] .player-name');
			const free = name("black"), creator = name("white");
			const inside = e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.left >= 0 && b.right <= window.innerWidth; };
			return {
				Free: free.textContent.trim(), Creator: creator.textContent.trim(),
				Inside: inside(free) && inside(creator),
				Overflow: document.documentElement.scrollWidth - window.innerWidth,
			};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if got.Free != tc.free || got.Creator != tc.creator {
			t.Errorf("%s: the free seat reads %q and its creator %q, want %q and %q", tc.lang, got.Free, got.Creator, tc.free, tc.creator)
		}
		if !got.Inside {
			t.Errorf("%s: the names are not drawn inside the window: %+v", tc.lang, got)
		}
		if got.Overflow > 0 {
			t.Errorf("%s: the page is %.0f px wider than the window", tc.lang, got.Overflow)
		}
	}
}
