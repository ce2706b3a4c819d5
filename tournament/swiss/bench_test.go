package swiss

import (
	"fmt"
	"testing"
)

// eventAt simulates an event of n players up to the round before `round`.
func eventAt(b *testing.B, n, round int) []Player {
	sim := newSimulation(7, n)
	for r := 1; r < round; r++ {
		p, err := Pair(sim.players, r)
		if err != nil {
			b.Fatal(err)
		}
		sim.play(r, p)
	}
	return sim.players
}

// BenchmarkPair pairs round 7 of an event of 200 players (and of 1,000,
// the figure), its first six rounds played with random results.
func BenchmarkPair(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("players=%d/round=7", n), func(b *testing.B) {
			ps := eventAt(b, n, 7)
			b.ResetTimer()
			for b.Loop() {
				if _, err := Pair(ps, 7); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
