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
