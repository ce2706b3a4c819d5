package puzzles

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// shipped is the puzzle file made by "banchess puzzles generate" (see
// docs/puzzles.md for the command and seed); read only.
//
//go:embed puzzles.jsonl
var shipped []byte

// Set is a collection of puzzles with the selections a trainer makes: by
// id, near a rating (optionally of one theme), and the puzzle of the day.
// It is read only, and so safe for concurrent use.
type Set struct {
	puzzles []Puzzle        // by rating, then id
	byID    map[string]int  // index in puzzles
	byTheme map[Theme][]int // indexes in puzzles, by rating
	daily   []int           // indexes in puzzles of the candidates for the puzzle of the day
}

// Shipped returns the puzzles embedded in the binary.
func Shipped() (*Set, error) { return Load(bytes.NewReader(shipped)) }

// Load reads a puzzle file into a Set.
func Load(r io.Reader) (*Set, error) {
	ps, err := Read(r)
	if err != nil {
		return nil, err
	}
	return NewSet(ps)
}

// NewSet returns the set of ps; ids must be distinct.
func NewSet(ps []Puzzle) (*Set, error) {
	s := &Set{puzzles: slices.Clone(ps), byID: map[string]int{}, byTheme: map[Theme][]int{}}
	slices.SortFunc(s.puzzles, func(a, b Puzzle) int {
		if a.Rating != b.Rating {
			return a.Rating - b.Rating
		}
		return strings.Compare(a.ID, b.ID)
	})
	for i, p := range s.puzzles {
		if _, dup := s.byID[p.ID]; dup {
			return nil, fmt.Errorf("puzzles: two puzzles have the id %s", p.ID)
		}
		s.byID[p.ID] = i
		for _, t := range p.Themes {
			s.byTheme[t] = append(s.byTheme[t], i)
		}
		if p.Rating >= 1200 && p.Rating <= 1800 {
			s.daily = append(s.daily, i)
		}
	}
	if len(s.daily) == 0 {
		for i := range s.puzzles {
			s.daily = append(s.daily, i)
		}
	}
	return s, nil
}

// Len returns the number of puzzles.
func (s *Set) Len() int { return len(s.puzzles) }

// All returns every puzzle, the easiest first (by rating, then id). The
// slice is the set's: callers must not change it.
func (s *Set) All() []Puzzle { return s.puzzles }

// ByID returns the puzzle with this id.
func (s *Set) ByID(id string) (Puzzle, bool) {
	i, ok := s.byID[id]
	if !ok {
		return Puzzle{}, false
	}
	return s.puzzles[i], true
}

// Count returns how many puzzles have theme t.
func (s *Set) Count(t Theme) int { return len(s.byTheme[t]) }

// WithTheme returns the puzzles of theme t, the easiest first.
func (s *Set) WithTheme(t Theme) []Puzzle {
	out := make([]Puzzle, len(s.byTheme[t]))
	for i, j := range s.byTheme[t] {
		out[i] = s.puzzles[j]
	}
	return out
}

// Near returns the puzzle whose rating is nearest to rating among those of
// theme t ("" for any) that skip does not reject (skip may be nil); ties
// go to the easier. ok is false when every one is skipped.
func (s *Set) Near(rating int, t Theme, skip func(Puzzle) bool) (p Puzzle, ok bool) {
	idx := s.byTheme[t]
	n := len(idx)
	at := func(k int) Puzzle { return s.puzzles[idx[k]] }
	if t == "" {
		n = len(s.puzzles)
		at = func(k int) Puzzle { return s.puzzles[k] }
	}
	hi := sort.Search(n, func(k int) bool { return at(k).Rating >= rating })
	lo := hi - 1
	for lo >= 0 || hi < n {
		// Take the nearer side; on a tie, the easier (lower) one.
		if hi >= n || (lo >= 0 && rating-at(lo).Rating <= at(hi).Rating-rating) {
			if q := at(lo); skip == nil || !skip(q) {
				return q, true
			}
			lo--
		} else {
			if q := at(hi); skip == nil || !skip(q) {
				return q, true
			}
			hi++
		}
	}
	return Puzzle{}, false
}

// Daily returns the puzzle of the day that holds the instant day (by its
// date in UTC), among the puzzles rated from 1200 to 1800 (among all when
// none is): consecutive days step through them in a fixed scattered
// order, and no puzzle comes back before every other has had its day.
// ok is false for an empty set.
func (s *Set) Daily(day time.Time) (p Puzzle, ok bool) {
	n := len(s.daily)
	if n == 0 {
		return Puzzle{}, false
	}
	days := day.UTC().Unix() / (24 * 60 * 60)
	k := ((days % int64(n)) + int64(n)) % int64(n)
	// A stride prime to n visits every index once in n steps.
	stride := int64(n)*618/1000 + 1
	for gcd(stride, int64(n)) != 1 {
		stride++
	}
	return s.puzzles[s.daily[k*stride%int64(n)]], true
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
