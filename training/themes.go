package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// BadDifficulty is the detail of a refused difficulty (Invalid).
const BadDifficulty errs.Detail = "bad_difficulty"

// Difficulty moves the rating the next puzzle is chosen near, as
// lichess's puzzle difficulty does: relative to the player's puzzle
// rating.
type Difficulty string

// The difficulties.
const (
	Easier Difficulty = "easier"
	Normal Difficulty = "normal"
	Harder Difficulty = "harder"
)

// DifficultyStep is how far Easier and Harder move the rating a puzzle
// is chosen near.
const DifficultyStep = 300

// Difficulties are the difficulties, the easiest first.
func Difficulties() []Difficulty { return []Difficulty{Easier, Normal, Harder} }

// Offset is what d adds to the player's rating to choose a puzzle.
func (d Difficulty) Offset() int {
	switch d {
	case Easier:
		return -DifficultyStep
	case Harder:
		return DifficultyStep
	}
	return 0
}

// ParseDifficulty reads a difficulty as the API, the pages and the
// cookie name it ("" for Normal).
func ParseDifficulty(text string) (Difficulty, error) {
	switch d := Difficulty(text); d {
	case "":
		return Normal, nil
	case Easier, Normal, Harder:
		return d, nil
	}
	return Normal, refused(errs.Invalid, BadDifficulty, fmt.Sprintf("%q is not a difficulty: choose easier, normal or harder.", rules.Clip(text)))
}

// ThemeStats is a theme as the themes page shows it: its puzzles, and a
// player's rated attempts at them (their first at each puzzle).
type ThemeStats struct {
	Theme puzzles.Theme
	Count int
	// Tried counts the player's rated attempts at the theme's puzzles,
	// Solved those solved; Change is what they changed the player's
	// rating by, in all.
	Tried, Solved int
	Change        float64
}

// SolvedShare is the share of the attempts solved, from 0 to 1 (0 for
// none).
func (t ThemeStats) SolvedShare() float64 {
	if t.Tried == 0 {
		return 0
	}
	return float64(t.Solved) / float64(t.Tried)
}

// Themes returns every theme that has puzzles, with player's results at
// it (none for "").
func (s *Service) Themes(ctx context.Context, player string) ([]ThemeStats, error) {
	var firsts []FirstAttempt
	if player != "" {
		var err error
		if firsts, err = s.store.FirstAttempts(ctx, player); err != nil {
			return nil, errs.Internalf(err, "listing a player's rated attempts")
		}
	}
	byTheme := map[puzzles.Theme]*ThemeStats{}
	var out []ThemeStats
	for _, t := range puzzles.AllThemes() {
		if n := s.set.Count(t); n > 0 {
			out = append(out, ThemeStats{Theme: t, Count: n})
		}
	}
	for i := range out {
		byTheme[out[i].Theme] = &out[i]
	}
	for _, f := range firsts {
		p, ok := s.set.ByID(f.Puzzle)
		if !ok {
			continue
		}
		for _, t := range p.Themes {
			if ts := byTheme[t]; ts != nil {
				ts.Tried++
				ts.Change += f.Change
				if f.Solved {
					ts.Solved++
				}
			}
		}
	}
	return out, nil
}
