package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/games"
)

// premoveDrawn reads how a square is drawn: its premove mark's colour
// (the ::before's background, "" when none) and the square's box width.
func premoveDrawn(ctx context.Context, name string) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const sq = document.querySelector('#board [data-square="%s"]');
		if (!sq) return "missing";
		const mark = sq.classList.contains("premove") ? "premove" : sq.classList.contains("preban") ? "preban" : "";
		const bg = getComputedStyle(sq, "::before").backgroundColor;
		return mark + " " + bg + " " + Math.round(sq.getBoundingClientRect().width);
	})()`, name)))
}

// TestPremoveInBrowsers: at a clocked game between two browsers, White,
// waiting for Black, clicks a pawn and its square ahead (a premove, drawn
// on the board in its colour) and then a Black pawn and its square (the
// ban to make after it); Black's page shows nothing of it. Black's ban
// plays both at once: White's page shows the pawn moved and Black to move
// without a reload, and White's clock lost nothing. A premove Black bans
// is cancelled and White's page says why.
func TestPremoveInBrowsers(t *testing.T) {
	long(t)
	white, black, _ := clockedGame(t, games.TimeControl{Initial: 5 * time.Minute})
	for i, step := range []struct {
		who    context.Context
		action string
	}{{black, "b:e2e4"}, {white, "m:d2d4"}, {white, "b:e7e5"}} {
		if err := play(step.who, i+1, step.action); err != nil {
			t.Fatal(err)
		}
	}
	// Black is to move: White's board is read-only, and takes premoves.
	if err := chromedp.Do(white, chromedp.WaitReady(`#status[data-ply="4"]`), chromedp.WaitReady(`#board.readonly`)); err != nil {
		t.Fatal(err)
	}
	if err := clicks(white, "c2", "c4"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#premove[data-premove="m:c2c4"]`, liveWait); err != nil {
		t.Fatalf("the premove was not queued: %v", err)
	}
	if err := clicks(white, "c7", "c5"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#premove[data-premove="m:c2c4 b:c7c5"]`, liveWait); err != nil {
		t.Fatalf("the pre-ban was not queued: %v", err)
	}
	for sq, want := range map[string]string{"c2": "premove", "c4": "premove", "c7": "preban", "c5": "preban"} {
		got, err := premoveDrawn(white, sq)
		f := strings.Fields(got)
		if err != nil || len(f) < 2 || f[0] != want || !strings.HasPrefix(f[1], "rgba(") || f[len(f)-1] == "0" {
			t.Errorf("White's %s is drawn %q (%v), want marked %s in a colour", sq, got, err, want)
		}
	}
	if got, _ := chromedp.Run(white, chromedp.Text(`#premove-status`)); !strings.Contains(got, "c2c4, then ban c7c5") {
		t.Errorf("White's panel says %q", got)
	}
	if got, _ := premoveDrawn(black, "c4"); strings.HasPrefix(got, "premove") {
		t.Errorf("Black's page marks White's premove: %q", got)
	}
	if n, _ := chromedp.Run(black, chromedp.Evaluate[int](`document.querySelectorAll("#premove-status").length`)); n != 0 {
		t.Error("Black's page shows White's premove")
	}
	before, err := chromedp.Run(white, chromedp.AttributeValue(`.clock[data-clock="white"]`, "data-ms"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // time White's clock would charge, were it running
	if err := play(black, 4, "m:d7d5"); err != nil {
		t.Fatal(err)
	}
	// Black's ban: its answer brings White's premove with it (ply 8).
	if err := banTo(black, 5, "g1", "f3", 8); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#status[data-ply="8"]`, liveWait); err != nil {
		t.Fatalf("White's premove was not played on White's page: %v", err)
	}
	if piece, _ := pieceOn(white, "c4"); piece != "wP" {
		t.Errorf("after the premove c4 holds %q on White's page", piece)
	}
	if err := waitFor(black, `#status[data-ply="8"]`, liveWait); err != nil {
		t.Fatalf("Black's page did not get the premove: %v", err)
	}
	after, err := chromedp.Run(white, chromedp.AttributeValue(`.clock[data-clock="white"]`, "data-ms"))
	if err != nil || after.Value != before.Value {
		t.Errorf("White's clock: %s ms before the premove, %s ms after (%v): a premove costs no time", before.Value, after.Value, err)
	}
	if !marked(white) || !marked(black) {
		t.Error("a page was reloaded")
	}

	// Queued, then banned: cancelled, and White is told.
	if err := clicks(white, "b1", "c3"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#premove[data-premove="m:b1c3"]`, liveWait); err != nil {
		t.Fatal(err)
	}
	if err := play(black, 8, "m:e7e6"); err != nil {
		t.Fatal(err)
	}
	if err := play(black, 9, "b:b1c3"); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#premove-dropped`, liveWait); err != nil {
		t.Fatalf("White's page does not say the premove was cancelled: %v", err)
	}
	if got, _ := chromedp.Run(white, chromedp.Text(`#premove-dropped`)); !strings.Contains(got, "b1c3 was banned") {
		t.Errorf("White's page says %q", got)
	}
}

// banTo bans from→to at ply on ctx's board by two clicks, and waits for
// the page to reach ply after (more than ply+1 when a premove followed).
func banTo(ctx context.Context, ply int, from, to string, after int) error {
	err := chromedp.Do(ctx,
		chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, ply)),
		chromedp.Click(sqSel(from)), chromedp.WaitVisible(sqSel(to)+`.dest`), chromedp.Click(sqSel(to)),
		chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, after)))
	if err != nil {
		return fmt.Errorf("ban %s%s at ply %d: %w", from, to, ply, err)
	}
	return nil
}
