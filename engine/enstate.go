package engine

import (
	"fmt"

	"github.com/banchess/banchess/rules"
)

// fromENGame is FromGame for a game on EN-Chess's board: its start, then
// its moves replayed.
func fromENGame(g *rules.Game) (*State, error) {
	pos, err := parseENFEN(g.StartFEN())
	if err != nil {
		return nil, err
	}
	s := &State{en: pos, ban: noBan, history: []uint64{pos.hash}}
	for _, a := range g.Actions() {
		if err := s.play(a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// playEN applies a move the EN-Chess game accepted.
func (s *State) playEN(a rules.Action) error {
	moves, _ := s.en.legal(nil)
	for _, m := range moves {
		if enMatches(m, a) {
			s.en.make(m)
			s.en.undo = s.en.undo[:0]
			s.history = append(s.history, s.en.hash)
			return nil
		}
	}
	return fmt.Errorf("engine: %s is not a legal move in %s", a, s.en.fen())
}

// legalEN returns the legal moves of an EN-Chess state as actions: none
// once the side to move has lost its last king.
func (s *State) legalEN() []rules.Action {
	if s.en.kingless() {
		return nil
	}
	moves, _ := s.en.legal(nil)
	out := make([]rules.Action, len(moves))
	for i, m := range moves {
		out[i] = enAction(m)
	}
	return out
}

// enAction returns an EN move as a rules action.
func enAction(m enMove) rules.Action {
	if m.kind() == enPass {
		return rules.PassAction()
	}
	return rules.MoveAction(rules.Square(m.from()), rules.Square(m.to()), rules.PieceKind(m.promo()))
}

// enMatches reports whether a names the move m.
func enMatches(m enMove, a rules.Action) bool {
	if a.Phase != rules.PhaseMove {
		return false
	}
	if m.kind() == enPass {
		return a.IsPass()
	}
	return !a.IsPass() && int(a.From) == m.from() && int(a.To) == m.to() && int(a.Promotion) == m.promo()
}
