package e2e

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// longPGN is a 40-ply Ban Chess game of random legal actions (none that
// ends it), with its players' names in its tags.
func longPGN(t *testing.T) string {
	t.Helper()
	g := rules.New(rules.BanChess{})
	r := rand.New(rand.NewPCG(25, 40))
	for len(g.Actions()) < 40 {
		legal := g.Legal()
		if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
		if g.Outcome().Over() {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return g.Record().PGN(rules.Tag{Name: "White", Value: "Morphy"}, rules.Tag{Name: "Black", Value: "Duke Karl"})
}

// inView checks that the first element each selector names is wholly
// inside the window, which has not scrolled.
func inView(ctx context.Context, sels ...string) error {
	w, err := chromedp.Run(ctx, chromedp.Evaluate[[3]float64](`[innerWidth, innerHeight, scrollY]`))
	if err != nil {
		return err
	}
	if w[2] != 0 {
		return fmt.Errorf("the page scrolled by %.0f px", w[2])
	}
	for _, sel := range sels {
		b, err := boxOf(ctx, sel)
		if err != nil {
			return fmt.Errorf("%s: %w", sel, err)
		}
		if b.Top < -0.5 || b.Left < -0.5 || b.Bottom > w[1]+0.5 || b.Right > w[0]+0.5 || b.Width == 0 {
			return fmt.Errorf("%s at %+v is outside the %vx%v window", sel, b, w[0], w[1])
		}
	}
	return nil
}

// lastPly marks the list's newest ply for inView (its last [data-ply]).
func lastPly(ctx context.Context) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const all = document.querySelectorAll("[data-moves] [data-ply]");
		if (!all.length) return "";
		all[all.length - 1].setAttribute("data-e2e-newest", "");
		return all[all.length - 1].dataset.ply;
	})()`))
}

// TestGamePageFits: after a 40-ply imported game, at 1280×720 and
// 1920×1080 the board, both players' strips (named by the game's tags)
// and the newest ply of the list are in the window without scrolling; on
// a 390×844 phone in a clocked game with a friend the board and both
// clocks are on the first screen (at 1280×720 its list and actions too).
func TestGamePageFits(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.WaitVisible(`#import-text`),
		chromedp.SetValue(`#import-text`, longPGN(t)), chromedp.Click(`#import button[type="submit"]`), waitPly(41)); err != nil {
		t.Fatalf("importing a 40-ply game: %v", err)
	}
	for who, name := range map[string]string{"white": "Morphy", "black": "Duke Karl"} {
		if s, err := chromedp.Run(ctx, chromedp.Text(`[data-player="`+who+`"] .player-name`)); err != nil || s != name {
			t.Errorf("%s's strip names %q (%v), want the tag's %q", who, s, err, name)
		}
	}
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Reload(), waitPly(41), chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if n, err := lastPly(ctx); err != nil || n != "40" {
			t.Fatalf("%v: the list's newest ply is %q (%v), want 40", size, n, err)
		}
		if err := inView(ctx, "#board .board", `[data-player="white"]`, `[data-player="black"]`, `[data-e2e-newest]`, "#step-prev"); err != nil {
			t.Errorf("%v: %v", size, err)
		}
		if size[0] == 1280 {
			screenshot(t, ctx, "game-page.png", size[0], size[1])
		}
	}

	ctxs, watch := friends(t, 2, true, "5+3")
	white := ctxs[0]
	if err := chromedp.Do(white, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(watch), waitPly(1), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := inView(white, "#board .board", `[data-player="white"] [data-clock]`, `[data-player="black"] [data-clock]`, "#history-panel", "#controls .actions", "#step-prev"); err != nil {
		t.Errorf("a game with a friend at 1280×720: %v", err)
	}
	if err := chromedp.Do(white, chromedp.EmulateViewport(390, 844), chromedp.Navigate(watch), waitPly(1), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := inView(white, "#board .board", `[data-clock="white"]`, `[data-clock="black"]`); err != nil {
		t.Errorf("on a phone: %v", err)
	}
	screenshot(t, white, "game-page-phone.png", 390, 844)
	if len(*problems) > 0 {
		t.Errorf("the page reported problems: %q", *problems)
	}
}

// shownPly is the ply whose position the page shows: the earlier
// position's board while browsing, else the game's.
func shownPly(ctx context.Context) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("view-board") || document.getElementById("board-ply")).dataset.shownPly`))
}

// key presses k with nothing focused (the board keeps the arrows).
func key(ctx context.Context, k string) error {
	return chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`), chromedp.KeyEvent(k))
}

