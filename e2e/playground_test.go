// Package e2e plays the playground in a real headless Chromium, with
// JavaScript on (htmx and board.js) and off (plain forms).
package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

// mateLine is a whole game from the initial position to a checkmate by ban:
// after 7. Bxf7+ the black king's only escape is e7, and White bans it.
var mateLine = []string{
	"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5",
	"b:g1f3", "m:f1c4", "b:a7a6", "m:b8c6",
	"b:d2d4", "m:d1h5", "b:a7a6", "m:g8f6",
	"b:a2a3", "m:c4f7", "b:e8e7",
}

const (
	mateBanner = "Checkmate by ban: Black's only move, Ke7, was banned — White wins, 1-0"
	promoFEN   = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 1"
)

// chromium finds a Chromium binary, skipping the test without one (and
// failing in CI, which installs it).
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found, but CI=true: .ci/run installs the Debian packages chromium and chromium-driver")
	}
	t.Skip("skipping the browser test: no Chromium found (install the Debian packages chromium and chromium-driver)")
	return ""
}

func TestMateLineIsLegal(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "", mateLine)
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Status != rules.Checkmate || o.Reason != rules.ByBan || o.Winner != rules.White {
		t.Fatalf("outcome %v", o)
	}
}

// browser starts the playground and a headless Chromium on it.
func browser(t testing.TB, js bool) (context.Context, string, *[]string) {
	t.Helper()
	return browserOn(t, js, playground(t))
}

// assets are the static files every test's server serves, compressed once
// for the package: each test's first page paid for it before (about 1 s of
// CPU, 8 s under the race detector).
var assets = pages.NewStaticFiles()

// playground is the games service the playground serves.
func playground(t testing.TB) testsite.Site {
	svc := testsite.New(nil, testsite.Config{Engine: engine.NewPool(1, 2, 4)})
	t.Cleanup(svc.Close)
	return svc
}

// browserOn starts the playground on svc (with the lessons and the
// shipped puzzles, kept in a store of their own) and a headless Chromium
// on it.
func browserOn(t testing.TB, js bool, svc testsite.Site) (context.Context, string, *[]string) {
	t.Helper()
	return browserThrough(t, js, svc, nil)
}

// browserThrough is browserOn with the server's handler wrapped in
// through (none when nil): a test's way to hold or look at requests.
func browserThrough(t testing.TB, js bool, svc testsite.Site, through func(http.Handler) http.Handler) (context.Context, string, *[]string) {
	t.Helper()
	bin := chromium(t)
	e := echo.New()
	e.HideBanner = true
	shipped, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	trainer := training.New(shipped, lessons.All(), store.NewMemory(), training.WithAnalyser(engine.NewPool(1, 2, 4)))
	handlers.New(handlers.Services{Games: svc.Games, Players: svc.Players, Lobby: svc.Lobby, Analysis: svc.Analysis, Training: trainer, Chat: svc.Chat, Relations: svc.Relations, Tournaments: svc.Tournaments, Challenges: svc.Challenges, Notify: svc.Notify}, nil, handlers.WithStaticFiles(assets)).Register(e)
	var h http.Handler = e
	if through != nil {
		h = through(e)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	ctx, cancel := chromedp.NewContext(shared.start(t, bin), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)

	return ctx, srv.URL, instrument(t, ctx, js)
}

// instrument switches JavaScript on or off in ctx's tab and collects what
// it reports as going wrong: exceptions and console errors.
func instrument(t testing.TB, ctx context.Context, js bool) *[]string {
	t.Helper()
	var mu sync.Mutex
	problems := &[]string{}
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			*problems = append(*problems, "exception: "+ev.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			// Refused plies answer 400 on purpose; network entries are not page errors.
			if ev.Entry.Level == cdplog.EntryLevelError && ev.Entry.Source != cdplog.EntrySourceNetwork {
				*problems = append(*problems, "console: "+ev.Entry.Text)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				msg := "console.error"
				for _, a := range ev.Args {
					msg += " " + string(a.Value) + a.Description
				}
				*problems = append(*problems, msg)
			}
		}
	}); err != nil {
		t.Fatalf("listening to Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !js}); err != nil {
		t.Fatalf("switching JavaScript: %v", err)
	}
	return problems
}

