package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// gate holds the board's ply requests while it is shut, so that a test
// sees the page between a click and the server's answer. It also keeps
// the pages from following games live (their event streams are answered
// 204, which an EventSource does not retry): a page then learns of
// another's ply only from the answer to its own.
type gate struct {
	mu      sync.Mutex
	shut    bool
	arrived chan chan struct{} // a held request, waiting to be let through
}

func newGate() *gate { return &gate{arrived: make(chan chan struct{}, 8)} }

// hold shuts the gate (true) or opens it.
func (g *gate) hold(shut bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shut = shut
}

// wrap holds next's ply posts while the gate is shut.
func (g *gate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		g.mu.Lock()
		shut := g.shut
		g.mu.Unlock()
		if shut && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/ply") {
			release := make(chan struct{})
			g.arrived <- release
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// held waits for a ply post to reach the shut gate; closing what it
// returns lets the post through.
func (g *gate) held(t *testing.T) chan struct{} {
	t.Helper()
	select {
	case release := <-g.arrived:
		return release
	case <-time.After(30 * time.Second):
		t.Fatal("no ply was posted")
		return nil
	}
}

// pieceOn is the piece the board draws on square name ("" for none).
func pieceOn(ctx context.Context, name string) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const img = document.querySelector('#board [data-square="%s"] img[data-piece]');
		return img ? img.dataset.piece : "";
	})()`, name)))
}

// banAt reads where the drawn ban's two framed squares are, as grid
// cells "x,y x,y" of the board's picture.
func banAt(ctx context.Context) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#ban-line rect")).map(r => r.getAttribute("x") + "," + r.getAttribute("y")).join(" ")`))
}

// clicks clicks squares of the board, each once it is there to click.
func clicks(ctx context.Context, squares ...string) error {
	for _, s := range squares {
		if err := chromedp.Do(ctx, chromedp.Click(sqSel(s), chromedp.NodeVisible)); err != nil {
			return fmt.Errorf("clicking %s: %w", s, err)
		}
	}
	return nil
}

// TestPlyDrawnBeforeTheAnswer: with the server's answers held, a ban is
// framed with its arrow and a move's piece stands on its new square the
// moment they are clicked; the answer confirms them. A ply the server
// refuses (another tab played first) is taken back, and the page shows
// the game as it is.
func TestPlyDrawnBeforeTheAnswer(t *testing.T) {
	g := newGate()
	ctx, base, problems := browserThrough(t, true, playground(t), g.wrap)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1)); err != nil {
		t.Fatal(err)
	}
	g.hold(true)

	// Black bans e2–e4: drawn while the answer is held.
	if err := clicks(ctx, "e2", "e4"); err != nil {
		t.Fatal(err)
	}
	release := g.held(t)
	b, err := readBanDrawn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.drawn(); err != nil {
		t.Errorf("before the answer: %v", err)
	}
	if at, _ := banAt(ctx); at != "4,6 4,4" {
		t.Errorf("before the answer the ban frames %q, want e2 and e4 (4,6 4,4)", at)
	}
	close(release)
	if err := chromedp.Do(ctx, waitPly(2)); err != nil {
		t.Fatal(err)
	}

	// White moves d2–d4: the pawn is on d4 before the answer.
	if err := clicks(ctx, "d2", "d4"); err != nil {
		t.Fatal(err)
	}
	release = g.held(t)
	if p, _ := pieceOn(ctx, "d4"); p == "" {
		t.Error("before the answer d4 is empty")
	}
	if p, _ := pieceOn(ctx, "d2"); p != "" {
		t.Errorf("before the answer d2 still holds %s", p)
	}
	if b, _ := readBanDrawn(ctx); len(b.Elements) != 0 {
		t.Errorf("before the answer the move left the ban drawn: %+v", b.Elements)
	}
	close(release)
	if err := chromedp.Do(ctx, waitPly(3)); err != nil {
		t.Fatal(err)
	}
	if p, _ := pieceOn(ctx, "d4"); p == "" {
		t.Error("after the answer d4 is empty")
	}

	// White bans e7–e5 here while another tab bans d7–d5 first: the
	// server refuses this tab's ban, which is taken back for the real one.
	if err := clicks(ctx, "e7", "e5"); err != nil {
		t.Fatal(err)
	}
	release = g.held(t)
	if at, _ := banAt(ctx); at != "4,1 4,3" {
		t.Errorf("before the answer the ban frames %q, want e7 and e5 (4,1 4,3)", at)
	}
	g.hold(false)
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	other, cancel := chromedp.NewContext(ctx) // a second tab, with the same cookies
	defer cancel()
	if err := chromedp.Do(other, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if err := play(other, 3, "b:d7d5"); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := chromedp.Do(ctx, waitPly(4)); err != nil {
		t.Fatalf("the refused tab does not show the game as played: %v", err)
	}
	if at, _ := banAt(ctx); at != "3,1 3,3" {
		t.Errorf("after the refusal the ban frames %q, want d7 and d5 (3,1 3,3), the ban played", at)
	}
	if note, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#notes #error")?.textContent || ""`)); !strings.Contains(note, "out of date") {
		t.Errorf("after the refusal the page says %q, want why", note)
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
