package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

// TestHomePage (issue 37, item 9): a first visit gets a page that says
// what Ban Chess is and offers three ways in — someone online, the
// computer, the rules — and a game on this device, all plain links and
// forms, and no cookie; a returning player's last game is one click
// away: not a game where nothing was played, nor an aborted one, and an
// unfinished game where it is their turn before one where it is not.
func TestHomePage(t *testing.T) {
	e := newServer()
	c := newClientOn(t, e)
	rec := c.do(http.MethodGet, "/", nil, false)
	d := parse(t, rec)
	if rec.Code != http.StatusOK || len(rec.Result().Cookies()) != 0 {
		t.Fatalf("GET /: %d, cookies %v, want 200 and none", rec.Code, rec.Result().Cookies())
	}
	if h1 := text(d, "main h1"); h1 != "Ban Chess" || !strings.Contains(text(d, "#pitch"), "bans one of your moves") {
		t.Errorf("the home page's heading %q and pitch %q", h1, text(d, "#pitch"))
	}
	for sel, href := range map[string]string{"#home-online": "/lobby", "#home-computer": "/new#bot-title", "#home-learn": "/rules"} {
		if got := d.Find(sel).AttrOr("href", ""); got != href {
			t.Errorf("%s leads to %q, want %q", sel, got, href)
		}
	}
	if d.Find(`form[action="/new"][method="post"] input[name="mode"][value="hotseat"] ~ #home-hotseat`).Length() != 1 {
		t.Error("no form to play on this device")
	}
	if d.Find("#last-game, #home-games").Length() != 0 {
		t.Error("a first visit is offered a last game")
	}

	// A game where nothing was played is not a last game; once played,
	// it is, with the viewer to play.
	c.start()
	hot := c.id
	if got := c.lastGame(); got != "" {
		t.Errorf("a game where nothing was played is the last game: %s", got)
	}
	c.post(kit.GamePath(hot)+"/ply", vals("text", "b:e2e4"))
	d = c.get("/")
	if got := gameOf(d.Find("#last-game").AttrOr("href", "")); got != hot || text(d, "#home-last-title") != "Continue your game" || !strings.Contains(text(d, "#last-game"), "Your turn") {
		t.Errorf("the last game %q, %q %q, want %s, to continue, the viewer's turn", got, text(d, "#home-last-title"), text(d, "#last-game"), hot)
	}

	// A later game with a friend, where the friend is to play, comes
	// after the game where it is the viewer's turn; aborted, it is no
	// last game at all.
	creator, invite := inviteGame(t, e, "white", "")
	if rec := c.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	id := gameOf(invite)
	c.post(kit.GamePath(id)+"/ply", vals("text", "b:e2e4")) // Black bans: White, the friend, moves next
	if got := c.lastGame(); got != hot {
		t.Errorf("the last game is %s, want %s, where it is the viewer's turn", got, hot)
	}
	c.post(kit.GamePath(hot)+"/hide", vals())
	if got := c.lastGame(); got != id {
		t.Errorf("with the hot-seat game hidden the last game is %q, want the friend's game %s", got, id)
	}
	if rec := creator.do(http.MethodPost, kit.GamePath(id)+"/abort", vals(), false); rec.Code != http.StatusSeeOther {
		t.Fatalf("abort: %d %s", rec.Code, errorText(parse(t, rec)))
	}
	if d := c.get("/"); d.Find("#last-game").Length() != 0 || d.Find("#home-games").Length() != 1 {
		t.Errorf("an aborted game is the last game (%q), or the list is not offered", d.Find("#last-game").AttrOr("href", ""))
	}
}
