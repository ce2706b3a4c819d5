package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// svgNS is the namespace a browser draws SVG elements of.
const svgNS = "http://www.w3.org/2000/svg"

// banDrawn is what the browser draws of the board's ban: each of the
// ban group's elements, with its namespace and the size of its box.
type banDrawn struct {
	Elements []struct {
		Tag    string  `json:"tag"`
		NS     string  `json:"ns"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"elements"`
}

// readBanDrawn reads the ban the page draws: every element of #ban-line,
// its namespace and its box as the browser lays it out.
func readBanDrawn(ctx context.Context) (banDrawn, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[banDrawn](`(() => {
		const g = document.getElementById("ban-line");
		const out = {elements: []};
		for (const el of g ? g.children : []) {
			const r = el.getBoundingClientRect();
			out.elements.push({tag: el.localName, ns: el.namespaceURI, width: r.width, height: r.height});
		}
		return out;
	})()`))
}

// drawn checks the page draws a ban: two framed squares and an arrow, SVG
// elements with boxes of their own.
func (b banDrawn) drawn() error {
	tags := ""
	for _, el := range b.Elements {
		if el.NS != svgNS {
			return fmt.Errorf("the ban's %s is a %q element, which the browser does not draw", el.Tag, el.NS)
		}
		if empty := el.Width <= 0 || el.Height <= 0; el.Tag == "line" && el.Width <= 0 && el.Height <= 0 || el.Tag != "line" && empty {
			return fmt.Errorf("the ban's %s has an empty box (%.0f×%.0f)", el.Tag, el.Width, el.Height)
		}
		tags += el.Tag + " "
	}
	if tags != "rect rect line " {
		return fmt.Errorf("the ban is drawn as %q, want two squares and an arrow", tags)
	}
	return nil
}

// TestBanDrawnOnTheBoard: the ban a hot-seat player makes is drawn on the
// board at once — its squares framed and its arrow, as SVG the browser
// lays out — after a swap in place (JavaScript) as after a page (none);
// a move lifts it, the next ban draws the next.
func TestBanDrawnOnTheBoard(t *testing.T) {
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "javascript", false: "no-javascript"}[js], func(t *testing.T) {
			ctx, base, problems := browser(t, js)
			if err := chromedp.Do(ctx, hotSeat(base), chromedp.WaitVisible(`#status[data-ply="1"]`)); err != nil {
				t.Fatal(err)
			}
			check := func(ply int, want bool) {
				t.Helper()
				if err := chromedp.Do(ctx, waitPly(ply)); err != nil {
					t.Fatal(err)
				}
				b, err := readBanDrawn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if err := b.drawn(); want && err != nil {
					t.Errorf("ply %d: %v", ply, err)
				}
				if !want && len(b.Elements) != 0 {
					t.Errorf("ply %d: a ban is drawn after the move lifted it: %+v", ply, b.Elements)
				}
			}
			for ply, action := range []string{"b:e2e4", "m:d2d4", "b:e7e5"} { // Black bans, White moves, White bans
				if err := play(ctx, ply+1, action); err != nil {
					t.Fatal(err)
				}
				check(ply+2, action[0] == 'b')
			}
			if len(*problems) > 0 {
				t.Errorf("the page reported: %v", *problems)
			}
		})
	}
}
