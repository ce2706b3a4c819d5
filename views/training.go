package views

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/banchess/banchess/rules"
)

// TrainingPath is the address of puzzle id's page, with query pairs (key,
// value, …; empty values left out): "/training/abcd2345?at=2".
func TrainingPath(id string, query ...string) string {
	return "/training/" + id + Query(query...)
}

// Query writes pairs (key, value, …; empty values left out) as a query
// string: "" or "?k=v…".
func Query(pairs ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			q.Set(pairs[i], pairs[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// Trainer is a puzzle's page: the board at a moment of the puzzle, the
// viewer's rating and, once the attempt is over, its result and the
// solution step by step.
type Trainer struct {
	Board  Game
	ID     string
	Solver string // "White" or "Black"
	// Theme is the theme the viewer trains ("" for any).
	Theme string
	// Themes and PuzzleRating are shown once the attempt is over, or
	// (themes) when the viewer chose one.
	Themes       []string
	PuzzleRating string
	// Rating is the viewer's puzzle rating ("1500?").
	Rating string
	// Prompt says what to find; Replied, after a right action, what the
	// opponent replied.
	Prompt, Replied string
	// Pending, set on the moment after a right action and before the
	// replies, is the moment with them, which a page with scripts loads
	// after a short pause (the replies played automatically).
	Pending string
	// Result is set once the attempt is over.
	Result *TrainerResult
	// Next is the next puzzle (of the theme); Retry this one again.
	Next, Retry string
	// ThemeLinks lead to training one theme.
	ThemeLinks []ThemeLink
}

// TrainerResult is a finished attempt as its page shows it.
type TrainerResult struct {
	Solved bool
	// Text is "Solved!" or the reason the wrong action fails.
	Text string
	// Rated says the attempt changed the ratings (the viewer's first at
	// this puzzle); Before and After are the viewer's rating, Change the
	// difference ("+12", "−8").
	Rated                 bool
	Before, After, Change string
	// Steps are the solution, ply by ply, each a link to the board after
	// it; the step shown is Current.
	Steps []SolutionStep
	// Start is the link to the puzzle's position, before the solution.
	Start string
	// Caption says what the board shows.
	Caption string
}

// SolutionStep is one ply of a puzzle's solution.
type SolutionStep struct {
	Text    string // "Ra8+", "⊘ g8–h7" (a ban)
	URL     string
	Mine    bool // the solver's
	Current bool
}

// ThemeLink is a theme to train, with how many puzzles it has.
type ThemeLink struct {
	Name, URL string
	Count     int
	Current   bool
}

// CountText is the theme's count in words.
func (t ThemeLink) CountText() string { return strconv.Itoa(t.Count) }

// ThemesText lists the themes shown: "mateIn2, mateByBan".
func (t Trainer) ThemesText() string { return strings.Join(t.Themes, ", ") }

// Title is the tab's title.
func (t Trainer) Title() string {
	if t.Result != nil {
		if t.Result.Solved {
			return "Solved · Puzzle " + t.ID + " · Ban Chess"
		}
		return "Failed · Puzzle " + t.ID + " · Ban Chess"
	}
	return t.Solver + " to play · Puzzle " + t.ID + " · Ban Chess"
}

// DailyPuzzle is the puzzle of the day as a game's page links to it.
type DailyPuzzle struct {
	URL       string
	Placement string // the position's placement, drawn small
	Solver    string // "White"
	Rating    string
}

// PuzzlePrompt says what the solver looks for at turn t: "Find the best
// ban for White", "Find the best move for Black".
func PuzzlePrompt(t rules.Turn) string {
	return fmt.Sprintf("Find the best %s for %s.", t.Phase, t.Actor.Name())
}

// PuzzleReplied says what the solver played last and what opp replied
// since: "Right: Ra8+. Black replied Kh7, then banned e2–e4.";
// "Right: Ra8+. Your ban now." when the solver acts again.
func PuzzleReplied(mine string, opp rules.Color, replies []string) string {
	if len(replies) == 0 {
		return "Right: " + mine + ". Now your ban."
	}
	return "Right: " + mine + ". " + opp.Name() + " replied " + strings.Join(replies, ", then ") + "."
}

// RatingChange writes a rating's change: "+12", "−8", "±0".
func RatingChange(d float64) string {
	n := int(math.Round(d))
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "±0"
}

// SolvedText praises a solution of n actions.
func SolvedText(n int) string {
	if n == 1 {
		return "One action, and it was the right one."
	}
	return fmt.Sprintf("All %d of your actions were right.", n)
}

// SolutionCaption says what the board shows of a solution of total plies:
// the position after ply n of it (named name), or the puzzle's start.
func SolutionCaption(n int, name string, total int) string {
	if n == 0 {
		return "The puzzle's position: step through the solution below."
	}
	return fmt.Sprintf("After ply %d of %d of the solution: %s.", n, total, name)
}
