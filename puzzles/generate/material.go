package generate

import (
	"slices"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// material builds a material line: the solver's actions (each worth
// marginCP more than any other) and the opponent's best replies, until
// the solver has won the material and keeps it, within b.actions of the
// solver's.
func (b *builder) material(top rules.Action, base int) ([]rules.Action, error) {
	defer b.rewind()
	target := base + gainCP
	gain := func() int { return 100*puzzles.MaterialBalance(b.g.Position(), b.solver) - base }
	if err := b.play(top); err != nil {
		return nil, err
	}
	for {
		if o := b.g.Outcome(); o.Over() {
			return nil, reject("the material line ends the game")
		}
		if b.g.Turn().Actor != b.solver {
			r, err := b.deep.search(b.g)
			if err != nil {
				return nil, err
			}
			if gain() >= gainCP && valueOf(r).other().rank() >= target-holdCP {
				return slices.Clone(b.line), nil
			}
			if err := b.play(r.Best); err != nil {
				return nil, err
			}
			continue
		}
		if b.mine == b.actions {
			return nil, reject("the material is not won within the line")
		}
		next, v1, v2, err := b.deep.best2(b.g)
		if err != nil {
			return nil, err
		}
		unique := apart(puzzles.Material)(v1, v2)
		if b.g.Turn().Phase == rules.PhaseBan && gain() >= gainCP && !unique && v2.rank() >= target-holdCP {
			// The material is won and any ban keeps it: the line ends
			// with the solver's move.
			return slices.Clone(b.line), nil
		}
		switch {
		case v1.mate > 0:
			return nil, reject("the material line turns into a mate")
		case v1.rank() < target-holdCP:
			return nil, reject("the material line loses the gain")
		case !unique:
			return nil, reject("a later solver step has more than one good action")
		}
		if err := b.play(next); err != nil {
			return nil, err
		}
	}
}
