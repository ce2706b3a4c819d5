package handlers

import (
	"net/http"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

// TestSeatNamesInLanguage (issue 43): the players' strips say in the
// viewer's language who sits where no name is: a free seat, a player
// without a name, the computer and its level; in the pseudo-locale the
// strips show no word that came from outside the catalogs.
func TestSeatNamesInLanguage(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	page := kit.GamePath(white.id)
	name := func(c *client, accept, side string) string {
		t.Helper()
		return text(parse(t, c.navigate(page, "Accept-Language", accept)), `[data-player="`+side+`"] .player-name`)
	}
	for _, tc := range []struct{ accept, want string }{
		{"en", "Waiting for a player"},
		{"de", "Wartet auf einen Spieler"},
		{"he", "ממתינים לשחקן"},
	} {
		if got := name(white, tc.accept, "black"); got != tc.want {
			t.Errorf("the free seat in %s: %q, want %q", tc.accept, got, tc.want)
		}
	}
	pseudoCheckParts(t, pseudo(white), page, ".strip", 2)
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("join: %d", rec.Code)
	}
	for _, tc := range []struct{ accept, want string }{
		{"en", "Anonymous"},
		{"fr", "Anonyme"},
		{"ru", "Аноним"},
	} {
		for _, side := range []string{"white", "black"} {
			if got := name(black, tc.accept, side); got != tc.want {
				t.Errorf("%s without a name in %s: %q, want %q", side, tc.accept, got, tc.want)
			}
		}
	}
	pseudoCheckParts(t, pseudo(black), page, ".strip", 2)

	bot := newClientOn(t, newBotServer(t, &gatedEngine{go_: make(chan struct{})}))
	bot.post("/new", vals("mode", "bot", "color", "black", "level", "2", "variant", "ban"))
	for _, tc := range []struct{ accept, want string }{
		{"en", "Computer · level 2"},
		{"es", "Ordenador · nivel 2"},
		{"de", "Computer · Stufe 2"},
	} {
		if got := text(parse(t, bot.navigate(bot.page(), "Accept-Language", tc.accept)), `[data-player="white"] .player-name`); got != tc.want {
			t.Errorf("the computer in %s: %q, want %q", tc.accept, got, tc.want)
		}
	}
	pseudoCheckParts(t, pseudo(bot), bot.page(), ".strip", 2)
}
