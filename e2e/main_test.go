package e2e

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// shared is the one Chromium the package's tests run in, each in a
// browser context of its own (cookies, storage and tabs apart): starting
// a browser for every test cost a second or more of each.
var shared = &sharedBrowser{}

// TestMain runs the tests and then closes the shared browser.
func TestMain(m *testing.M) {
	code := m.Run()
	shared.close()
	os.Exit(code)
}

// sharedBrowser starts Chromium on first use and keeps it for the
// package's tests.
type sharedBrowser struct {
	once   sync.Once
	ctx    context.Context
	err    error
	cancel []context.CancelFunc
}

// start returns the browser's context, starting Chromium (bin) the first
// time; a browser that cannot start fails the test.
func (b *sharedBrowser) start(t testing.TB, bin string) context.Context {
	t.Helper()
	b.once.Do(func() {
		flags := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(bin),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			// chromedp's own list, and the address bar's popups, which a
			// headless window loads as pages of their own: without them a
			// test's new browser context costs half the CPU
			// (TestBrowserContextCost).
			chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup"),
			chromedp.NoFirstRun,
			chromedp.WindowSize(1280, 900),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
		ctx, cancelBrowser := chromedp.NewContext(actx)
		b.ctx, b.cancel = ctx, []context.CancelFunc{cancelBrowser, cancelAlloc}
		b.err = chromedp.Do(ctx) // starts the browser and its first tab
	})
	if b.err != nil {
		t.Fatalf("starting Chromium: %v", b.err)
	}
	return b.ctx
}

// close stops the browser, if it was started.
func (b *sharedBrowser) close() {
	for _, cancel := range b.cancel {
		cancel()
	}
}

// long marks a browser test outside the -short sample, which it skips;
// go test ./e2e runs them all. The tests run one at a time: Chromium's
// drawing keeps both cores busy, so tests run side by side took as long
// and timed out under load.
func long(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test outside the -short sample (go test ./e2e runs it)")
	}
}

// TestBrowserContextCost: a test's new browser context opens its tab and
// nothing else. Chromium's headless windows load the address bar's popups
// as pages of their own (browser_ui targets) unless the shared browser's
// flags turn them off; with them, each context cost twice the CPU (0.99
// against 0.55 CPU-seconds a context, ten contexts measured in one run),
// and the browser tests create one or more a test.
func TestBrowserContextCost(t *testing.T) {
	long(t)
	ctx, cancel := chromedp.NewContext(shared.start(t, chromium(t)), chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range targets {
		if i.Type != "page" {
			t.Errorf("a %s target: %s", i.Type, i.URL)
		}
	}
}
