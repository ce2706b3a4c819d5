package swiss

import (
	"fmt"
	"slices"
)

// Board is one game of a round.
type Board struct {
	White, Black string
}

// Round is a round's pairing: its boards, the strongest first, and the
// player given the bye ("" when the count is even).
type Round struct {
	Boards []Board
	Bye    string
}

// Pair pairs round `round` (from 1) of the event whose players and
// histories are given; see the package's documentation for the rules.
// It fails with ErrInvalid for an inconsistent event and ErrNoPairing
// when no pairing meets the absolute criteria.
func Pair(players []Player, round int) (Round, error) {
	active, err := ranked(players, round)
	if err != nil || len(active) == 0 {
		return Round{}, err
	}
	// First among the games of players at most `near` half-points apart
	// (fewer edges, a faster matching): when that pairs everyone and its
	// score component is below what any one game further apart costs,
	// no pairing with such a game can be cheaper.
	spread := active[0].points - active[len(active)-1].points
	var f *field
	var mate []int
	if spread > near {
		if f, err = newField(active, near); err != nil {
			return Round{}, err
		}
		mate = maxWeightMatching(f.vertices(), f.edges)
		if !f.perfect(mate) || f.scoreOf(mate) >= (near+1)*(near+1) {
			f = nil
		}
	}
	if f == nil {
		if f, err = newField(active, -1); err != nil {
			return Round{}, err
		}
		mate = maxWeightMatching(f.vertices(), f.edges)
	}
	out := Round{}
	for i, s := range f.active {
		j := mate[i]
		switch {
		case j == -1:
			return Round{}, fmt.Errorf("%w: round %d: no pairing of its %d players meets the rules (one left over: %s)", ErrNoPairing, round, len(f.active), s.p.ID)
		case j == len(f.active):
			out.Bye = s.p.ID
		case i < j:
			c, _ := allocate(s, f.active[j])
			b := Board{White: s.p.ID, Black: f.active[j].p.ID}
			if c == Black {
				b.White, b.Black = b.Black, b.White
			}
			out.Boards = append(out.Boards, b)
		}
	}
	rank := func(id string) *state { return f.byID[id] }
	slices.SortFunc(out.Boards, func(x, y Board) int {
		return boardOrder(rank(x.White), rank(x.Black), rank(y.White), rank(y.Black))
	})
	return out, nil
}

// near is the score difference, in half-points, within which Pair looks
// for a pairing first.
const near = 2

// ranked validates the event and returns its active players, ranked.
func ranked(players []Player, round int) ([]*state, error) {
	if err := validate(players, round); err != nil {
		return nil, err
	}
	all := make([]*state, 0, len(players))
	var active []*state
	for i := range players {
		s := newState(&players[i], round)
		all = append(all, s)
		if !players[i].Withdrawn {
			active = append(active, s)
		}
	}
	order(all, active)
	floats(all, round)
	return active, nil
}

// prepare builds the graph of every legal game of the round.
func prepare(players []Player, round int) (*field, error) {
	active, err := ranked(players, round)
	if err != nil || len(active) == 0 {
		return &field{}, err
	}
	return newField(active, -1)
}

// boardOrder puts the board whose better player scores more first, then
// the greater sum of scores, then the better player's rank.
func boardOrder(a1, a2, b1, b2 *state) int {
	if a2.rank < a1.rank {
		a1, a2 = a2, a1
	}
	if b2.rank < b1.rank {
		b1, b2 = b2, b1
	}
	if a1.points != b1.points {
		return b1.points - a1.points
	}
	if s, t := a1.points+a2.points, b1.points+b2.points; s != t {
		return t - s
	}
	return a1.rank - b1.rank
}

// allocate gives the colours of a game between a, ranked higher, and b,
// by FIDE's rules (C.04.3 E): both preferences when they differ; else the
// stronger one; else alternate from the latest round they had different
// colours; else the higher-ranked player's; with no preference at all,
// the higher-ranked player has white if their pairing number is odd. It
// returns a's colour, and false when no colours keep the colour rules.
func allocate(a, b *state) (Color, bool) {
	var c Color
	switch {
	case a.pref == NoColor && b.pref == NoColor:
		c = White
		if a.number%2 == 0 {
			c = Black
		}
	case a.pref != b.pref:
		c = a.pref
		if c == NoColor {
			c = b.pref.Other()
		}
	case a.strength != b.strength:
		c = a.pref
		if b.strength > a.strength {
			c = b.pref.Other()
		}
	default:
		c = a.pref
		for r := len(a.colors) - 1; r >= 0; r-- {
			if ca, cb := a.colors[r], b.colors[r]; ca != NoColor && cb != NoColor && ca != cb {
				c = cb
				break
			}
		}
	}
	for range 2 {
		if a.allows(c) && b.allows(c.Other()) {
			return c, true
		}
		c = c.Other()
	}
	return NoColor, false
}
