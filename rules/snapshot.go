package rules

import (
	"errors"
	"fmt"
	"slices"
)

// Snapshot is a game reduced to what it is made of: its variant, its start,
// every ply as BCN, and an outcome declared rather than reached by a ply,
// with what it was read with: tags and annotations. Everything else follows
// by replaying it. Stores keep games this way; Restore rebuilds the game.
type Snapshot struct {
	Variant  string   // the variant's ID
	StartFEN string   // the start as extended FEN
	Actions  []string // every ply, in BCN without indicators
	// Declared is a resignation, an agreed draw, a flag fall or an abort; the zero Outcome when
	// the game ended by a ply or has not ended.
	Declared      Outcome
	Tags          []Tag // the PGN tags the game was read with
	FromChessGame bool  // read from a plain chess game (see Record.FromChessGame)
	// Annotations are the main line's comments, NAGs and variations.
	Annotations
}

// Annotations are what a line of play keeps beside its plies, each by the
// number of the line's plies before it: the comment there (at 0, before
// the first ply), the NAGs of the ply before, and the variations that
// branch there (alternatives to the next ply). Empty maps are nil.
type Annotations struct {
	Comments   map[int]string              `json:"comments,omitempty"`
	NAGs       map[int][]NAG               `json:"nags,omitempty"`
	Variations map[int][]VariationSnapshot `json:"variations,omitempty"`
}

// VariationSnapshot is a variation reduced to its plies, in BCN without
// indicators, and its annotations.
type VariationSnapshot struct {
	Actions []string `json:"actions"`
	Annotations
}

// Snapshot returns what the game is made of.
func (g *Game) Snapshot() Snapshot {
	s := Snapshot{
		Variant:       g.variant.ID(),
		StartFEN:      g.StartFEN(),
		Actions:       g.BCN(),
		Tags:          g.Record().Tags(),
		FromChessGame: g.fromChessGame,
		Annotations:   g.notes.snapshot(),
	}
	if g.declared {
		s.Declared = g.outcome
	}
	return s
}

// snapshot copies the notes, and the variations in them, as Annotations.
func (ns notes) snapshot() Annotations {
	var a Annotations
	for n, nt := range ns {
		if nt.comment != "" {
			if a.Comments == nil {
				a.Comments = map[int]string{}
			}
			a.Comments[n] = nt.comment
		}
		if len(nt.nags) > 0 {
			if a.NAGs == nil {
				a.NAGs = map[int][]NAG{}
			}
			a.NAGs[n] = slices.Clone(nt.nags)
		}
		if len(nt.variations) > 0 {
			if a.Variations == nil {
				a.Variations = map[int][]VariationSnapshot{}
			}
			vs := make([]VariationSnapshot, len(nt.variations))
			for i, v := range nt.variations {
				vs[i] = VariationSnapshot{Actions: make([]string, len(v.plies)), Annotations: v.notes.snapshot()}
				for j, p := range v.plies {
					vs[i].Actions[j] = p.action.String()
				}
			}
			a.Variations[n-1] = vs
		}
	}
	return a
}

// Restore rebuilds a game from its snapshot. It refuses a snapshot that does
// not replay: an unknown variant, a bad start, an illegal action (in a
// variation too), an annotation past the plies of its line, or a declared
// outcome that is neither a resignation nor an agreed draw.
func Restore(s Snapshot) (*Game, error) {
	v, err := VariantByID(s.Variant)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	fen := s.StartFEN
	if fen == "" {
		fen = v.startFEN()
	}
	g, err := FromFEN(fen, v)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	acts, err := parseActions(s.Actions, g.promotions.letters())
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	ns, _, err := snapshotReader{g}.line(acts, s.Annotations, false)
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
	case d == Outcome{Status: Aborted, Reason: Abort}:
		err = g.Abort()
	default:
		err = errors.New("a declared outcome is a resignation, an agreed draw, a flag fall or an abort")
	}
	if err != nil {
		return nil, fmt.Errorf("restore: declared %v: %w", s.Declared, err)
	}
	g.tags = append([]Tag(nil), s.Tags...)
	g.notes = ns
	g.fromChessGame = s.FromChessGame
	return g, nil
}

// parseActions reads BCN actions promoting to one of promos.
func parseActions(texts []string, promos string) ([]Action, error) {
	acts := make([]Action, len(texts))
	for i, text := range texts {
		a, err := parseAction(text, promos)
		if err != nil {
			return nil, fmt.Errorf("action %d (%s): %w", i+1, Clip(text), err)
		}
		acts[i] = a
	}
	return acts, nil
}

// snapshotReader plays a snapshot's lines on g: its main line, and each
// variation where it branches, played and then taken back, as pgnReader
// reads a PGN's.
type snapshotReader struct{ g *Game }

// line plays a line's actions on r.g from where it stands, with its
// annotations, and returns its notes and, when keep is set, its plies as
// a variation keeps them: each variation is played where it branches, with
// those within it, and taken back. r.g ends at the line's end.
func (r snapshotReader) line(acts []Action, a Annotations, keep bool) (notes, []varPly, error) {
	g := r.g
	var ns notes
	for n, c := range a.Comments {
		if n < 0 || n > len(acts) {
			return nil, nil, fmt.Errorf("a comment after ply %d of a line of %d", n, len(acts))
		}
		ns.addComment(n, c)
	}
	for n, nags := range a.NAGs {
		if n < 0 || n > len(acts) {
			return nil, nil, fmt.Errorf("NAGs after ply %d of a line of %d", n, len(acts))
		}
		for _, nag := range nags {
			ns.at(n).addNAG(nag)
		}
	}
	for n := range a.Variations {
		if n < 0 || n >= len(acts) {
			return nil, nil, fmt.Errorf("a variation after ply %d of a line of %d", n, len(acts))
		}
	}
	var plies []varPly
	if keep {
		plies = make([]varPly, 0, len(acts))
	}
	for i, act := range acts {
		for j, vs := range a.Variations[i] {
			v, err := r.variation(vs)
			if err != nil {
				return nil, nil, fmt.Errorf("variation %d after ply %d: %w", j+1, i, err)
			}
			nt := ns.at(i + 1)
			nt.variations = append(nt.variations, v)
		}
		if err := g.Play(act); err != nil {
			return nil, nil, fmt.Errorf("action %d (%s): %w", i+1, act, err)
		}
		if keep {
			plies = append(plies, g.Record().lastPly())
		}
	}
	return ns, plies, nil
}

// variation plays a variation from where r.g stands and takes it back.
func (r snapshotReader) variation(vs VariationSnapshot) (*Variation, error) {
	g := r.g
	if len(vs.Actions) == 0 {
		return nil, errors.New("a variation without plies")
	}
	acts, err := parseActions(vs.Actions, g.promotions.letters())
	if err != nil {
		return nil, err
	}
	base := len(g.plies)
	ns, plies, err := r.line(acts, vs.Annotations, true)
	if back := g.takeBack(base); err == nil {
		err = back
	}
	if err != nil {
		return nil, err
	}
	return &Variation{plies: plies, notes: ns}, nil
}

// takeBack undoes plies until n are left, with the notes of the main line
// left alone: a reader building a game's lines on it keeps those aside.
func (g *Game) takeBack(n int) error {
	saved := g.notes
	defer func() { g.notes = saved }()
	g.notes = nil
	for len(g.plies) > n {
		if err := g.Undo(); err != nil {
			return fmt.Errorf("taking back a ply of a variation: %w", err)
		}
	}
	return nil
}