// play clicks one ply's squares (and the promotion piece, if any) and
// waits for the game to reach the next ply.
func play(ctx context.Context, ply int, action string) error {
	a, err := rules.ParseAction(action)
	if err != nil {
		return err
	}
	from := fmt.Sprintf(`#board [data-square="%s"]`, a.From)
	to := fmt.Sprintf(`#board [data-square="%s"]`, a.To)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, ply)),
		chromedp.Click(from),
		chromedp.WaitVisible(from + `.selected`),
		chromedp.WaitVisible(to + `.dest`),
		chromedp.Click(to),
	}
	steps = append(steps, promote(a)...)
	steps = append(steps, chromedp.WaitReady(fmt.Sprintf(`#status[data-ply="%d"]`, ply+1)))
	if err := chromedp.Do(ctx, steps...); err != nil {
		return fmt.Errorf("ply %d %s: %w", ply, action, err)
	}
	return nil
}

// hotSeat opens the home page and presses "Play on this device", as a
// first visit that plays at one board does: a new game, both seats the
// browser's.
func hotSeat(base string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Navigate(base+"/"), chromedp.Click(`#home-hotseat`), chromedp.WaitVisible(`#status`))
}

// withAndWithoutJS runs test twice: with JavaScript on, and off.
func withAndWithoutJS(t *testing.T, test func(t *testing.T, js bool)) {
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "javascript", false: "no-javascript"}[js], func(t *testing.T) { test(t, js) })
	}
}

func TestPlaygroundInBrowser(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		ctx, base, problems := browser(t, js)

		// A whole game to a checkmate by ban, by clicking squares.
		if err := chromedp.Do(ctx, hotSeat(base), chromedp.WaitVisible(`#status`)); err != nil {
			t.Fatal(err)
		}
		status, err := chromedp.Run(ctx, chromedp.Text(`#status`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(status, "Move 1 · Black bans a White move") {
			t.Fatalf("status %q", status)
		}
		if js { // htmx swaps fragments: the page itself is never reloaded
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.e2eMarker = true`)); err != nil {
				t.Fatal(err)
			}
		}
		for i, a := range mateLine {
			if js && i+1 == 13 { // Black picks White's bishop to ban one of its moves
				if err := chromedp.Do(ctx, chromedp.Click(`#board [data-square="c4"]`),
					chromedp.WaitVisible(`#board [data-square="f7"].dest`)); err != nil {
					t.Fatal(err)
				}
				screenshot(t, ctx, "playground-ban.png", 1280, 900)
				if err := chromedp.Do(ctx, chromedp.Click(`#board [data-square="c4"]`)); err != nil {
					t.Fatal(err)
				}
			}
			if err := play(ctx, i+1, a); err != nil {
				t.Fatal(err)
			}
		}
		banner, err := chromedp.Run(ctx, chromedp.Text(`#banner`))
		if err != nil {
			t.Fatal(err)
		}
		hasJS, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.className`))
		if err != nil {
			t.Fatal(err)
		}
		if banner != mateBanner {
			t.Errorf("banner %q, want %q", banner, mateBanner)
		}
		if js {
			kept, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.e2eMarker === true`))
			if err != nil || !kept {
				t.Errorf("with JavaScript the page reloaded during the game (%v)", err)
			}
		}
		if js != strings.Contains(hasJS, "js") {
			t.Errorf("JavaScript on = %v, but the page says %q", js, hasJS)
		}
		if js {
			screenshot(t, ctx, "playground.png", 1280, 900)
			screenshot(t, ctx, "playground-phone.png", 390, 844)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
				t.Fatal(err)
			}
		}

		// A promotion through the picker.
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(promoFEN))); err != nil {
			t.Fatal(err)
		}
		// A refused action is explained in place (htmx swaps 4xx responses too).
		if err := chromedp.Do(ctx,
			chromedp.SendKeys(`#action-text`, "e7e9"),
			chromedp.Submit(`#action-text`),
			chromedp.WaitVisible(`#error`),
		); err != nil {
			t.Fatalf("refused action: %v", err)
		}
		if msg, err := chromedp.Run(ctx, chromedp.Text(`#error`)); err != nil || !strings.Contains(msg, "e7e9") {
			t.Errorf("error message %q (%v)", msg, err)
		}
		if err := play(ctx, 1, "b:e1d1"); err != nil {
			t.Fatal(err)
		}
		if err := play(ctx, 2, "m:e7e8q"); err != nil {
			t.Fatal(err)
		}
		piece, err := chromedp.Run(ctx, chromedp.AttributeValue(`#board [data-square="e8"] [data-piece]`, "data-piece"))
		if err != nil {
			t.Fatal(err)
		}
		if piece.Value != "wQ" {
			t.Errorf("e8 holds %q after promoting to a queen", piece.Value)
		}
		if len(*problems) > 0 {
			t.Errorf("browser reported problems (CSP violations show here): %q", *problems)
		}
	})
}

