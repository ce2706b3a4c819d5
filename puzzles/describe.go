package puzzles

import (
	"fmt"
	"slices"

	"github.com/banchess/banchess/rules"
)

// MaterialGain is the least material, in pawns, a Material puzzle's
// solution wins.
const MaterialGain = 3

// The bounds of a starting rating.
const (
	MinRating = 400
	MaxRating = 3000
)

// Describe replays a solution from fen through package rules, checks that
// it reaches what a puzzle of kind claims, and returns the puzzle's themes:
// kind first, then every other theme the checks find, in a fixed order.
//
// What each kind claims:
//   - MateIn1, MateIn2, MateIn3, MateIn4: the solution ends in checkmate
//     by the solver, on its first, second, third or fourth action; for MateIn1, no other
//     first action ends the game at once.
//   - Material: the game goes on, the line ends with the solver's action,
//     and the solver's material less the opponent's has grown by at least
//     MaterialGain pawns since the start.
//   - Defence: the solution is the one action, and the game goes on.
//
// The traits: MateByBan when a mate's last action is a ban; Promotion and
// UnderPromotion when a solver's move promotes (to a knight, bishop or rook
// for UnderPromotion); StalemateTrap when another first action stalemates,
// at once or by the one ban the solver then has; Ban when the solution
// starts with a ban; Long when a mate or a material line has
// LongActions solver actions or more.
func Describe(fen string, solution []string, kind Theme) ([]Theme, error) {
	g, err := rules.FromFEN(fen, Variant())
	if err != nil {
		return nil, err
	}
	if o := g.Outcome(); o.Over() {
		return nil, fmt.Errorf("the game is over at the start: %s", o)
	}
	if len(solution) == 0 {
		return nil, fmt.Errorf("the solution is empty")
	}
	solver := g.Turn().Actor
	firsts := g.Legal()
	before := MaterialBalance(g.Position(), solver)
	traits := map[Theme]bool{}
	var solverActions int
	var first, last rules.Action
	lastMine := false
	for i, text := range solution {
		if o := g.Outcome(); o.Over() {
			return nil, fmt.Errorf("the game ended (%s) before action %d, %s", o, i+1, text)
		}
		a, err := rules.ParseAction(text)
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		mine := g.Turn().Actor == solver
		if err := g.Play(a); err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		if i == 0 {
			first = a
		}
		last, lastMine = a, mine
		if mine {
			solverActions++
			if a.Promotion != 0 {
				traits[Promotion] = true
				traits[UnderPromotion] = traits[UnderPromotion] || a.Promotion != rules.Queen
			}
		}
	}
	o := g.Outcome()
	switch kind {
	case MateIn1, MateIn2, MateIn3, MateIn4:
		want, _ := MateTheme(solverActions)
		if o.Status != rules.Checkmate || o.Winner != solver {
			return nil, fmt.Errorf("the solution ends %s, not in checkmate by %s", o, solver.Name())
		}
		if want != kind {
			return nil, fmt.Errorf("the mate comes with the solver's action %d, not as %s says", solverActions, kind)
		}
		traits[MateByBan] = last.Phase == rules.PhaseBan
		traits[Long] = solverActions >= LongActions
	case Material:
		if o.Over() {
			return nil, fmt.Errorf("the solution ends the game (%s)", o)
		}
		if !lastMine {
			return nil, fmt.Errorf("the solution ends with a reply, not with the solver's action")
		}
		if gain := MaterialBalance(g.Position(), solver) - before; gain < MaterialGain {
			return nil, fmt.Errorf("the solution wins %d pawns of material, fewer than %d", gain, MaterialGain)
		}
		traits[Long] = solverActions >= LongActions
	case Defence:
		if o.Over() {
			return nil, fmt.Errorf("the solution ends the game (%s)", o)
		}
		if len(solution) != 1 {
			return nil, fmt.Errorf("a defence is one action, not %d", len(solution))
		}
	default:
		return nil, fmt.Errorf("%q is not a kind of puzzle", kind)
	}
	traits[Ban] = first.Phase == rules.PhaseBan
	trap, ends, err := alternatives(fen, firsts, first)
	if err != nil {
		return nil, err
	}
	traits[StalemateTrap] = trap
	if kind == MateIn1 && ends != "" {
		return nil, fmt.Errorf("another first action, %s, ends the game at once too", ends)
	}
	themes := []Theme{kind}
	for _, t := range themeOrder {
		if traits[t] {
			themes = append(themes, t)
		}
	}
	return themes, nil
}

// alternatives plays every first action but the solution's from fen and
// reports whether one stalemates (at once, or by the one ban the solver
// then has) and names one that ends the game at once, if any.
func alternatives(fen string, firsts []rules.Action, solution rules.Action) (trap bool, ends string, err error) {
	g, err := rules.FromFEN(fen, Variant())
	if err != nil {
		return false, "", err
	}
	solver := g.Turn().Actor
	for _, a := range firsts {
		if a == solution {
			continue
		}
		if err := g.Play(a); err != nil {
			return false, "", fmt.Errorf("first action %s: %w", a, err)
		}
		o := g.Outcome()
		if o.Over() && ends == "" {
			ends = a.String()
		}
		trap = trap || o.Status == rules.Stalemate
		if legal := g.Legal(); !o.Over() && g.Turn().Actor == solver && len(legal) == 1 {
			if err := g.Play(legal[0]); err != nil {
				return false, "", err
			}
			trap = trap || g.Outcome().Status == rules.Stalemate
			g.Undo()
		}
		g.Undo()
	}
	return trap, ends, nil
}

// MaterialBalance returns side's material less its opponent's, in pawns: a pawn
// 1, a knight or bishop 3, a rook 5, a queen 9.
func MaterialBalance(pos rules.Position, side rules.Color) int {
	worth := [...]int{rules.Pawn: 1, rules.Knight: 3, rules.Bishop: 3, rules.Rook: 5, rules.Queen: 9, rules.King: 0}
	n := 0
	for _, pc := range pos.Board {
		if pc == rules.NoPiece || int(pc.Kind()) >= len(worth) {
			continue
		}
		if pc.Color() == side {
			n += worth[pc.Kind()]
		} else {
			n -= worth[pc.Kind()]
		}
	}
	return n
}

// Verify checks everything a puzzle claims that package rules can
// check: its id is its position's, its rating is within bounds, and
// Describe, for its kind, finds the themes it lists.
func Verify(p Puzzle) error {
	g, err := p.Start()
	if err != nil {
		return err
	}
	if id := IDOf(Key(g)); p.ID != id {
		return fmt.Errorf("puzzle %s: its position's id is %s", p.ID, id)
	}
	if p.Rating < MinRating || p.Rating > MaxRating {
		return fmt.Errorf("puzzle %s: rating %d is outside %d–%d", p.ID, p.Rating, MinRating, MaxRating)
	}
	themes, err := Describe(p.FEN, p.Solution, p.Kind())
	if err != nil {
		return fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	if !slices.Equal(themes, p.Themes) {
		return fmt.Errorf("puzzle %s: themes %v, but its solution shows %v", p.ID, p.Themes, themes)
	}
	return nil
}
