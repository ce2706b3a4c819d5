package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// TestForecastsOnAnalysisBoard: at a correspondence game, White's
// analysis board, while Black is to act, lets White play a line from the
// position now (Black's expected ban, White's reply) and save it as a
// forecast; the forecasts stored are listed there with Delete, shown to
// White alone (not to Black, nor to a spectator), and on the game's page
// too; the board of a game in play is refused to others; a line without a reply is refused on the board and stores
// nothing; a live game's board has no forecasts.
func TestForecastsOnAnalysisBoard(t *testing.T) {
	e := newServer()
	white, invite := inviteGame(t, e, "white", "3d")
	black, watcher := newClientOn(t, e), newClientOn(t, e)
	black.join(invite)
	board := white.path("analysis")

	d := white.get(board)
	if d.Find("#forecast-board").Length() != 1 || d.Find("#forecast-how").Length() != 1 || d.Find("#forecast-board-none").Length() != 1 {
		t.Fatalf("White's board has no forecasts: %q", text(d, "#lines-panel"))
	}
	if d.Find("form#line-play").Length() != 1 {
		t.Fatalf("White's board does not play from the position now")
	}
	for who, c := range map[string]*client{"Black": black, "a spectator": watcher} {
		// The board of a game in play is the forecaster's alone.
		if rec := c.do(http.MethodGet, board, nil, false); rec.Code != http.StatusForbidden || strings.Contains(rec.Body.String(), "forecast-board") {
			t.Errorf("%s's board: %d, forecasts shown: %v", who, rec.Code, strings.Contains(rec.Body.String(), "forecast-board"))
		}
	}

	// A line played on the board from now stays in the page till saved.
	d = white.post(white.path("lines/play"), vals("action", "b:e2e4"))
	d = white.post(white.path("lines/play"), vals("moves", d.Find("#line-play input[name=moves]").AttrOr("value", ""), "action", "d2d4"))
	save := d.Find("form#forecast-save")
	moves := save.Find("input[name=moves]").AttrOr("value", "")
	if save.Length() != 1 || moves != "b:e2e4,m:d2d4" || !strings.Contains(save.Text(), "d4") {
		t.Fatalf("the save form after playing a line: %q (moves %q)", text(d, "#forecast-board"), moves)
	}

	// Refused: a line without a reply of White's.
	rec := white.do(http.MethodPost, white.path("forecasts/save"), vals("moves", "b:e2e4"), false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(text(parse(t, rec), "#line-error"), "none of your replies") {
		t.Errorf("saving a line without a reply: %d %q", rec.Code, text(parse(t, rec), "#line-error"))
	}

	rec = white.do(http.MethodPost, white.path("forecasts/save"), vals("moves", moves), false)
	if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "/analysis?ply=") {
		t.Fatalf("saving: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	white.post(white.path("forecasts/save"), vals("moves", moves)) // again: kept once
	white.post(white.path("forecasts/save"), vals("moves", "b:c2c4,m:e2e4"))
	d = white.get(board)
	rows := d.Find("#forecast-board-lines li")
	if rows.Length() != 2 || !strings.Contains(rows.Eq(0).Text(), "b:e2e4 m:d2d4") || !strings.Contains(rows.Eq(1).Text(), "b:c2c4 m:e2e4") {
		t.Fatalf("White's stored forecasts: %q", text(d, "#forecast-board"))
	}
	gp := white.get(white.page())
	if got := text(gp, "#forecast-lines"); !strings.Contains(got, "b:e2e4 m:d2d4") {
		t.Errorf("the game's page lists %q", got)
	}
	if href := gp.Find("a#forecast-on-board").AttrOr("href", ""); !strings.HasPrefix(href, board) {
		t.Errorf("the game's forecasts lead to the board at %q", href)
	}
	for _, c := range []*client{black, watcher} {
		if rec := c.do(http.MethodGet, board, nil, false); strings.Contains(rec.Body.String(), "m:d2d4") {
			t.Error("another's board shows White's forecast")
		}
	}

	// Deleted.
	if rec := white.do(http.MethodPost, white.path("forecasts/delete"), vals("index", "5"), false); rec.Code != http.StatusBadRequest {
		t.Errorf("deleting a line that is not: %d", rec.Code)
	}
	d = white.post(white.path("forecasts/delete"), vals("index", "0"))
	if rows := d.Find("#forecast-board-lines li"); rows.Length() != 1 || !strings.Contains(rows.Text(), "b:c2c4") {
		t.Errorf("after deleting the first: %q", text(d, "#forecast-board"))
	}
	if rec := black.do(http.MethodPost, white.path("forecasts/delete"), vals("index", "0"), false); rec.Code < 400 {
		t.Errorf("Black deleting White's forecast: %d", rec.Code)
	}

	live, _ := inviteGame(t, e, "white", "5+3")
	if rec := live.do(http.MethodGet, live.path("analysis"), nil, false); strings.Contains(rec.Body.String(), "forecast-board") {
		t.Error("a live game's board offers forecasts")
	}
}
