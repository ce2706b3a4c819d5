package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/rules"
)

// annotatedGames are PGNs with nested variations, NAGs and comments: a
// classic game and a Ban Chess game with bans in its variations.
var annotatedGames = []string{"evergreen.pgn", "ban-club-game.pgn"}

// annotatedPGN reads one of rules/testdata/annotated and the movetext the
// game it holds writes, with its variations, NAGs and comments.
func annotatedPGN(t *testing.T, name string) (pgn, movetext string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "rules", "testdata", "annotated", name))
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.FromPGN(string(b), rules.PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	return string(b), movetextOf(t, g.Record().PGN())
}

// movetextOf returns what follows a PGN's tags.
func movetextOf(t *testing.T, pgn string) string {
	t.Helper()
	_, moves, ok := strings.Cut(pgn, "\n\n")
	if !ok || !strings.Contains(moves, "(") || !strings.Contains(moves, "$") {
		t.Fatalf("a PGN without variations or NAGs:\n%s", pgn)
	}
	return moves
}

// TestImportKeepsVariations: a PGN imported on the page keeps its
// variations, NAGs and comments, and the game's PGN — downloaded, and in
// the page's export panel — carries them.
func TestImportKeepsVariations(t *testing.T) {
	for _, name := range annotatedGames {
		t.Run(name, func(t *testing.T) {
			pgnText, want := annotatedPGN(t, name)
			c := newClient(t)
			c.start()
			d := c.post("/import", url.Values{"text": {pgnText}})
			if n := d.Find("#history a[data-ply]").Length(); n == 0 || strings.Contains(text(d, "#notice"), "dropped") {
				t.Errorf("%d plies, notice %q", n, text(d, "#notice"))
			}
			pgn := c.do(http.MethodGet, kit.GamePath(c.id)+"/pgn", nil, false).Body.String()
			if got := movetextOf(t, pgn); got != want {
				t.Errorf("the download:\n%s\nwant\n%s", got, want)
			}
			if panel := text(c.get(c.page()+"?export=1"), "#pgn"); !strings.Contains(panel, strings.Join(strings.Fields(want), " ")) {
				t.Errorf("the export panel:\n%s", panel)
			}
		})
	}
}

// TestAPIImportKeepsVariations: POST /api/games with an annotated PGN
// keeps its variations, NAGs and comments: the game object's pgn and
// GET /api/games/{id}/pgn carry them.
func TestAPIImportKeepsVariations(t *testing.T) {
	a := newAPI(t)
	for _, name := range annotatedGames {
		text, want := annotatedPGN(t, name)
		body, _ := json.Marshal(map[string]string{"pgn": text})
		g := a.game(a.do(http.MethodPost, "/api/games", string(body)), http.StatusCreated)
		if got := movetextOf(t, g.PGN); got != want {
			t.Errorf("%s: the game's pgn:\n%s\nwant\n%s", name, got, want)
		}
		if r := a.do(http.MethodGet, "/api/games/"+g.ID+"/pgn", ""); r.code != http.StatusOK || string(r.body) != g.PGN {
			t.Errorf("%s: GET …/pgn %d:\n%s", name, r.code, r.body)
		}
	}
	// An illegal variation is refused, saying where.
	body, _ := json.Marshal(map[string]string{"pgn": "1. e4 e5 (1... e4) *"})
	if msg := a.fail(a.do(http.MethodPost, "/api/games", string(body)), http.StatusBadRequest, "bad_pgn"); !strings.Contains(msg, "in the variation for 1... e5") {
		t.Errorf("an illegal variation: %q", msg)
	}
}
