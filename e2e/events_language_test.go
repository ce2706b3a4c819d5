package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestEventsInLanguages (issue 43): in Hebrew, German and Russian, whose
// words run long, the tournaments' list, the form that creates one, an
// arena's and a Swiss event's page and the challenges page are drawn in
// the language chosen (their headings the catalogs'), Hebrew right to
// left, and nothing overflows a phone's window.
func TestEventsInLanguages(t *testing.T) {
	long(t)
	svc := playground(t)
	ctxs, base := browsersOn(t, 1, true, svc)
	ctx := ctxs[0]
	chooseName(t, ctx, base, "Ann")
	type drawn struct {
		Lang, Dir, H1 string
		Overflow      float64
	}
	want := map[string]map[string]string{
		"he": {"list": "טורנירים", "new": "טורניר חדש", "challenges": "אתגרים"},
		"de": {"list": "Turniere", "new": "Neues Turnier", "challenges": "Herausforderungen"},
		"ru": {"list": "Турниры", "new": "Новый турнир", "challenges": "Вызовы"},
	}
	for _, lang := range []string{"he", "de", "ru", "en"} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/"),
			chromedp.Click(`.lang-picker summary`), chromedp.Click(`.lang-picker button[value="`+lang+`"]`),
			chromedp.WaitVisible(`html[lang="`+lang+`"] #home-hotseat`)); err != nil {
			t.Fatalf("%s: choosing it in the picker: %v", lang, err)
		}
		look := func(what string) drawn {
			t.Helper()
			got, err := chromedp.Run(ctx, chromedp.Evaluate[drawn](`({
				Lang: document.documentElement.lang, Dir: document.documentElement.dir,
				H1: document.querySelector("h1").textContent.trim(),
				Overflow: document.documentElement.scrollWidth - window.innerWidth,
			})`))
			if err != nil {
				t.Fatalf("%s %s: %v", lang, what, err)
			}
			wantDir := map[bool]string{true: "rtl", false: "ltr"}[lang == "he"]
			if got.Lang != lang || got.Dir != wantDir {
				t.Errorf("%s %s: lang %q dir %q", lang, what, got.Lang, got.Dir)
			}
			if got.Overflow > 0 {
				wide, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 || e.getBoundingClientRect().left < -1).slice(0, 4).map(e => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 60)).join(" | ")`))
				t.Errorf("%s %s: the page is %.0f px wider than the window: %s", lang, what, got.Overflow, wide)
			}
			if w := want[lang][what]; w != "" && got.H1 != w {
				t.Errorf("%s %s: the heading %q, want %q", lang, what, got.H1, w)
			}
			return got
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/tournaments"), chromedp.WaitVisible(`#new-tournament`)); err != nil {
			t.Fatalf("%s: the list: %v", lang, err)
		}
		look("list")
		if err := chromedp.Do(ctx, chromedp.Click(`#new-tournament`), chromedp.WaitVisible(`#create-tournament`)); err != nil {
			t.Fatalf("%s: the form: %v", lang, err)
		}
		look("new")
		kind := map[string]string{"en": "swiss", "he": "arena", "de": "swiss", "ru": "arena"}[lang]
		if err := chromedp.Do(ctx,
			chromedp.SendKeys(`input[name="name"]`, "Arena "+lang),
			chromedp.SetValue(`input[name="clock"]`, "3+2"),
			chromedp.Click(`input[name="kind"][value="`+kind+`"]`),
			chromedp.Click(`#create-tournament`),
			chromedp.WaitVisible(`#join`),
			chromedp.Click(`#join`),
			chromedp.WaitVisible(`#withdraw`),
		); err != nil {
			t.Fatalf("%s: creating and joining a %s: %v", lang, kind, err)
		}
		got := look(kind)
		if got.H1 != "Arena "+lang {
			t.Errorf("%s: the tournament's heading %q", lang, got.H1)
		}
		results, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#tournament .results").textContent`))
		if err != nil || results == "" {
			t.Errorf("%s: the tournament's line %q (%v)", lang, results, err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/challenges"), chromedp.WaitVisible(`#open-form`)); err != nil {
			t.Fatalf("%s: the challenges page: %v", lang, err)
		}
		look("challenges")
	}
}
