package handlers

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"
)

// TestEditorLockedInLiveGames: the app's own links do not lead around the
// analysis lock of a live game between two players — its pages (the
// game's, its history view's) offer no "Edit this position" (the editor
// analyses), and the editor's addresses through the game refuse (403
// analysis_locked); once the game ends both open, and the ply that ends it
// brings the link in its delta.
func TestEditorLockedInLiveGames(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	id, white, black := a.liveGame()
	for _, token := range []string{"", white, black} {
		for _, path := range []string{"/g/" + id, "/g/" + id + "/history/1"} {
			req := a.request(http.MethodGet, path, "")
			if token != "" {
				req.AddCookie(&http.Cookie{Name: kit.PlayerCookie, Value: token})
			}
			d := parseBody(t, a.send(req))
			if d.Find("a#edit-position").Length() != 0 || d.Find("#edit-position[hidden]").Length() != 1 {
				t.Errorf("GET %s as %q: the page links to the editor during the game", path, token)
			}
		}
	}
	for _, path := range []string{"/g/" + id + "/edit", "/g/" + id + "/history/1/edit"} {
		if r := a.do(http.MethodGet, path, ""); r.code != http.StatusForbidden {
			t.Errorf("GET %s during the game: %d %.200s", path, r.code, r.body)
		}
	}
	if r := a.doAs(white, http.MethodPost, "/api/games/"+id+"/resign", `{"color":"white"}`); r.code != http.StatusOK {
		t.Fatalf("resigning: %d %s", r.code, r.body)
	}
	for _, path := range []string{"/g/" + id + "/edit", "/g/" + id + "/history/1/edit"} {
		if r := a.do(http.MethodGet, path, ""); r.code != http.StatusSeeOther {
			t.Errorf("GET %s once the game is over: %d %.200s", path, r.code, r.body)
		}
	}
	if d := parseBody(t, a.do(http.MethodGet, "/g/"+id, "")); d.Find("a#edit-position").Length() != 1 {
		t.Error("the page of the game over has no link to the editor")
	}
}

// TestEditorLinkAfterTheLastPly: the delta of the ply that ends a game
// between two players brings back the link to the editor.
func TestEditorLinkAfterTheLastPly(t *testing.T) {
	a := newAnalysisAPI(t, &quickAnalyser{})
	var created, joined struct{ ID, InviteCode, Token string }
	// Black's ban of the en passant capture, White's only escape, mates.
	json.Unmarshal(a.as("", "/api/games", `{"mode":"invite","color":"white","fen":"7k/8/p4n2/bpP5/2K5/4q3/8/8 w - b6 0 1"}`, http.StatusCreated), &created)
	json.Unmarshal(a.as("", "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`, http.StatusOK), &joined)
	req := a.request(http.MethodPost, "/g/"+created.ID+"/ply", "")
	req.Body = io.NopCloser(strings.NewReader("text=b%3Ac5b6&ply=1"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.AddCookie(&http.Cookie{Name: kit.PlayerCookie, Value: joined.Token})
	r := a.send(req)
	d := parseBody(t, r)
	if r.code != http.StatusOK || d.Find("#banner").Length() == 0 || d.Find(`a#edit-position[hx-swap-oob="true"]`).Length() != 1 {
		t.Errorf("the mating ban's delta: %d, no link to the editor: %.500s", r.code, r.body)
	}
}
