package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/banchess/banchess/rules"
)

// editorStep requests an editor address as a plain browser does: a step
// redirects to the address of the state it leads to, which is shown.
func editorStep(c *client, target string) *goquery.Document {
	c.t.Helper()
	return c.get(target)
}

func editorFEN(d *goquery.Document) string { return d.Find("#editor-fen").AttrOr("value", "") }

// editorQuery is the editor's form as a browser submits it, with extra
// fields (a square, a palette button, an action).
func editorQuery(d *goquery.Document, extra ...string) string {
	q := url.Values{}
	d.Find("#editor-form input, #editor-form select").Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		switch {
		case name == "":
		case s.Is("select"):
			q.Add(name, s.Find("option[selected]").AttrOr("value", s.Find("option").First().AttrOr("value", "")))
		case s.AttrOr("type", "") == "checkbox":
			if _, on := s.Attr("checked"); on {
				q.Add(name, s.AttrOr("value", ""))
			}
		default:
			q.Add(name, s.AttrOr("value", ""))
		}
	})
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return "/editor?" + q.Encode()
}

// TestEditor builds a position with the palette, sees the FEN change at
// each step, is told why a position with the side not to move in check
// cannot be played, fixes it and plays from there — all without
// JavaScript.
func TestEditor(t *testing.T) {
	c := newClient(t)
	d := editorStep(c, "/editor")
	if editorFEN(d) != rules.StartFEN+" 1" || d.Find(`#editor-form button[data-square="e2"]`).Length() != 1 {
		t.Fatalf("the editor opens at %q", editorFEN(d))
	}
	d = editorStep(c, editorQuery(d, "do", "clear"))
	if !strings.HasPrefix(editorFEN(d), "8/8/8/8/8/8/8/8 w - - 0 1") || text(d, "#editor-error") == "" {
		t.Fatalf("cleared: %q, error %q", editorFEN(d), text(d, "#editor-error"))
	}
	for _, step := range []struct{ pick, square, fen string }{
		{"wK", "e1", "8/8/8/8/8/8/8/4K3"},
		{"bK", "e8", "4k3/8/8/8/8/8/8/4K3"},
		{"wR", "e5", "4k3/8/8/4R3/8/8/8/4K3"},
	} {
		d = editorStep(c, editorQuery(d, "pick", step.pick))
		d = editorStep(c, editorQuery(d, "square", step.square))
		if !strings.HasPrefix(editorFEN(d), step.fen+" w") {
			t.Fatalf("after %s on %s: %q", step.pick, step.square, editorFEN(d))
		}
	}
	// Black is in check with White to move: refused, in the import's words.
	if got := text(d, "#editor-error"); !strings.Contains(got, "Black is in check but it is White's turn to move") || d.Find("#editor-play").Length() != 0 {
		t.Fatalf("error %q, play link %d", got, d.Find("#editor-play").Length())
	}
	d = editorStep(c, editorQuery(d, "turn", "b"))
	if text(d, "#editor-error") != "" || editorFEN(d) != "4k3/8/8/4R3/8/8/8/4K3 b - - 0 1 3" {
		t.Fatalf("fixed: %q, error %q", editorFEN(d), text(d, "#editor-error"))
	}
	play := d.Find("#editor-play").AttrOr("href", "")
	g := c.get(play)
	if fen(g) != "4k3/8/8/4R3/8/8/8/4K3 b - - 0 1 3+" || c.id == "" {
		t.Errorf("played from %q: %q", play, fen(g))
	}
	// The game's page edits its position.
	edit := g.Find("#edit-position").AttrOr("href", "")
	if d := c.get(edit); editorFEN(d) != strings.TrimSuffix(fen(g), "+") {
		t.Errorf("Edit this position: %q", editorFEN(d))
	}
}

