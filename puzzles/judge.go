package puzzles

import "github.com/banchess/banchess/rules"

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
	s, err := p.Solve()
	if err != nil {
		return Verdict{}, err
	}
	for _, a := range actions {
		if _, err := s.Act(a); err != nil {
			return Verdict{}, err
		}
	}
	return s.Verdict(), nil
}