// TestBrowseInPlace: a player looks two plies back while the opponent
// plays: the page stays the game's, shows what it showed, and the new
// ply joins its list with the strips and clocks still there; End shows
// the game again and the player plays on. The tab says "Your turn" to the
// seat to act alone.
func TestBrowseInPlace(t *testing.T) {
	long(t)
	ctxs, watch := friends(t, 2, true, "5+3")
	white, black := ctxs[0], ctxs[1]
	for i, who := range []context.Context{black, white, white, black} {
		if err := play(who, i+1, mateLine[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := waitFor(white, `#status[data-ply="5"]`, liveWait); err != nil {
		t.Fatal(err)
	}
	mark(t, white)
	for name, ctx := range map[string]context.Context{"White": white, "Black": black} {
		title, err := chromedp.Run(ctx, chromedp.Title())
		if yours := strings.HasPrefix(title, "Your turn"); err != nil || yours != (name == "Black") {
			t.Errorf("Black to ban: %s's tab says %q (%v)", name, title, err)
		}
	}
	for range 2 {
		if err := key(white, kb.ArrowLeft); err != nil {
			t.Fatal(err)
		}
	}
	if err := waitFor(white, `#view-board[data-shown-ply="2"]`, liveWait); err != nil {
		t.Fatalf("← twice does not show ply 2: %v", err)
	}
	if err := play(black, 5, mateLine[4]); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `[data-moves] [data-ply="5"]`, liveWait); err != nil {
		t.Fatalf("the opponent's ply did not join the list: %v", err)
	}
	loc, _ := chromedp.Run(white, chromedp.Location())
	if n, err := shownPly(white); err != nil || n != "2" || pathOf(t, loc) != pathOf(t, watch) || !marked(white) {
		t.Errorf("while browsing: shows ply %q (%v) at %q, reloaded %v; want ply 2 at the game's address", n, err, loc, !marked(white))
	}
	for _, sel := range []string{`[data-player="white"] [data-clock]`, `[data-player="black"] [data-clock]`, `[data-back-to-game]`} {
		if err := inView(white, sel); err != nil {
			t.Errorf("while browsing: %v", err)
		}
	}
	if err := key(white, kb.End); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#board-ply[data-shown-ply="5"]`, liveWait); err != nil {
		t.Fatal(err)
	}
	if n, _ := chromedp.Run(white, chromedp.Evaluate[int](`document.querySelectorAll("#view-board").length`)); n != 0 {
		t.Error("End left the earlier position on the page")
	}
	if err := play(white, 6, mateLine[5]); err != nil {
		t.Errorf("playing on after browsing: %v", err)
	}
}

// TestFlipIsPerGame: a board flipped in one game does not carry into the
// next: a new game with a friend created as White shows a1 bottom left.
func TestFlipIsPerGame(t *testing.T) {
	long(t)
	ctx, base, _ := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1),
		chromedp.Click(`#flip`), chromedp.WaitReady(`#board.flipped`)); err != nil {
		t.Fatalf("flipping: %v", err)
	}
	inviteGame(t, ctx, base, "white", "")
	a1, err := boxOf(ctx, sqSel("a1"))
	if err != nil {
		t.Fatal(err)
	}
	h8, err := boxOf(ctx, sqSel("h8"))
	if err != nil {
		t.Fatal(err)
	}
	if a1.Left > h8.Left || a1.Top < h8.Top {
		t.Errorf("in the new game a1 is at %+v, h8 at %+v: not bottom left", a1, h8)
	}
}

// TestBoardStaysPut: the board keeps its box (±1 px) at ply 1, in check
// and after a checkmate by ban, whose result names the banned move.
func TestBoardStaysPut(t *testing.T) {
	long(t)
	for _, size := range [][2]int64{{1280, 720}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx, base, _ := browser(t, true)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/new"),
				chromedp.Click(`.new-game button[value="ban"]`), waitPly(1), chromedp.Sleep(200*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			first, err := boxOf(ctx, "#board .board")
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range mateLine {
				if err := play(ctx, i+1, a); err != nil {
					t.Fatal(err)
				}
				if i+1 != 14 && i+1 != 15 {
					continue
				}
				chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond))
				b, err := boxOf(ctx, "#board .board")
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(b.Top-first.Top) > 1 || math.Abs(b.Left-first.Left) > 1 || math.Abs(b.Width-first.Width) > 1 {
					t.Errorf("after ply %d the board is at %+v, at ply 1 %+v", i+1, b, first)
				}
			}
			if banner, err := chromedp.Run(ctx, chromedp.Text(`#banner`)); err != nil || banner != mateBanner {
				t.Errorf("banner %q (%v), want %q", banner, err, mateBanner)
			}
		})
	}
}

