package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/banchess/banchess/rules"
)

// noBan marks that no ban is in force.
const noBan = -1

// State is the moment of a game the engine searches from: the position,
// whether the variant bans, whether the next ply is a ban, the ban in force,
// and the keys of the positions that stood on the board before (for the
// repetition rule).
type State struct {
	pos      *Position
	en       *enPos // an EN-Chess game's position, pos being nil
	bans     bool
	banPhase bool
	ban      int      // the pair (Move.Pair) the mover may not play, or noBan
	history  []uint64 // keys of the positions after each move, the current one last
}

// ErrVariant is returned for a game of a variant the engine does not play
// (see Supports).
var ErrVariant = errors.New("engine: it does not play this variant")

// Supports reports whether the engine plays v, drawn by threefold
// repetition and the fifty-move rule (its search counts both): chess on
// chess's board, promoting to a queen, rook, bishop or knight, with Ban
// Chess's bans or without bans (Ban Chess, Classic); or EN-Chess's board
// and men without bans, its pawns promoting as EN-Chess's do, its sides
// passing in partial checkmate (EN-Chess).
func Supports(v rules.Variant) bool {
	if !v.ThreefoldRepetition() || !v.FiftyMoveRule() {
		return false
	}
	switch v.Board() {
	case rules.ChessBoard:
		return slices.Equal(v.Promotions(), []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight})
	case rules.ENBoard:
		return !v.HasBans() && v.HasPasses() &&
			slices.Equal(v.Promotions(), []rules.PieceKind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.King, rules.Auror, rules.Pawn})
	}
	return false
}

// FromGame returns the state of g now. It replays g's plies from its start
// so that the search knows which positions have stood on the board.
func FromGame(g *rules.Game) (*State, error) {
	if !Supports(g.Variant()) {
		return nil, fmt.Errorf("%w: %s", ErrVariant, g.Variant().Name())
	}
	if g.Variant().Board() == rules.ENBoard {
		return fromENGame(g)
	}
	pos, err := ParseFEN(g.StartFEN())
	if err != nil {
		return nil, err
	}
	s := &State{pos: pos, bans: g.Variant().HasBans(), ban: noBan, history: []uint64{pos.hash}}
	start, err := rules.FromFEN(g.StartFEN(), g.Variant())
	if err != nil {
		return nil, fmt.Errorf("engine: reading the game's start: %w", err)
	}
	s.banPhase = start.Turn().Phase == rules.PhaseBan
	if ban, ok := start.Ban(); ok {
		s.ban = pairOf(ban)
	}
	for _, a := range g.Actions() {
		if err := s.play(a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func pairOf(p rules.Pair) int { return int(p.From) | int(p.To)<<6 }

// play applies an action the game accepted.
func (s *State) play(a rules.Action) error {
	if s.en != nil {
		return s.playEN(a)
	}
	if a.Phase == rules.PhaseBan {
		s.ban, s.banPhase = pairOf(a.Pair()), false
		return nil
	}
	m, ok := s.pos.find(a)
	if !ok {
		return fmt.Errorf("engine: %s is not a legal move in %s", a, s.pos.FEN())
	}
	s.pos.Make(m)
	s.pos.undo = s.pos.undo[:0]
	s.history = append(s.history, s.pos.hash)
	s.ban, s.banPhase = noBan, s.bans
	return nil
}

// find returns the legal move a names.
func (p *Position) find(a rules.Action) (Move, bool) {
	for _, m := range p.Legal(make([]Move, 0, 64)) {
		if m.From() == int(a.From) && m.To() == int(a.To) && promoKind(m) == a.Promotion {
			return m, true
		}
	}
	return 0, false
}

// promoKind returns the rules kind a move promotes to, or 0.
func promoKind(m Move) rules.PieceKind {
	if !m.IsPromotion() {
		return 0
	}
	return rules.PieceKind(m.Promotion() + 1)
}

// Action returns the move as a rules action.
func (m Move) Action() rules.Action {
	return rules.MoveAction(rules.Square(m.From()), rules.Square(m.To()), promoKind(m))
}

// banAction returns the ban of a pair.
func banAction(pair int) rules.Action {
	return rules.BanAction(rules.Square(pair&63), rules.Square(pair>>6))
}

// Legal returns the legal actions now: the bans of the mover's pairs at a
// ban ply, the moves the ban in force leaves at a move ply. It does not
// know whether the game is over by a draw rule; package rules does.
func (s *State) Legal() []rules.Action {
	if s.en != nil {
		return s.legalEN()
	}
	moves := s.pos.Legal(make([]Move, 0, 64))
	var out []rules.Action
	seen := map[int]bool{}
	for _, m := range moves {
		switch {
		case s.banPhase:
			if !seen[m.Pair()] {
				seen[m.Pair()] = true
				out = append(out, banAction(m.Pair()))
			}
		case m.Pair() != s.ban:
			out = append(out, m.Action())
		}
	}
	return out
}
