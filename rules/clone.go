package rules

import (
	"slices"
)

// Clone returns a copy of g that shares nothing g changes: it may be read
// while g plays on, as a front end renders a game after the game's lock is
// released. It costs a copy of the game's positions, plies and notes.
func (g *Game) Clone() *Game {
	c := *g
	c.positions = slices.Clone(g.positions)
	c.plies = slices.Clone(g.plies)
	c.before = slices.Clone(g.before)
	c.tags = slices.Clone(g.tags)
	c.notes = g.notes.clone()
	if g.movetext != nil {
		mt := *g.movetext
		c.movetext = &mt
	}
	c.mover = g.mover.clone()
	c.moves = c.mover.moves()
	return &c
}

// clone copies the notes, and the variations in them, deeply.
func (ns notes) clone() notes {
	if ns == nil {
		return nil
	}
	out := make(notes, len(ns))
	for n, nt := range ns {
		c := &note{nags: slices.Clone(nt.nags), comment: nt.comment, variations: make([]*Variation, len(nt.variations))}
		for i, v := range nt.variations {
			c.variations[i] = &Variation{plies: slices.Clone(v.plies), notes: v.notes.clone()}
		}
		if nt.variations == nil {
			c.variations = nil
		}
		out[n] = c
	}
	return out
}
