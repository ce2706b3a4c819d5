package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

// TestPremoveOnPages: without JavaScript, a player waiting for the
// opponent types a premove (a move and the ban after it) into the form on
// the game's page; the page shows it queued to that player alone; the
// opponent's ban plays both at once; a premove the opponent bans is
// dropped and the page says why; a queued one can be cancelled; a board
// click's form (from, to, kind) queues a move and then a ban.
func TestPremoveOnPages(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "")
	id := white.id
	black := newClientOn(t, e)
	if rec := black.join(invite); rec.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d", rec.Code)
	}
	game, premove := kit.GamePath(id), kit.GamePath(id)+"/premove"
	black.post(game+"/ply", vals("text", "b:e2e4", "ply", "1"))
	white.post(game+"/ply", vals("text", "m:d2d4", "ply", "2"))
	white.post(game+"/ply", vals("text", "b:e7e5", "ply", "3"))

	d := white.post(premove, vals("text", "c2c4 c7c5"))
	if got := text(d, "#premove-status"); !strings.Contains(got, "c2c4, then ban c7c5") {
		t.Fatalf("White's page after queueing: %q", got)
	}
	if got := d.Find("#premove").AttrOr("data-premove", ""); got != "m:c2c4 b:c7c5" {
		t.Errorf("data-premove %q", got)
	}
	if b := black.get(game); b.Find("#premove-status").Length() != 0 || b.Find("#premove").AttrOr("data-premove", "x") != "" {
		t.Fatalf("Black's page shows White's premove: %q", text(b, "#premove"))
	}
	black.post(game+"/ply", vals("text", "m:d7d5", "ply", "4"))
	black.post(game+"/ply", vals("text", "b:g1f3", "ply", "5"))
	d = white.get(game)
	if got := d.Find(`#status`).AttrOr("data-ply", ""); got != "8" {
		t.Fatalf("after Black's ban White's premove was not played: ply %q", got)
	}
	if d.Find("#premove-status").Length() != 0 {
		t.Errorf("a played premove is still shown: %q", text(d, "#premove"))
	}

	// From the board: a move from White's own piece, then a ban.
	white.post(premove, vals("from", "b1", "to", "c3", "kind", "move"))
	d = white.post(premove, vals("from", "g8", "to", "f6", "kind", "ban"))
	if got := d.Find("#premove").AttrOr("data-premove", ""); got != "m:b1c3 b:g8f6" {
		t.Fatalf("queued from the board: %q", got)
	}
	black.post(game+"/ply", vals("text", "m:e7e6", "ply", "8"))
	black.post(game+"/ply", vals("text", "b:b1c3", "ply", "9"))
	d = white.get(game)
	if got := text(d, "#premove-dropped"); !strings.Contains(got, "b1c3 was banned") {
		t.Errorf("a banned premove: %q", got)
	}
	// Queued, then cancelled.
	white.post(premove, vals("text", "g1f3"))
	d = white.post(premove, vals("cancel", "1"))
	if d.Find("#premove-status").Length() != 0 {
		t.Errorf("after cancelling: %q", text(d, "#premove"))
	}
	// Refused: a ban with no move queued, a square of no piece of White's.
	if r := white.do(http.MethodPost, premove, vals("from", "a7", "to", "a6", "kind", "ban"), false); r.Code != http.StatusBadRequest {
		t.Errorf("a pre-ban with no premove: %d", r.Code)
	}
	if r := white.do(http.MethodPost, premove, vals("text", "c3c4"), false); r.Code != http.StatusBadRequest {
		t.Errorf("a premove from an empty square: %d", r.Code)
	}
	if r := newClientOn(t, e).do(http.MethodPost, premove, vals("text", "g1f3"), false); r.Code != http.StatusForbidden && r.Code != http.StatusUnauthorized {
		t.Errorf("a spectator's premove: %d", r.Code)
	}
}
