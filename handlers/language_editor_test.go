package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestEditorReasonsInLanguage (issue 43): the board editor says in the
// reader's language why it cannot read the position in its address, or
// which rule of positions it breaks; English keeps the rules' own
// sentence; in the pseudo-locale the reason shows no word from outside
// the catalogs.
func TestEditorReasonsInLanguage(t *testing.T) {
	c := newClient(t)
	fen := func(f string) string { return "/editor?fen=" + url.QueryEscape(f) }
	for _, tc := range []struct{ path, accept, want string }{
		{"/editor?board=x", "de", "Ein Brett braucht 8 Reihen, getrennt durch /."},
		{"/editor?board=" + url.QueryEscape("8/8/8/8/8/8/8/7z"), "es", "«z» en la fila 1 no es una letra de pieza"},
		{fen("8/8/8/8/8/8/8/8 w - - 0 1"), "de", "Jede Seite braucht genau einen König."},
		{fen("4k3/8/8/8/8/8/8/r3K3 b - - 0 1"), "ru", "Сторона, которая не ходит, под шахом"},
		{fen("4k3/8/8/8/8/8/8/4K2P w - - 0 1"), "fr", "Un pion se trouve en h1"},
		{fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), "he", "זכות הצרחה"},
		{"/editor?act=move&ban=e2e5&board=" + url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR") + "&castle=KQkq", "de", "Das geltende Verbot e2e5 passt zu keinem legalen Zug."},
		{fen("4k3/8/8/8/8/8/8/r3K3 b - - 0 1"), "en", "White is in check but it is Black's turn to move"},
	} {
		rec := c.navigate(tc.path, "Accept-Language", tc.accept)
		if to := rec.Header().Get("Location"); rec.Code == http.StatusSeeOther {
			rec = c.navigate(to, "Accept-Language", tc.accept) // the state's own address
		}
		got := text(parse(t, rec), "#editor-error")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %q, want it to say %q", tc.path, tc.accept, got, tc.want)
		}
	}
	// The analysis of a board the editor cannot read says why too.
	d := parse(t, c.navigate("/analysis?board=x", "Accept-Language", "de"))
	if got := d.Find("main").Text(); !strings.Contains(got, "Ein Brett braucht 8 Reihen") {
		t.Errorf("the analysis of board=x in German: %q", strings.Join(strings.Fields(got), " "))
	}
	pseudo(c)
	for _, path := range []string{"/editor?board=x", fen("8/8/8/8/8/8/8/8 w - - 0 1"), fen("4k3/8/8/8/8/8/8/4K2P w - - 0 1"), fen("4k3/8/8/8/8/8/8/4K3 w - e6 0 1")} {
		d := c.get(path)
		if text(d, "#editor-error") == "" {
			t.Errorf("%s says nothing of its position", path)
		}
		pseudoCheckDoc(t, path, d)
	}
}
