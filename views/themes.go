package views

// Themes is the themes page: every theme with its puzzles and the
// viewer's results, and the difficulty of the next puzzle.
type Themes struct {
	Asset string
	Rows  []ThemeRow
	// Difficulty is the viewer's choice; Choices every one.
	Difficulty string
	Choices    []DifficultyChoice
}

// ThemeRow is one theme: its name and link, its puzzles, the viewer's
// rated attempts, the share solved ("83%") and the rating they changed
// ("+12"), both "" before any attempt.
type ThemeRow struct {
	Name, URL, Count, Tried, Solved, Change string
}

// DifficultyChoice is one difficulty of the form.
type DifficultyChoice struct{ Value, Label string }
