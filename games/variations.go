package games

import (
	"context"
	"slices"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Spot is a position on the analysis board of a game: after the first N
// plies of the line Line names (nil: the main line).
type Spot struct {
	Line rules.Path
	N    int
}

// variationLimits are the bounds the service keeps a game's variations
// within: its limits on plies and variations.
func (s *Service) variationLimits() rules.VariationLimits {
	return rules.VariationLimits{MaxPlies: s.loader.limits.MaxPlies, MaxVariations: s.loader.limits.MaxVariations, MaxDepth: s.loader.limits.MaxVariationDepth}
}

// PlayVariation plays text (typed input: BCN, squares, SAN) on the
// analysis board of game id at spot, for a viewer who holds a seat of it,
// and keeps what it made with the game: the line's next ply when the
// action is that ply (nothing changes), a variation there that begins with
// it, the variation extended when spot is its end, or else a new
// variation after spot. It returns where the action led. The engine's
// rule decides it as it does analysis (a game between two players only
// once it has ended); the main line is played on the game's own page, so
// its end is refused.
func (s *Service) PlayVariation(ctx context.Context, id string, cred players.Credential, at Spot, text string) (Spot, error) {
	var to Spot
	err := s.update(ctx, id, cred, nil, func(rec *Record, seats Seats) error {
		if err := s.mayEditVariations(rec, seats, cred); err != nil {
			return err
		}
		g := rec.Game
		a, next, found, err := FindOnLine(g, at, text)
		switch {
		case err != nil:
			return err
		case found:
			to = next
			return nil
		}
		length, _ := lineLength(g, at.Line)
		if at.N == length && len(at.Line) > 0 {
			if err := g.Variations().Extend(at.Line, []rules.Action{a}, s.variationLimits()); err != nil {
				return errs.Of(err)
			}
			to = Spot{Line: at.Line, N: at.N + 1}
			return nil
		}
		p, err := g.Variations().Add(at.Line, at.N, []rules.Action{a}, s.variationLimits())
		if err != nil {
			return errs.Of(err)
		}
		to = Spot{Line: p, N: 1}
		return nil
	})
	return to, err
}

// FindOnLine reads text as an action on g's analysis board at spot and
// finds it among g's lines: the line's next ply, or a variation there that
// begins with it; found then says so and next is the spot after it. An
// action g does not hold there is returned, legal, with found false. At
// the end of the main line none may be played (Conflict): that is the
// game's own page's.
func FindOnLine(g *rules.Game, at Spot, text string) (a rules.Action, next Spot, found bool, err error) {
	length, err := lineLength(g, at.Line)
	if err != nil {
		return a, Spot{}, false, err
	}
	if at.N < 0 || at.N > length {
		return a, Spot{}, false, errs.Errorf(errs.Invalid, "This line has %d plies: there is no position after %d of them.", length, at.N).WithDetail(errs.NoVariation)
	}
	if len(at.Line) == 0 && at.N == length && !g.Outcome().Over() {
		return a, Spot{}, false, errs.Errorf(errs.Conflict, "This is where the game stands: a ply here is played on the game's own page, not on the analysis board.")
	}
	if a, err = parseAt(g, at, text); err != nil {
		return a, Spot{}, false, err
	}
	if at.N < length {
		if next, _ := lineActions(g, at.Line); next[at.N] == a {
			return a, Spot{Line: at.Line, N: at.N + 1}, true, nil
		}
	}
	for i, v := range variationsAt(g, at) {
		if acts := v.Actions(); len(acts) > 0 && acts[0] == a {
			return a, Spot{Line: append(slices.Clip(at.Line), rules.Branch{After: at.N, Index: i}), N: 1}, true, nil
		}
	}
	return a, Spot{}, false, nil
}

// parseAt reads text as an action at spot, legal there.
func parseAt(g *rules.Game, at Spot, text string) (rules.Action, error) {
	f, err := g.Variations().GameAt(at.Line, at.N)
	if err != nil {
		return rules.Action{}, errs.Of(err)
	}
	a, err := f.Notation().ParseInput(text)
	if err == nil {
		err = f.Play(a) // squares are only read: check them (f is a copy)
	}
	if err != nil {
		return rules.Action{}, errs.Of(err)
	}
	return a, nil
}

// PromoteVariation promotes the variation at line one step (see
// rules.Variations.Promote) for a viewer who holds a seat of game id,
// and returns the line that names the spot's plies after it. A variation of
// the main line of a game played between two players, or against the
// computer, is not promoted: those moves stay as they were played.
func (s *Service) PromoteVariation(ctx context.Context, id string, cred players.Credential, line rules.Path) (rules.Path, error) {
	var to rules.Path
	err := s.update(ctx, id, cred, nil, func(rec *Record, seats Seats) error {
		if err := s.mayEditVariations(rec, seats, cred); err != nil {
			return err
		}
		if len(line) == 1 && rec.Mode != HotSeat {
			return errs.Errorf(errs.Forbidden, "This game's moves stay as they were played: a variation of its main line cannot take their place.")
		}
		if err := rec.Game.Variations().Promote(line, s.variationLimits()); err != nil {
			return errs.Of(err)
		}
		to = slices.Clone(line[:len(line)-1]) // the variation's plies are its parent's now
		return nil
	})
	return to, err
}

// DeleteVariation removes the variation at line, with those within it,
// for a viewer who holds a seat of game id.
func (s *Service) DeleteVariation(ctx context.Context, id string, cred players.Credential, line rules.Path) error {
	return s.update(ctx, id, cred, nil, func(rec *Record, seats Seats) error {
		if err := s.mayEditVariations(rec, seats, cred); err != nil {
			return err
		}
		if err := rec.Game.Variations().Delete(line); err != nil {
			return errs.Of(err)
		}
		return nil
	})
}

// MayAnalyse says why the engine may not analyse the game now, nil when
// it may (Permissions.Analyse): a game between two players is locked
// until it ends. Call it with the game's lock held.
func (r *Record) MayAnalyse() error { return r.mayAnalyse() }

// mayEditVariations decides who keeps variations with a game: a viewer
// who holds a seat, where the engine may analyse it.
func (s *Service) mayEditVariations(rec *Record, seats Seats, cred players.Credential) error {
	if !seats.Any() {
		return refuse(cred, &notSeated{held: seats, need: rules.White, what: "keep variations with this game"})
	}
	return rec.mayAnalyse()
}

// lineLength returns the plies of the line p names in g.
func lineLength(g *rules.Game, p rules.Path) (int, error) {
	acts, err := lineActions(g, p)
	return len(acts), err
}

// lineActions returns the plies of the line p names in g.
func lineActions(g *rules.Game, p rules.Path) ([]rules.Action, error) {
	if len(p) == 0 {
		return g.Actions(), nil
	}
	v, err := VariationAt(g, p)
	if err != nil {
		return nil, err
	}
	return v.Actions(), nil
}

// VariationAt returns the variation p names in g (not the main line).
func VariationAt(g *rules.Game, p rules.Path) (*rules.Variation, error) {
	var v *rules.Variation
	for i, b := range p {
		var vs []*rules.Variation
		if i == 0 {
			vs = g.Variations().After(b.After)
		} else {
			vs = v.Variations(b.After)
		}
		if b.Index < 0 || b.Index >= len(vs) {
			return nil, errs.Errorf(errs.Invalid, "There is no such variation in this game.").WithDetail(errs.NoVariation)
		}
		v = vs[b.Index]
	}
	if v == nil {
		return nil, errs.Errorf(errs.Invalid, "The main line is no variation.").WithDetail(errs.NoVariation)
	}
	return v, nil
}

// variationsAt returns the variations that branch at spot: alternatives to
// its line's next ply.
func variationsAt(g *rules.Game, at Spot) []*rules.Variation {
	if len(at.Line) == 0 {
		return g.Variations().After(at.N)
	}
	v, err := VariationAt(g, at.Line)
	if err != nil {
		return nil
	}
	return v.Variations(at.N)
}
