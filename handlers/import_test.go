package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/rules"
)

func classic(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "rules", "testdata", "classics", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportKeepsTheGame: a chess PGN imported on the page is a Classic
// game of all its moves, each of which can be stepped through; its tags
// and comments come back in its PGN as they were; and any ply starts Ban
// Chess from its position.
func TestImportKeepsTheGame(t *testing.T) {
	for _, tc := range []struct {
		file  string
		plies int
	}{{"opera.pgn", 33}, {"immortal.pgn", 45}, {"reykjavik-1972-1.pgn", 111}} {
		t.Run(tc.file, func(t *testing.T) {
			c := newClient(t)
			c.start()
			pgnText := classic(t, tc.file)
			d := c.post("/import", url.Values{"text": {pgnText}, "game": {c.id}})
			if !strings.Contains(text(d, "#status"), "Game over") || !strings.Contains(text(d, "#notice"), "Classic game of all its moves") {
				t.Errorf("status %q, notice %q", text(d, "#status"), text(d, "#notice"))
			}
			if n := d.Find("#history a[data-ply]").Length(); n != tc.plies {
				t.Errorf("the history lists %d plies, want %d", n, tc.plies)
			}
			game := c.id
			fens := map[string]bool{}
			for i := 0; i <= tc.plies; i++ {
				v := c.get(kit.GamePath(game) + "/history/" + strconv.Itoa(i))
				fens[fen(v)] = true
				if cur := v.Find("#history a.current").Length(); cur != min(i, 1) || v.Find(`#board-ply[data-shown-ply="`+strconv.Itoa(i)+`"]`).Length() != 1 {
					t.Fatalf("ply %d: %d plies marked current, or the board shows another", i, cur)
				}
			}
			if len(fens) != tc.plies+1 {
				t.Errorf("%d positions in %d steps", len(fens), tc.plies+1)
			}
			pgn := c.do(http.MethodGet, kit.GamePath(game)+"/pgn", nil, false).Body.String()
			for _, line := range strings.Split(pgnText, "\n") {
				if strings.HasPrefix(line, "[") && !strings.Contains(pgn, line+"\n") {
					t.Errorf("the exported PGN lost %s", line)
				}
			}
			if strings.Contains(pgn, "Ban Chess playground") {
				t.Error("the export writes the playground's Site over the game's")
			}
		})
	}
}

func TestImportComments(t *testing.T) {
	c := newClient(t)
	c.start()
	d := c.post("/import", url.Values{"text": {classic(t, "opera.pgn")}})
	if got := text(d, "#history li.start .comment"); got != "Played in a box at the opera during a performance." {
		t.Errorf("the start's comment %q", got)
	}
	if got := text(d, `#history a[data-ply="4"] + .comment`); got != "Philidor's Defence." {
		t.Errorf("the comment after 2... d6: %q", got)
	}
	if pgn := text(c.get(c.page()+"?export=1"), "#pgn"); !strings.Contains(pgn, "{Philidor's Defence.}") || !strings.Contains(pgn, `[Site "Paris FRA"]`) {
		t.Errorf("the page's PGN: %s", pgn)
	}
}

// TestPlayBanChessFromHere: at any ply of a game, a new Ban Chess game
// starts from that position at its own address, at its first ban, and
// the game stays.
func TestPlayBanChessFromHere(t *testing.T) {
	c := newClient(t)
	c.start()
	c.post("/import", url.Values{"text": {classic(t, "immortal.pgn")}})
	game := c.id
	for _, n := range []int{0, 7, 20, 45} {
		v := c.get(kit.GamePath(game) + "/history/" + strconv.Itoa(n))
		want := strings.Join(strings.Fields(fen(v))[:6], " ")
		if v.Find("#branch-ban").Length() != 1 {
			t.Fatalf("ply %d offers no Play Ban Chess from here", n)
		}
		d := c.post(kit.GamePath(game)+"/branch", url.Values{"index": {strconv.Itoa(n)}, "variant": {"ban"}})
		if c.id == game {
			t.Fatal("the new game has the imported game's address")
		}
		first := " 1"
		if strings.Fields(want)[1] == "b" {
			first = " 3"
		}
		if got := fen(d); !strings.HasPrefix(got, want+first) {
			t.Errorf("ply %d: the new game's FEN %q, want %q", n, got, want+first)
		}
		if d.Find("#history a[data-ply]").Length() != 0 {
			t.Errorf("ply %d: the new game has plies", n)
		}
		c.id = game
	}
	if d := c.get(kit.GamePath(game)); d.Find("#history a[data-ply]").Length() != 45 {
		t.Error("the imported game changed")
	}
	rec := c.do(http.MethodPost, kit.GamePath(game)+"/branch", url.Values{"index": {"46"}}, false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "no ply 46") {
		t.Errorf("ply 46: %d", rec.Code)
	}
}

func TestImportChoices(t *testing.T) {
	c := newClient(t)
	c.start()
	home := c.id
	two := classic(t, "opera.pgn") + "\n" + classic(t, "immortal.pgn")
	rec := c.do(http.MethodPost, "/import", url.Values{"text": {two}, "game": {home}}, false)
	d := parse(t, rec)
	if rec.Code != http.StatusOK || d.Find("#import-games input[name=pgn_game]").Length() != 2 || c.id != home {
		t.Fatalf("%d: %d choices", rec.Code, d.Find("#import-games input").Length())
	}
	if got := text(d, "#import-games label:nth-of-type(2)"); !strings.Contains(got, "Adolf Anderssen – Lionel Kieseritzky, 1-0, 1851.06.21") {
		t.Errorf("the second choice %q", got)
	}
	d = c.post("/import", url.Values{"text": {two}, "pgn_game": {"1"}})
	if c.id == home || d.Find("#history a[data-ply]").Length() != 45 {
		t.Errorf("the chosen game: %d plies", d.Find("#history a[data-ply]").Length())
	}
}

func TestImportVariantAndStart(t *testing.T) {
	c := newClient(t)
	c.start()
	// Classic beside the box applies to a PGN with bans: refused, as
	// Classic has none.
	rec := c.do(http.MethodPost, "/import", url.Values{"text": {"1. {banning: e2e4} d4 *"}, "variant": {"classic"}, "game": {c.id}}, false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(errorText(parse(t, rec)), "no bans") {
		t.Errorf("a Ban Chess PGN as Classic: %d %s", rec.Code, errorText(parse(t, rec)))
	}
	// Opened at its start: the read-only view of ply 0.
	rec = c.do(http.MethodPost, "/import", url.Values{"text": {classic(t, "opera.pgn")}, "at": {"start"}}, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.Contains(loc, "/history/0") {
		t.Fatalf("at start: %d %s", rec.Code, loc)
	}
	if d := c.get(loc); fen(d) != rules.StartFEN || !strings.Contains(text(d, "#notice"), "Classic") {
		t.Errorf("at start: %s, notice %q", fen(d), text(d, "#notice"))
	}
	// With htmx: the start's view, its address pushed.
	frag := c.hxPost("/import", url.Values{"text": {classic(t, "opera.pgn")}, "at": {"start"}})
	if fen(frag) != rules.StartFEN {
		t.Errorf("htmx at start: %s", fen(frag))
	}
}

// TestAPIImportKeepsTheGame: POST /api/games with a chess PGN and no
// variant does what the page does: a Classic game of all its moves, whose
// PGN keeps the file's tags and comments.
func TestAPIImportKeepsTheGame(t *testing.T) {
	a := newAPI(t)
	body, _ := json.Marshal(map[string]string{"pgn": classic(t, "opera.pgn")})
	g := a.game(a.do(http.MethodPost, "/api/games", string(body)), http.StatusCreated)
	if g.Variant != "classic" || len(g.Log) != 33 || g.Log[32] != "Rd8#" {
		t.Errorf("%s game, log %v", g.Variant, g.Log)
	}
	for _, want := range []string{`[Site "Paris FRA"]`, `[Date "1858.??.??"]`, `[Annotator "banchess test data"]`, "{Philidor's Defence.}"} {
		if !strings.Contains(g.PGN, want) {
			t.Errorf("the PGN lacks %s:\n%s", want, g.PGN)
		}
	}
}

// TestStepLinks: below the board, links step through the positions, in
// the game page and in its read-only views; the current ply is marked.
func TestStepLinks(t *testing.T) {
	c := newClient(t)
	c.start()
	d := c.post("/import", url.Values{"text": {classic(t, "immortal.pgn")}})
	base := kit.GamePath(c.id)
	href := func(d *goquery.Document, id string) string {
		v, _ := d.Find("a#" + id).Attr("href")
		return v
	}
	if href(d, "step-prev") != base+"/history/44" || href(d, "step-first") != base+"/history/0" || href(d, "step-next") != "" {
		t.Errorf("the game page's steps: %q %q %q", href(d, "step-first"), href(d, "step-prev"), href(d, "step-next"))
	}
	if cur := d.Find(`#history a[aria-current="step"]`).AttrOr("data-ply", ""); cur != "45" {
		t.Errorf("the game page marks ply %q", cur)
	}
	v := c.get(base + "/history/10")
	if href(v, "step-prev") != base+"/history/9" || href(v, "step-next") != base+"/history/11" || href(v, "step-last") != base {
		t.Errorf("ply 10's steps: %q %q %q", href(v, "step-prev"), href(v, "step-next"), href(v, "step-last"))
	}
	if v.Find("#branch-ban").Length() != 1 || !strings.Contains(text(v, ".hint"), "Play from here") {
		t.Errorf("the view does not say how to go on: %q", text(v, ".hint"))
	}
	if v := c.get(base + "/history/44"); href(v, "step-next") != base {
		t.Errorf("the last step forward leads to %q", href(v, "step-next"))
	}
	if v := c.get(base + "/history/0"); v.Find("span#step-prev").Length() != 1 {
		t.Error("the start steps back")
	}
}
