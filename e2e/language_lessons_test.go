package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLessonsInLanguages (issue 43): a lesson's step, after a named wrong
// answer, is drawn in the language chosen in the header's picker — its
// title, task, status and feedback in that language's words, Hebrew
// right to left with the board unmirrored — and overflows neither a
// phone nor a laptop; axe finds nothing serious on it.
func TestLessonsInLanguages(t *testing.T) {
	long(t)
	ctx, base, problems := browser(t, true)
	script := axeScript(t)
	type drawn struct {
		Dir, Title, Prompt, Status, Feedback string
		Overflow, PromptHeight               float64
		A1X, H1X                             float64
	}
	want := map[string][2]string{ // a word of the title, of the feedback
		"he": {"מט באמצעות איסור", "שני מוצאים"},
		"de": {"Schachmatt durch ein Verbot", "zwei Auswege"},
		"ru": {"Мат запретом", "два выхода"},
		"fr": {"Échec et mat par une interdiction", "deux issues"},
		"es": {"Jaque mate por prohibición", "dos salidas"},
	}
	// The move, with the language's piece letters (notation.letters).
	queenTakes := map[string]string{"he": "מהxf7+", "de": "Dxf7+", "ru": "Фxf7+", "fr": "Dxf7+", "es": "Dxf7+"}
	for _, lang := range []string{"he", "de", "ru", "fr", "es"} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/"),
			chromedp.Click(`.lang-picker summary`), chromedp.Click(`.lang-picker button[value="`+lang+`"]`),
			chromedp.WaitVisible(`html[lang="`+lang+`"] #home-hotseat`)); err != nil {
			t.Fatalf("%s: choosing it in the picker: %v", lang, err)
		}
		for _, size := range [][2]int64{{390, 844}, {1280, 720}} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]),
				chromedp.Navigate(base+"/learn/mate-by-ban/4?played=m:b3f7"), settled(`#feedback`)); err != nil {
				t.Fatalf("%s %dx%d: %v", lang, size[0], size[1], err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](`(() => {
				const box = s => document.querySelector(s).getBoundingClientRect();
				const text = s => document.querySelector(s).innerText;
				return {
					Dir: document.documentElement.dir,
					Title: text("#lesson-title"), Prompt: text("#prompt"), Status: text("#status"), Feedback: text("#feedback"),
					Overflow: document.documentElement.scrollWidth - window.innerWidth,
					PromptHeight: box("#prompt").height,
					A1X: box('#board [data-square="a1"]').left, H1X: box('#board [data-square="h1"]').left,
				};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if wantDir := map[bool]string{true: "rtl", false: "ltr"}[lang == "he"]; got.Dir != wantDir {
				t.Errorf("%s: dir %q, want %s", lang, got.Dir, wantDir)
			}
			if !strings.Contains(got.Title, want[lang][0]) || !strings.Contains(got.Feedback, want[lang][1]) || !strings.Contains(got.Feedback, queenTakes[lang]) {
				t.Errorf("%s: the title %q and the feedback %q, want %q and %q", lang, got.Title, got.Feedback, want[lang][0], want[lang][1])
			}
			if got.PromptHeight < 10 || got.Status == "" || strings.Contains(got.Prompt+got.Status, "You are") {
				t.Errorf("%s: the task %q (%.0f px high), the status %q", lang, got.Prompt, got.PromptHeight, got.Status)
			}
			if got.Overflow > 0 {
				t.Errorf("%s %dx%d: the page is %.0f px wider than the window", lang, size[0], size[1], got.Overflow)
			}
			if got.A1X >= got.H1X {
				t.Errorf("%s: the board is mirrored: a1 at x %.0f, h1 at x %.0f", lang, got.A1X, got.H1X)
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