func TestEditorSteps(t *testing.T) {
	c := newClient(t)
	rec := c.do(http.MethodGet, "/editor?fen="+url.QueryEscape(rules.StartFEN+" 2:e2e4"), nil, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.Contains(loc, "act=move") || !strings.Contains(loc, "ban=e2e4") {
		t.Fatalf("fen=…: %d %s", rec.Code, loc)
	}
	d := c.get(loc)
	if editorFEN(d) != rules.StartFEN+" 2:e2e4" || d.Find(".sq.ban-from[data-square=e2]").Length() != 1 {
		t.Errorf("a ban in force: %q", editorFEN(d))
	}
	// An illegal ban says why.
	d = c.get(editorQuery(d, "ban", "e2e5"))
	if !strings.Contains(text(d, "#editor-error"), "e2e5") {
		t.Errorf("ban e2e5: %q", text(d, "#editor-error"))
	}
	// Flip, and htmx gets the editor alone with its address.
	d = c.get(editorQuery(d, "do", "flip"))
	if d.Find(".editor-board.flipped").Length() != 1 {
		t.Error("not flipped")
	}
	rec = c.do(http.MethodGet, editorQuery(d, "do", "start"), nil, true)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("HX-Push-Url"), "/editor?") || strings.Contains(rec.Body.String(), "<html") {
		t.Errorf("htmx: %d %q", rec.Code, rec.Header().Get("HX-Push-Url"))
	}
	if rec := c.do(http.MethodGet, "/editor?fen=nonsense", nil, false); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "cannot be read") {
		t.Errorf("fen=nonsense: %d", rec.Code)
	}
}

// TestEditorGarbage: no query makes the editor fail; a bad one is
// explained or ignored.
func TestEditorGarbage(t *testing.T) {
	c := newClient(t)
	for _, q := range []string{
		"square=z9", "square=e44", "pick=zz&square=e4", "do=zz", "turn=x&board=8/8/8/8/8/8/8/8",
		"board=ppppppppp/8/8/8/8/8/8/8", "board=8/8", "board=" + strings.Repeat("K", 3000),
		"castle=XYZ&board=4k3/8/8/8/8/8/8/4K3", "ep=zz&board=4k3/8/8/8/8/8/8/4K3", "ban=zzzz&act=move",
		"fen=", "fen=8/8/8/8/8/8/8/8", "v=chess960&fen=" + url.QueryEscape(rules.StartFEN),
	} {
		rec := c.do(http.MethodGet, "/editor?"+q, nil, false)
		for i := 0; rec.Code == http.StatusSeeOther && i < 3; i++ {
			rec = c.do(http.MethodGet, rec.Header().Get("Location"), nil, false)
		}
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d", q, rec.Code)
		}
	}
}

// TestEditorMove: a piece dragged (move=…) moves, as a step of its own.
func TestEditorMove(t *testing.T) {
	c := newClient(t)
	d := c.get("/editor")
	d = c.get(editorQuery(d, "move", "e2e4"))
	if editorFEN(d) != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 1" {
		t.Errorf("moved: %q", editorFEN(d))
	}
}

// TestEditOnlyChessBoards: a game's page links its position to the board
// editor only in a variant the editor edits; an EN-Chess game's edit
// address is refused (its x squares and Aurors would be lost), not sent
// to a Ban Chess board.
func TestEditOnlyChessBoards(t *testing.T) {
	for _, tc := range []struct {
		variant  string
		editable bool
	}{{"ban", true}, {"classic", true}, {"en", false}} {
		t.Run(tc.variant, func(t *testing.T) {
			c := newClient(t)
			d := c.post("/new", vals("variant", tc.variant))
			if got := d.Find("a#edit-position").Length() == 1; got != tc.editable {
				t.Errorf("the edit link shown: %v, want %v", got, tc.editable)
			}
			rec := c.do(http.MethodGet, c.path("edit"), nil, false)
			if want := map[bool]int{true: http.StatusSeeOther, false: http.StatusBadRequest}[tc.editable]; rec.Code != want {
				t.Errorf("GET %s: %d, want %d (to %q)", c.path("edit"), rec.Code, want, rec.Header().Get("Location"))
			}
		})
	}
}