// TestGamesHaveAddresses plays two games in two tabs of one browser and
// watches one from a second browser: opening a link in one tab leaves the
// other tab's game alone, the home page offers the one played and the
// list holds both, and a watcher sees the
// game read-only.
func TestGamesHaveAddresses(t *testing.T) {
	long(t)
	withAndWithoutJS(t, func(t *testing.T, js bool) {
		tabA, base, problems := browser(t, js)
		if err := chromedp.Do(tabA, hotSeat(base), chromedp.WaitVisible(`#status`)); err != nil {
			t.Fatal(err)
		}
		if err := play(tabA, 1, "b:e2e4"); err != nil {
			t.Fatal(err)
		}
		urlA, err := chromedp.Run(tabA, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		pathA := pathOf(t, urlA)
		if !strings.HasPrefix(pathA, "/g/") {
			t.Fatalf("the game is at %q, not at its own address", urlA)
		}
		watch, err := chromedp.Run(tabA, chromedp.Value(`[data-watch-link]`))
		if err != nil || pathOf(t, watch) != pathA {
			t.Fatalf("watch link %q (%v), want %s", watch, err, pathA)
		}

		// Another tab of the same browser opens a link: a new game.
		tabB, cancel := chromedp.NewContext(tabA)
		defer cancel()
		if err := chromedp.Do(tabB, chromedp.Navigate(base+"/?fen="+url.QueryEscape(promoFEN)), chromedp.WaitVisible(`#status`)); err != nil {
			t.Fatal(err)
		}
		urlB, err := chromedp.Run(tabB, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		if pathB := pathOf(t, urlB); pathB == pathA || !strings.HasPrefix(pathB, "/g/") {
			t.Fatalf("the link opened %q, next to %q", urlB, urlA)
		}

		// The first tab's next click plays its own game.
		if err := play(tabA, 2, "m:d2d4"); err != nil {
			t.Fatal(err)
		}
		if now, err := chromedp.Run(tabA, chromedp.Location()); err != nil || pathOf(t, now) != pathA {
			t.Errorf("after its ply the first tab is at %q (%v), want %s", now, err, pathA)
		}
		if errText, _ := chromedp.Run(tabA, chromedp.Evaluate[string](`(document.getElementById("error")||{}).textContent||""`)); errText != "" {
			t.Errorf("the first tab's ply was refused: %q", errText)
		}

		// The home page offers the game played (the other is untouched),
		// and the list of games holds both.
		if err := chromedp.Do(tabA, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#last-game`)); err != nil {
			t.Fatal(err)
		}
		if last, err := chromedp.Run(tabA, chromedp.Evaluate[string](`document.querySelector("#last-game").getAttribute("href")`)); err != nil || last != pathA {
			t.Errorf("the home page's last game is %q (%v), want %s", last, err, pathA)
		}
		if err := chromedp.Do(tabA, chromedp.Click(`#home-games`), chromedp.WaitVisible(`[data-game-link]`)); err != nil {
			t.Fatal(err)
		}
		links, err := chromedp.Run(tabA, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-game-link]")].map(a => a.getAttribute("href"))`))
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 2 || links[0] != pathA || links[1] != pathOf(t, urlB) {
			t.Errorf("the list of games holds %q, want %s then %s", links, pathA, pathOf(t, urlB))
		}

		// A second browser opens the watch link: read-only.
		watcher, cancel := chromedp.NewContext(tabA, chromedp.WithNewBrowserContext())
		defer cancel()
		if err := chromedp.Do(watcher, chromedp.Navigate(watch), chromedp.WaitVisible(`#watching`)); err != nil {
			t.Fatal(err)
		}
		for _, sel := range []string{"#board button", "#action-text", "#undo", "#resign", "#draw", "[data-game-link]"} {
			n, err := chromedp.Run(watcher, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
			if err != nil || n != 0 {
				t.Errorf("the watcher's page has %d %s (%v)", n, sel, err)
			}
		}
		ply, err := chromedp.Run(watcher, chromedp.AttributeValue(`#status`, "data-ply"))
		if err != nil || ply.Value != "3" {
			t.Errorf("the watcher sees ply %q (%v), want 3", ply.Value, err)
		}
		if js { // a post from the watcher's browser is refused and changes nothing
			status, err := chromedp.Run(watcher, chromedp.Evaluate[int](`fetch(location.pathname + "/ply", {method: "POST",
					body: new URLSearchParams({text: "b:e7e5", ply: "3"})}).then(r => r.status)`, chromedp.EvalAwaitPromise))
			if err != nil || status != 403 {
				t.Errorf("the watcher's POST answered %d (%v), want 403", status, err)
			}
			if err := chromedp.Do(tabA, chromedp.Navigate(base+pathA), chromedp.WaitVisible(`#status[data-ply="3"]`)); err != nil {
				t.Errorf("the game moved after the watcher's POST: %v", err)
			}
		}
		if len(*problems) > 0 {
			t.Errorf("browser reported problems: %q", *problems)
		}
	})
}

// pathOf returns the path of an absolute URL.
func pathOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return u.Path
}

// screenshotDirEnv names the environment variable that says where to save
// screenshots; by default they go to a temporary directory. The README's
// come from SCREENSHOT_DIR=$PWD/docs go test ./e2e.
const screenshotDirEnv = "SCREENSHOT_DIR"

// screenshot saves the window's view of the page at width×height.
func screenshot(t *testing.T, ctx context.Context, name string, width, height int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv(screenshotDirEnv)
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// TestFirstVisitTransfer loads the home page once in a fresh browser, and
// a game's page once in another (as a shared link is first opened), and
// adds up what came over the network for each page and everything it
// loaded (the Resource Timing API's transferSize: headers and the encoded
// bodies): at most 60 KB each, which takes the compressed static files.
func TestFirstVisitTransfer(t *testing.T) {
	ctx, base, problems := browser(t, true)
	transferred := func(ctx context.Context, what string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete" && !!window.htmx`)); err != nil {
			t.Fatal(err)
		}
		total, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource")).reduce((s, e) => s + e.transferSize, 0)`))
		if err != nil {
			t.Fatal(err)
		}
		count, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByType("resource").length`))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("first visit of %s: %.0f bytes transferred, the page and %.0f files", what, total, count)
		if total > 60_000 || count < 3 {
			t.Errorf("first visit of %s transferred %.0f bytes for the page and %.0f files, want at most 60,000", what, total, count)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`#home`)); err != nil {
		t.Fatal(err)
	}
	transferred(ctx, "the home page")
	if err := chromedp.Do(ctx, chromedp.Click(`#home-hotseat`), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	game, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	other, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(other, chromedp.Navigate(game), chromedp.WaitVisible(`#status`)); err != nil {
		t.Fatal(err)
	}
	transferred(other, "a game's page")
	if len(*problems) > 0 {
		t.Errorf("page problems: %v", *problems)
	}
}
