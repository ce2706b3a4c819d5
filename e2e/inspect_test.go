package e2e

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// fenIs waits for the editor's FEN to start with prefix.
func fenIs(prefix string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(`#editor-fen[value^="` + prefix + `"]`)
}

// TestEditorInBrowser builds a position by clicking the palette and the
// board, sees the FEN change, is told why the side not to move may not be
// in check, fixes it and plays from there.
func TestEditorInBrowser(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		ctx, base, problems := browser(t, js)
		place := func(code, sq, fen string) []chromedp.Action[chromedp.Void] {
			return []chromedp.Action[chromedp.Void]{
				chromedp.Click(`[data-pick="` + code + `"]`),
				chromedp.WaitReady(`[data-pick="` + code + `"].selected`),
				chromedp.Click(`.editor-board [data-square="` + sq + `"]`),
				fenIs(fen),
			}
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
			t.Fatal(err)
		}
		// The link leaves the page: wait for the editor's page to load, or
		// chromedp may still be catching up with the new document (and
		// lose the nodes found in it) when the next step clicks.
		if _, err := chromedp.RunResponse(ctx, chromedp.Click(`#editor-link`)); err != nil {
			t.Fatal(err)
		}
		steps := []chromedp.Action[chromedp.Void]{
			fenIs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"),
			chromedp.Click(`#editor-clear`),
			fenIs("8/8/8/8/8/8/8/8 w - - 0 1"),
		}
		steps = append(steps, place("wK", "e1", "8/8/8/8/8/8/8/4K3 w")...)
		steps = append(steps, place("bK", "e8", "4k3/8/8/8/8/8/8/4K3 w")...)
		steps = append(steps, place("wR", "e5", "4k3/8/8/4R3/8/8/8/4K3 w")...)
		steps = append(steps, chromedp.WaitVisible(`#editor-error`))
		for i, st := range steps {
			if err := chromedp.Do(ctx, st); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		msg, err := chromedp.Run(ctx, chromedp.Text(`#editor-error`))
		if err != nil || !strings.Contains(msg, "Black is in check but it is White's turn to move") {
			t.Fatalf("error %q (%v)", msg, err)
		}
		if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#editor-play").length`)); n != 0 {
			t.Error("an illegal position offers to be played")
		}
		if js {
			screenshot(t, ctx, "editor.png", 1280, 900)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
				t.Fatal(err)
			}
		}
		// Black to move fixes it; the position is then played. With
		// JavaScript the change sends the form itself (a click on Update
		// as well would race its answer, which replaces the button).
		update := chromedp.Click(`#editor-update`)
		if js {
			update = chromedp.WaitReady(`#editor-update`)
		}
		if err := chromedp.Do(ctx,
			chromedp.SetValue(`#editor-turn`, "b"),
			update,
			fenIs("4k3/8/8/4R3/8/8/8/4K3 b - - 0 1 3"),
			chromedp.WaitVisible(`#editor-ok`),
			chromedp.Click(`#editor-play`),
			chromedp.WaitReady(`#status[data-ply="3"]`),
		); err != nil {
			t.Fatal(err)
		}
		fen, err := chromedp.Run(ctx, chromedp.Value(`#fen`))
		if err != nil || !strings.HasPrefix(fen, "4k3/8/8/4R3/8/8/8/4K3 b - - 0 1 3") {
			t.Errorf("the game plays from %q (%v)", fen, err)
		}
		if len(*problems) > 0 {
			t.Errorf("browser reported problems: %q", *problems)
		}
	})
}

// TestStepKeys steps through an imported game with the arrow keys, Home
// and End, which leave the board alone when it has the focus.
func TestStepKeys(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	pgn, err := os.ReadFile(filepath.Join("..", "rules", "testdata", "classics", "immortal.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	current := func(ply string) chromedp.Action[chromedp.Void] {
		return chromedp.WaitReady(`#history a[aria-current="step"][data-ply="` + ply + `"]`)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/?pgn="+url.QueryEscape(string(pgn))),
		current("45"),
		chromedp.KeyEvent(kb.ArrowLeft), current("44"),
		chromedp.KeyEvent(kb.ArrowLeft), current("43"),
		chromedp.KeyEvent(kb.ArrowRight), current("44"),
		chromedp.KeyEvent(kb.Home), chromedp.WaitReady(`#step-prev[aria-disabled="true"]`),
		chromedp.KeyEvent(kb.ArrowRight), current("1"),
		chromedp.KeyEvent(kb.End), current("45"),
	); err != nil {
		t.Fatal(err)
	}
	// On the board the arrow keys are the board's.
	if err := chromedp.Do(ctx,
		chromedp.Focus(`#board [data-square="e1"]`),
		chromedp.KeyEvent(kb.ArrowLeft),
		chromedp.Sleep(300*time.Millisecond),
		current("45"),
	); err != nil {
		t.Fatal(err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestEditorDrag drops a palette piece on a square and drags a piece from
// one square to another (the drag events as the browser sends them).
func TestEditorDrag(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	drag := func(from, to string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](`(function () {
			var dt = new DataTransfer(), a = document.querySelector('` + from + `'), b = document.querySelector('` + to + `');
			a.dispatchEvent(new DragEvent("dragstart", {dataTransfer: dt, bubbles: true}));
			b.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
			b.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		})()`)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/editor"),
		fenIs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
		drag(`[data-pick="wQ"]`, `.editor-board [data-square="e4"]`),
		fenIs("rnbqkbnr/pppppppp/8/8/4Q3/8/PPPPPPPP/RNBQKBNR w"),
		drag(`.editor-board [data-square="e4"]`, `.editor-board [data-square="e7"]`),
		fenIs("rnbqkbnr/ppppQppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
	); err != nil {
		t.Fatal(err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}
