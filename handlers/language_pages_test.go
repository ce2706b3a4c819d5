package handlers

import (
	"net/http"
	"testing"

	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
)

// TestPseudoLocaleNamedPages (issue 43): the pages of a player with a
// name (the inbox and its settings) show, in the pseudo-locale, no text
// that came from outside the catalogs.
func TestPseudoLocaleNamedPages(t *testing.T) {
	c := newClient(t)
	c.register("Ann")
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	for _, path := range []string{"/inbox", "/inbox?saved=1", "/lobby", "/games"} {
		for _, s := range untranslatedTexts(c.get(path)) {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
	}
}
