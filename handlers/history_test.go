package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestExportAndShareLink(t *testing.T) {
	c := newClient(t)
	c.get("/?fen=" + url.QueryEscape(mateFEN))
	c.post(c.path("ply"), vals("text", "a2a3"))
	c.post(c.path("ply"), vals("text", "Bxf7+"))
	c.post(c.path("resign"), vals("side", "black"))
	d := c.get(c.page())
	if got := text(d, "#banner"); got != "Black resigns — White wins, 1-0" {
		t.Errorf("banner = %q", got)
	}
	if d.Find("#pgn, #share").Length() != 0 || d.Find(`#show-export[href="`+c.page()+`?export=1"]`).Length() != 1 {
		t.Error("the page renders the PGN and share link, or no link to them")
	}
	// The link to them: the page again with them (no JavaScript), or the
	// panel's part that holds them (htmx).
	if rec := c.do(http.MethodGet, c.path("export"), nil, false); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != c.page()+"?export=1" {
		t.Errorf("GET export: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	rec := c.do(http.MethodGet, c.path("export"), nil, true)
	if fd := parse(t, rec); rec.Code != http.StatusOK || fd.Find("#export-more #pgn").Length() != 1 || fd.Find("#game").Length() != 0 {
		t.Errorf("hx GET export: %d %.300s", rec.Code, rec.Body.String())
	}
	d = c.get(c.page() + "?export=1")
	rec = c.do(http.MethodGet, c.path("pgn"), nil, false)
	if ct := rec.Header().Get("Content-Type"); ct != "application/x-chess-pgn" {
		t.Errorf("PGN type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, "attachment") || !strings.Contains(cd, c.id+".pgn") {
		t.Errorf("PGN disposition %q", cd)
	}
	if body := rec.Body.String(); !strings.Contains(body, `[FEN "`+strings.TrimSuffix(mateFEN, " 1")) || !strings.Contains(body, "Bxf7+") {
		t.Errorf("PGN = %s", body)
	}
	if d.Find(`#download[href="`+c.path("pgn")+`"]`).Length() != 1 {
		t.Error("no download link to the game's PGN")
	}
	share, _ := d.Find("#share").Attr("value")
	u, err := url.Parse(share)
	if err != nil || u.Host == "" || u.Path != "/" {
		t.Fatalf("share link %q", share)
	}
	other := c.session()
	od := other.get(u.RequestURI())
	if fen(od) != fen(d) || text(od, "#history") != text(d, "#history") || text(od, "#banner") != text(d, "#banner") {
		t.Errorf("share link shows %q / %q, want %q / %q", fen(od), text(od, "#banner"), fen(d), text(d, "#banner"))
	}
	if other.id == c.id || other.player() == nil || other.player().Value == c.player().Value {
		t.Error("the share link reused the sharer's game or credential")
	}
	// It is the opener's own game: they may take the resignation back.
	if od = other.post(other.path("undo"), vals()); od.Find("#banner").Length() != 0 {
		t.Error("the opener of a share link cannot play it")
	}
	if got := text(c.get(c.page()), "#banner"); got != "Black resigns — White wins, 1-0" {
		t.Errorf("the sharer's game changed: %q", got)
	}
}

func TestHistoryView(t *testing.T) {
	c := newClient(t)
	c.start()
	c.post(c.path("ply"), vals("text", "e2e4"))
	c.post(c.path("ply"), vals("text", "d4"))
	for _, hx := range []bool{false, true} {
		rec := c.do(http.MethodGet, c.path("history/1"), nil, hx)
		d := parse(t, rec)
		if rec.Code != 200 || d.Find("#board button").Length() != 0 || d.Find("#board [data-square]").Length() != 64 {
			t.Errorf("hx=%v: history view %d, buttons %d", hx, rec.Code, d.Find("#board button").Length())
		}
		if !strings.Contains(text(d, "#status"), "Move 1 · Black banned e4 (e2–e4)") || banDrawn(d) != "e2e4" || d.Find(`#board-ply[data-shown-ply="1"]`).Length() != 1 {
			t.Errorf("hx=%v: caption %q", hx, text(d, "#status"))
		}
		if d.Find(".history-nav a[href='"+c.page()+"']").Length() != 1 || d.Find("#history a.current").Length() != 1 {
			t.Errorf("hx=%v: no way back or no current ply", hx)
		}
	}
	d := c.get(c.path("history/0"))
	if sq(d, "d2").Find("[data-piece]").Length() != 1 {
		t.Error("start view does not show the start position")
	}
	// Anyone with the address may look back.
	w := c.session()
	if d := w.get(c.path("history/2")); !strings.Contains(text(d, "#status"), "d4") {
		t.Errorf("watcher's history view: %q", text(d, "#status"))
	}
}
