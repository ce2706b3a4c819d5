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
// cpu-ns/op is the process's CPU time a pairing (the garbage collector's
// included), steadier than ns/op on a loaded machine.
func BenchmarkPair(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("players=%d/round=7", n), func(b *testing.B) {
			ps := eventAt(b, n, 7)
			start, ok := cpuTime()
			for b.Loop() {
				if _, err := Pair(ps, 7); err != nil {
					b.Fatal(err)
				}
			}
			if end, ok2 := cpuTime(); ok && ok2 {
				b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
