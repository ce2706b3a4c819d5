package engine

import (
	"fmt"
	"time"
)

// DefaultPerPly is level 8's default time to think, per ply.
const DefaultPerPly = time.Second

// Levels is the number of levels, 1 (weakest) to Levels (strongest).
const Levels = 8

// Level returns the limits of a level from 1 to 8. Levels 1–7 are bounded
// by depth and nodes, so a game between them replays the same way and
// costs the same on any machine; level 8 thinks for perPly (DefaultPerPly
// when 0). Low levels add noise to their evaluation, so they blunder.
func Level(n int, perPly time.Duration) (Limits, error) {
	if perPly <= 0 {
		perPly = DefaultPerPly
	}
	switch n {
	case 1:
		return Limits{Depth: 1, Noise: 300}, nil
	case 2:
		return Limits{Depth: 1, Noise: 100}, nil
	case 3:
		return Limits{Depth: 2, Noise: 40}, nil
	case 4:
		return Limits{Depth: 3, Nodes: 20_000, Noise: 10}, nil
	case 5:
		return Limits{Depth: 4, Nodes: 60_000}, nil
	case 6:
		return Limits{Nodes: 100_000}, nil
	case 7:
		return Limits{Nodes: 300_000}, nil
	case 8:
		return Limits{Time: perPly}, nil
	}
	return Limits{}, fmt.Errorf("engine: level %d: choose 1 to %d", n, Levels)
}
