package engine

// The evaluation's weights by term (eval.go), hand-set: today's evaluation.

var evalMG = [NumEvalTerms]int{100, 320, 330, 500, 900,
	3, 6, 9, 12, 15, 18,
	2, 5, 4, 2, 4, 2, 1, 30, 12,
	70, 45, 20, 8, 15, 0,
	0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 10}

var evalEG = [NumEvalTerms]int{100, 320, 330, 500, 900,
	6, 18, 36, 60, 90, 126,
	2, 5, 4, 2, 4, 2, 1, 30, 0,
	0, 0, 0, 0, 0, -8,
	0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 10}
