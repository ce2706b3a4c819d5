package training

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// MaxActions bounds the actions an attempt may give: more than any
// puzzle's solver plays.
const MaxActions = 16

// Puzzle is a puzzle with what training keeps of it.
type Puzzle struct {
	puzzles.Puzzle
	Solver rules.Color
	Stats  PuzzleStats // its rating as it stands (the starting one until rated)
}

// Puzzle returns puzzle id.
func (s *Service) Puzzle(ctx context.Context, id string) (Puzzle, error) {
	p, err := s.puzzle(id)
	if err != nil {
		return Puzzle{}, err
	}
	return s.withStats(ctx, p)
}

// withStats adds to p its solver and what is kept of it.
func (s *Service) withStats(ctx context.Context, p puzzles.Puzzle) (Puzzle, error) {
	solver, err := p.Solver()
	if err != nil {
		return Puzzle{}, errs.Internalf(err, "puzzle %s", p.ID)
	}
	stats, err := s.stats(ctx, p)
	if err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Puzzle: p, Solver: solver, Stats: stats}, nil
}

// stats is what is kept of p: its rating as it stands.
func (s *Service) stats(ctx context.Context, p puzzles.Puzzle) (PuzzleStats, error) {
	stats, ok, err := s.store.PuzzleStats(ctx, p.ID)
	if err != nil {
		return PuzzleStats{}, errs.Internalf(err, "reading puzzle %s", p.ID)
	}
	if !ok {
		stats = startStats(p)
	}
	return stats, nil
}

// Known refuses id when no puzzle has it (NoPuzzle), reading nothing
// kept: a request on a puzzle asks it before anything else.
func (s *Service) Known(id string) error {
	_, err := s.puzzle(id)
	return err
}

// puzzle is puzzle id from the set.
func (s *Service) puzzle(id string) (puzzles.Puzzle, error) {
	p, ok := s.set.ByID(id)
	if !ok {
		return puzzles.Puzzle{}, refused(errs.NotFound, NoPuzzle, "There is no puzzle with this id.")
	}
	return p, nil
}

// solving starts solving puzzle id: the puzzle from the set, and its
// solution to play, once, as the request needs it.
func (s *Service) solving(id string) (puzzles.Puzzle, *puzzles.Solving, error) {
	p, err := s.puzzle(id)
	if err != nil {
		return puzzles.Puzzle{}, nil, err
	}
	sv, err := p.Solve()
	if err != nil {
		return puzzles.Puzzle{}, nil, errs.Internalf(err, "puzzle %s", id)
	}
	return p, sv, nil
}

// startStats is what a puzzle never rated stands at.
func startStats(p puzzles.Puzzle) PuzzleStats {
	return PuzzleStats{ID: p.ID, Rating: rating.Rating{Rating: float64(p.Rating), Deviation: PuzzleDeviation, Volatility: rating.DefaultVolatility}}
}

// ParseTheme reads a theme as the API and the addresses name it ("" for
// any).
func ParseTheme(text string) (puzzles.Theme, error) {
	t := puzzles.Theme(text)
	if text == "" || t.Known() {
		return t, nil
	}
	var names []string
	for _, k := range puzzles.AllThemes() {
		names = append(names, string(k))
	}
	return "", refused(errs.Invalid, BadTheme, fmt.Sprintf("%q is not a puzzle theme: choose one of %s.", rules.Clip(text), strings.Join(names, ", ")))
}

// Next returns a puzzle for player, of theme t ("" for any): the one
// nearest their rating among those they have not attempted (among all,
// once they have attempted every one).
func (s *Service) Next(ctx context.Context, player string, t puzzles.Theme) (Puzzle, error) {
	return s.NextAt(ctx, player, t, Normal)
}

// NextAt returns a puzzle for player, of theme t ("" for any), as Next
// does but nearest their rating moved by difficulty d.
func (s *Service) NextAt(ctx context.Context, player string, t puzzles.Theme, d Difficulty) (Puzzle, error) {
	if t != "" && s.set.Count(t) == 0 || s.set.Len() == 0 {
		return Puzzle{}, refused(errs.NotFound, NoPuzzle, "There is no puzzle of this theme.")
	}
	l, err := s.learner(ctx, player)
	if err != nil {
		return Puzzle{}, err
	}
	var done []string
	if player != "" {
		if done, err = s.store.Attempted(ctx, player); err != nil {
			return Puzzle{}, errs.Internalf(err, "listing attempts")
		}
		slices.Sort(done)
	}
	seen := func(p puzzles.Puzzle) bool {
		_, found := slices.BinarySearch(done, p.ID)
		return found
	}
	r := int(math.Round(l.Rating.Rating)) + d.Offset()
	p, ok := s.set.Near(r, t, seen)
	if !ok {
		p, _ = s.set.Near(r, t, nil)
	}
	return s.withStats(ctx, p)
}

// Count returns how many puzzles have theme t.
func (s *Service) Count(t puzzles.Theme) int { return s.set.Count(t) }

// lastAttempt returns player's last finished attempt at puzzle id; ok is
// false for none (and for nobody, "").
func (s *Service) lastAttempt(ctx context.Context, player, id string) (Attempt, bool, error) {
	if player == "" {
		return Attempt{}, false, nil
	}
	a, ok, err := s.store.LastAttempt(ctx, player, id)
	if err != nil {
		return Attempt{}, false, errs.Internalf(err, "reading an attempt")
	}
	return a, ok, nil
}

// Daily returns the puzzle of the day.
func (s *Service) Daily(ctx context.Context) (Puzzle, error) {
	p, ok := s.set.Daily(s.now())
	if !ok {
		return Puzzle{}, refused(errs.NotFound, NoPuzzle, "There are no puzzles.")
	}
	return s.withStats(ctx, p)
}
