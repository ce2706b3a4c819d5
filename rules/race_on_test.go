//go:build race

package rules

// raceEnabled: the race detector slows the engine tenfold; long counts
// are cut.
const raceEnabled = true
