package views

import "strconv"

// Run is a page of Puzzle Streak or Puzzle Storm: the start (no run
// yet), a run's puzzle at hand on its board, or a run over.
type Run struct {
	// Kind is "streak" or "storm"; Asset the static files' version.
	Kind, Asset string
	// Board is the puzzle at hand; nil on the start page and once over.
	Board *Game
	// InRun says a run is shown; Over that it has ended.
	InRun, Over bool
	// Score is the run's puzzles solved; Best and Today the viewer's
	// best scores, ever and today (Storm).
	Score, Best, Today int
	// Combo is Storm's right actions in a row; RemainingMS the time on
	// its clock, which the page's script counts down.
	Combo       int
	RemainingMS int64
	// Start is where a form starts a run; Skip where Streak's one skip
	// posts ("" once used); End where Storm's script (or a button) ends
	// the run.
	Start, Skip, End string
	// Right says the last action was right (the puzzle goes on, or the
	// next came), Wrong that it was wrong (Storm: the next came); Won
	// that a streak solved every puzzle.
	Right, Wrong, Won bool
	// Prompt and Goal say what to find; Last is the page of the puzzle
	// that ended the run, to see its solution.
	Prompt, Goal, Last string
	// PuzzleID is the puzzle at hand's id ("" for none).
	PuzzleID string
	// Title is the page's heading; Rules says how a run goes.
	Title, Rules string
	// Error is a refusal shown on a page without a board.
	Error string
}

// RemainingText is Storm's clock as it starts: m:ss.
func (r Run) RemainingText() string {
	s := max(r.RemainingMS, 0) / 1000
	return strconv.FormatInt(s/60, 10) + ":" + pad2(s%60)
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// RemainingAttr is RemainingMS for the page's script.
func (r Run) RemainingAttr() string { return strconv.FormatInt(r.RemainingMS, 10) }

// runKey is the message of a run's kind for what ("right", "over",
// "best", "again", "start").
func runKey(kind, what string) string {
	storm := kind == "storm"
	switch what {
	case "right":
		return pickKey(storm, "storm.right", "streak.right")
	case "over":
		return pickKey(storm, "storm.over", "streak.over")
	case "best":
		return pickKey(storm, "storm.best", "streak.best")
	case "again":
		return pickKey(storm, "storm.again", "streak.again")
	}
	return pickKey(storm, "storm.start", "streak.start")
}

func pickKey(storm bool, a, b string) string {
	if storm {
		return a
	}
	return b
}
