package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Variation is a line of play that branches from a ply of the game, or of
// another variation: an alternative to that ply and what follows it. It
// holds its plies, each with its NAGs and the comment after it, and
// variations of its own. A game checks that its variations are legal
// where they branch when it reads or adds them. A Variation is read only:
// a game changes its variations with its Variations' Add, Extend, Delete
// and Promote.
type Variation struct {
	plies []varPly
	notes notes
}

// varPly is a ply of a variation, with what movetext writes of it.
type varPly struct {
	action Action
	text   string // a move's SAN with + or #; the indicator after a ban ("", "+", "#" or "=")
}

// Len returns the number of plies of the variation.
func (v *Variation) Len() int { return len(v.plies) }

// Actions returns the variation's plies, in order.
func (v *Variation) Actions() []Action {
	out := make([]Action, len(v.plies))
	for i, p := range v.plies {
		out[i] = p.action
	}
	return out
}

// Log returns the variation's plies as Record.Log writes a game's: bans
// in BCN with the indicator of the state they leave, moves in SAN.
func (v *Variation) Log() []string {
	out := make([]string, len(v.plies))
	for i, p := range v.plies {
		if p.action.Phase == PhaseBan {
			out[i] = p.action.String() + p.text
		} else {
			out[i] = p.text
		}
	}
	return out
}

// Comment returns the comment after the variation's first n plies (n = 0:
// before its first), or "".
func (v *Variation) Comment(n int) string { return v.notes.comment(n) }

// NAGs returns the NAGs of the variation's ply n (n = 0: those before its
// first ply).
func (v *Variation) NAGs(n int) []NAG { return v.notes.nags(n) }

// Variations returns the variations that branch from this one after its
// first n plies: alternatives to its ply n+1.
func (v *Variation) Variations(n int) []*Variation { return v.notes.variationsAfter(n) }

// Variations are a game's variations: the lines that branch from its main
// line or from one another, each named by a Path. Game.Variations returns
// them; they read, play out and edit the game's variations.
type Variations struct{ g *Game }

// Variations returns the game's variations.
func (g *Game) Variations() Variations { return Variations{g} }

// After returns the variations that branch from the main line after its
// first n plies: alternatives to ply n+1, from the position
// Record.FENAfter(n) gives.
func (vs Variations) After(n int) []*Variation { return vs.g.notes.variationsAfter(n) }

// Size measures the game with its variations.
func (vs Variations) Size() TreeSize {
	s := TreeSize{Plies: len(vs.g.plies)}
	vs.g.notes.size(0, &s)
	return s
}

// Path names a line of a game: nil for the main line; else the steps that
// lead from the main line to a variation, each naming a variation of the
// line reached so far.
type Path []Branch

// Branch is a step of a Path: the variation that branches from the line
// after its first After plies (an alternative to its ply After+1), the
// Index-th there, from 0, in the order they were read or added.
type Branch struct{ After, Index int }

// VariationLimits bound what a game holds beside its main line. A zero
// field is no bound.
type VariationLimits struct {
	// MaxPlies bounds the plies in all: the main line's and every
	// variation's.
	MaxPlies int
	// MaxVariations bounds the variations in all, nested ones included.
	MaxVariations int
	// MaxDepth bounds how deep variations nest: 1 allows variations of
	// the main line but none within them.
	MaxDepth int
}

// Errors of the Variations editing methods; test with errors.Is.
var (
	// ErrNoVariation: a Path or a ply number names no line or ply of the
	// game.
	ErrNoVariation = errors.New("no such variation")
	// ErrTooManyVariations: more variations, or deeper, than the limits
	// allow (see VariationLimits and PGNOptions).
	ErrTooManyVariations = errors.New("too many variations")
)

// check refuses a game of size s past the limits.
func (l VariationLimits) check(s TreeSize) error {
	switch {
	case l.MaxPlies > 0 && s.Plies > l.MaxPlies:
		return plyLimitError{l.MaxPlies}
	case l.MaxVariations > 0 && s.Variations > l.MaxVariations:
		return variationLimitError(fmt.Sprintf("the game has more than %d variations, the most it may hold", l.MaxVariations))
	case l.MaxDepth > 0 && s.Depth > l.MaxDepth:
		return variationLimitError(fmt.Sprintf("the variations nest more than %d deep, the deepest a game may hold", l.MaxDepth))
	}
	return nil
}

