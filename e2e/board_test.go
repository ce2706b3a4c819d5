package e2e

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/banchess/banchess/rules"
)

// startFEN opens a new game from the start.
const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// box is an element's place in the viewport, in CSS pixels.
type box struct{ Top, Bottom, Left, Right, Width, Height float64 }

// unfold opens the folded panel (a <details>) with the given id, as a
// click on its summary does, so that what is in it can be clicked.
func unfold(ctx context.Context, id string) error {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q).open = true`, id)))
	return err
}

// boxOf reads the layout box of the first element matching sel.
func boxOf(ctx context.Context, sel string) (box, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[box](fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Width: r.width, Height: r.height};
	})()`, sel)))
}

// settled waits until the element sel names keeps its box over two
// animation frames: after the viewport changes, the page lays itself out
// again (the board sizes itself to the window) and a click aimed before
// that can land beside its target.
func settled(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise((done, fail) => {
			const box = () => { const e = document.querySelector(%q); return e ? JSON.stringify(e.getBoundingClientRect()) : ""; };
			let last = "", same = 0, frames = 0;
			const look = () => {
				const now = box();
				same = now !== "" && now === last ? same + 1 : 0;
				last = now;
				if (same >= 2) return done(true);
				if (++frames > 600) return fail(new Error("still moving: " + now));
				requestAnimationFrame(look);
			};
			requestAnimationFrame(look);
		})`, sel), chromedp.EvalAwaitPromise))
		return err
	})
}

// tap taps the middle of the element sel names with a finger, as
// chromedp.Tap does but with the touches stamped 50 ms apart: Chromium
// reads a tap from the events' times, and on a loaded machine the time
// between two unstamped touches can pass for a long press, which clicks
// nothing.
func tap(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		b, err := boxOf(ctx, sel)
		if err != nil {
			return err
		}
		at := float64(time.Now().UnixNano()) / 1e9
		start := input.DispatchTouchEventParams{
			Type:        input.DispatchTouchEventTypeTouchStart,
			TouchPoints: []*input.TouchPoint{{X: b.Left + b.Width/2, Y: b.Top + b.Height/2}},
			Timestamp:   input.TimeSinceEpoch(at),
		}
		if _, err := cdp.Call(ctx, t, input.DispatchTouchEvent, start); err != nil {
			return err
		}
		end := input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}, Timestamp: input.TimeSinceEpoch(at + 0.05)}
		_, err = cdp.Call(ctx, t, input.DispatchTouchEvent, end)
		return err
	})
}

// waitPly waits for the game to show ply n.
func waitPly(n int) chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, n))
}

// sq is the square a name such as "e4" names.
func sq(name string) rules.Square {
	s, err := rules.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func sqSel(s string) string { return fmt.Sprintf(`#board [data-square="%s"]`, s) }

// TestBoardFitsTheWindow: at common laptop, desktop and phone sizes the
// board is the largest square that fits with the status and the controls
// in view, so nobody scrolls to play; the panels sit beside the board on
// a wide window and below it on a phone. Without JavaScript the size is
// CSS's estimate, which must fit too.
func TestBoardFitsTheWindow(t *testing.T) {
	long(t)
	withAndWithoutJS(t, testBoardFits)
}

func testBoardFits(t *testing.T, js bool) {
	ctx, base, problems := browser(t, js)
	for _, tc := range []struct {
		w, h     int64
		minBoard float64 // the board is at least this wide
		beside   bool    // the panels are beside the board
	}{
		{1280, 720, 540, true},
		{1366, 768, 590, true},
		{1920, 1080, 900, true},
		{390, 844, 330, false},
		{844, 390, 240, true}, // a phone held sideways
	} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(tc.w, tc.h), chromedp.Navigate(base+"/?fen="+url.QueryEscape(startFEN)), chromedp.WaitVisible(`#status`)); err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5"} { // a ban in force, an arrow, a history
			if err := chromedp.Do(ctx, chromedp.Sleep(50*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			ply, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.getElementById("status").dataset.ply`))
			if err := play(ctx, ply, a); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond)); err != nil { // board.js fits after a frame
			t.Fatal(err)
		}
		b, err := boxOf(ctx, "#board .board")
		if err != nil {
			t.Fatal(err)
		}
		view, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[innerWidth, innerHeight, document.documentElement.scrollWidth]`))
		if err != nil {
			t.Fatal(err)
		}
		vw, vh, sw := view[0], view[1], view[2]
		if b.Bottom > vh || b.Right > vw || b.Left < 0 || sw > vw {
			t.Errorf("%s: the board %+v leaves the %v×%v window (page %v wide)", name, b, vw, vh, sw)
		}
		if b.Width < tc.minBoard || b.Width-b.Height > 1 || b.Height-b.Width > 1 {
			t.Errorf("%s: the board is %.0f×%.0f, want a square at least %.0f wide", name, b.Width, b.Height, tc.minBoard)
		}
		controls := []string{"#status", `[data-player="white"]`, `[data-player="black"]`, "#undo", "#flip", "#autoflip", "#resign", "#draw"}
		if tc.h < 500 || !tc.beside {
			// On a phone the list and the actions follow the board;
			// sideways the panel beside the board scrolls.
			controls = controls[:3]
		}
		for _, sel := range controls {
			c, err := boxOf(ctx, sel)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, sel, err)
			}
			if c.Bottom > vh || c.Top < 0 || c.Right > vw {
				t.Errorf("%s: %s at %+v is outside the %v×%v window", name, sel, c, vw, vh)
			}
		}
		side, err := boxOf(ctx, ".side")
		if err != nil {
			t.Fatal(err)
		}
		if beside := side.Left >= b.Right; beside != tc.beside {
			t.Errorf("%s: panels beside the board = %v, want %v", name, beside, tc.beside)
		}
	}
	// EN-Chess's x squares stand above and below the board: they fit too.
	for _, size := range [][2]int64{{1280, 720}, {390, 844}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/new"),
			chromedp.Click(`.new-game button[value="en"]`), chromedp.WaitVisible(`#board [data-square="x9"]`),
			chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		for _, sel := range []string{`#board [data-square="x9"]`, `#board [data-square="x0"]`, "#status"} {
			b, err := boxOf(ctx, sel)
			if err != nil || b.Bottom > float64(size[1]) || b.Top < 0 {
				t.Errorf("%v, EN-Chess: %s at %+v (%v) is outside the window", size, sel, b, err)
			}
		}
		if b, err := boxOf(ctx, "#board .board"); err != nil || b.Width < float64(min(size[0], size[1]))*0.6 {
			t.Errorf("%v, EN-Chess: the board is %+v (%v)", size, b, err)
		}
	}
	// A game with a friend has the players' clocks in their strips, by
	// the board; its actions (abort, until each side has acted) are
	// beside the board, after it on a phone.
	for _, size := range [][2]int64{{1280, 720}, {390, 844}} {
		if !js {
			break // the page of a waiting player without JavaScript reloads itself
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/new"),
			chromedp.SetValue(`.invite-form select[name=clock]`, "5+3"),
			chromedp.Click(`.invite-form form button[type=submit]`),
			chromedp.WaitVisible(`#table`), chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		sels := []string{"#board .board", `[data-player="white"] [data-clock]`, `[data-player="black"] [data-clock]`, "#status", "#controls .actions"}
		if size[0] < 500 {
			sels = sels[:3]
		}
		for _, sel := range sels {
			b, err := boxOf(ctx, sel)
			if err != nil || b.Bottom > float64(size[1]) || b.Top < 0 {
				t.Errorf("%v, a game with a friend: %s at %+v (%v) is outside the window", size, sel, b, err)
			}
		}
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// TestDragAndTap plays to a promotion by dragging with the mouse, and by
// touch (a drag, then taps), choosing the piece on the picker that opens
// over the promotion square.
func TestDragAndTap(t *testing.T) {
	for _, touch := range []bool{false, true} {
		t.Run(map[bool]string{false: "mouse", true: "touch"}[touch], func(t *testing.T) {
			ctx, base, problems := browser(t, true)
			if touch {
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateScale(2))); err != nil {
					t.Fatal(err)
				}
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(promoFEN)), chromedp.WaitVisible(`#status`)); err != nil {
				t.Fatal(err)
			}
			drag := func(from, to string) error {
				if touch {
					return touchDrag(ctx, sqSel(from), sqSel(to))
				}
				return chromedp.Do(ctx, chromedp.DragAndDrop(sqSel(from), sqSel(to)))
			}
			if !touch { // while dragging, the piece follows the pointer and its targets show
				k, err := boxOf(ctx, sqSel("e1"))
				if err != nil {
					t.Fatal(err)
				}
				x, y := k.Left+k.Width/2, k.Top+k.Height/2
				held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
				if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft),
					chromedp.MouseEvent(chromedp.MouseMoved, x+10, y-k.Height*1.5, chromedp.ButtonLeft, held),
					chromedp.MouseEvent(chromedp.MouseMoved, x+20, y-k.Height*2.5, chromedp.ButtonLeft, held)); err != nil {
					t.Fatal(err)
				}
				state, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
					const g = document.querySelector(".drag-ghost"), r = g ? g.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};
					return [document.querySelectorAll("#board .dest").length, r.left + r.width / 2, r.top + r.height / 2,
						document.querySelectorAll("#board .drag-origin").length];
				})()`))
				if err != nil || state[0] != 5 || state[1] < x+19 || state[1] > x+21 || state[3] != 1 {
					t.Errorf("mid-drag: destinations, ghost centre, origin %v (%v); want 5 destinations, the ghost at x %.0f", state, err, x+20)
				}
				if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseReleased, x+20, y-k.Height*2.5, chromedp.ButtonLeft)); err != nil {
					t.Fatal(err)
				}
			}
			// A drop on a square the piece cannot go to puts it back.
			if err := drag("e1", "e3"); err != nil {
				t.Fatal(err)
			}
			state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").dataset.ply + " " +
				document.querySelectorAll(".drag-ghost, .drag-origin").length`))
			if err != nil || state != "1 0" {
				t.Errorf("after a drop on an illegal square: ply and leftovers %q (%v), want \"1 0\"", state, err)
			}
			// Black bans the king's e1–d1 by dragging the king there.
			if err := drag("e1", "d1"); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, waitPly(2), chromedp.WaitReady(`#ban-line line[x1]`)); err != nil {
				t.Fatalf("the dragged ban: %v", err)
			}
			// White promotes: by dragging, or by tapping the pawn and e8.
			if touch {
				// A finger's two taps, at a person's pace: Chromium reads two
				// taps within 300 ms of each other near one spot as a double tap.
				err = chromedp.Do(ctx, tap(sqSel("e7")), chromedp.WaitVisible(sqSel("e8")+".dest"), chromedp.Sleep(400*time.Millisecond), tap(sqSel("e8")))
			} else {
				err = drag("e7", "e8")
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.WaitVisible(`#promotion [data-promotion="q"]`), chromedp.Sleep(100*time.Millisecond)); err != nil {
				t.Fatalf("no promotion picker: %v", err)
			}
			sq, err := boxOf(ctx, sqSel("e8"))
			if err != nil {
				t.Fatal(err)
			}
			picker, err := boxOf(ctx, "#promotion")
			if err != nil {
				t.Fatal(err)
			}
			if d := picker.Left - sq.Left; d < -1 || d > 1 || picker.Top-sq.Top > 1 || sq.Top-picker.Top > 1 || picker.Height < 3.5*sq.Height {
				t.Errorf("the picker %+v is not a column over e8 %+v", picker, sq)
			}
			focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.promotion || ""`))
			if focused != "q" {
				t.Errorf("the picker's focus is on %q, want the queen", focused)
			}
			choose := chromedp.Click(`#promotion [data-promotion="q"]`)
			if touch {
				choose = tap(`#promotion [data-promotion="q"]`)
			}
			if err := chromedp.Do(ctx, choose, waitPly(3)); err != nil {
				t.Fatal(err)
			}
			piece, err := chromedp.Run(ctx, chromedp.AttributeValue(sqSel("e8")+" [data-piece]", "data-piece"))
			if err != nil || piece.Value != "wQ" {
				t.Errorf("e8 holds %q (%v) after promoting to a queen", piece.Value, err)
			}
			if len(*problems) > 0 {
				t.Errorf("browser reported problems: %q", *problems)
			}
		})
	}
}

