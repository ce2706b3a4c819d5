package swiss

import (
	"fmt"
	"math"
	"math/bits"
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
	f, err := prepare(players, round)
	if err != nil || len(f.active) == 0 {
		return Round{}, err
	}
	mate := maxWeightMatching(f.vertices(), f.edges, true)
	out := Round{}
	for i, s := range f.active {
		j := mate[i]
		switch {
		case j == -1:
			return Round{}, fmt.Errorf("%w: round %d: %s cannot be paired with anyone left (everyone met, colours or byes exhausted)", ErrNoPairing, round, s.p.ID)
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

// prepare validates the event and builds the graph of the round's legal
// games among the active players, ranked.
func prepare(players []Player, round int) (*field, error) {
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
	if len(active) == 0 {
		return &field{}, nil
	}
	return newField(active)
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

// field is the graph of legal pairings with their costs: vertex i is
// active[i], vertex len(active) the bye when the count is odd.
type field struct {
	active   []*state
	byID     map[string]*state
	edges    []edge
	low      int   // the lowest score among the active players
	m1, m2   int64 // the weights of the score and colour components
	maxScore int64 // the greatest score component of an edge
}

func (f *field) vertices() int {
	if len(f.active)%2 == 1 {
		return len(f.active) + 1
	}
	return len(f.active)
}

// newField builds the graph; a pairing's cost is, lexicographically, the
// sum of its score component, then its colour component, then its rank
// component (cost's doc says each), so that the weights of a maximum
// matching's cheapest choice follow the rules' order of priorities.
func newField(active []*state) (*field, error) {
	n := int64(len(active))
	f := &field{active: active, byID: map[string]*state{}, low: active[len(active)-1].points}
	for _, s := range active {
		f.byID[s.p.ID] = s
	}
	high := active[0].points
	f.maxScore = int64(high-f.low+1) * int64(high-f.low+1)
	// The rank component of a whole pairing is below n²+2n+1, its colour
	// component below n(n+2)+1: the next component's unit is above them.
	f.m2 = n*n + 2*n + 1
	hi, m1 := bits.Mul64(uint64(n*(n+2)+1), uint64(f.m2))
	hi2, top := bits.Mul64(uint64(f.maxScore+1), m1)
	if hi != 0 || hi2 != 0 || top > math.MaxInt64/8 {
		return nil, fmt.Errorf("%w: %d players and %d half-points between the first and the last are more than the pairing's weights can hold", ErrInvalid, n, high-f.low)
	}
	f.m1 = int64(m1)
	limit := int64(top) // above any edge's cost
	for i, a := range active {
		for j := i + 1; j < len(active); j++ {
			b := active[j]
			if a.met[b.p.ID] {
				continue
			}
			c, ok := allocate(a, b)
			if !ok {
				continue
			}
			f.edges = append(f.edges, edge{i, j, limit - f.cost(a, b, c)})
		}
		if len(active)%2 == 1 && !a.hadBye {
			f.edges = append(f.edges, edge{i, len(active), limit - f.byeCost(a)})
		}
	}
	return f, nil
}

// cost is the cost of a game between a (ranked higher, with colour c)
// and b:
//   - score: the square of the difference of their scores in half-points
//     (floats are few and short: one float of two groups costs more than
//     two of one);
//   - colour: each player not given their colour preference counts n+1,
//     and one more if the preference was strong;
//   - rank: within a score group, how far b is from a's partner in the
//     Dutch order (the group's top half against its bottom half, first
//     with first); between groups, how far a is from its group's last
//     place (the lowest-ranked player floats down) plus how far b is from
//     its group's first (the floater meets the best of the group below).
func (f *field) cost(a, b *state, c Color) int64 {
	d := int64(a.points - b.points)
	score := d * d
	n := int64(len(f.active))
	var colour int64
	for _, x := range [2]struct {
		s *state
		c Color
	}{{a, c}, {b, c.Other()}} {
		if x.s.pref != NoColor && x.s.pref != x.c {
			colour += n + 1
			if x.s.strength >= 2 {
				colour++
			}
		}
	}
	var rank int
	if a.group == b.group {
		rank = abs(b.pos - a.pos - a.size/2)
	} else {
		rank = a.size - 1 - a.pos + b.pos
	}
	return score*f.m1 + colour*f.m2 + int64(rank)
}

// byeCost is the cost of the bye for a: as a game against someone half a
// point below the lowest score, and the lower a is in its group the
// better.
func (f *field) byeCost(a *state) int64 {
	d := int64(a.points - f.low + 1)
	return d*d*f.m1 + int64(a.size-1-a.pos)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
