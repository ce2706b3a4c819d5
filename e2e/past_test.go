package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pastLook is what the page draws of the position it shows: whether the
// status is on screen and what it says (its badge too), the banner that
// stands for it while browsing, and the frame around the board shown.
type pastLook struct {
	StatusShown bool   `json:"statusShown"`
	Status      string `json:"status"`
	Badge       string `json:"badge"`
	Banner      string `json:"banner"`
	Frame       string `json:"frame"`
}

func readPastLook(ctx context.Context) (pastLook, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[pastLook](`(() => {
		const bar = document.getElementById("status-bar"), st = document.getElementById("status");
		const browse = document.getElementById("browse-bar");
		const board = document.querySelector("#view-board .board") || document.querySelector("#board .board");
		return {
			statusShown: !!bar && bar.getBoundingClientRect().height > 0,
			status: st ? st.textContent.trim() : "",
			badge: st ? getComputedStyle(st, "::before").content : "",
			banner: browse && !browse.hidden && browse.getBoundingClientRect().height > 0 ? browse.textContent.replace(/\s+/g, " ").trim() : "",
			frame: board ? getComputedStyle(board).boxShadow : "",
		};
	})()`))
}

// banRed is the ban's colour in a computed style: the turn's frame when a
// ban is due.
const banRed = "rgb(198, 45, 45)"

// TestPastLooksPast: an earlier position, shown in place (JavaScript) or
// as a history view (none), never looks like a turn to play: no phase's
// status or red frame, but a grey frame, a "Past" mark and a way back to
// the game in sight where the status was.
func TestPastLooksPast(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/new"), chromedp.Click(`.new-game button[value="ban"]`), waitPly(1)); err != nil {
		t.Fatal(err)
	}
	for i, a := range mateLine[:2] {
		if err := play(ctx, i+1, a); err != nil {
			t.Fatal(err)
		}
	}
	now, err := readPastLook(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !now.StatusShown || !strings.Contains(now.Frame, banRed) {
		t.Fatalf("the game's own position (White to ban) is not drawn as a ban's turn: %+v", now)
	}

	if err := key(ctx, kb.ArrowLeft); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#view-board[data-shown-ply="1"]`)); err != nil {
		t.Fatal(err)
	}
	past, err := readPastLook(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if past.StatusShown {
		t.Errorf("browsing, the game's status still shows: %q", past.Status)
	}
	if !strings.HasPrefix(past.Banner, "Past position") || !strings.Contains(past.Banner, "Back to the game") {
		t.Errorf("browsing, the banner says %q, want the past position and the way back", past.Banner)
	}
	if strings.Contains(past.Frame, banRed) || past.Frame == "none" {
		t.Errorf("browsing, the board's frame is %q, want the past's grey, not the ban's red", past.Frame)
	}
	if err := inView(ctx, "#browse-bar", "#back-to-game"); err != nil {
		t.Errorf("browsing: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#back-to-game"), chromedp.WaitNotPresent("#view-board")); err != nil {
		t.Fatal(err)
	}
	if back, _ := readPastLook(ctx); !back.StatusShown || back.Banner != "" {
		t.Errorf("back at the game, the status is not shown again: %+v", back)
	}

	// Without JavaScript, the move list's link is a history view.
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	noJS, _, _ := browser(t, false)
	if err := chromedp.Do(noJS, chromedp.Navigate(url+"/history/1"), chromedp.WaitVisible(`#status[data-phase="view"]`)); err != nil {
		t.Fatal(err)
	}
	view, err := readPastLook(noJS)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(view.Badge, "Past") || strings.Contains(view.Frame, banRed) || view.Frame == "none" {
		t.Errorf("a history view is not marked as the past: %+v", view)
	}
	if err := inView(noJS, "#back-to-game"); err != nil {
		t.Errorf("a history view: %v", err)
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
