package rules

import (
	"errors"
	"fmt"
)

// Snapshot is a game reduced to what it is made of: its variant, its start,
// every ply as BCN, and an outcome declared rather than reached by a ply.
// Everything else follows by replaying it. Stores keep games this way;
// Restore rebuilds the game.
type Snapshot struct {
	Variant  string   // the variant's ID
	StartFEN string   // the start as extended FEN
	Actions  []string // every ply, in BCN without indicators
	// Declared is a resignation, an agreed draw or a flag fall; the zero Outcome when
	// the game ended by a ply or has not ended.
	Declared      Outcome
	Tags          []Tag // the PGN tags the game was read with
	FromChessGame bool  // read from a plain chess game (see Game.FromChessGame)
	// Comments are the PGN comments the game was read with, by the number
	// of plies before them.
	Comments map[int]string
}

// Snapshot returns what the game is made of.
func (g *Game) Snapshot() Snapshot {
	s := Snapshot{
		Variant:       g.variant.ID(),
		StartFEN:      g.StartFEN(),
		Actions:       g.BCN(),
		Tags:          g.Tags(),
		FromChessGame: g.fromChessGame,
		Comments:      cloneComments(g.comments),
	}
	if g.declared {
		s.Declared = g.outcome
	}
	return s
}

// Restore rebuilds a game from its snapshot. It refuses a snapshot that does
// not replay: an unknown variant, a bad start, an illegal action or a
// declared outcome that is neither a resignation nor an agreed draw.
func Restore(s Snapshot) (*Game, error) {
	v, err := VariantByID(s.Variant)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	g, err := Replay(v, s.StartFEN, s.Actions)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	switch d := s.Declared; {
	case d == Outcome{}:
	case d.Status == Resigned && d.Reason == Resignation && (d.Winner == White || d.Winner == Black):
		err = g.Resign(d.Winner.Other())
	case d.Status == Draw && d.Reason == Agreement && d.Winner == 0:
		err = g.AgreeDraw()
	case d.Status == TimeForfeit && d.Reason == Timeout && (d.Winner == White || d.Winner == Black):
		err = g.FlagFall(d.Winner.Other())
	case d.Status == Draw && d.Reason == Timeout && d.Winner == 0:
		err = g.FlagFall(g.Turn().Actor) // only the side to act can run out of time
	default:
		err = errors.New("a declared outcome is a resignation, an agreed draw or a flag fall")
	}
	if err != nil {
		return nil, fmt.Errorf("restore: declared %v: %w", s.Declared, err)
	}
	g.tags = append([]Tag(nil), s.Tags...)
	for n := range s.Comments {
		if n < 0 || n > len(g.plies) {
			return nil, fmt.Errorf("restore: a comment after ply %d of a game of %d", n, len(g.plies))
		}
	}
	g.comments = cloneComments(s.Comments)
	g.fromChessGame = s.FromChessGame
	return g, nil
}