// TestAbortAndTakeback: in a clocked game where White never moves, no
// clock runs and the server aborts the game (no loser) once White's first
// move is overdue; in another, a takeback White asks for while Black is
// to ban returns the game to White's last move.
func TestAbortAndTakeback(t *testing.T) {
	long(t)
	const firstWait = 5 * time.Second // long enough for Black's first ban under the race detector
	svc := testsite.New(nil, testsite.Config{Games: []games.Option{games.WithFirstActionWait(firstWait)}})
	t.Cleanup(svc.Close)
	ctxs, base := browsersOn(t, 2, true, svc)
	white, black := ctxs[0], ctxs[1]
	invite, _ := inviteGame(t, white, base, "white", "5+3")
	join(t, black, invite)
	if err := play(black, 1, mateLine[0]); err != nil {
		t.Fatal(err)
	}
	if n, err := chromedp.Run(white, chromedp.Evaluate[int](`document.querySelectorAll('[data-clock][data-running="true"]').length`)); err != nil || n != 0 {
		t.Errorf("a clock runs before White's first move (%d, %v)", n, err)
	}
	for name, ctx := range map[string]context.Context{"White": white, "Black": black} {
		if err := waitFor(ctx, `#banner`, firstWait+liveWait); err != nil {
			t.Fatalf("%s's page: the game was not aborted: %v", name, err)
		}
		if banner, _ := chromedp.Run(ctx, chromedp.Text(`#banner`)); !strings.Contains(banner, "aborted") || strings.Contains(banner, "wins") {
			t.Errorf("%s's page: banner %q", name, banner)
		}
	}

	invite, _ = inviteGame(t, white, base, "white", "")
	join(t, black, invite)
	for i, who := range []context.Context{black, white, white, black, black} {
		if err := play(who, i+1, mateLine[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Ply 6: White to move (under Black's ban); White asked back to ply 2.
	if err := chromedp.Do(white, waitPly(6), chromedp.Click(`#offer-takeback`)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(black, `#accept-takeback`, liveWait); err != nil {
		t.Fatalf("Black was not asked: %v", err)
	}
	if err := chromedp.Do(black, chromedp.Click(`#accept-takeback`)); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(white, `#status[data-ply="2"]`, liveWait); err != nil {
		s, _ := chromedp.Run(white, chromedp.Text(`#status`))
		t.Fatalf("the takeback did not return to White's last move: %q, %v", s, err)
	}
}

// TestRulesPage: /rules answers with its diagrams, drawn by the server.
func TestRulesPage(t *testing.T) {
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.Click(`#rules-link`), chromedp.WaitVisible(`.rules-page`)); err != nil {
		t.Fatal(err)
	}
	// The link is boosted: the diagrams load after the page is swapped in.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll(".diagram img")].every(i => i.complete)`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the diagrams did not finish loading: %v", err)
	}
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[...document.querySelectorAll(".diagram img")].map(i => i.complete && i.naturalWidth > 0)`))
	if err != nil || len(loaded) < 3 {
		t.Fatalf("the rules have %d diagrams (%v)", len(loaded), err)
	}
	for i, ok := range loaded {
		if !ok {
			t.Errorf("diagram %d did not load", i)
		}
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported problems: %q", *problems)
	}
}

// TestHistoryLinksWithoutJS: with JavaScript off, a seated player's list
// links load the history view, which keeps the strips and the player's
// orientation (Black at the bottom for Black).
func TestHistoryLinksWithoutJS(t *testing.T) {
	long(t)
	ctxs, _ := friends(t, 2, false, "")
	white, black := ctxs[0], ctxs[1]
	for i, who := range []context.Context{black, white, white} {
		if err := play(who, i+1, mateLine[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(black, chromedp.Reload(), waitPly(4), chromedp.Click(`[data-moves] a[data-ply="1"]`), chromedp.WaitReady(`a#back-to-game`)); err != nil {
		t.Fatal(err)
	}
	loc, _ := chromedp.Run(black, chromedp.Location())
	u, _ := url.Parse(loc)
	if !strings.Contains(u.Path, "/history/1") {
		t.Errorf("the list's link led to %q", loc)
	}
	if n, err := chromedp.Run(black, chromedp.Evaluate[int](`document.querySelectorAll("[data-player]").length`)); err != nil || n != 2 {
		t.Errorf("the history view has %d strips (%v)", n, err)
	}
	if n, err := chromedp.Run(black, chromedp.Evaluate[int](`document.querySelectorAll(".board-form.flipped, #board.flipped").length`)); err != nil || n == 0 {
		t.Errorf("the history view turned Black's board round (%v)", err)
	}
}

// TestGamePageAccessibility audits the game page of a game with a friend,
// /rules and the editor with axe-core: no serious or critical violation.
func TestGamePageAccessibility(t *testing.T) {
	long(t)
	script := axeScript(t)
	ctxs, watch := friends(t, 2, true, "5+3")
	ctx := ctxs[0]
	u, _ := url.Parse(watch)
	base := u.Scheme + "://" + u.Host
	for _, path := range []string{u.Path, "/rules", "/rules/en", "/editor"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+path), chromedp.WaitReady(`main, #game`)); err != nil {
			t.Fatal(err)
		}
		found, err := audit(ctx, script)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range found {
			t.Errorf("%s: %s", path, v)
		}
	}
}

// TestEditorFits: at 1280×720 the editor's board, every spare piece and
// its buttons are on screen together.
func TestEditorFits(t *testing.T) {
	long(t)
	ctx, base, _ := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/editor"), chromedp.WaitVisible(`.editor-board`), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := inView(ctx, `.editor-board [data-square="a8"]`, `.editor-board [data-square="h1"]`, "#editor-clear", "#editor-start", "#editor-flip", "#editor-update"); err != nil {
		t.Error(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-pick]")].filter(e => {
		const r = e.getBoundingClientRect();
		return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
	}).map(e => e.dataset.pick)`))
	if err != nil || len(out) > 0 {
		t.Errorf("spare pieces outside the window: %q (%v)", out, err)
	}
}
