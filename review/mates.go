package review

import (
	"fmt"
	"slices"

	"github.com/banchess/banchess/rules"
)

// mateKind is what a move does to the opponent, found by playing it.
type mateKind int

const (
	noMate     mateKind = iota
	mateAtOnce          // the move checkmates
	mateByBan           // the opponent is left in check with one legal pair: the mover's ban of it mates
)

// kindOf plays the move a in g and reports whether it mates at once or by
// the mover's own next ban (the opponent in check with a single legal
// pair, whose ban is checkmate). g is left as it was.
func kindOf(g *rules.Game, a rules.Action) (mateKind, error) {
	if err := g.Play(a); err != nil {
		return noMate, fmt.Errorf("review: playing %s: %w", a, err)
	}
	kind, err := afterMove(g)
	if uerr := g.Undo(); uerr != nil && err == nil {
		err = fmt.Errorf("review: taking back %s: %w", a, uerr)
	}
	return kind, err
}

// afterMove classifies the moment after a move: checkmate, or a single ban
// left whose playing is checkmate.
func afterMove(g *rules.Game) (mateKind, error) {
	o := g.Outcome()
	switch {
	case o.Status == rules.Checkmate:
		return mateAtOnce, nil
	case o.Over() || g.Turn().Phase != rules.PhaseBan:
		return noMate, nil
	}
	bans := g.Legal()
	if len(bans) != 1 {
		return noMate, nil
	}
	if err := g.Play(bans[0]); err != nil {
		return noMate, fmt.Errorf("review: playing the only ban %s: %w", bans[0], err)
	}
	mated := g.Outcome().Status == rules.Checkmate
	if err := g.Undo(); err != nil {
		return noMate, fmt.Errorf("review: taking back %s: %w", bans[0], err)
	}
	if mated {
		return mateByBan, nil
	}
	return noMate, nil
}

// movesMating returns, of the moves g's mover may play now (g at a move
// ply), those that checkmate at once and those that mate by the mover's
// next ban, in BCN; keep, when not nil, limits the moves tried.
func movesMating(g *rules.Game, keep func(rules.Action) bool) (mates, banMates []string, err error) {
	for _, a := range g.Legal() {
		if keep != nil && !keep(a) {
			continue
		}
		kind, err := kindOf(g, a)
		if err != nil {
			return nil, nil, err
		}
		switch kind {
		case mateAtOnce:
			mates = append(mates, a.String())
		case mateByBan:
			banMates = append(banMates, a.String())
		}
	}
	return mates, banMates, nil
}

// threats returns, at a ban ply (g not over), the moves of the side about
// to move that would mate by its own next ban, whatever is banned now: the
// banner can stop them only if they share one pair. None when the banner's
// only ban ends the game.
func threats(g *rules.Game) ([]string, error) {
	bans := g.Legal()
	if len(bans) < 2 {
		return nil, nil
	}
	var out []string
	// Under the first ban, every move but those of its pair; under the
	// second, those.
	for i, ban := range bans[:2] {
		if err := g.Play(ban); err != nil {
			return nil, fmt.Errorf("review: playing %s: %w", ban, err)
		}
		keep := func(a rules.Action) bool { return (a.Pair() == bans[0].Pair()) == (i == 1) }
		_, banMates, err := movesMating(g, keep)
		if uerr := g.Undo(); uerr != nil && err == nil {
			err = fmt.Errorf("review: taking back %s: %w", ban, uerr)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, banMates...)
	}
	slices.Sort(out)
	return out, nil
}

// pairs counts the distinct from→to pairs of moves in BCN ("m:e7e8q" and
// "m:e7e8n" are one).
func pairs(moves []string) int {
	seen := map[string]bool{}
	for _, m := range moves {
		seen[pairKey(m)] = true
	}
	return len(seen)
}

// pairKey is the from→to part of an action in BCN.
func pairKey(bcn string) string {
	if len(bcn) >= 6 {
		return bcn[2:6]
	}
	return bcn
}