// variationLimitError is a game past VariationLimits' bound on variations.
type variationLimitError string

func (e variationLimitError) Error() string { return string(e) }

// Is makes errors.Is(err, ErrTooManyVariations) true.
func (e variationLimitError) Is(target error) bool { return target == ErrTooManyVariations }

// lineRef is a line of a game found by its Path.
type lineRef struct {
	v     *Variation // nil for the main line
	notes *notes     // the line's notes
	plies int        // how many plies it has
	chain []*Variation
}

// line finds the line p names, or says which step of p names none.
func (vs Variations) line(p Path) (lineRef, error) {
	ref := lineRef{notes: &vs.g.notes, plies: len(vs.g.plies)}
	for i, b := range p {
		var vs []*Variation
		if nt := (*ref.notes)[b.After+1]; nt != nil && b.After >= 0 {
			vs = nt.variations
		}
		if b.Index < 0 || b.Index >= len(vs) {
			return lineRef{}, fmt.Errorf("%w: %s has %d variations after its ply %d, none with index %d", ErrNoVariation, p[:i].name(), len(vs), b.After, b.Index)
		}
		v := vs[b.Index]
		ref = lineRef{v: v, notes: &v.notes, plies: len(v.plies), chain: append(ref.chain, v)}
	}
	return ref, nil
}

// name describes the line p names, for a message: "the main line", or
// "variation 1 after ply 2 of variation 2 after ply 7" (from 1, innermost
// first).
func (p Path) name() string {
	if len(p) == 0 {
		return "the main line"
	}
	steps := make([]string, len(p))
	for i, b := range p {
		steps[len(p)-1-i] = fmt.Sprintf("variation %d after ply %d", b.Index+1, b.After)
	}
	return strings.Join(steps, " of ")
}

// GameAt returns the game as it stands after the first n plies of the line
// p names: the main line's plies up to where the line branches, then each
// variation's on the way, then the line's own. It is a new game, without
// tags or annotations; g is unchanged. Use it to show or analyse a
// position of a variation.
func (vs Variations) GameAt(p Path, n int) (*Game, error) {
	ref, err := vs.line(p)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > ref.plies {
		return nil, fmt.Errorf("%w: %s has %d plies, not %d", ErrNoVariation, p.name(), ref.plies, n)
	}
	if len(p) == 0 {
		return vs.forkAt(n)
	}
	f, err := vs.forkAt(p[0].After)
	if err != nil {
		return nil, err
	}
	for i, v := range ref.chain {
		upto := n
		if i+1 < len(p) {
			upto = p[i+1].After
		}
		for _, vp := range v.plies[:upto] {
			if err := f.Play(vp.action); err != nil {
				return nil, fmt.Errorf("replaying %s: %w", p[:i+1].name(), err)
			}
		}
	}
	return f, nil
}

// forkAt returns a new game of the main line's first n plies, without
// replaying them: it copies their positions.
func (vs Variations) forkAt(n int) (*Game, error) {
	g := vs.g
	if n < 0 || n > len(g.plies) {
		return nil, fmt.Errorf("%w: the main line has %d plies, not %d", ErrNoVariation, len(g.plies), n)
	}
	k := g.Record().movesIn(n)
	f := &Game{variant: g.variant, startPly: g.startPly, startBan: g.startBan, startHasBan: g.startHasBan, promotions: g.promotions, mover: g.variant.newMover()}
	f.positions = append(make([]Position, 0, k+16), g.positions[:k+1]...)
	f.plies = append(make([]plyRecord, 0, n+16), g.plies[:n]...)
	if err := f.mover.load(&f.positions[k]); err != nil {
		return nil, fmt.Errorf("the position after ply %d: %w", n, err)
	}
	f.moves = f.mover.moves()
	afterMove := !g.startHasBan
	if n > 0 {
		afterMove = g.plies[n-1].action.Phase == PhaseMove
	}
	f.outcome = f.adjudicate(afterMove)
	return f, nil
}