// touchDrag drags a finger from the centre of one element to another's.
func touchDrag(ctx context.Context, from, to string) error {
	a, err := boxOf(ctx, from)
	if err != nil {
		return err
	}
	b, err := boxOf(ctx, to)
	if err != nil {
		return err
	}
	x0, y0 := a.Left+a.Width/2, a.Top+a.Height/2
	x1, y1 := b.Left+b.Width/2, b.Top+b.Height/2
	touchAt := func(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{}
		}
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, p)
			return err
		})
	}
	steps := []chromedp.Action[chromedp.Void]{touchAt(input.DispatchTouchEventTypeTouchStart, x0, y0)}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		steps = append(steps, touchAt(input.DispatchTouchEventTypeTouchMove, x0+(x1-x0)*f, y0+(y1-y0)*f))
	}
	// The finger rests, then lifts; Chromium then ends the gesture before a
	// next touch, which otherwise can be taken for a part of this one.
	steps = append(steps, chromedp.Sleep(50*time.Millisecond), touchAt(input.DispatchTouchEventTypeTouchEnd, x1, y1), chromedp.Sleep(500*time.Millisecond))
	return chromedp.Do(ctx, steps...)
}

// TestKeyboardOnly plays the mate line with the keyboard alone: one Tab
// reaches the board, arrows move the cursor, Enter picks, Escape cancels;
// then a promotion through the picker. The tab's title follows the game.
func TestKeyboardOnly(t *testing.T) {
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, hotSeat(base), chromedp.WaitVisible(`#status`), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	wantTitle := func(want string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Poll[string](fmt.Sprintf(`document.title === %q && document.title`, want), chromedp.WithPollingTimeout(3*time.Second)))
		if err != nil {
			title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
			t.Errorf("title %q, want %q", title, want)
			return
		}
		_ = got
	}
	wantTitle("Black to ban · Ban Chess")
	// A short history, so that it has to scroll to follow the game.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.styleSheets[0].insertRule("#history { max-height: 3rem }")`)); err != nil {
		t.Fatal(err)
	}
	if err := tabToBoard(ctx); err != nil {
		t.Fatal(err)
	}
	// Escape drops a pick.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(`#board .selected`), chromedp.KeyEvent(kb.Escape), chromedp.WaitNotPresent(`#board .selected`)); err != nil {
		t.Fatalf("Escape: %v", err)
	}
	for i, s := range mateLine {
		a, err := rules.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := keyboardPly(ctx, i+1, a); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, s, err)
		}
		if i == 0 {
			wantTitle("White to move · Ban Chess")
		}
	}
	wantTitle("Checkmate · 1-0")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(h => h.scrollHeight > h.clientHeight && h.scrollTop + h.clientHeight >= h.scrollHeight - 2)(document.getElementById("history"))`, chromedp.WithPollingTimeout(2*time.Second))); err != nil {
		t.Errorf("the history does not show its last ply: %v", err)
	}
	if banner, err := chromedp.Run(ctx, chromedp.Text(`#banner`)); err != nil || banner != mateBanner {
		t.Errorf("banner %q (%v)", banner, err)
	}

	// A promotion: the picker takes the focus; arrows move in it, Escape
	// closes it, Enter chooses.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(promoFEN)), chromedp.WaitVisible(`#status`), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := tabToBoard(ctx); err != nil {
		t.Fatal(err)
	}
	if err := keyboardPly(ctx, 1, rules.BanAction(sq("e1"), sq("d1"))); err != nil {
		t.Fatal(err)
	}
	openPicker := func() error {
		if err := moveCursor(ctx, "e7"); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(sqSel("e7")+".selected")); err != nil {
			return err
		}
		if err := moveCursor(ctx, "e8"); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
			return err
		}
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.activeElement.dataset.promotion === "q"`, chromedp.WithPollingTimeout(5*time.Second)))
		return err
	}
	if err := openPicker(); err != nil {
		t.Fatalf("opening the picker: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	if p, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.dataset.promotion || ""`)); p != "r" {
		t.Errorf("ArrowDown in the picker went to %q, want the rook", p)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape), chromedp.WaitNotPresent(`#promotion`)); err != nil {
		t.Fatalf("Escape did not close the picker: %v", err)
	}
	if err := openPicker(); err != nil {
		t.Fatalf("opening the picker again: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), waitPly(3)); err != nil {
		t.Fatal(err)
	}
	if piece, err := chromedp.Run(ctx, chromedp.AttributeValue(sqSel("e8")+" [data-piece]", "data-piece")); err != nil || piece.Value != "wQ" {
		t.Errorf("e8 holds %q (%v)", piece.Value, err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}

// focusedSquare is the square the keyboard is on, "" off the board.
func focusedSquare(ctx context.Context) string {
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.activeElement.closest("#board") && document.activeElement.dataset.square) || ""`))
	return s
}

// tabToBoard presses Tab until the board has the focus: it must take at
// most ten (the brand link, the header's eight links, the board).
func tabToBoard(ctx context.Context) error {
	// The skip link, the brand, the header's links and its language
	// picker come first (a keyboard user can take the skip link instead).
	for range 16 {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			return err
		}
		if focusedSquare(ctx) != "" {
			stops, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#board button[data-square]:not([tabindex="-1"])').length`))
			if err == nil && stops != 1 {
				err = fmt.Errorf("the board has %d Tab stops, want one", stops)
			}
			return err
		}
	}
	return fmt.Errorf("sixteen Tabs did not reach the board")
}

