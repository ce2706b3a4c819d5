package views

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/banchess/banchess/puzzles"
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
	// Prompt says what to find, Goal what the puzzle asks of its kind
	// ("Goal: checkmate in 2 …"); Replied, after a right action, what the
	// opponent replied.
	Prompt, Goal, Replied string
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
	// Text praises a solution, or says why the wrong action fails.
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
	// ShowSteps says the solution's steps are listed: once solved, or
	// after a failure when the viewer asks to see them (ViewSolution, set
	// until then, is where they are).
	ShowSteps    bool
	ViewSolution string
	// Then, while the board shows a wrong action before its refutation,
	// is the result with the refutation played, which a page with scripts
	// loads after a pause.
	Then string
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

// ThemesText lists the themes shown, by their names: "Mate in 2,
// Checkmate by ban".
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

// PuzzleGoal says what a puzzle of kind asks, shown before the solver
// answers, as lichess shows a mate's theme: "Goal: checkmate in 2 of your
// actions (a ban is one)."; "" for a kind it does not know.
func PuzzleGoal(kind puzzles.Theme) string {
	switch kind {
	case puzzles.MateIn1:
		return "Goal: checkmate in 1."
	case puzzles.MateIn2:
		return "Goal: checkmate in 2 of your actions (a ban is one)."
	case puzzles.MateIn3:
		return "Goal: checkmate in 3 of your actions (a ban is one)."
	case puzzles.Material:
		return "Goal: win material."
	case puzzles.Defence:
		return "Goal: hold on. Every other action lets the opponent force mate."
	}
	return ""
}

// ThemeNamesOf are themes by their names for people (Theme.Name): "Mate
// in 2", "Checkmate by ban".
func ThemeNamesOf(ts []puzzles.Theme) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

// ResultStatus is the status line of a puzzle's page once the attempt is
// over: no longer the solver's turn.
func ResultStatus(solved bool) string {
	if solved {
		return "Puzzle solved"
	}
	return "Puzzle failed"
}

// NotTheMove heads a failed attempt's result, as lichess says it.
const NotTheMove = "That's not the move!"

// FailureCaption says what the board shows after a wrong action, named
// wrong: with more to come (its refutation, played next), "You played
// Nf3…"; else what answered it, opp's answer after the solver's best
// bans (pairs, "e7–e5"; after a wrong move the solver bans next): "You
// played Nf3. Even after your best ban, e7–e5, Black answers Qxf2#.";
// "You played the ban of e2–e4. White answers e4." ("" answer: none).
func FailureCaption(wrong string, bans []string, answer string, opp rules.Color, more bool) string {
	if more {
		return "You played " + wrong + "…"
	}
	s := "You played " + wrong + "."
	switch {
	case answer == "" && len(bans) > 0:
		s += " Then your best ban, " + strings.Join(bans, ", ") + ", ends the game."
	case answer == "":
	case len(bans) > 0:
		s += fmt.Sprintf(" Even after your best ban, %s, %s answers %s.", strings.Join(bans, ", "), opp.Name(), answer)
	default:
		s += fmt.Sprintf(" %s answers %s.", opp.Name(), answer)
	}
	return s
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