// playOn plays actions on f, the game where a line stands, and returns
// them as a variation keeps its plies. An illegal one is named.
func playOn(f *Game, actions []Action) ([]varPly, error) {
	out := make([]varPly, 0, len(actions))
	for i, a := range actions {
		if err := f.Play(a); err != nil {
			return nil, fmt.Errorf("action %d (%s): %w", i+1, a, err)
		}
		out = append(out, f.Record().lastPly())
	}
	return out, nil
}

// Add adds a variation to the line p names (nil: the main line) that
// branches after its first after plies — an alternative to its ply
// after+1 — made of actions, which must be legal from there, and returns
// the new variation's Path. It comes after the variations already there.
// Refused (ErrNoVariation, an *ActionError for an illegal action, or past
// lim, ErrTooManyPlies or ErrTooManyVariations), it changes nothing.
func (vs Variations) Add(p Path, after int, actions []Action, lim VariationLimits) (Path, error) {
	ref, err := vs.line(p)
	if err != nil {
		return nil, err
	}
	if after < 0 || after >= ref.plies {
		return nil, fmt.Errorf("%w: %s has %d plies, so a variation branches after 0 to %d of them, not %d", ErrNoVariation, p.name(), ref.plies, ref.plies-1, after)
	}
	if len(actions) == 0 {
		return nil, errors.New("a variation needs at least one ply")
	}
	size := vs.Size()
	size.Plies += len(actions)
	size.Variations++
	size.Depth = max(size.Depth, len(p)+1)
	if err := lim.check(size); err != nil {
		return nil, err
	}
	f, err := vs.GameAt(p, after)
	if err != nil {
		return nil, err
	}
	plies, err := playOn(f, actions)
	if err != nil {
		return nil, err
	}
	nt := ref.notes.at(after + 1)
	nt.variations = append(nt.variations, &Variation{plies: plies})
	vs.g.edited()
	return append(slices.Clip(p), Branch{after, len(nt.variations) - 1}), nil
}

// Extend plays actions at the end of the variation p names, which must be
// legal there. Refused as Add is, it changes nothing.
func (vs Variations) Extend(p Path, actions []Action, lim VariationLimits) error {
	_, _, v, err := vs.branch(p, "the main line is extended by playing on it")
	if err != nil {
		return err
	}
	size := vs.Size()
	size.Plies += len(actions)
	if err := lim.check(size); err != nil {
		return err
	}
	f, err := vs.GameAt(p, len(v.plies))
	if err != nil {
		return err
	}
	plies, err := playOn(f, actions)
	if err != nil {
		return err
	}
	v.plies = append(v.plies, plies...)
	vs.g.edited()
	return nil
}

// Delete removes the variation p names, with the variations within it.
func (vs Variations) Delete(p Path) error {
	parent, b, _, err := vs.branch(p, "the main line cannot be deleted")
	if err != nil {
		return err
	}
	nt := (*parent.notes)[b.After+1]
	nt.variations = slices.Delete(nt.variations, b.Index, b.Index+1)
	parent.notes.tidy(b.After + 1)
	vs.g.edited()
	return nil
}

// branch finds the variation p names, the line it branches from and where;
// for the main line, the error says why, as mainLine.
func (vs Variations) branch(p Path, mainLine string) (parent lineRef, b Branch, v *Variation, err error) {
	if len(p) == 0 {
		return lineRef{}, Branch{}, nil, fmt.Errorf("%w: %s", ErrNoVariation, mainLine)
	}
	ref, err := vs.line(p)
	if err != nil {
		return lineRef{}, Branch{}, nil, err
	}
	parent, _ = vs.line(p[:len(p)-1])
	return parent, p[len(p)-1], ref.v, nil
}

