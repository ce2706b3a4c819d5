package views

import (
	"testing"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// TestFailureCaption: what the board says after a wrong action — alone,
// with more to come, answered by a move, by the solver's best ban and a
// move, or by a ban that ends the game.
func TestFailureCaption(t *testing.T) {
	for _, c := range []struct {
		bans         []string
		answer, want string
		more         bool
	}{
		{nil, "", "You played a4…", true},
		{nil, "", "You played a4.", false},
		{nil, "Qd8+", "You played a4. White answers Qd8+.", false},
		{[]string{"f6–f8"}, "Qd8+", "You played a4. Even after your best ban, f6–f8, White answers Qd8+.", false},
		{[]string{"f6–f8"}, "", "You played a4. Then your best ban, f6–f8, ends the game.", false},
	} {
		if got := FailureCaption(nil, "a4", c.bans, c.answer, rules.White, c.more); got != c.want {
			t.Errorf("%v %q %v: %q, want %q", c.bans, c.answer, c.more, got, c.want)
		}
	}
}

// TestPuzzleGoal: every kind of puzzle has a goal; traits have none,
// for they would give the answer away.
func TestPuzzleGoal(t *testing.T) {
	for _, th := range puzzles.AllThemes() {
		if goal := PuzzleGoal(nil, th); (goal != "") != th.IsKind() {
			t.Errorf("%s: goal %q", th, goal)
		}
	}
	if got := PuzzleGoal(nil, puzzles.MateIn1); got != "Goal: checkmate in 1." {
		t.Errorf("mate in 1: %q", got)
	}
}
