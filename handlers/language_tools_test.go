package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
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
// outside the catalogs, in the text nor in the page's description.
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
		for _, s := range append(untranslatedTexts(d), untranslatedMeta(d)...) {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
		if strings.HasPrefix(path, "/editor?") && text(d, "#editor-error") == "" {
			t.Errorf("%s says nothing of why its position cannot be played", path)
		}
	}
	// A finished game's last position, where the game ended by the
	// rules: its result and no engine line.
	mate := newClientOn(t, e)
	mate.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	mate.start()
	for _, p := range []string{"b:d2d4", "f2f3", "b:d7d6", "e7e5", "b:a2a3", "g2g4", "b:a7a6", "d8h4"} {
		mate.post(mate.path("ply"), vals("text", p))
	}
	d := mate.get("/g/" + mate.id + "/analysis")
	if text(d, "#analysis-message") == "" {
		t.Errorf("the mated game's analysis says nothing of its end: %s", text(d, "main"))
	}
	for _, s := range append(untranslatedTexts(d), untranslatedMeta(d)...) {
		t.Errorf("a mated game's analysis shows %q, which no catalog gave", s)
	}
	// The game page's live panel says its notes in the viewer's language.
	if note := c.get("/g/"+id).Find("#analysis-panel").AttrOr("data-note-busy", ""); !strings.HasPrefix(note, "[!!") {
		t.Errorf("the live panel's note when the engine is busy is %q", note)
	}
}

