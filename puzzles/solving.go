package puzzles

import (
	"errors"
	"fmt"

	"github.com/banchess/banchess/rules"
)

// Solving is a puzzle being solved: a game at its position with the
// solution's plies played on it as far as the solving has come, and the
// verdict on the solver's actions given so far (Act). Each ply is played
// once, as the solving moves forward; To moves along the solution either
// way. Judge is a Solving given every action at once.
type Solving struct {
	id     string
	game   *rules.Game
	line   []rules.Action
	solver rules.Color
	at     int  // the solution's plies played
	given  int  // the solver's actions given to Act
	failed int  // the index of the first wrong one; -1 for none
	solved bool // the actions given solve the puzzle
	own    bool // the last action given is a mate of the solver's own, played off the solution
}

// Solve starts solving p at its position.
func (p Puzzle) Solve() (*Solving, error) {
	g, err := p.Start()
	if err != nil {
		return nil, err
	}
	line, err := p.Line()
	if err != nil {
		return nil, err
	}
	return &Solving{id: p.ID, game: g, line: line, solver: g.Turn().Actor, failed: -1}, nil
}

// Game is the game where the solving stands. A caller that plays on it
// takes its plies back before the solving moves on.
func (s *Solving) Game() *rules.Game { return s.game }

// Solver is the side that solves the puzzle: the side to act at its
// position.
func (s *Solving) Solver() rules.Color { return s.solver }

// Line is the solution. The slice is the solving's: callers must not
// change it.
func (s *Solving) Line() []rules.Action { return s.line }

// At is the moment the solving stands at: the solution's plies played.
func (s *Solving) At() int { return s.at }

// SolverActs reports whether the solver acts next in the solution: the
// solution goes on, and with one of the solver's actions.
func (s *Solving) SolverActs() bool {
	return !s.own && s.at < len(s.line) && s.game.Turn().Actor == s.solver
}

// Verdict is the verdict on the actions given so far: correct (with none
// given), solved, or failed at the first wrong one.
func (s *Solving) Verdict() Verdict {
	switch {
	case s.failed >= 0:
		return Verdict{FailedAt: s.failed}
	case s.solved:
		return Verdict{Correct: true, Solved: true, FailedAt: -1}
	}
	return Verdict{Correct: true, FailedAt: -1}
}

// Act judges a, the solver's next action, as Judge judges the next of an
// attempt's, and returns the verdict on the actions given so far. The
// replies before it are played first. The solution's action is played
// with the replies after it, up to the solver's next action or the end
// (which solves the puzzle); another that mates at once is played and
// solves it too; any other action is wrong and is not played. Once the
// attempt has failed Act changes nothing, and once it is solved every
// further action is wrong.
func (s *Solving) Act(a rules.Action) (Verdict, error) {
	i := s.given
	s.given++
	if s.failed >= 0 {
		return s.Verdict(), nil
	}
	if err := s.Reply(); err != nil {
		return Verdict{}, err
	}
	if s.own || s.at == len(s.line) { // an action after the puzzle ended
		s.failed = i
		return s.Verdict(), nil
	}
	if a == s.line[s.at] {
		if err := s.step(); err != nil {
			return Verdict{}, err
		}
		if err := s.Reply(); err != nil {
			return Verdict{}, err
		}
		s.solved = s.at == len(s.line)
		return s.Verdict(), nil
	}
	if s.game.Play(a) == nil {
		if o := s.game.Outcome(); o.Status == rules.Checkmate && o.Winner == s.solver {
			s.own, s.solved = true, true
			return s.Verdict(), nil
		}
		if err := s.game.Undo(); err != nil {
			return Verdict{}, fmt.Errorf("puzzle %s: taking back a wrong action: %w", s.id, err)
		}
	}
	s.failed = i
	return s.Verdict(), nil
}

// Reply plays the opponent's replies in the solution, up to the solver's
// next action or the end.
func (s *Solving) Reply() error {
	for !s.own && s.at < len(s.line) && s.game.Turn().Actor != s.solver {
		if err := s.step(); err != nil {
			return err
		}
	}
	return nil
}

// To moves the solving along the solution to moment n, from 0 (the
// puzzle's position) to the solution's length: it plays the solution's
// plies on to it, or takes them back. A mate of the solver's own is
// taken back first. The verdict stays as it is.
func (s *Solving) To(n int) error {
	if n < 0 || n > len(s.line) {
		return fmt.Errorf("puzzle %s: no moment %d in a solution of %d plies", s.id, n, len(s.line))
	}
	if s.own {
		if err := s.game.Undo(); err != nil {
			return fmt.Errorf("puzzle %s: taking back a mate: %w", s.id, err)
		}
		s.own = false
	}
	for s.at > n {
		if err := s.game.Undo(); err != nil {
			return fmt.Errorf("puzzle %s: taking back solution action %d: %w", s.id, s.at, err)
		}
		s.at--
	}
	for s.at < n {
		if err := s.step(); err != nil {
			return err
		}
	}
	return nil
}

// step plays the solution's next ply.
func (s *Solving) step() error {
	if s.at == len(s.line) {
		return errors.New("puzzle " + s.id + ": the solution is over")
	}
	if err := s.game.Play(s.line[s.at]); err != nil {
		return fmt.Errorf("puzzle %s: solution action %d: %w", s.id, s.at+1, err)
	}
	s.at++
	return nil
}
