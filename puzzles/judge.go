package puzzles

import (
	"fmt"

	"github.com/banchess/banchess/rules"
)

// Verdict is the judgement of an attempt at a puzzle.
type Verdict struct {
	// Correct says every action given was right.
	Correct bool
	// Solved says they were right and completed the puzzle.
	Solved bool
	// FailedAt is the index, among the actions given, of the first wrong
	// one (an action after the puzzle ended is wrong too); -1 when none.
	FailedAt int
}

// Judge judges an attempt: the solver's actions only, in order, the
// opponent's replies being the solution's. A prefix of the solution is
// correct but not solved. An action is right when it is the solution's,
// or when it checkmates at once (a mate the solution does not show still
// solves the puzzle).
func (p Puzzle) Judge(actions []rules.Action) (Verdict, error) {
	g, err := p.Start()
	if err != nil {
		return Verdict{}, err
	}
	line, err := p.Line()
	if err != nil {
		return Verdict{}, err
	}
	solver := g.Turn().Actor
	given := 0
	for i, want := range line {
		if g.Turn().Actor == solver {
			if given == len(actions) {
				return Verdict{Correct: true, FailedAt: -1}, nil
			}
			a := actions[given]
			given++
			if a != want {
				if g.Play(a) != nil || g.Outcome().Status != rules.Checkmate || g.Outcome().Winner != solver {
					return Verdict{FailedAt: given - 1}, nil
				}
				break // an immediate mate of its own
			}
		}
		if err := g.Play(want); err != nil {
			return Verdict{}, fmt.Errorf("puzzle %s: solution action %d: %w", p.ID, i+1, err)
		}
	}
	if given < len(actions) {
		return Verdict{FailedAt: given}, nil
	}
	return Verdict{Correct: true, Solved: true, FailedAt: -1}, nil
}
