package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestCorrespondenceOnPages: "Play a friend" offers days a move; the
// game's page says "Casual 3 days a move" and shows each side's time in
// days, unticking (no data-clock); /games lists the game where it is the
// viewer's turn first, with its board, opponent and time left, and the
// header and the home page count the games awaiting the viewer. Days the
// form does not offer are refused (bad_clock) and create nothing.
func TestCorrespondenceOnPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	d := black.get(white.page())
	if got := text(d, ".table-kind"); got != "Casual 3 days a move" {
		t.Errorf("the table says %q", got)
	}
	if d.Find("[data-clock]").Length() != 0 || d.Find(".clock.days").Length() != 2 {
		t.Errorf("the clocks: %d ticking, %d in days", d.Find("[data-clock]").Length(), d.Find(".clock.days").Length())
	}
	if got := text(d, ".first-action"); got != "3 days to ban" {
		t.Errorf("the first action's time: %q", got)
	}
	for _, o := range []string{"1d", "14d", "unlimited"} {
		if white.get("/new").Find(`select[name="clock"] option[value="`+o+`"]`).Length() != 1 {
			t.Errorf("the friend's form offers no %s", o)
		}
	}

	// Black bans first: the game awaits Black.
	bd := black.get("/games")
	items := bd.Find(".turns-list li")
	if items.Length() != 1 || items.First().AttrOr("data-game-id", "") != white.id || !items.First().HasClass("your-turn") {
		t.Fatalf("Black's games in play: %q", text(bd, "#turns"))
	}
	li := items.First()
	if li.Find(".mini-board").Length() != 1 || !strings.Contains(li.Text(), "Your turn") ||
		strings.TrimSpace(li.Find(".game-left").Text()) != "3 days left" || !strings.Contains(li.Find(".game-opponent").Text(), "vs Anonymous") {
		t.Errorf("Black's game: %q", li.Text())
	}
	if got := text(bd, "#awaiting-count"); got != "1" {
		t.Errorf("Black's header counts %q awaiting", got)
	}
	if got := text(black.get("/"), "#home-awaiting"); got != "1 game awaits your move." {
		t.Errorf("Black's home page: %q", got)
	}
	wd := white.get("/games")
	if wd.Find(".turns-list li").Length() != 1 || wd.Find(".turns-list li.your-turn").Length() != 0 || wd.Find("#awaiting-count").Length() != 0 {
		t.Errorf("White's games in play: %q, header %q", text(wd, "#turns"), text(wd, "#awaiting-count"))
	}
	if got := text(white.get("/rules"), "#games-link"); got != "Your games" {
		t.Errorf("White's header link: %q", got)
	}

	// Black bans: now the game awaits White.
	black.post(white.path("ply"), vals("text", "b:e2e4"))
	if got := text(white.get("/lobby"), "#awaiting-count"); got != "1" {
		t.Errorf("White's header counts %q awaiting", got)
	}
	if black.get("/games").Find("#awaiting-count").Length() != 0 {
		t.Error("Black's header still counts a game awaiting them")
	}

	// Days not offered: refused, nothing created.
	rec := white.do(http.MethodPost, "/new", vals("mode", "invite", "variant", "ban", "clock", "4d"), false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "days a move") {
		t.Errorf("4 days a move: %d %q", rec.Code, errorText(parse(t, rec)))
	}
	if n := white.get("/games").Find(".turns-list li").Length(); n != 1 {
		t.Errorf("White has %d games in play after a refusal, want 1", n)
	}
}

// TestCorrespondenceSeekOnPages: the lobby's seek form offers days a
// move; a seek of 5 days is listed as "5 days a move".
func TestCorrespondenceSeekOnPages(t *testing.T) {
	e := newServer()
	ann := newClientOn(t, e)
	d := ann.get("/lobby")
	if d.Find(`select[name="clock"] option[value="5d"]`).Length() != 1 || d.Find(`select[name="clock"] option[value="unlimited"]`).Length() != 1 {
		t.Fatal("the seek form offers no days a move")
	}
	ann.get(ann.lobbyWait("/lobby/seek", map[string]string{"clock": "5d", "color": "white"}))
	bob := newClientOn(t, e)
	if got := text(bob.get("/lobby"), ".seek-clock"); got != "5 days a move" {
		t.Errorf("the seek's clock: %q", got)
	}
}

// TestForecastsOnPages: at a correspondence game, White's page offers a
// forecast form while Black is to act; lines typed there (squares or
// BCN) are stored, shown to White alone, and White's reply is played as
// soon as Black's ban follows the line. A line not legal is refused on
// the page and stores nothing. A live game's page has no such form.
func TestForecastsOnPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	black := newClientOn(t, e)
	black.join(invite)
	d := white.get(white.page())
	if d.Find("form textarea#forecast-text").Length() != 1 || text(d, "#forecast-none") != "No forecast stored." {
		t.Fatalf("White's page has no forecast form: %q", text(d, "#forecast"))
	}
	if black.get(white.page()).Find("form textarea#forecast-text").Length() != 0 {
		t.Error("Black's page offers forecasts at Black's own turn")
	}
	rec := white.do(http.MethodPost, white.path("forecasts"), vals("lines", "b:e2e4 d2d4 e7e5\nb:c2c4 m:e2e4\n"), false)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("storing forecasts: %d %s", rec.Code, errorText(parse(t, rec)))
	}
	d = white.get(white.page())
	if got := text(d, "#forecast-lines"); !strings.Contains(got, "b:e2e4 m:d2d4 b:e7e5") || !strings.Contains(got, "b:c2c4 m:e2e4") {
		t.Errorf("White's lines: %q", got)
	}
	if strings.Contains(black.get(white.page()).Text(), "m:d2d4") {
		t.Error("Black's page shows White's forecast")
	}
	bad := white.do(http.MethodPost, white.path("forecasts"), vals("lines", "b:e2e4 d2d5"), false)
	if bad.Code != http.StatusBadRequest || !strings.Contains(errorText(parse(t, bad)), "not legal") {
		t.Errorf("a line not legal: %d %q", bad.Code, errorText(parse(t, bad)))
	}
	black.post(white.path("ply"), vals("text", "b:e2e4"))
	d = black.get(white.page())
	if got := d.Find("#status").AttrOr("data-ply", ""); got != "4" {
		t.Errorf("after Black's ban the game is at ply %q, want 4 (White's reply played)", got)
	}
	live, _ := inviteGame(t, e, "white", "5+3")
	if live.get(live.page()).Find("#forecast").Length() != 0 {
		t.Error("a live game's page offers forecasts")
	}
}
