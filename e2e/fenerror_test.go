package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFENErrorsExplained: a FEN pasted to import is read as a FEN even
// cut short, and refused for its own field's fault — not read as a PGN
// whose "move 1" is not a move; a long token in the message wraps inside
// the error box instead of running out of it.
func TestFENErrorsExplained(t *testing.T) {
	ctx, base, _ := browser(t, false)
	long := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + strings.Repeat("x", 120) + " w KQkq - 0 1"
	for _, c := range []struct {
		fen, want string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "FEN side to move"},
		{"rnbqkbnr/pppppppp/8/8", "has 4 ranks"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7", "so Black is to move there"},
		{long, "FEN placement"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.WaitVisible(`#import-text`),
			chromedp.SetValue(`#import-text`, c.fen), chromedp.Click(`#import button[type="submit"]`),
			chromedp.WaitVisible(`#import-error`)); err != nil {
			t.Fatalf("%.30q: %v", c.fen, err)
		}
		msg, err := chromedp.Run(ctx, chromedp.Text(`#import-error`))
		if err != nil {
			t.Fatal(err)
		}
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.getElementById("import-error"); return e.scrollWidth > e.clientWidth + 1 })()`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "PGN") {
			t.Errorf("%.40q: the error says %q, want it to say %q and nothing of a PGN", c.fen, msg, c.want)
		}
		if overflow {
			t.Errorf("%.40q: the error runs out of its box", c.fen)
		}
	}
}
