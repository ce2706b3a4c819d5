package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/pages"
	"github.com/banchess/banchess/i18n"
)

// TestNotificationInLanguage (issue 43): a notification is stored as a
// message and read in the reader's language, on /inbox and in what
// notify.js polls; the pseudo-locale's inbox shows it from the catalog.
func TestNotificationInLanguage(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	white.register("Ann")
	black := newClientOn(t, e)
	black.register("Bob")
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	black.post(white.path("ply"), vals("text", "b:e2e4")) // White's turn: Ann is told
	for _, tc := range []struct{ accept, want, ago string }{
		{"en", "It is your turn in game " + white.id + ".", "just now"},
		{"de", "Du bist in der Partie " + white.id + " am Zug.", "gerade eben"},
		{"ru", "Ваш ход в партии " + white.id + ".", "только что"},
	} {
		d := parse(t, white.navigate("/inbox", "Accept-Language", tc.accept))
		if got := text(d, ".inbox-list li a"); got != tc.want {
			t.Errorf("the inbox in %s says %q, want %q", tc.accept, got, tc.want)
		}
		if got := text(d, ".inbox-list li time"); got != tc.ago {
			t.Errorf("the inbox in %s dates it %q, want %q", tc.accept, got, tc.ago)
		}
		rec := white.navigate("/inbox/poll", "Accept-Language", tc.accept)
		var in struct {
			Notifications []struct {
				Text    string `json:"text"`
				Message struct {
					ID string `json:"id"`
				} `json:"message"`
			} `json:"notifications"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &in); err != nil || len(in.Notifications) != 1 {
			t.Fatalf("the poll in %s: %v, %s", tc.accept, err, rec.Body)
		}
		if n := in.Notifications[0]; n.Text != tc.want || n.Message.ID != "notice.yourTurn" {
			t.Errorf("the poll in %s: %+v, want the text %q", tc.accept, n, tc.want)
		}
	}
	white.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	for _, s := range untranslatedTexts(white.get("/inbox"), "Ann", white.id) {
		t.Errorf("/inbox shows %q, which no catalog gave", s)
	}
}

// TestProfileEndingInLanguage (issue 43): a finished game's ending in a
// profile's list, stored as English text, is said in the viewer's
// language, and the pseudo-locale's profile shows it from the catalog.
func TestProfileEndingInLanguage(t *testing.T) {
	e := newServer()
	a := newAPIT(t, e)
	ann, bob := a.account("Ann"), a.account("Bob")
	a.ratedGame(ann, bob, "5+3") // Ann (White) resigns
	c := newClientOn(t, e)
	for _, tc := range []struct{ accept, want string }{
		{"en", "Black won: White resigned"},
		{"de", "Schwarz gewann: Weiß gab auf"},
		{"ru", "чёрные победили: белые сдались"},
	} {
		d := parse(t, c.navigate("/@/Bob", "Accept-Language", tc.accept))
		if got := strings.Join(strings.Fields(text(d, "li[data-played]")), " "); !strings.Contains(got, tc.want) {
			t.Errorf("Bob's game in %s reads %q, want it to say %q", tc.accept, got, tc.want)
		}
	}
	c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: i18n.Pseudo}
	for _, s := range untranslatedTexts(c.get("/@/Bob"), "Ann", "Bob") {
		t.Errorf("/@/Bob shows %q, which no catalog gave", s)
	}
}

// TestCorrespondenceStripInLanguage (issue 43): a correspondence game's
// clock and the time left for the first ban are said in the viewer's
// language.
func TestCorrespondenceStripInLanguage(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	for _, tc := range []struct{ accept, clock, first string }{
		{"en", "3 days", "3 days to ban"},
		{"de", "3 Tage", "3 Tage zum Verbieten"},
		{"ru", "3 дня", "3 дня на запрет"},
	} {
		d := parse(t, white.navigate(kit.GamePath(white.id), "Accept-Language", tc.accept))
		if got := text(d, `[data-player="white"] .clock.days`); got != tc.clock {
			t.Errorf("White's clock in %s: %q, want %q", tc.accept, got, tc.clock)
		}
		if got := text(d, ".first-action"); got != tc.first {
			t.Errorf("the first ban's time in %s: %q, want %q", tc.accept, got, tc.first)
		}
	}
}

// TestReviewLineLetters (issue 43): a review's better line is written
// with the viewer's piece letters (German's by default in German), or
// English letters or figurines as the settings choose.
func TestReviewLineLetters(t *testing.T) {
	c := newReviewClient(t)
	c.start()
	c.post("/import", url.Values{"text": {`[FEN "` + backRankFEN + `"]

1. {banning: g1f1} f3 *`}})
	d := c.post(c.get(c.path("review")).Find("form#review-request").AttrOr("action", ""), url.Values{})
	for deadline := time.Now().Add(time.Minute); d.Find("#review-panel").AttrOr("data-status", "") != "done"; {
		if time.Now().After(deadline) {
			t.Fatal("the review did not finish")
		}
		time.Sleep(20 * time.Millisecond)
		d = c.get(c.path("review"))
	}
	for _, tc := range []struct{ lang, notation, want string }{
		{"en", "", "1. Ra8+"},
		{"de", "", "1. Ta8+"},
		{"ru", "", "1. Лa8+"},
		{"de", "en", "1. Ra8+"},
		{"de", "fig", "1. ♖a8+"},
	} {
		c.jar[pages.LanguageCookie] = &http.Cookie{Name: pages.LanguageCookie, Value: tc.lang}
		c.jar[pages.SettingsCookie] = &http.Cookie{Name: pages.SettingsCookie, Value: "notation=" + tc.notation}
		d := c.get(c.path("review"))
		if best := text(d, "#review-marked [data-ply='2'] .review-best"); !strings.Contains(best, tc.want) {
			t.Errorf("%s, notation %q: the better line %q, want %q in it", tc.lang, tc.notation, best, tc.want)
		}
	}
}
