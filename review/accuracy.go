package review

import (
	"math"

	"github.com/banchess/banchess/rules"
)

// winPercent is White's win percentage, 0 to 100: lichess's
// 50 + 50·winning chances.
func winPercent(e Eval) float64 { return 50 + 50*e.WinningChances() }

// moveAccuracy is lichess's accuracy of one action that took its side's
// win percentage from before to after: 100 when it lost nothing, else
// 103.1668·exp(−0.04354·loss) − 3.1669, plus 1 for the analysis's own
// imprecision, within 0 to 100.
func moveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*(before-after)) - 3.166924740191411
	return max(0, min(100, raw+1))
}

// accuracy is lichess's game accuracy of each side (nil for a side that
// did not act), from the evaluations of positions — positions[i] before
// ply i, one more than actors — and who acted at each ply (in Ban Chess a
// side acts twice in a row: its move, then its ban). Each action's
// accuracy is weighted by the volatility of the game around it (the
// standard deviation of the win percentages in a window of a tenth of the
// game, 2 to 8 positions, bounded to 0.5–12); a side's accuracy is the
// mean of the weighted mean and the harmonic mean of its actions'.
func accuracy(positions []Position, actors []rules.Color) (white, black *float64) {
	n := len(actors)
	if n == 0 || len(positions) != n+1 {
		return nil, nil
	}
	wins := make([]float64, n+1)
	for i, p := range positions {
		wins[i] = winPercent(p.Eval)
	}
	size := max(2, min(8, n/10))
	weights := make([]float64, n)
	for i := range weights {
		// The first windows repeat the first window, as lichess's do.
		start := max(0, i-(size-2))
		weights[i] = max(0.5, min(12, stdDev(wins[start:min(len(wins), start+size)])))
	}
	var sides [2]struct{ weighted, weights, inverse, count float64 }
	for i, side := range actors {
		before, after := wins[i], wins[i+1]
		if side == rules.Black {
			before, after = 100-before, 100-after
		}
		acc := moveAccuracy(before, after)
		s := &sides[0]
		if side == rules.Black {
			s = &sides[1]
		}
		s.weighted += acc * weights[i]
		s.weights += weights[i]
		s.inverse += 1 / max(1, acc)
		s.count++
	}
	var out [2]*float64
	for i, s := range sides {
		if s.count == 0 {
			continue
		}
		v := (s.weighted/s.weights + s.count/s.inverse) / 2
		out[i] = &v
	}
	return out[0], out[1]
}

// stdDev is the population standard deviation of xs.
func stdDev(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var sum float64
	for _, x := range xs {
		sum += (x - mean) * (x - mean)
	}
	return math.Sqrt(sum / float64(len(xs)))
}
