package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
)

// TestRefusalInLanguage (issue 43): a refused action on a game page is
// said in the viewer's language, chosen by the refusal's detail or else
// its code; in English it keeps the service's own sentence.
func TestRefusalInLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang, action, want string
	}{
		{"de", "nonsense", "Das ist keine Aktion"},
		{"fr", "nonsense", "Ce n'est pas une action"},
		{"ru", "nonsense", "Это не действие"},
		{"de", "b:e2e5", "Die Regeln erlauben diese Aktion jetzt nicht."},
		{"es", "b:e2e5", "Las reglas no permiten esta acción ahora."},
		{"he", "b:e2e5", "החוקים אינם מתירים"},
		{"en", "b:e2e5", "e2"},
	} {
		c := newClient(t)
		c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: tc.lang}
		c.start()
		rec := c.do(http.MethodPost, c.path("ply"), vals("text", tc.action), false)
		if rec.Code < 400 || rec.Code >= 500 {
			t.Errorf("%s %q: status %d, want a refusal", tc.lang, tc.action, rec.Code)
			continue
		}
		if got := text(parse(t, rec), "#error"); !strings.Contains(got, tc.want) {
			t.Errorf("%s %q: the page says %q, want %q", tc.lang, tc.action, got, tc.want)
		}
	}
}

// TestRefusalTitlesInLanguage: an error page's title and body are said in
// the viewer's language: no such player, no such game.
func TestRefusalTitlesInLanguage(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		path, accept, h1, body string
		status                 int
	}{
		{"/@/nobody", "de", "Diesen Spieler gibt es nicht", "Kein Spieler hat diesen Namen.", http.StatusNotFound},
		{"/@/nobody", "ru", "Такого игрока нет", "Нет игрока с таким именем.", http.StatusNotFound},
		{"/zzzzzzzzzzzz", "fr", "Page introuvable", "Il n'y a rien à cette adresse.", http.StatusNotFound},
		{"/@/nobody", "en", "No such player", "", http.StatusNotFound},
	} {
		rec := c.navigate(tc.path, "Accept-Language", tc.accept)
		d := parse(t, rec)
		if rec.Code != tc.status || text(d, "h1") != tc.h1 || !strings.Contains(text(d, "#error"), tc.body) {
			t.Errorf("%s in %s: %d, %q: %q; want %d, %q: %q", tc.path, tc.accept, rec.Code, text(d, "h1"), text(d, "#error"), tc.status, tc.h1, tc.body)
		}
	}
}

// TestPseudoLocaleErrorPage: an error page in the pseudo-locale shows
// no text that came from outside the catalogs.
func TestPseudoLocaleErrorPage(t *testing.T) {
	c := newClient(t)
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	for _, path := range []string{"/@/nobody", "/zzzzzzzzzzzz"} {
		rec := c.do(http.MethodGet, path, nil, false)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, rec.Code)
		}
		for _, s := range untranslatedTexts(parse(t, rec)) {
			t.Errorf("%s shows %q, which no catalog gave", path, s)
		}
	}
}

// TestAPIRefusalStaysEnglish: the JSON API words its refusals in English
// whatever language the browser asks for.
func TestAPIRefusalStaysEnglish(t *testing.T) {
	c := newClient(t)
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: "de"}
	req := c.request(http.MethodGet, "/api/games/zzzzzzzzzzzz", nil, false)
	req.Header.Set("Accept-Language", "de")
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, req)
	var body struct{ Error, Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusNotFound || body.Code == "" || !asciiWord.MatchString(body.Error) || strings.ContainsAny(body.Error, "äöüß") || strings.Contains(body.Error, "gibt es") {
		t.Errorf("GET /api/games/… in German: %d %s, want an English 404", rec.Code, rec.Body.String())
	}
}

// TestLoginRefusalsInLanguage: the sign-in page's refusals in French: a
// wrong password, then too many failures with how long to wait.
func TestLoginRefusalsInLanguage(t *testing.T) {
	e := newServer()
	newClientOn(t, e).register("Ann")
	c := newClientOn(t, e)
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: "fr"}
	for i := range 5 {
		rec := c.do(http.MethodPost, "/login", vals("name", "Ann", "password", "wrong password "+string(rune('a'+i))), false)
		if got := text(parse(t, rec), "#account-error"); rec.Code != http.StatusUnauthorized || got != "Le nom ou le mot de passe est incorrect." {
			t.Fatalf("failed login %d: %d %q", i+1, rec.Code, got)
		}
	}
	rec := c.do(http.MethodPost, "/login", vals("name", "Ann", "password", secret), false)
	got := text(parse(t, rec), "#account-error")
	if rec.Code != http.StatusTooManyRequests || !strings.HasPrefix(got, "Trop de connexions échouées. Réessayez dans ") || got != "Trop de connexions échouées. Réessayez dans 15 minutes." {
		t.Errorf("the sixth login: %d %q, want the wait in French", rec.Code, got)
	}
}

// TestLobbyRefusalInLanguage: the lobby shows its refusals in the
// viewer's language (a pool that is not one, in German).
func TestLobbyRefusalInLanguage(t *testing.T) {
	c := newClient(t)
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: "de"}
	c.get("/lobby")
	rec := c.do(http.MethodPost, "/lobby/pool", vals("pool", "7+7"), false)
	if got := text(parse(t, rec), "#lobby-error"); rec.Code != http.StatusBadRequest || got != "Das ist keine der Schnellpaarungen der Lobby." {
		t.Errorf("a pool that is not one: %d %q", rec.Code, got)
	}
}