// TestPseudoLocaleModeration (issue 43): in the pseudo-locale the report
// forms (of a chat line and of a player, and their thanks), the
// moderators' page (two open reports, after an action, with a reset link
// just issued, and a refusal) and the moderation log show no text that
// came from outside the catalogs: only the players' names and words.
func TestPseudoLocaleModeration(t *testing.T) {
	e, warden := modServer(t) // Warden made a moderator by the service admin grant-mod uses
	ann, bob, game := namedGame(t, e)
	if code := bob.say(game, "you are terrible"); code != http.StatusSeeOther {
		t.Fatalf("bob's line: %d", code)
	}
	for _, c := range []*client{ann, warden} {
		c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	}
	words := []string{"Ann", "Bob", "Warden", "you are terrible", "insults", "rude", "spam", "banchess admin grant-mod"}
	check := func(c *client, path string, d *goquery.Document) {
		t.Helper()
		for _, s := range append(untranslatedTexts(d, words...), untranslatedMeta(d, words...)...) {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
	}
	line := "/report?game=" + game + "&room=player&seq=1"
	for _, path := range []string{line, "/report?player=Bob", "/report?sent=1"} {
		check(ann, path, ann.get(path))
	}
	ann.post("/report", vals("game", game, "room", "player", "seq", "1", "reason", "abuse", "text", "insults"))
	ann.post("/report", vals("player", "Bob", "reason", "cheating"))
	rec := ann.do(http.MethodPost, "/report", vals("player", "Bob", "reason", "rude"), false)
	check(ann, "a refused report", parse(t, rec))
	check(warden, "/mod", warden.get("/mod"))
	d := warden.post("/mod/act", vals("action", "mute", "player", "Bob", "for", "15m0s", "why", "spam"))
	if d.Find("#mod-done").Length() != 1 {
		t.Fatalf("after a mute: %s", text(d, "main"))
	}
	check(warden, "/mod?done=mute", d)
	rec = warden.do(http.MethodPost, "/mod/act", vals("action", "mute", "player", "Bob", "for", "2h0m0s", "why", "spam"), false)
	check(warden, "a refused mute", parse(t, rec))
	d = parse(t, warden.do(http.MethodPost, "/mod/reset", vals("player", "Bob", "why", "spam"), false))
	link := text(d, "#reset-link code")
	if link == "" {
		t.Fatalf("no reset link: %s", text(d, "main"))
	}
	for _, s := range untranslatedTexts(d, append(words, link)...) {
		t.Errorf("/mod/reset shows %q, which no catalog gave", s)
	}
	check(warden, "/mod/log", warden.get("/mod/log"))
}

// TestPseudoLocaleSocial (issue 43): in the pseudo-locale a game's chat
// (a line of the other player, its report link, the form, a refusal),
// a profile's follow and block buttons and the following page show no
// text that came from outside the catalogs.
func TestPseudoLocaleSocial(t *testing.T) {
	e, _ := modServer(t)
	ann, bob, game := namedGame(t, e)
	if code := bob.say(game, "good luck"); code != http.StatusSeeOther {
		t.Fatalf("bob's line: %d", code)
	}
	carl := newClientOn(t, e)
	carl.register("Carl")
	ann.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	ann.post("/@/Bob/follow", nil)
	ann.post("/@/Carl/block", nil)
	words := []string{"Ann", "Bob", "Carl", "good luck"}
	check := func(path string, d *goquery.Document) {
		t.Helper()
		for _, s := range append(untranslatedTexts(d, words...), untranslatedMeta(d, words...)...) {
			if !strings.HasPrefix(s, "<meta") { // a noscript element's markup, read as text
				t.Errorf("%s shows %q, which no catalog gave", path, s)
			}
		}
	}
	for _, path := range []string{"/g/" + game, "/following"} {
		check(path, ann.get(path))
	}
	// A profile's buttons (its challenge form is another part's).
	for _, path := range []string{"/@/Bob", "/@/Carl"} {
		check(path, goquery.NewDocumentFromNode(ann.get(path).Find("#relation").Nodes[0]))
	}
	rec := ann.do(http.MethodPost, "/g/"+game+"/chat", vals("room", "player", "text", strings.Repeat("a", 141)), false)
	check("a refused chat line", parse(t, rec))
}

// previewKeys are the meta tags whose words people read: a page's
// description and its link preview's.
var previewKeys = []string{"description", "og:site_name", "og:title", "og:description", "og:image:alt", "twitter:title", "twitter:description", "twitter:image:alt"}

// untranslatedMeta are d's description and link preview texts that came
// from no catalog (as untranslatedTexts, with ids the same in every
// language).
func untranslatedMeta(d *goquery.Document, ids ...string) []string {
	var out []string
	for _, key := range previewKeys {
		s := meta(d, key)
		if s == "" {
			continue
		}
		if fromNoCatalog(s, ids) {
			out = append(out, key+": "+s)
		}
	}
	return out
}

// TestPseudoLocalePreviews (issue 43): every page's description, and a
// game's and a history view's link preview (title, description, the
// image's text), are said in the viewer's language: in the pseudo-locale
// no word came from outside the catalogs; a German browser reads German;
// a crawler, which sends no Accept-Language, reads English.
func TestPseudoLocalePreviews(t *testing.T) {
	e := newServerOn(nil, WithBaseURL("https://chess.example.com"))
	c := newClientOn(t, e)
	c.host = "chess.example.com"
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	c.start()
	c.post(c.path("ply"), vals("text", "b:d2d4"))
	c.post(c.path("ply"), vals("text", "e2e4"))
	game := c.page()
	for _, path := range append([]string{game, game + "/history/2", "/editor"}, translatedPages...) {
		d := c.get(path)
		if meta(d, "description") == "" {
			t.Errorf("%s has no description", path)
		}
		for _, s := range untranslatedMeta(d) {
			t.Errorf("%s describes itself with %q, which no catalog gave", path, s)
		}
	}
	if d := c.get(game); meta(d, "og:title") == "" || meta(d, "og:image:alt") == "" {
		t.Errorf("the game page has no preview: og:title %q", meta(d, "og:title"))
	}
	browser := newClientOn(t, e)
	browser.host = "chess.example.com"
	for _, tc := range []struct{ accept, want string }{
		{"de", "Ban Chess · Weiß gegen Schwarz · läuft, Zug 1"},
		{"", "Ban Chess · White vs Black · in play, move 1"},
	} {
		d := parse(t, browser.navigate(game, "Accept-Language", tc.accept))
		if got := meta(d, "og:description"); got != tc.want || meta(d, "description") != tc.want {
			t.Errorf("Accept-Language %q: og:description %q, description %q, want %q", tc.accept, got, meta(d, "description"), tc.want)
		}
	}
}

// TestToolsInLanguage: the board editor, the following page and the
// moderators' page are said in the browser's language.
func TestToolsInLanguage(t *testing.T) {
	e, warden := modServer(t)
	for _, tc := range []struct{ path, accept, sel, want string }{
		{"/editor", "de", "#status", "Brett-Editor"},
		{"/editor", "he", "#editor-clear", "ניקוי"},
		{"/following", "fr", "h1", "Abonnements"},
		{"/mod", "ru", "h1", "Открытые жалобы"},
		{"/mod/log", "es", "h1", "Registro de moderación"},
	} {
		c := warden
		if tc.path == "/editor" {
			c = newClientOn(t, e)
		}
		if got := text(parse(t, c.navigate(tc.path, "Accept-Language", tc.accept)), tc.sel); got != tc.want {
			t.Errorf("%s in %s: %s says %q, want %q", tc.path, tc.accept, tc.sel, got, tc.want)
		}
	}
}
