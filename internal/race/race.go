// Package race says whether the race detector is on. Under it a test runs
// about ten times slower, so a test whose work is one goroutine's
// computation (a move generator's counts, pages compared ply by ply) may
// check a sample there, where the detector finds nothing the sample does
// not, and check the whole without it: CI runs both (.ci/run).
package race