// moveCursor presses arrows until the keyboard is on s (White at the
// bottom).
func moveCursor(ctx context.Context, name string) error {
	s := sq(name)
	for range 16 {
		cur := focusedSquare(ctx)
		if cur == "" {
			return fmt.Errorf("the focus left the board")
		}
		c, err := rules.ParseSquare(cur)
		if err != nil {
			return err
		}
		key := ""
		switch {
		case c.File() < s.File():
			key = kb.ArrowRight
		case c.File() > s.File():
			key = kb.ArrowLeft
		case c.Rank() < s.Rank():
			key = kb.ArrowUp
		case c.Rank() > s.Rank():
			key = kb.ArrowDown
		default:
			return nil
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			return err
		}
	}
	return fmt.Errorf("the arrows did not reach %s", s)
}

// keyboardPly plays a at ply with arrows and Enter, and waits for the
// focus to come back to the board.
func keyboardPly(ctx context.Context, ply int, a rules.Action) error {
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.activeElement.closest("#board")`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		return fmt.Errorf("the focus is not on the board at ply %d: %w", ply, err)
	}
	if err := moveCursor(ctx, a.From.String()); err != nil {
		return err
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(sqSel(a.From.String())+".selected")); err != nil {
		return err
	}
	if err := moveCursor(ctx, a.To.String()); err != nil {
		return err
	}
	return chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), waitPly(ply+1))
}

// axeScript is axe-core, vendored for this test (e2e/testdata/axe).
func axeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/axe/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// audit runs axe-core on the page and returns its serious and critical
// violations.
func audit(ctx context.Context, script string) ([]string, error) {
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe === "object" || (0, eval)(`+jsString(script)+`) || true`)); err != nil {
		return nil, fmt.Errorf("loading axe: %w", err)
	}
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.impact + " " + v.id + ": " + v.help + " — " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")))`, chromedp.EvalAwaitPromise))
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "${", "\\${")
	return "`" + r.Replace(s) + "`"
}

