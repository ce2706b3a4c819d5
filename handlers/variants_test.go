package handlers

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules/rulestest"
	"github.com/banchess/banchess/store"
)

// values lists the value attributes of the elements sel finds.
func values(d *goquery.Document, sel string) []string {
	var out []string
	d.Find(sel).Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("value", "")) })
	return out
}

// TestFourthVariant: a variant the handlers and views have never heard of
// (rulestest.NoFifty), registered with the service, is in every list of
// variants the pages offer but the computer's, which does not play it; a
// game of it is played as its hooks say.
func TestFourthVariant(t *testing.T) {
	e := echo.New()
	New(newService(store.NewMemory(), games.WithLoader(games.NewLoader(games.DefaultLimits(), rulestest.Variants()...))), apiClock).Register(e)
	c := newClientOn(t, e)
	all := []string{"ban", "classic", "en", "nofifty"}
	d := c.post("/new", url.Values{"variant": {"classic"}})
	start := c.get("/new")
	for _, tc := range []struct {
		list string
		d    *goquery.Document
		sel  string
		want []string
	}{
		{"new game", start, ".new-game button[name=variant]", all},
		{"play a friend", start, ".invite-form:not(.bot-form) select[name=variant] option", all},
		{"import", start, "#import select[name=variant] option", append([]string{""}, all...)},
		{"play the computer", start, ".bot-form select[name=variant] option", []string{"ban", "classic", "en"}},
		{"play from here", d, "#branch button[name=variant]", []string{"ban", "classic", "nofifty"}},
	} {
		if got := values(tc.d, tc.sel); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.list, got, tc.want)
		}
	}
	if got := values(c.get("/editor"), "#editor-variant option"); !slices.Equal(got, []string{"ban", "classic", "nofifty"}) {
		t.Errorf("the editor: %v", got)
	}
	ed := c.get("/editor?v=nofifty&board=4k3/8/8/8/8/8/8/4K3&act=move&ban=e1e2")
	if ed.Find("#editor-variant option[value=nofifty][selected]").Length() != 1 || ed.Find("#editor-act").Length() != 1 ||
		ed.Find("#editor-fen").AttrOr("value", "") != "4k3/8/8/8/8/8/8/4K3 w - - 0 1 2:e1e2" {
		t.Errorf("the editor of NoFifty: %q", ed.Find("#editor-fen").AttrOr("value", ""))
	}

	// A game of it: bans, and no draw at the hundredth halfmove.
	d = c.get("/?" + url.Values{"v": {"nofifty"}, "fen": {"4k3/8/8/8/8/8/8/R3K3 w - - 99 80 1"}}.Encode())
	if got := text(d, "label[for=action-text]"); got != "Type a ban or a move" {
		t.Errorf("the typed form: %q", got)
	}
	c.post(c.path("ply"), url.Values{"text": {"a1a8"}, "ply": {"1"}})
	d = c.post(c.path("ply"), url.Values{"text": {"Ra2"}, "ply": {"2"}})
	if got := fen(d); got != "4k3/8/8/8/8/8/R7/4K3 b - - 100 80 3" {
		t.Errorf("after the hundredth halfmove: %s (%s)", got, text(d, "#status"))
	}
	if title := text(d, ".your-games .game-title"); title != "Ban Chess without the fifty-move rule · this game" {
		t.Errorf("the list of games: %q", title)
	}
}

// TestBranchOnItsBoard: an EN-Chess game offers to play its positions as
// EN-Chess only, x squares and all, and refuses Ban Chess.
func TestBranchOnItsBoard(t *testing.T) {
	c := newClient(t)
	c.post("/new", url.Values{"variant": {"en"}})
	game := c.id
	d := c.post(c.path("ply"), url.Values{"text": {"e4"}, "ply": {"1"}})
	if got := values(d, "#branch button[name=variant]"); !slices.Equal(got, []string{"en"}) || d.Find("#branch-en").Length() != 1 {
		t.Fatalf("Play from here: %v", got)
	}
	d = c.post(kit.GamePath(game)+"/branch", url.Values{"index": {"1"}, "variant": {"en"}})
	if c.id == game || fen(d) != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 Aa" {
		t.Errorf("EN-Chess from ply 1: %s", fen(d))
	}
	rec := c.do(http.MethodPost, kit.GamePath(game)+"/branch", url.Values{"index": {"1"}, "variant": {"ban"}}, false)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "A position of EN-Chess cannot be played as Ban Chess.") {
		t.Errorf("EN-Chess as Ban Chess: %d", rec.Code)
	}
}
