package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// TestPseudoLocaleTools (issue 43): in the pseudo-locale the analysis of
// a game (at a ply, on a line of its own, in the live panel) and of a
// bare position, and the board editor show no text that came from
// outside the catalogs.
func TestPseudoLocaleTools(t *testing.T) {
	e := echo.New()
	New(newServiceWith(nil, testsite.Config{Engine: engine.NewPool(1, 1, 1)}), apiClock).Register(e)
	c := newClientOn(t, e)
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	c.start()
	c.post(c.path("ply"), vals("text", "b:e2e4"))
	id := c.id
	fen := url.QueryEscape(rules.StartFEN)
	for _, path := range []string{
		"/g/" + id + "/analysis",
		"/g/" + id + "/analysis?ply=1",
		"/g/" + id + "/analysis?panel=1",
		"/analysis?fen=" + fen,
		"/editor",
		"/editor?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"),
		"/editor?board=x",
	} {
		d := c.get(path)
		for _, s := range untranslatedTexts(d) {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
		if strings.HasPrefix(path, "/editor?") && text(d, "#editor-error") == "" {
			t.Errorf("%s says nothing of why its position cannot be played", path)
		}
	}
	// The game page's live panel says its notes in the viewer's language.
	if note := c.get("/g/"+id).Find("#analysis-panel").AttrOr("data-note-busy", ""); !strings.HasPrefix(note, "[!!") {
		t.Errorf("the live panel's note when the engine is busy is %q", note)
	}
}
