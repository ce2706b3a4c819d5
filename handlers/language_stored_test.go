package handlers

import (
	"encoding/json"
	"net/http"
	"testing"

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
	for _, tc := range []struct{ accept, want string }{
		{"en", "It is your turn in game " + white.id + "."},
		{"de", "Du bist in der Partie " + white.id + " am Zug."},
		{"ru", "Ваш ход в партии " + white.id + "."},
	} {
		d := parse(t, white.navigate("/inbox", "Accept-Language", tc.accept))
		if got := text(d, ".inbox-list li a"); got != tc.want {
			t.Errorf("the inbox in %s says %q, want %q", tc.accept, got, tc.want)
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
