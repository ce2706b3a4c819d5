package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/banchess/banchess/handlers/pages"
)

// firstSquare is the square at the top left of the board.
func firstSquare(d *goquery.Document) string {
	return d.Find("#board [data-square]").First().AttrOr("data-square", "")
}

// TestSettingsSurviveLinksAndNewGames: auto-flip chosen once is remembered
// (a cookie) on every page of every game, until turned off; a flip is a
// view of one game: its page's links and forms carry it, and no other
// game, new or old, is flipped by it.
func TestSettingsSurviveLinksAndNewGames(t *testing.T) {
	c := newClient(t)
	c.start()
	d := c.get(c.page() + "?flip=1")
	if first := firstSquare(d); first != "h1" {
		t.Fatalf("?flip=1 starts at %q", first)
	}
	if ck := c.jar[pages.SettingsCookie]; ck != nil && strings.Contains(ck.Value, "flip") {
		t.Fatalf("the flip was remembered: settings cookie %+v", ck)
	}
	if off, _ := d.Find("#flip").Attr("href"); off != c.page() {
		t.Errorf("the flip link of a flipped board is %q, want the game's plain address", off)
	}
	if d.Find(`form.typed input[name=flip][value="1"]`).Length() != 1 {
		t.Error("the flipped page's forms do not carry the flip")
	}
	if first := firstSquare(c.get(c.page())); first != "a8" {
		t.Errorf("the game's own link is flipped: starts at %q", first)
	}
	d = c.post("/new", vals("variant", "ban", "flip", "1")) // posted from a flipped page
	if first := firstSquare(d); first != "a8" {
		t.Errorf("a new game took the flip of the page it was started from: starts at %q", first)
	}
	// Auto-flip: at Black's ban, Black is at the bottom.
	c.get(c.page() + "?auto=1")
	d = c.get(c.page())
	if first := firstSquare(d); first != "h1" || d.Find("#autoflip[aria-checked=true]").Length() != 1 {
		t.Errorf("auto-flip not remembered: starts at %q", first)
	}
}

// TestSettingsForm: without JavaScript the settings form saves sound and
// board size, and a bad value falls back to the default.
func TestSettingsForm(t *testing.T) {
	c := newClient(t)
	c.start()
	for _, tc := range []struct {
		form      url.Values
		size      string
		soundOn   bool
		cookieHas string
	}{
		{vals("sound", "0", "size", "80"), "80", false, "sound=0"},
		{url.Values{"sound": {"0", "1"}, "size": {"75"}}, "75", true, "size=75"},
		{vals("size", "7"), "100", true, "size=100"},
		{vals("size", "<b>"), "100", true, "size=100"},
	} {
		tc.form.Set("back", c.id)
		rec := c.do(http.MethodPost, "/settings", tc.form, false)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != c.page() {
			t.Fatalf("POST /settings %v: %d %q", tc.form, rec.Code, rec.Header().Get("Location"))
		}
		if ck := c.jar[pages.SettingsCookie]; ck == nil || !strings.Contains(ck.Value, tc.cookieHas) {
			t.Errorf("%v: cookie %+v, want %s", tc.form, ck, tc.cookieHas)
		}
		d := c.get(c.page())
		if !d.Find("main#game").HasClass("size-" + tc.size) {
			t.Errorf("%v: #game %q, want size-%s", tc.form, d.Find("main#game").AttrOr("class", ""), tc.size)
		}
		if got := d.Find(`#board-size option[selected]`).AttrOr("value", ""); got != tc.size {
			t.Errorf("%v: size %q selected, want %s", tc.form, got, tc.size)
		}
		if on := d.Find(`#settings input[type=checkbox][name=sound][checked]`).Length() == 1; on != tc.soundOn {
			t.Errorf("%v: sound on = %v", tc.form, on)
		}
	}
	// A settings cookie that is not ours changes nothing.
	c.jar[pages.SettingsCookie] = &http.Cookie{Name: pages.SettingsCookie, Value: "%zz;size=9000"}
	if d := c.get(c.page()); !d.Find("main#game").HasClass("size-100") {
		t.Errorf("a bad cookie gave %q", d.Find("main#game").AttrOr("class", ""))
	}
}

// TestTitleSaysWhatToDo: the tab's title says whose turn it is and what to
// do, then how the game ended; the status carries it for partial swaps.
func TestTitleSaysWhatToDo(t *testing.T) {
	c := newClient(t)
	d := c.start()
	if got := d.Find("title").Text(); got != "Black to ban · Ban Chess" {
		t.Errorf("title %q", got)
	}
	d = c.post(c.path("ply"), vals("text", "e2e4"))
	if got := d.Find("title").Text(); got != "White to move · Ban Chess" || d.Find("#status").AttrOr("data-title", "") != got {
		t.Errorf("title %q, status says %q", got, d.Find("#status").AttrOr("data-title", ""))
	}
	if s := d.Find("#status").AttrOr("data-sound", ""); s != "ban" {
		t.Errorf("sound after a ban %q", s)
	}
	d = c.post(c.path("resign"), vals("side", "white"))
	if got := d.Find("title").Text(); got != "White resigns · 0-1" {
		t.Errorf("title %q", got)
	}
}