// Promote exchanges the variation p names with the line it
// branches from, from that point on: the variation's plies, with their
// annotations, become the line's, and the line's plies from there become
// the variation, which p then names (promoting it again exchanges them
// back). Promoting a variation of the main line changes the game's plies:
// a declared outcome (a resignation, an agreed draw) stays unless the new
// main line ends by itself. A comment or NAG before the variation's first
// ply joins those after the ply it branches from. Refused (ErrNoVariation,
// or past lim, ErrTooManyVariations: the line's own variations nest one
// deeper in the variation it becomes), it changes nothing.
func (vs Variations) Promote(p Path, lim VariationLimits) error {
	g := vs.g
	parent, b, v, err := vs.branch(p, "the main line is the main line already")
	if err != nil {
		return err
	}
	old := *parent.notes
	tail := &Variation{notes: notes{}}
	promoted := exchangeNotes(old, b, v, tail)
	*parent.notes = promoted
	if err := lim.check(vs.Size()); err != nil {
		*parent.notes = old
		return err
	}
	if parent.v != nil {
		tail.plies = slices.Clone(parent.v.plies[b.After:])
		parent.v.plies = append(parent.v.plies[:b.After:b.After], v.plies...)
		g.edited()
		return nil
	}
	if err := vs.exchangeMainLine(b.After, v, tail); err != nil {
		*parent.notes = old
		return err
	}
	g.edited()
	return nil
}

// PromoteToMainLine makes the variation p names the main line, promoting
// it, then the line it became part of, and so on (see Promote). The old
// main line is then the variation p[:1] names.
func (vs Variations) PromoteToMainLine(p Path, lim VariationLimits) error {
	if _, err := vs.line(p); err != nil {
		return err
	}
	for k := len(p); k >= 1; k-- {
		if err := vs.Promote(p[:k], lim); err != nil {
			return err
		}
	}
	return nil
}

// exchangeNotes returns the notes of a line whose variation v, which
// branches at b, takes the place of the line's plies after b.After, and
// fills tail's notes with theirs. ns and v are left as they were.
func exchangeNotes(ns notes, b Branch, v *Variation, tail *Variation) notes {
	out := notes{}
	at := b.After + 1
	for k, nt := range ns {
		switch {
		case k < at:
			out[k] = nt
		case k == at:
			tail.notes[1] = &note{nags: nt.nags, comment: nt.comment}
		default:
			tail.notes[k-b.After] = nt
		}
	}
	// What v holds before its first ply joins the note of the ply it
	// branches from.
	if start := v.notes[0]; start != nil {
		merged := &note{}
		if prev := out[b.After]; prev != nil {
			*merged = note{nags: slices.Clone(prev.nags), comment: prev.comment, variations: prev.variations}
		}
		if start.comment != "" {
			merged.addComment(start.comment)
		}
		for _, n := range start.nags {
			merged.addNAG(n)
		}
		out[b.After] = merged
	}
	for k, nt := range v.notes {
		if k > 1 {
			out[b.After+k] = nt
		}
	}
	first := &note{}
	if nt := v.notes[1]; nt != nil {
		first.nags, first.comment = nt.nags, nt.comment
	}
	if nt := ns[at]; nt != nil {
		first.variations = slices.Clone(nt.variations)
	}
	first.variations[b.Index] = tail
	if nt := v.notes[1]; nt != nil {
		first.variations = append(first.variations, nt.variations...)
	}
	out[at] = first
	for k := range out {
		out.tidy(k)
	}
	if len(tail.notes) == 0 {
		tail.notes = nil
	}
	return out
}

// exchangeMainLine makes the main line its first after plies followed by
// v's, and fills tail's plies with those of the main line after them.
func (vs Variations) exchangeMainLine(after int, v *Variation, tail *Variation) error {
	g := vs.g
	rest, err := vs.forkAt(after)
	if err != nil {
		return err
	}
	tail.plies, err = playOn(rest, g.Actions()[after:])
	if err != nil {
		return fmt.Errorf("the main line after ply %d: %w", after, err)
	}
	f, err := vs.forkAt(after)
	if err != nil {
		return err
	}
	if _, err := playOn(f, v.Actions()); err != nil {
		return fmt.Errorf("the variation after ply %d: %w", after, err)
	}
	g.positions, g.plies, g.mover, g.moves = f.positions, f.plies, f.mover, f.moves
	g.before, g.beforeKnown = f.before, f.beforeKnown
	if !g.declared || f.outcome.Over() {
		g.outcome, g.declared = f.outcome, false
	}
	return nil
}
