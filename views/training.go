package views

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/banchess/banchess/i18n"
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
	Solver rules.Color
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
	l := t.Board.Opts.Lang
	if t.Result != nil {
		if t.Result.Solved {
			return l.T("puzzle.solvedTitle", "ID", t.ID)
		}
		return l.T("puzzle.failedTitle", "ID", t.ID)
	}
	return l.T(bySide(t.Solver, "puzzle.toPlay.w", "puzzle.toPlay.b"), "ID", t.ID)
}

// DailyPuzzle is the puzzle of the day as a game's page links to it.
type DailyPuzzle struct {
	URL       string
	Placement string // the position's placement, drawn small
	Solver    rules.Color
	Rating    string
}

// PuzzlePrompt says what the solver looks for at turn t: "Find the best
// ban for White", "Find the best move for Black".
func PuzzlePrompt(l *i18n.Language, t rules.Turn) string {
	return l.T(byPhase(t, "puzzle.prompt.ban.w", "puzzle.prompt.ban.b", "puzzle.prompt.move.w", "puzzle.prompt.move.b"))
}

// PuzzleGoal says what a puzzle of kind asks, shown before the solver
// answers, as lichess shows a mate's theme: "Goal: checkmate in 2 of your
// actions (a ban is one)."; "" for a kind it does not know.
func PuzzleGoal(l *i18n.Language, kind puzzles.Theme) string {
	switch kind {
	case puzzles.MateIn1:
		return l.T("puzzle.goal.mate1")
	case puzzles.MateIn2:
		return l.T("puzzle.goal.mate2")
	case puzzles.MateIn3:
		return l.T("puzzle.goal.mate3")
	case puzzles.MateIn4:
		return l.T("plong.goalMate4")
	case puzzles.Material:
		return l.T("puzzle.goal.material")
	case puzzles.Defence:
		return l.T("puzzle.goal.defence")
	}
	return ""
}

// ThemeNamesOf are themes by their names for people (Theme.Name): "Mate
// in 2", "Checkmate by ban".
func ThemeNamesOf(l *i18n.Language, ts []puzzles.Theme) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = ThemeName(l, t)
	}
	return out
}

// themeMessages name each theme.
var themeMessages = map[puzzles.Theme]string{
	puzzles.MateIn1: "theme.mateIn1", puzzles.MateIn2: "theme.mateIn2", puzzles.MateIn3: "theme.mateIn3",
	puzzles.Material: "theme.material", puzzles.Defence: "theme.defence", puzzles.MateByBan: "theme.mateByBan",
	puzzles.Promotion: "theme.promotion", puzzles.UnderPromotion: "theme.underPromotion",
	puzzles.StalemateTrap: "theme.stalemateTrap", puzzles.Ban: "theme.ban",
	puzzles.MateIn4: "theme.mateIn4", puzzles.Long: "theme.long",
}

// ThemeName is a theme's name for people in l: "Mate in 2".
func ThemeName(l *i18n.Language, t puzzles.Theme) string {
	if id, ok := themeMessages[t]; ok {
		return l.T(id)
	}
	return t.Name()
}

// ResultStatus is the status line of a puzzle's page once the attempt is
// over: no longer the solver's turn.
func ResultStatus(l *i18n.Language, solved bool) string {
	if solved {
		return l.T("puzzle.statusSolved")
	}
	return l.T("puzzle.statusFailed")
}

// FailureCaption says what the board shows after a wrong action, named
// wrong: with more to come (its refutation, played next), "You played
// Nf3…"; else what answered it, opp's answer after the solver's best
// bans (pairs, "e7–e5"; after a wrong move the solver bans next): "You
// played Nf3. Even after your best ban, e7–e5, Black answers Qxf2#.";
// "You played the ban of e2–e4. White answers e4." ("" answer: none).
func FailureCaption(l *i18n.Language, wrong string, bans []string, answer string, opp rules.Color, more bool) string {
	if more {
		return l.T("puzzle.youPlayedMore", "Action", wrong)
	}
	s := l.T("puzzle.youPlayed", "Action", wrong)
	switch {
	case answer == "" && len(bans) > 0:
		s += " " + l.T("puzzle.thenBestBan", "Bans", strings.Join(bans, ", "))
	case answer == "":
	case len(bans) > 0:
		s += " " + l.T(bySide(opp, "puzzle.evenAfter.w", "puzzle.evenAfter.b"), "Bans", strings.Join(bans, ", "), "Answer", answer)
	default:
		s += " " + l.T(bySide(opp, "puzzle.answers.w", "puzzle.answers.b"), "Answer", answer)
	}
	return s
}

// PuzzleReplied says what the solver played last and what opp replied
// since: "Right: Ra8+. Black replied Kh7, then banned e2–e4.";
// "Right: Ra8+. Your ban now." when the solver acts again.
func PuzzleReplied(l *i18n.Language, mine string, opp rules.Color, replies []string) string {
	if len(replies) == 0 {
		return l.T("puzzle.rightNowBan", "Action", mine)
	}
	return l.T(bySide(opp, "puzzle.replied.w", "puzzle.replied.b"), "Action", mine, "Replies", strings.Join(replies, ", "))
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
func SolvedText(l *i18n.Language, n int) string {
	if n == 1 {
		return l.T("puzzle.solvedOne")
	}
	return l.N("puzzle.solvedAll", n)
}

// SolutionCaption says what the board shows of a solution of total plies:
// the position after ply n of it (named name), or the puzzle's start.
func SolutionCaption(l *i18n.Language, n int, name string, total int) string {
	if n == 0 {
		return l.T("puzzle.solutionStart")
	}
	return l.T("puzzle.solutionAt", "N", n, "Total", total, "Name", name)
}
