//go:build !unix

package loadtest

import "math"

// raiseFileLimit has no limit to raise here.
func raiseFileLimit(uint64) uint64 { return math.MaxUint64 }
