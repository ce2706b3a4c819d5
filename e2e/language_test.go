package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLanguages (issue 43): a language chosen from the header's picker
// holds from page to page. In Hebrew the page flows right to left — the
// brand at the right of the header — while the board stays as chess
// draws it (a1 at the bottom left, h1 to its right, a8 above it), with a
// square's label in Hebrew; in German, whose words run long, as in
// Hebrew, nothing overflows the window, on a phone or a laptop; and axe
// finds nothing serious in any of the six languages.
func TestLanguages(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	script := axeScript(t)
	type layout struct {
		Dir, Label             string
		Overflow, BrandX, NavX float64
		A1X, A1Y, H1X, A8Y     float64
		PickerOpen             bool
	}
	for _, lang := range []string{"he", "de", "es", "fr", "ru", "en"} {
		// The picker is a <details> in the header: open it and choose.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/"),
			chromedp.Click(`.lang-picker summary`), chromedp.Click(`.lang-picker button[value="`+lang+`"]`),
			chromedp.WaitVisible(`html[lang="`+lang+`"] #home-hotseat`)); err != nil {
			t.Fatalf("%s: choosing it in the picker: %v", lang, err)
		}
		sizes := [][2]int64{{1280, 720}}
		if lang == "he" || lang == "de" {
			sizes = append(sizes, [2]int64{390, 844})
		}
		for _, size := range sizes {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), hotSeat(base), settled(sqSel("a1"))); err != nil {
				t.Fatalf("%s %dx%d: %v", lang, size[0], size[1], err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](`(() => {
				const box = s => document.querySelector(s).getBoundingClientRect();
				const a1 = box('#board [data-square="a1"]'), h1 = box('#board [data-square="h1"]'), a8 = box('#board [data-square="a8"]');
				return {
					Dir: document.documentElement.dir,
					Label: document.querySelector('#board [data-square="e1"]').getAttribute("aria-label"),
					Overflow: document.documentElement.scrollWidth - window.innerWidth,
					BrandX: box(".brand").left, NavX: box(".topnav").left,
					A1X: a1.left, A1Y: a1.top, H1X: h1.left, A8Y: a8.top,
				};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			wantDir := map[bool]string{true: "rtl", false: "ltr"}[lang == "he"]
			if got.Dir != wantDir {
				t.Errorf("%s: dir %q, want %s", lang, got.Dir, wantDir)
			}
			if !(got.A1X < got.H1X && got.A8Y < got.A1Y) {
				t.Errorf("%s %dx%d: the board is mirrored: a1 at (%.0f, %.0f), h1 at x %.0f, a8 at y %.0f", lang, size[0], size[1], got.A1X, got.A1Y, got.H1X, got.A8Y)
			}
			if got.Overflow > 0 {
				t.Errorf("%s %dx%d: the page is %.0f px wider than the window", lang, size[0], size[1], got.Overflow)
			}
			if lang == "he" && size[0] > 600 && got.BrandX < got.NavX {
				t.Errorf("he: the brand (x %.0f) is left of the links (x %.0f): the header does not flow right to left", got.BrandX, got.NavX)
			}
			wantLabel := map[string]string{"he": "e1, מלך לבן", "de": "e1, weißer König", "es": "e1, rey blanco", "fr": "e1, roi blanc", "ru": "e1, белый король", "en": "e1, white king"}[lang]
			if got.Label != wantLabel {
				t.Errorf("%s: e1 is read as %q, want %q", lang, got.Label, wantLabel)
			}
		}
		v, err := audit(ctx, script)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range v {
			t.Errorf("%s: axe: %s", lang, s)
		}
	}
	if len(*problems) > 0 {
		t.Errorf("the page reported: %v", *problems)
	}
}
