package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestForecastOnAnalysisBoard: at a correspondence game (3 days a move),
// White opens the analysis board while Black is to act, plays a line on
// it by clicks (Black's expected ban of e2e4, then White's reply d2d4),
// saves it as a forecast, and it is drawn in the stored forecasts there,
// and on the game's page.
func TestForecastOnAnalysisBoard(t *testing.T) {
	long(t)
	ctxs, watch := friends(t, 2, true, "3d")
	white := ctxs[0]
	board := strings.TrimSuffix(watch, "/") + "/analysis"
	if err := chromedp.Do(white, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(board), chromedp.WaitVisible(`#forecast-board`)); err != nil {
		t.Fatalf("White's analysis board: %v", err)
	}
	if n, _ := chromedp.Run(white, chromedp.Evaluate[int](`document.querySelectorAll("#forecast-board-lines li").length`)); n != 0 {
		t.Fatalf("%d forecasts stored before any", n)
	}
	if err := clicks(white, "e2", "e4"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#forecast-save input[name="moves"][value="b:e2e4"]`, 10*time.Second); err != nil {
		t.Fatalf("Black's ban played on the board: %v", err)
	}
	if err := clicks(white, "d2", "d4"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#forecast-save input[name="moves"][value="b:e2e4,m:d2d4"]`, 10*time.Second); err != nil {
		t.Fatalf("White's reply played on the board: %v", err)
	}
	if piece, _ := pieceOn(white, "d4"); piece != "wP" {
		t.Errorf("the board after the line: d4 holds %q", piece)
	}
	if err := chromedp.Do(white, chromedp.Click(`#forecast-save-button`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#forecast-board-lines li`, 10*time.Second); err != nil {
		t.Fatalf("the saved forecast is not listed: %v", err)
	}
	if ok, err := shown(white, `#forecast-board-lines li`); err != nil || !ok {
		t.Errorf("the stored forecast is not drawn (%v)", err)
	}
	got, err := chromedp.Run(white, chromedp.Text(`#forecast-board-lines`))
	if err != nil || !strings.Contains(got, "b:e2e4 m:d2d4") {
		t.Errorf("the stored forecasts read %q (%v)", got, err)
	}
	if err := chromedp.Do(white, chromedp.Navigate(watch), chromedp.WaitReady(`#forecast-lines`)); err != nil {
		t.Fatalf("the game's page lists no forecasts: %v", err)
	}
	if got, _ := chromedp.Run(white, chromedp.Text(`#forecast-lines`, chromedp.NodeReady)); !strings.Contains(got, "b:e2e4 m:d2d4") {
		t.Errorf("the game's page lists %q", got)
	}
}
