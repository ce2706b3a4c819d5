package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/rules"
)

// enFEN and enLine: a bishop crosses x0 (c2 to g3 through d1, x0, e1, f2),
// the Auror swaps with the king (a1 and g1), a pawn promotes to a king, and
// the bishop lands on x0.
const enFEN = "7k/3P3p/8/8/8/8/2B5/A5K1 w - - 0 1 --"

var enLine = []string{"m:c2g3", "m:h7h6", "m:a1g1", "m:h6h5", "m:d7d8k", "m:h5h4", "m:g3x0"}

func TestENLineIsLegal(t *testing.T) {
	g, err := rules.Replay(rules.ENChess{}, enFEN, enLine)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.FEN(), "3K3k/8/8/8/7p/8/8/K5A1 b - - 1 4 B-"; got != want {
		t.Fatalf("FEN %s, want %s", got, want)
	}
}

// TestENChessInBrowser: New game offers EN-Chess, whose board has x0 and x9;
// then, from a position, pieces move through and onto x0, the Auror swaps
// with the king and a pawn becomes a king, all by clicking.
func TestENChessInBrowser(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		ctx, base, problems := browser(t, js)
		if err := chromedp.Do(ctx,
			chromedp.Navigate(base+"/new"),
			chromedp.WaitVisible(`button[name="variant"][value="en"]`),
			chromedp.Click(`button[name="variant"][value="en"]`),
			chromedp.WaitVisible(`#board [data-square="x0"] [data-piece="wA"]`),
			chromedp.WaitVisible(`#board [data-square="x9"] [data-piece="bA"]`),
		); err != nil {
			t.Fatalf("a new EN-Chess game: %v", err)
		}
		if js { // reloaded, so that the list of games is current too
			if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(`#board [data-square="x0"] [data-piece="wA"]`)); err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, "en-chess.png", 1280, 900)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
				t.Fatal(err)
			}
		}
		// Flipped, x0 is drawn above the board.
		flipped := func(sq string) (bool, error) {
			return chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(
				`document.querySelector('#board [data-square="%s"]').getBoundingClientRect().bottom < document.querySelector('#board [data-square="a8"], #board [data-square="h1"]').getBoundingClientRect().top + 1`, sq)))
		}
		if above, err := flipped("x9"); err != nil || !above {
			t.Errorf("x9 is not above the board (%v)", err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(`#flip`), chromedp.WaitVisible(`#board.flipped`)); err != nil {
			t.Fatal(err)
		}
		if above, err := flipped("x0"); err != nil || !above {
			t.Errorf("flipped, x0 is not above the board (%v)", err)
		}

		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?v=en&fen="+url.QueryEscape(enFEN))); err != nil {
			t.Fatal(err)
		}
		for i, a := range enLine {
			if err := play(ctx, i+1, a); err != nil {
				t.Fatal(err)
			}
		}
		for sq, want := range map[string]string{"x0": "wB", "d8": "wK", "a1": "wK", "g1": "wA"} {
			piece, err := chromedp.Run(ctx, chromedp.AttributeValue(fmt.Sprintf(`#board [data-square="%s"] [data-piece]`, sq), "data-piece"))
			if err != nil || piece.Value != want {
				t.Errorf("%s holds %q (%v), want %s", sq, piece.Value, err, want)
			}
		}
		status, err := chromedp.Run(ctx, chromedp.Text(`#status`))
		if err != nil || !strings.Contains(status, "Black to move") {
			t.Errorf("status %q (%v)", status, err)
		}
		if len(*problems) > 0 {
			t.Errorf("browser reported problems: %q", *problems)
		}
	})
}