// mateFEN is the mate line's position before its last ply, White's
// ban that mates.
func mateFEN(t *testing.T) string {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, "", mateLine[:len(mateLine)-1])
	if err != nil {
		t.Fatal(err)
	}
	return g.FEN()
}

// TestAccessibility audits the home page and the pages a game goes
// through with axe-core, in light and dark mode, on a desktop and a
// phone: no serious or critical violation. It audits two of the four,
// light on a desktop and dark on a phone, so that each mode (the
// colours) and each size (the layout) is audited; E2E_ALL_AUDITS=1 (or
// SCREENSHOT_DIR, for the dark desktop's screenshot) audits all four.
func TestAccessibility(t *testing.T) {
	long(t)
	script := axeScript(t)
	all := os.Getenv("E2E_ALL_AUDITS") != "" || os.Getenv(screenshotDirEnv) != ""
	for _, dark := range []bool{false, true} {
		for _, phone := range []bool{false, true} {
			if !all && dark != phone {
				continue
			}
			name := map[bool]string{false: "light", true: "dark"}[dark] + "-" + map[bool]string{false: "desktop", true: "phone"}[phone]
			t.Run(name, func(t *testing.T) {
				ctx, base, _ := browser(t, true)
				w, h := int64(1366), int64(768)
				if phone {
					w, h = 390, 844
				}
				scheme := "light"
				if dark {
					scheme = "dark"
				}
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
					t.Fatal(err)
				}
				check := func(state string) {
					t.Helper()
					v, err := audit(ctx, script)
					if err != nil {
						t.Fatalf("%s: %v", state, err)
					}
					for _, s := range v {
						t.Errorf("%s: %s", state, s)
					}
				}
				if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#home`)); err != nil {
					t.Fatal(err)
				}
				check("home page")
				if err := chromedp.Do(ctx, chromedp.Click(`#home-hotseat`), chromedp.WaitVisible(`#status`)); err != nil {
					t.Fatal(err)
				}
				check("start")
				if err := chromedp.Do(ctx, chromedp.Click(sqSel("e2")), chromedp.WaitVisible(sqSel("e4")+".dest")); err != nil {
					t.Fatal(err)
				}
				check("picking a ban")
				if err := chromedp.Do(ctx, chromedp.Click(sqSel("e4")), waitPly(2), chromedp.Click(sqSel("d2")), chromedp.WaitVisible(sqSel("d4")+".dest")); err != nil {
					t.Fatal(err)
				}
				check("picking a move")
				if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(promoFEN)), chromedp.WaitVisible(`#status`)); err != nil {
					t.Fatal(err)
				}
				if err := play(ctx, 1, "b:e1d1"); err != nil {
					t.Fatal(err)
				}
				if err := chromedp.Do(ctx, chromedp.Click(sqSel("e7")), chromedp.WaitVisible(sqSel("e8")+".dest"), chromedp.Click(sqSel("e8")), chromedp.WaitVisible(`#promotion`)); err != nil {
					t.Fatal(err)
				}
				check("promotion picker")
				if err := chromedp.Do(ctx, chromedp.Click(`#promotion [data-promotion="q"]`), waitPly(3),
					chromedp.Navigate(base+"/?fen="+url.QueryEscape(mateFEN(t))), chromedp.WaitVisible(`#status`)); err != nil {
					t.Fatal(err)
				}
				if err := play(ctx, 15, "b:e8e7"); err != nil {
					t.Fatal(err)
				}
				check("finished game")
				if dark && !phone {
					screenshot(t, ctx, "playground-dark.png", w, h)
				}
				if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.invite-form form button[type=submit]`), chromedp.WaitVisible(`#table`)); err != nil {
					t.Fatal(err)
				}
				check("game with a friend")
			})
		}
	}
}

