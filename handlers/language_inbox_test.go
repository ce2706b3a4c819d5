package handlers

import (
	"strings"
	"testing"
)

// TestNotifyScriptWordsInLanguage (issue 43): the inbox gives notify.js
// its words in the reader's language, as the status's data-on and
// data-refused attributes (the script says them once the browser
// answers); in the pseudo-locale both came from the catalog.
func TestNotifyScriptWordsInLanguage(t *testing.T) {
	c := newClient(t)
	c.register("Ann")
	for _, tc := range []struct{ accept, on, refused string }{
		{"en", "On in this browser.", "Your browser refused: notifications stay off."},
		{"de", "In diesem Browser an.", "Dein Browser hat abgelehnt: Benachrichtigungen bleiben aus."},
		{"he", "פעילות בדפדפן הזה.", "הדפדפן סירב: ההתראות נשארות כבויות."},
	} {
		s := parse(t, c.navigate("/inbox", "Accept-Language", tc.accept)).Find("#notify-browser-status")
		if on, refused := s.AttrOr("data-on", ""), s.AttrOr("data-refused", ""); on != tc.on || refused != tc.refused {
			t.Errorf("/inbox in %s: data-on %q, data-refused %q, want %q and %q", tc.accept, on, refused, tc.on, tc.refused)
		}
	}
	s := pseudo(c).get("/inbox").Find("#notify-browser-status")
	for _, a := range []string{"data-on", "data-refused"} {
		if v := s.AttrOr(a, ""); !strings.HasPrefix(v, "[!!") {
			t.Errorf("/inbox in the pseudo-locale: %s %q came from no catalog", a, v)
		}
	}
}
