package swiss

import (
	"fmt"
	"math"
	"math/bits"
)

// The components of a game's cost, the first the most important.
const (
	costScore = iota
	costColour
	costFloat
	costRank
	components
)

// rankCap bounds a game's rank component, so that the weights hold a
// field of 2,000 players: who is 255 places from their partner in the
// Dutch order might as well be 300.
const rankCap = 255

// costs is a game's cost, by component.
type costs [components]int64

// field is the graph of legal pairings with their weights: vertex i is
// active[i], vertex len(active) the bye when the count is odd.
type field struct {
	active []*state
	byID   map[string]*state
	edges  []edge
	low    int // the lowest score among the active players
}

func (f *field) vertices() int {
	if len(f.active)%2 == 1 {
		return len(f.active) + 1
	}
	return len(f.active)
}

// newField builds the graph. An edge's weight is a constant less its
// cost, whose components are weighed so that each counts for more than
// all the later ones of a whole pairing can: a maximum matching's weight
// then compares pairings by their components in order.
//
// With near ≥ 0 only games between scores at most near half-points apart
// are edges (and every bye).
func newField(active []*state, near int) (*field, error) {
	f := &field{active: active, byID: map[string]*state{}, low: active[len(active)-1].points}
	for _, s := range active {
		f.byID[s.p.ID] = s
	}
	// Every legal game (and bye) with its cost, passed to visit; twice,
	// which is cheaper than keeping half a million costs between.
	each := func(visit func(i, j int, c costs)) {
		for i, a := range active {
			for j := i + 1; j < len(active); j++ {
				b := active[j]
				if near >= 0 && a.points-b.points > near {
					break // the players are by score: the next are further
				}
				if a.met[b.p.ID] {
					continue
				}
				if c, ok := allocate(a, b); ok {
					visit(i, j, f.cost(a, b, c))
				}
			}
			if len(active)%2 == 1 && !a.hadBye {
				visit(i, len(active), f.byeCost(a))
			}
		}
	}
	var top costs // each component's greatest value on an edge
	count := 0
	each(func(_, _ int, c costs) {
		count++
		for k, x := range c {
			top[k] = max(top[k], x)
		}
	})
	// unit[k] exceeds what the components after k can add up to in a
	// pairing of `games` games (the bye one of them); limit exceeds any
	// edge's cost.
	games := uint64(f.vertices() / 2)
	var unit costs
	u := uint64(1)
	for k := components - 1; k >= 0; k-- {
		unit[k] = int64(u)
		hi, next := bits.Mul64(games, uint64(top[k]))
		if k == 0 {
			hi, next = 0, uint64(top[k])
		}
		hi2, prod := bits.Mul64(u, next+1)
		if hi != 0 || hi2 != 0 || prod > math.MaxInt64/8 {
			return nil, fmt.Errorf("%w: %d players are more than the pairing's weights can hold", ErrInvalid, len(active))
		}
		u = prod
	}
	limit := int64(u)
	f.edges = make([]edge, 0, count)
	each(func(i, j int, c costs) {
		cost := int64(0)
		for k := range components {
			cost += c[k] * unit[k]
		}
		f.edges = append(f.edges, edge{i, j, limit - cost})
	})
	return f, nil
}

// cost is the cost of a game between a (ranked higher, with colour c)
// and b:
//   - score: the square of the difference of their scores in half-points
//     (floats are few and short: one float of two groups costs more than
//     two of one);
//   - colour: each player not given their colour preference counts more
//     than all the strong preferences of a pairing not granted (a game
//     grants at least one of its players' preferences), and one more if
//     the preference was strong;
//   - float: 2 when the higher score floated down in the last round and
//     would again, 1 when the lower floated up and would again;
//   - rank: within a score group, how far b is from a's partner in the
//     Dutch order (the group's top half against its bottom half, first
//     with first); between groups, how far a is from its group's last
//     place (the lowest-ranked player floats down) plus how far b is from
//     its group's first (the floater meets the best of the group below);
//     at most rankCap.
func (f *field) cost(a, b *state, c Color) costs {
	var out costs
	d := int64(a.points - b.points)
	out[costScore] = d * d
	games := int64(f.vertices() / 2)
	for _, x := range [2]struct {
		s *state
		c Color
	}{{a, c}, {b, c.Other()}} {
		if x.s.pref != NoColor && x.s.pref != x.c {
			out[costColour] += games + 1
			if x.s.strength >= 2 {
				out[costColour]++
			}
		}
	}
	if a.points > b.points {
		if a.float > 0 {
			out[costFloat] += 2
		}
		if b.float < 0 {
			out[costFloat]++
		}
	}
	if a.group == b.group {
		out[costRank] = int64(min(abs(b.pos-a.pos-a.size/2), rankCap))
	} else {
		out[costRank] = int64(min(a.size-1-a.pos+b.pos, rankCap))
	}
	return out
}

// byeCost is the cost of the bye for a: as a game against someone half a
// point below the lowest score (a downfloat), and the lower a is in its
// group the better.
func (f *field) byeCost(a *state) costs {
	var out costs
	d := int64(a.points - f.low + 1)
	out[costScore] = d * d
	if a.float > 0 {
		out[costFloat] = 2
	}
	out[costRank] = int64(min(a.size-1-a.pos, rankCap))
	return out
}

// perfect reports whether mate pairs every player (the bye included when
// the count is odd).
func (f *field) perfect(mate []int) bool {
	for _, j := range mate {
		if j == -1 {
			return false
		}
	}
	return true
}

// scoreOf is the score component of the pairing mate.
func (f *field) scoreOf(mate []int) int {
	total := 0
	for i, a := range f.active {
		switch j := mate[i]; {
		case j == len(f.active):
			d := a.points - f.low + 1
			total += d * d
		case j > i:
			d := a.points - f.active[j].points
			total += d * d
		}
	}
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
