package lobby_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/banchess/banchess/lobby"
)

// TestNearestSeeks pages the custom seeks for a viewer: their own first,
// then by distance from their rating (an anonymous maker as 1500), the
// oldest first among equals; pool seeks are not listed.
func TestNearestSeeks(t *testing.T) {
	var v lobby.View
	add := func(id, player string, r int, pool string) {
		v.Seeks = append(v.Seeks, lobby.Seek{ID: id, Player: player, Rating: r, Pool: pool})
	}
	add("far", "p1", 2300, "")
	add("anon", "p2", 0, "")
	add("near", "p3", 1810, "")
	add("pool", "p4", 1800, "5+3")
	add("mine", "me", 1800, "")
	add("tie-old", "p5", 1790, "")
	add("tie-new", "p6", 1790, "")
	at1800 := func(lobby.Seek) int { return 1800 }
	ids := func(p lobby.SeekPage) []string {
		var out []string
		for _, k := range p.Seeks {
			out = append(out, k.ID)
		}
		return out
	}
	p := v.Nearest("me", at1800, 1)
	if want := []string{"mine", "near", "tie-old", "tie-new", "anon", "far"}; !slices.Equal(ids(p), want) || p.Number != 1 || p.Pages != 1 || p.From != 1 || p.Total != 6 {
		t.Errorf("one page: %v (page %d of %d, from %d, total %d), want %v", ids(p), p.Number, p.Pages, p.From, p.Total, want)
	}

	// 120 seeks make three pages of lobby.SeeksPerPage; a page past the
	// last is the last, one before the first the first.
	v = lobby.View{}
	for i := range 120 {
		add(fmt.Sprint(i), fmt.Sprint("p", i), 1500+i*10, "")
	}
	at2000 := func(lobby.Seek) int { return 2000 }
	cases := []struct {
		n, number, from, len int
		first                string
	}{
		{1, 1, 1, 50, "50"},
		{2, 2, 51, 50, "75"},
		{3, 3, 101, 20, "100"},
		{9, 3, 101, 20, "100"},
		{0, 1, 1, 50, "50"},
	}
	for _, c := range cases {
		p := v.Nearest("", at2000, c.n)
		if p.Number != c.number || p.Pages != 3 || p.From != c.from || len(p.Seeks) != c.len || p.Seeks[0].ID != c.first || p.Total != 120 {
			t.Errorf("page %d: number %d of %d from %d, %d seeks, first %s; want %d of 3 from %d, %d, first %s",
				c.n, p.Number, p.Pages, p.From, len(p.Seeks), p.Seeks[0].ID, c.number, c.from, c.len, c.first)
		}
	}
	seen := map[string]bool{}
	for n := 1; n <= 3; n++ {
		for _, k := range v.Nearest("", at2000, n).Seeks {
			if seen[k.ID] {
				t.Errorf("seek %s on two pages", k.ID)
			}
			seen[k.ID] = true
		}
	}
	if len(seen) != 120 {
		t.Errorf("the pages list %d seeks, want 120", len(seen))
	}
}