// TestSoundsSettingsAndCopy: each ply plays its sound until the sound is
// switched off; the board size setting applies at once and holds for a
// new game; Copy says what happened and then reads Copy again.
func TestSoundsSettingsAndCopy(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(base+"/?fen="+url.QueryEscape(startFEN)), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`HTMLMediaElement.prototype.play = function () {
		(window.played = window.played || []).push(new URL(this.src).pathname.split("/").pop());
		return Promise.resolve();
	}, true`)); err != nil {
		t.Fatal(err)
	}
	played := func() string {
		s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(window.played || []).join(" ")`))
		return s
	}
	for i, a := range []string{"b:e2e4", "m:d2d4"} {
		if err := play(ctx, i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if got := played(); got != "ban.wav move.wav" {
		t.Errorf("sounds %q, want a ban then a move", got)
	}
	// The sound box is in the folded Settings panel: unfold it first.
	if err := unfold(ctx, "settings-fold"); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#settings input[name=sound][type=checkbox]`)); err != nil {
		t.Fatal(err)
	}
	if err := play(ctx, 3, "b:e7e5"); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if got := played(); got != "ban.wav move.wav" {
		t.Errorf("muted, yet the sounds are %q", got)
	}

	full, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("board-size");
		s.value = "70"; return s.dispatchEvent(new Event("change", {bubbles: true})); })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	small, err := boxOf(ctx, "#board .board")
	if err != nil {
		t.Fatal(err)
	}
	if r := small.Width / full.Width; r < 0.66 || r > 0.74 {
		t.Errorf("at 70%% the board is %.0f px, %.2f of %.0f", small.Width, r, full.Width)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1), chromedp.WaitReady(`#game.size-70`), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatalf("the new game forgot the size: %v", err)
	}
	if b, err := boxOf(ctx, "#board .board"); err != nil || b.Width-small.Width > 1 || small.Width-b.Width > 1 {
		t.Errorf("the new game's board is %.0f px (%v), want %.0f", b.Width, err, small.Width)
	}
	if on, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#settings input[name=sound][type=checkbox]").checked`)); on {
		t.Error("the new game forgot the sound is off")
	}

	// The handle at the board's corner resizes it too, by steps of 5%.
	hb, err := boxOf(ctx, "[data-size-handle]")
	if err != nil {
		t.Fatal(err)
	}
	hx, hy := hb.Left+hb.Width/2, hb.Top+hb.Height/2
	held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, hx, hy, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, hx+full.Width*0.1, hy+full.Width*0.1, chromedp.ButtonLeft, held),
		chromedp.MouseEvent(chromedp.MouseReleased, hx+full.Width*0.1, hy+full.Width*0.1, chromedp.ButtonLeft),
		chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	sized, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("game").className.match(/size-\d+/)[0] + " " + document.cookie.match(/size=\d+/)[0]`))
	if err != nil || sized != "size-80 size=80" {
		t.Errorf("after dragging the handle 10%% outwards from 70%%: %q (%v), want size-80 and the cookie", sized, err)
	}

	// The Copy buttons are in the folded "Share / export" panel.
	copyButton := `[data-copy="#fen"]`
	if err := unfold(ctx, "share-fold"); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(copyButton)); err != nil {
		t.Fatal(err)
	}
	label, err := chromedp.Run(ctx, chromedp.Poll[string](`(l => l !== "Copy" && l)(document.querySelector('[data-copy="#fen"]').textContent)`, chromedp.WithPollingTimeout(time.Second)))
	if err != nil || label != "Copied" && label != "Press Ctrl+C" {
		t.Errorf("after Copy the button says %q (%v)", label, err)
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(2300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if label, _ := chromedp.Run(ctx, chromedp.Text(copyButton)); label != "Copy" {
		t.Errorf("two seconds after Copy the button says %q", label)
	}
	// Without the Clipboard API (plain http from another device) the text
	// is selected for the reader to copy.
	fallback, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		Object.defineProperty(navigator, "clipboard", {value: undefined});
		document.querySelector('[data-copy="#watch"]').click();
		const s = document.getElementById("watch");
		return document.querySelector('[data-copy="#watch"]').textContent + " " + (s.selectionEnd - s.selectionStart === s.value.length);
	})()`))
	if err != nil || fallback != "Copied true" && fallback != "Press Ctrl+C true" {
		t.Errorf("Copy without the Clipboard API: %q (%v)", fallback, err)
	}
	if len(*problems) > 0 {
		t.Errorf("browser reported problems: %q", *problems)
	}
}
