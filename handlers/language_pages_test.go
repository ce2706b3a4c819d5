package handlers

import (
	"net/http"
	"testing"

	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
)

// TestPseudoLocaleNamedPages (issue 43): the pages of a player with a
// name (the inbox and its settings, their profile, the top players) show, in the pseudo-locale, no text
// that came from outside the catalogs.
func TestPseudoLocaleNamedPages(t *testing.T) {
	c := newClient(t)
	c.register("Ann")
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	// A token's scopes are names, the same in every language.
	for _, path := range []string{"/inbox", "/inbox?saved=1", "/lobby", "/games", "/players", "/@/Ann", "/account", "/account?done=named", "/account?done=signed-in", "/account?done=recovered"} {
		for _, s := range untranslatedTexts(c.get(path), "Ann", "bot:play", "board:play", "challenge:write") {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
	}
}

// TestProfileInLanguage: a profile and the top players are said in the
// browser's language.
func TestProfileInLanguage(t *testing.T) {
	c := newClient(t)
	c.register("Ann")
	for _, tc := range []struct{ path, accept, sel, want string }{
		{"/@/Ann", "de", "#played-title", "Partien"},
		{"/@/Ann", "ru", ".results", "0 побед · 0 поражений · 0 ничьих"},
		{"/players", "fr", "h1", "Meilleurs joueurs"},
		{"/players", "he", "h1", "השחקנים המובילים"},
	} {
		if got := text(parse(t, c.navigate(tc.path, "Accept-Language", tc.accept)), tc.sel); got != tc.want {
			t.Errorf("%s in %s: %s says %q, want %q", tc.path, tc.accept, tc.sel, got, tc.want)
		}
	}
}

// TestENRulesInLanguage: the EN-Chess rules page is said in the
// browser's language, its notation as it is.
func TestENRulesInLanguage(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct{ accept, sel, want string }{
		{"de", "h1", "Die Regeln von EN-Chess"},
		{"ru", "h2", "Доска"},
		{"fr", ".lead a", "Règles de Ban Chess"},
		{"es", "code", "a4 b3 c2 d1 x0 e1 f2 g3 h4"},
		{"he", "figcaption", "הפתיחה: x9 מעל הפינה d8/e8, \u200fx0 מתחת ל־d1/e1, ועל כל אחת אאורור."},
	} {
		if got := text(parse(t, c.navigate("/rules/en", "Accept-Language", tc.accept)), tc.sel); got != tc.want {
			t.Errorf("/rules/en in %s: %s says %q, want %q", tc.accept, tc.sel, got, tc.want)
		}
	}
}
