package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// atHand is the puzzle the run's page shows.
func atHand(t *testing.T, ctx context.Context) puzzles.Puzzle {
	t.Helper()
	id, err := chromedp.Run(ctx, chromedp.AttributeValue(`#run-panel`, "data-puzzle"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := set.ByID(id.Value)
	if !ok {
		t.Fatalf("the run shows puzzle %q, not a shipped one", id.Value)
	}
	return p
}

// solveByClicks plays p's solution by clicks on the run's page, each
// action once the board stands at its ply (the replies played by the
// server), and checks the board draws the puzzle's position first.
func solveByClicks(t *testing.T, ctx context.Context, p puzzles.Puzzle) {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, waitPly(g.Ply())); err != nil {
		t.Fatal(err)
	}
	if err := drawnAs(ctx, g); err != nil {
		t.Fatalf("puzzle %s: %v", p.ID, err)
	}
	solver, start := g.Turn().Actor, g.Ply()
	for i, text := range p.Solution {
		a, err := rules.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		if g.Turn().Actor == solver {
			wait := chromedp.WaitReady(fmt.Sprintf(`#run-panel[data-puzzle="%s"]`, p.ID))
			if err := chromedp.Do(ctx, wait, waitPly(start+i)); err != nil {
				t.Fatalf("puzzle %s at ply %d: %v", p.ID, start+i, err)
			}
			if err := clickAction(ctx, a); err != nil {
				t.Fatalf("puzzle %s, %s: %v", p.ID, text, err)
			}
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
}

// wrongFirst is a legal first action of p that its judge calls wrong.
func wrongFirst(t *testing.T, p puzzles.Puzzle) rules.Action {
	t.Helper()
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range g.Legal() {
		if v, err := p.Judge([]rules.Action{a}); err == nil && !v.Correct {
			return a
		}
	}
	t.Fatalf("puzzle %s has no wrong first action", p.ID)
	return rules.Action{}
}

// TestStreakInBrowser: with scripts and without (plain forms), a streak
// started by its button shows its first puzzle drawn on the board;
// solved by clicks, the score says 1 and the next puzzle comes; a wrong
// click ends the run, which says so, with the best streak, and offers
// another.
func TestStreakInBrowser(t *testing.T) {
	long(t)
	withAndWithoutJS(t, testStreakInBrowser)
}

func testStreakInBrowser(t *testing.T, js bool) {
	ctx, base, problems := browser(t, js)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/training/streak"), chromedp.Click(`#run-start`), chromedp.WaitVisible(`#run-panel[data-puzzle]`)); err != nil {
		t.Fatal(err)
	}
	first := atHand(t, ctx)
	solveByClicks(t, ctx, first)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#feedback.right`)); err != nil {
		t.Fatalf("after the first puzzle: %v", err)
	}
	if score, _ := chromedp.Run(ctx, chromedp.Text(`#run-score`)); score != "Streak: 1" {
		t.Errorf("the score after one: %q", score)
	}
	second := atHand(t, ctx)
	if second.ID == first.ID {
		t.Fatal("the run stayed at its first puzzle")
	}
	g, _ := second.Start()
	if err := chromedp.Do(ctx, waitPly(g.Ply())); err != nil {
		t.Fatal(err)
	}
	if err := clickAction(ctx, wrongFirst(t, second)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#result`)); err != nil {
		t.Fatalf("a wrong action: %v", err)
	}
	result, _ := chromedp.Run(ctx, chromedp.Text(`#result`))
	best, _ := chromedp.Run(ctx, chromedp.Text(`#run-best`))
	if !strings.Contains(result, "The streak is over: 1 solved.") || !strings.Contains(best, "Your best streak: 1") {
		t.Errorf("the end: %q, %q", result, best)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#run-start`)); err != nil {
		t.Error("no way to play again")
	}
	if js {
		screenshot(t, ctx, "streak.png", 1280, 800)
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported problems: %q", *problems)
	}
}

// TestStormInBrowser: a storm's clock is drawn and counts down from
// 3:00; a puzzle solved by clicks scores, and the clock goes on counting
// on the page that follows.
func TestStormInBrowser(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/storm"), chromedp.Click(`#run-start`), chromedp.WaitVisible(`#storm-clock`)); err != nil {
		t.Fatal(err)
	}
	clock := func() string {
		s, err := chromedp.Run(ctx, chromedp.Text(`#storm-clock`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if c := clock(); c != "3:00" && c != "2:59" {
		t.Errorf("the clock at the start: %q", c)
	}
	time.Sleep(2200 * time.Millisecond)
	if c := clock(); c >= "2:59" || !strings.HasPrefix(c, "2:5") {
		t.Errorf("the clock after 2 s: %q", c)
	}
	solveByClicks(t, ctx, atHand(t, ctx))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#feedback.right`)); err != nil {
		t.Fatalf("after the first puzzle: %v", err)
	}
	if score, _ := chromedp.Run(ctx, chromedp.Text(`#run-score`)); !strings.HasPrefix(score, "Solved: 1 · Combo: ") {
		t.Errorf("the score after one: %q", score)
	}
	// The clock goes on counting down (a loaded machine may hold a tick
	// back: within 3 s it shows less).
	before := clock()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`(c => !!c && c.textContent.trim() < %q)(document.getElementById("storm-clock"))`, strings.TrimSpace(before)),
		chromedp.WithPollingTimeout(3*time.Second))); err != nil {
		t.Errorf("the clock stopped: %q then %q", before, clock())
	}
	screenshot(t, ctx, "storm.png", 1280, 800)
	if len(*problems) > 0 {
		t.Errorf("the page reported problems: %q", *problems)
	}
}

// TestRunsAccessibility audits the themes page, Streak's start page, a
// streak's puzzle, a storm's puzzle and a storm over with axe-core,
// light and dark.
func TestRunsAccessibility(t *testing.T) {
	long(t)
	script := axeScript(t)
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			ctx, base, _ := browser(t, true)
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name  string
				act   chromedp.Action[chromedp.Void]
				ready string
			}{
				{"the themes", chromedp.Navigate(base + "/training/themes"), `#theme-table`},
				{"the streak's start", chromedp.Navigate(base + "/training/streak"), `#run-start`},
				{"a streak's puzzle", chromedp.Click(`#run-start`), `#run-panel[data-puzzle]`},
				{"a storm's puzzle", chromedp.Steps(chromedp.Navigate(base+"/storm"), chromedp.WaitVisible(`#run-start`), chromedp.Click(`#run-start`)), `#storm-clock`},
				{"a storm over", chromedp.Click(`#run-end`), `#result`},
			} {
				if err := chromedp.Do(ctx, c.act, chromedp.WaitVisible(c.ready)); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				v, err := audit(ctx, script)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for _, s := range v {
					t.Errorf("%s: %s", c.name, s)
				}
			}
		})
	}
}
