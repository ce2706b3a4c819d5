package tune

import "github.com/banchess/banchess/engine"

// HandSet returns the hand-set weights the evaluation had before it was
// tuned (commit 813c4d3's evaluation, the terms it lacked at 0): the fit
// starts from them and its penalty pulls toward them, so that a fit
// reruns the same whatever engine/eval_weights.go holds.
func HandSet() Weights {
	mg := [engine.NumEvalTerms]int{100, 320, 330, 500, 900,
		3, 6, 9, 12, 15, 18,
		2, 5, 4, 2, 4, 2, 1, 30, 12,
		70, 45, 20, 8, 15, 0,
		0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 10}
	eg := [engine.NumEvalTerms]int{100, 320, 330, 500, 900,
		6, 18, 36, 60, 90, 126,
		2, 5, 4, 2, 4, 2, 1, 30, 0,
		0, 0, 0, 0, 0, -8,
		0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 10}
	return weightsOf(mg, eg)
}
