package handlers

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/puzzles"
)

// TestLongPuzzlePages: the themes page lists the mates in four and the
// long puzzles by their names; /training/long sends to a long puzzle; a
// mate in four's page says its goal, and solving it by the plain forms
// (the replies played by the server) shows its themes by name.
func TestLongPuzzlePages(t *testing.T) {
	c := newClientOn(t, newTrainingServer(t, nil))
	d := c.get("/training/themes")
	for theme, name := range map[puzzles.Theme]string{puzzles.MateIn4: "Mate in 4", puzzles.Long: "Long puzzle"} {
		if got := d.Find("#theme-table tbody th a[href='/training/" + string(theme) + "']").Text(); got != name {
			t.Errorf("the themes page names %s %q, want %q", theme, got, name)
		}
	}
	rec := c.do(http.MethodGet, "/training/long", nil, false)
	id, _, _ := strings.Cut(strings.TrimPrefix(rec.Header().Get("Location"), "/training/"), "?")
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := set.ByID(id); !ok || !p.Has(puzzles.Long) {
		t.Errorf("/training/long: %d to %q", rec.Code, rec.Header().Get("Location"))
	}

	p := shippedWhere(t, func(p puzzles.Puzzle) bool { return p.Kind() == puzzles.MateIn4 })
	d = c.get("/training/" + p.ID)
	if got := d.Find("#goal").Text(); !strings.Contains(got, "checkmate in 4") {
		t.Errorf("the goal of %s: %q", p.ID, got)
	}
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	solver, ply := g.Turn().Actor, startPly(t, p)
	line, err := p.Line()
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range line {
		if g.Turn().Actor == solver {
			d = c.post("/training/"+p.ID+"/play", boardInputOf(t, a.String(), ply+i))
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	if d.Find("#result.right").Length() != 1 {
		t.Fatalf("%s not solved: %q", p.ID, d.Find("#result").Text())
	}
	themes := d.Find(".theme-list").Text()
	for _, want := range []string{"Mate in 4", "Long puzzle"} {
		if !strings.Contains(themes, want) {
			t.Errorf("the themes after solving %s: %q, no %q", p.ID, themes, want)
		}
	}
	if !slices.Contains(p.Themes, puzzles.Long) {
		t.Errorf("mate in four %s is not long: %v", p.ID, p.Themes)
	}
}
