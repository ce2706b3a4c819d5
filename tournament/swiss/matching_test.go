package swiss

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the best (size, weight) of any matching: the
// greatest size, then the greatest weight.
func bruteMatching(n int, edges []edge) (int, int64) {
	w := map[[2]int]int64{}
	for _, e := range edges {
		w[[2]int{e.i, e.j}] = e.w
		w[[2]int{e.j, e.i}] = e.w
	}
	used := make([]bool, n)
	bestSize, bestW := 0, int64(0)
	var rec func(v, size int, total int64)
	rec = func(v, size int, total int64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			if size > bestSize || size == bestSize && total > bestW {
				bestSize, bestW = size, total
			}
			return
		}
		used[v] = true
		rec(v+1, size, total) // v unmatched
		for u := v + 1; u < n; u++ {
			if x, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(v+1, size+1, total+x)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return bestSize, bestW
}

// TestMatchingAgainstBruteForce: on thousands of small random graphs the
// blossom algorithm finds a valid matching as good as the exhaustive
// search's (the largest, then the heaviest), with small weights, negative
// ones among them, and with weights as large as the pairing's.
func TestMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 4000 {
		n := 1 + rng.IntN(10)
		density := rng.Float64()
		wide := trial%4 == 0 // weights as large as the pairing's
		var edges []edge
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < density {
					w := int64(rng.IntN(30)) - 5
					if wide {
						w = 1e15 + rng.Int64N(1e15)
					}
					edges = append(edges, edge{i, j, w})
				}
			}
		}
		mate := maxWeightMatching(n, edges)
		size, total := 0, int64(0)
		for v, u := range mate {
			if u == -1 {
				continue
			}
			if mate[u] != v {
				t.Fatalf("trial %d: mate not symmetric: %v", trial, mate)
			}
			found := false
			for _, e := range edges {
				if e.i == v && e.j == u || e.j == v && e.i == u {
					found = true
					if v < u {
						total += e.w
					}
				}
			}
			if !found {
				t.Fatalf("trial %d: matched %d-%d without an edge", trial, v, u)
			}
			if v < u {
				size++
			}
		}
		wantSize, wantW := bruteMatching(n, edges)
		if size != wantSize || total != wantW {
			t.Fatalf("trial %d (n=%d): got size %d weight %d, want size %d weight %d; edges %v", trial, n, size, total, wantSize, wantW, edges)
		}
	}
}
