package puzzles

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// ratedSet returns a set of puzzles "p<rating>" rated 800, 1000, …, 2200:
// those rated 800, 1200, 1600 and 2000 are of themes MateIn1 and Ban, the
// others Material.
func ratedSet(t *testing.T) *Set {
	t.Helper()
	var ps []Puzzle
	for r := 800; r <= 2200; r += 200 {
		themes := []Theme{Material}
		if r%400 == 0 {
			themes = []Theme{MateIn1, Ban}
		}
		ps = append(ps, Puzzle{ID: fmt.Sprintf("p%d", r), FEN: banMate, Solution: []string{"m:d5b6"}, Themes: themes, Rating: r})
	}
	s, err := NewSet(ps)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNear(t *testing.T) {
	s := ratedSet(t)
	seen := func(ids ...string) func(Puzzle) bool {
		return func(p Puzzle) bool { return strings.Contains(strings.Join(ids, " "), p.ID) }
	}
	tests := []struct {
		name   string
		rating int
		theme  Theme
		skip   func(Puzzle) bool
		want   string // "" for none
	}{
		{"exact", 1400, "", nil, "p1400"},
		{"nearer above", 1390, "", nil, "p1400"},
		{"a tie goes to the easier", 1300, "", nil, "p1200"},
		{"below all", 100, "", nil, "p800"},
		{"above all", 5000, "", nil, "p2200"},
		{"by theme", 1400, MateIn1, nil, "p1200"},
		{"by theme, a tie", 1400, Ban, seen("p1200"), "p1600"},
		{"skipping the nearest", 1400, "", seen("p1400", "p1200"), "p1600"},
		{"all skipped", 1400, MateIn1, seen("p800", "p1200", "p1600", "p2000"), ""},
		{"a theme none has", 1400, Promotion, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := s.Near(tt.rating, tt.theme, tt.skip)
			if ok != (tt.want != "") || p.ID != tt.want {
				t.Errorf("Near(%d, %q) = %q, %v; want %q", tt.rating, tt.theme, p.ID, ok, tt.want)
			}
		})
	}
}

func TestSet(t *testing.T) {
	s := ratedSet(t)
	if s.Len() != 8 || s.All()[0].ID != "p800" || s.All()[7].ID != "p2200" {
		t.Fatalf("%d puzzles, %v…: want 8, by rating", s.Len(), s.All()[0])
	}
	if p, ok := s.ByID("p1000"); !ok || p.Rating != 1000 {
		t.Errorf("ByID(p1000) = %v, %v", p, ok)
	}
	if _, ok := s.ByID("nope"); ok {
		t.Error("ByID found a puzzle that is not there")
	}
	if n := s.Count(MateIn1); n != 4 {
		t.Errorf("%d mates in one, want 4", n)
	}
	if ps := s.WithTheme(MateIn1); len(ps) != 4 || ps[0].Rating != 800 || ps[3].Rating != 2000 {
		t.Errorf("WithTheme(MateIn1) = %v", ps)
	}
	if _, err := NewSet([]Puzzle{{ID: "a"}, {ID: "a"}}); err == nil {
		t.Error("two puzzles of one id make a set")
	}
}

// TestDaily checks that the days step through the puzzles rated 1200 to
// 1800, each once before any comes back, the same for every instant of a
// UTC day.
func TestDaily(t *testing.T) {
	s := ratedSet(t)
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for i := range 4 {
		p, ok := s.Daily(day.AddDate(0, 0, i))
		if !ok || p.Rating < 1200 || p.Rating > 1800 {
			t.Fatalf("day %d: %v, %v", i, p, ok)
		}
		late, _ := s.Daily(day.AddDate(0, 0, i).Add(23*time.Hour + 59*time.Minute))
		if late.ID != p.ID {
			t.Errorf("day %d: %s in the morning, %s at night", i, p.ID, late.ID)
		}
		seen[p.ID] = true
	}
	if len(seen) != 4 {
		t.Errorf("4 days gave %d puzzles, want the 4 rated 1200–1800", len(seen))
	}
	if _, ok := (&Set{}).Daily(day); ok {
		t.Error("an empty set has a puzzle of the day")
	}
}

func TestReadWrite(t *testing.T) {
	ps := ratedSet(t).All()
	var b bytes.Buffer
	if err := Write(&b, ps); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ps) || back[3].ID != ps[3].ID || back[3].Themes[0] != ps[3].Themes[0] {
		t.Fatalf("read back %v", back)
	}
	for _, bad := range []string{
		`{"id":"x"}`,
		`{"id":"x","fen":"f","solution":["m:e2e4"],"themes":["material"],"rating":1,"extra":1}`,
		`{"id":"x","fen":"f","solution":["m:e2e4"],"themes":["mateByBan"],"rating":1}`,
		`{"id":"x","fen":"f","solution":["m:e2e4"],"themes":["material","nope"],"rating":1}`,
		`not json`,
	} {
		if _, err := Read(strings.NewReader(bad + "\n")); err == nil {
			t.Errorf("read %s", bad)
		}
	}
}

// TestThemeNames: every theme has a name for people, not its key, and
// no two share one.
func TestThemeNames(t *testing.T) {
	seen := map[string]Theme{}
	for _, th := range AllThemes() {
		n := th.Name()
		if n == string(th) || n == "" {
			t.Errorf("%s has no name for people", th)
		}
		if o, ok := seen[n]; ok {
			t.Errorf("%s and %s are both %q", o, th, n)
		}
		seen[n] = th
	}
	if MateIn1.Name() != "Mate in 1" || MateByBan.Name() != "Checkmate by ban" || StalemateTrap.Name() != "Stalemate trap" {
		t.Errorf("names: %q, %q, %q", MateIn1.Name(), MateByBan.Name(), StalemateTrap.Name())
	}
}
