package generate

import (
	"context"
	"math/bits"
	"strings"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// The rating heuristic (docs/puzzles.md). The work the engine needs to
// find the first action sets the base: each doubling of the positions it
// searches adds perDoubling, from minWork positions on. Traits that make a
// puzzle harder for a person add their bonus.
const (
	ratingOffset   = 200 // the rating of a search of one position, before the traits
	perDoubling    = 100
	minWork        = 16  // fewer positions count as this many: 600
	perAction      = 100 // each solver action past the first
	quietBonus     = 150 // a first move that neither captures, checks nor promotes
	banBonus       = 150 // a first action that is a ban
	trapBonus      = 100 // a stalemate trap
	underBonus     = 100 // an underpromotion
	maxRatingDepth = 6   // the deepest search tried; past it counts as twice its positions
)

// rate returns a puzzle's starting rating. The engine searches the
// start afresh to depth 1, 2, … maxRatingDepth (each within nodes); the
// positions visited by the first search that chooses the solution's first
// action measure how hard it is to find. start is the puzzle's position;
// mine counts the solver's actions in line; counter adds up the nodes.
func rate(ctx context.Context, start *rules.Game, line []rules.Action, mine int, themes []puzzles.Theme, nodes int64, counter *int64) (int, error) {
	var work int64
	for d := 1; d <= maxRatingDepth && work == 0; d++ {
		a := newAnalyst(ctx, engine.Limits{})
		r, err := a.searchWith(start, engine.Limits{Depth: d, Nodes: nodes})
		*counter += a.nodes
		if err != nil {
			return 0, err
		}
		switch {
		case r.Best == line[0]:
			work = max(r.Nodes, 1)
		case d == maxRatingDepth:
			work = 2 * max(r.Nodes, 1)
		}
	}
	rating := ratingOffset + perDoubling*log2x16(max(work, minWork))/16 + perAction*(mine-1)
	if line[0].Phase == rules.PhaseBan {
		rating += banBonus
	} else if san, err := start.Notation().MoveSAN(line[0]); err != nil {
		return 0, err
	} else if !strings.ContainsAny(san, "x+#=") {
		rating += quietBonus
	}
	for _, t := range themes {
		switch t {
		case puzzles.StalemateTrap:
			rating += trapBonus
		case puzzles.UnderPromotion:
			rating += underBonus
		}
	}
	rating = (rating + 5) / 10 * 10
	return min(max(rating, puzzles.MinRating), puzzles.MaxRating), nil
}

// log2x16 returns 16·log2(n) for n ≥ 1, the fraction read off the four
// bits after n's highest (in integers, so that every machine rates
// alike).
func log2x16(n int64) int {
	top := bits.Len64(uint64(n)) - 1
	frac := 0
	if top >= 4 {
		frac = int(n>>(top-4)) & 15
	} else {
		frac = int(n<<(4-top)) & 15
	}
	return 16*top + frac
}
