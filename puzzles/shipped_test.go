package puzzles

import (
	"fmt"
	"github.com/banchess/banchess/internal/race"
	"testing"
	"time"
)

// shippedSet loads the embedded puzzles.
func shippedSet(t *testing.T) *Set {
	t.Helper()
	s, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() < shippedAtLeast {
		t.Fatalf("%d puzzles shipped, want %d or more", s.Len(), shippedAtLeast)
	}
	return s
}

// What the shipped set must hold (issue 42): this many puzzles, and at
// least so many of each of the rarer themes.
const shippedAtLeast = 6000

var shippedMinimums = map[Theme]int{
	MateIn1:        150,
	Promotion:      150,
	UnderPromotion: 30,
	StalemateTrap:  60,
	Defence:        200,
	Long:           300,
}

// TestShippedMinimums checks that the shipped set keeps the minimum of
// every theme that has one (puzzles/make_puzzles.sh asks the generator
// for them).
func TestShippedMinimums(t *testing.T) {
	s := shippedSet(t)
	for th, n := range shippedMinimums {
		if got := s.Count(th); got < n {
			t.Errorf("%d puzzles of theme %s shipped, want %d or more", got, th, n)
		}
	}
}

// TestShipped replays every shipped puzzle's solution through package
// rules and checks what it claims (Verify): the mate reached by the
// solver's action its theme counts, the material won, the game going on
// after a defence, the stalemate a trap's other action reaches and the
// solution avoids, each theme the solution shows and no other, the id of
// its position; for a mate in one, that no other first action ends the
// game at once. Ids, and so positions, are distinct (NewSet). With
// -short it replays every tenth.
func TestShipped(t *testing.T) {
	s := shippedSet(t)
	every := 1
	if testing.Short() || race.Enabled { // one goroutine's work: CI verifies them all without the race detector
		every = 10
	}
	for i, p := range s.All() {
		if i%every != 0 {
			continue
		}
		if err := Verify(p); err != nil {
			t.Error(err)
		}
	}
	for _, kind := range []Theme{MateIn1, MateIn2, MateIn3, MateIn4, Material, MateByBan, Ban, Long} {
		if s.Count(kind) == 0 {
			t.Errorf("no puzzle of theme %s", kind)
		}
	}
}

// TestShippedProofs proves again, by minimax over explicit bans, what the
// generator proved of the shipped mates and defences: a mate's solver
// forces it within the solution's plies and not sooner, and no other
// first action mates within three plies more (five at most); after every
// first action but a defence's the opponent forces mate within five
// plies, and after the defence it does not. The generator proved this of
// every puzzle; the test proves every fifth (every fiftieth with -short),
// a few milliseconds each.
func TestShippedProofs(t *testing.T) {
	s := shippedSet(t)
	var pr Prover
	every := 5
	if testing.Short() {
		every = 50
	}
	for i, p := range s.All() {
		if i%every != 0 {
			continue
		}
		kind := p.Kind()
		if kind == Material {
			continue
		}
		g, err := p.Start()
		if err != nil {
			t.Fatal(err)
		}
		line, err := p.Line()
		if err != nil {
			t.Fatal(err)
		}
		solver := g.Turn().Actor
		if kind != Defence {
			n, found, err := pr.Distance(g, solver, len(p.Solution))
			if err != nil || !found || n != len(p.Solution) {
				t.Errorf("puzzle %s: the solver mates within %d plies (%v, %v), the solution takes %d", p.ID, n, found, err, len(p.Solution))
			}
		}
		for _, a := range g.Legal() {
			if err := g.Play(a); err != nil {
				t.Fatal(err)
			}
			var claim string
			var holds bool
			if kind == Defence {
				mated, err := pr.Mates(g, solver.Other(), 5)
				if err != nil {
					t.Fatal(err)
				}
				holds = mated == (a != line[0])
				claim = "the opponent forces mate within 5 plies after it"
				if a == line[0] {
					claim = "the opponent forces no mate within 5 plies after it"
				}
			} else if a != line[0] {
				// Mates in four were proven at the long horizon (eight
				// plies), the others at five.
				within := min(len(p.Solution)+3, 5)
				if kind == MateIn4 {
					within = min(len(p.Solution)+3, MaxPlies)
				}
				mates, err := pr.Mates(g, solver, within-1)
				if err != nil {
					t.Fatal(err)
				}
				holds = !mates
				claim = fmt.Sprintf("it does not mate within %d plies", within)
			} else {
				holds = true
			}
			if !holds {
				t.Errorf("puzzle %s (%s): first action %s: not true that %s", p.ID, p.FEN, a, claim)
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestShippedThemesByRating logs how the shipped puzzles spread over
// themes and ratings, and checks that the set offers a puzzle near every
// rating a trainer starts from.
func TestShippedThemesByRating(t *testing.T) {
	s := shippedSet(t)
	for _, th := range AllThemes() {
		t.Logf("%-15s %5d", th, s.Count(th))
	}
	for _, r := range []int{800, 1200, 1500, 1800} {
		p, ok := s.Near(r, "", nil)
		if !ok || p.Rating < r-300 || p.Rating > r+300 {
			t.Errorf("the puzzle nearest to %d is rated %d", r, p.Rating)
		}
	}
	if _, ok := s.Daily(time.Now()); !ok {
		t.Error("no puzzle of the day")
	}
}
