package handlers

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// applySwaps does to page what htmx does with an htmx answer (rec) to a
// request from it: every element of the answer with hx-swap-oob swaps the
// page's element of its id (outerHTML, the default), or the element its
// value names ("innerHTML", "beforeend:#history") with its children; then,
// unless the answer says HX-Reswap: none (a delta), what is left (#game)
// replaces the page's #game. It fails the test when a target is missing.
// Before a delta it drops what is the page's own until its next swap, as
// static/board.js does (a delta describes the page without it); after
// one it marks the ply shown, as static/steps.js does (markLastPly).
func applySwaps(t *testing.T, page *goquery.Document, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Header().Get("HX-Reswap") == "none" {
		if got, want := rec.Header().Get("Delta-Ply"), shownPly(page); got != want {
			t.Fatalf("a delta made from ply %q for a page at ply %q (live.js would not swap it)", got, want)
		}
		if rev, err := strconv.ParseInt(rec.Header().Get("Delta-Rev"), 10, 64); err != nil || rev < 1 {
			t.Fatalf("a delta without the revision it brings: Delta-Rev %q", rec.Header().Get("Delta-Rev"))
		}
		clearSelection(page)
	}
	answer, err := goquery.NewDocumentFromReader(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatal(err)
	}
	answer.Find("[hx-swap-oob]").Each(func(_ int, el *goquery.Selection) {
		v, _ := el.Attr("hx-swap-oob")
		el.RemoveAttr("hx-swap-oob")
		style, sel := "outerHTML", "#"+el.AttrOr("id", "")
		if s, target, ok := strings.Cut(v, ":"); ok {
			style, sel = s, target
		} else if v != "true" {
			style = v
		}
		target := page.Find(sel)
		if target.Length() != 1 {
			t.Fatalf("out-of-band swap %q %q: %d targets in the page", v, sel, target.Length())
		}
		switch style {
		case "outerHTML":
			target.ReplaceWithSelection(el)
		case "innerHTML":
			target.Empty() // which returns the children it removed
			target.AppendSelection(el.Contents())
		case "beforeend":
			target.AppendSelection(el.Contents())
		default:
			t.Fatalf("out-of-band swap %q: not a style the pages use", v)
		}
	})
	if rec.Header().Get("HX-Reswap") == "none" {
		markLastPly(page)
		return
	}
	game := answer.Find("main#game")
	if game.Length() != 1 {
		t.Fatalf("the answer has %d #game and is not a delta: %.300s", game.Length(), rec.Body.String())
	}
	page.Find("main#game").ReplaceWithSelection(game)
}

// markLastPly does what static/steps.js does after every swap on a game's
// own page: of the history's links, the last ply's (#board-ply's
// data-shown-ply) alone is marked as the one shown. A delta leaves the
// mark on the ply the page showed before it.
func markLastPly(page *goquery.Document) {
	last := page.Find("#board-ply").AttrOr("data-shown-ply", "")
	page.Find("#history a[data-ply]").Each(func(_ int, a *goquery.Selection) {
		if a.AttrOr("data-ply", "") == last {
			a.SetAttr("aria-current", "step")
		} else {
			a.RemoveAttr("aria-current")
		}
	})
}

// copyDoc is a copy of d, parsed again from its HTML.
func copyDoc(t *testing.T, d *goquery.Document) *goquery.Document {
	t.Helper()
	h, err := d.Html()
	if err != nil {
		t.Fatal(err)
	}
	out, err := goquery.NewDocumentFromReader(strings.NewReader(h))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// clearSelection drops what board.js drops before a swap: the marks of
// the piece picked and of its destinations, and the board's from field
// (its clear); the refusal or notice shown; the promotion picker.
func clearSelection(page *goquery.Document) {
	page.Find("#notes #error, #notes #notice").Remove()
	page.Find("#promotion-slot").Empty()
	page.Find("#board-from").SetAttr("value", "")
	page.Find("#board button[data-square]").Each(func(_ int, b *goquery.Selection) {
		b.RemoveClass("selected", "dest", "capture", "promo")
		b.SetAttr("name", "square")
		b.RemoveAttr("formaction")
		b.RemoveAttr("aria-pressed")
	})
}
