package lessons

import (
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// All returns the lessons, in the order a learner takes them. Each call
// builds them afresh: callers may keep what they get.
func All() []Lesson {
	return []Lesson{
		plyOrder(), pairs(), mateByBan(), stalemateByBan(),
		twoWaysOut(), winningMaterial(), promotion(), gameEnd(),
	}
}

func plyOrder() Lesson {
	return Lesson{
		ID:      "ply-order",
		Title:   i18n.Msg("lesson.plyOrder.title"),
		Summary: i18n.Msg("lesson.plyOrder.summary"),
		Steps: []Step{{
			FEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1",
			Prompt:  i18n.Msg("lesson.plyOrder.1.prompt"),
			Goal:    Exact{Answers: []string{"b:e2e4"}, Hint: i18n.Msg("lesson.plyOrder.1.hint")},
			Answers: []string{"b:e2e4"},
			Right:   i18n.Msg("lesson.plyOrder.1.right"),
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4",
			Prompt:  i18n.Msg("lesson.plyOrder.2.prompt"),
			Goal:    Exact{Answers: []string{"m:d2d4"}, Hint: i18n.Msg("lesson.plyOrder.2.hint")},
			Answers: []string{"m:d2d4"},
			Right:   i18n.Msg("lesson.plyOrder.2.right"),
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3",
			Prompt:  i18n.Msg("lesson.plyOrder.3.prompt"),
			Goal:    Exact{Answers: []string{"b:d7d5"}, Hint: i18n.Msg("lesson.plyOrder.3.hint")},
			Answers: []string{"b:d7d5"},
			Right:   i18n.Msg("lesson.plyOrder.3.right"),
			Mistakes: []Mistake{{
				Action: "b:e7e5",
				Why:    i18n.Msg("lesson.plyOrder.3.why"),
			}},
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 4:d7d5",
			Prompt:  i18n.Msg("lesson.plyOrder.4.prompt"),
			Goal:    Exact{Answers: []string{"m:g8f6"}, Hint: i18n.Msg("lesson.plyOrder.4.hint")},
			Answers: []string{"m:g8f6"},
			Right:   i18n.Msg("lesson.plyOrder.4.right"),
		}},
	}
}

func pairs() Lesson {
	return Lesson{
		ID:      "pairs",
		Title:   i18n.Msg("lesson.pairs.title"),
		Summary: i18n.Msg("lesson.pairs.summary"),
		Steps: []Step{{
			FEN:     "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 1",
			Prompt:  i18n.Msg("lesson.pairs.1.prompt"),
			Goal:    Exact{Answers: []string{"b:e7e8"}, Hint: i18n.Msg("lesson.pairs.1.hint")},
			Answers: []string{"b:e7e8"},
			Right:   i18n.Msg("lesson.pairs.1.right"),
		}, {
			FEN:     "4k3/8/8/8/8/8/8/4K2R w K - 0 1 1",
			Prompt:  i18n.Msg("lesson.pairs.2.prompt"),
			Goal:    Exact{Answers: []string{"b:e1g1"}, Hint: i18n.Msg("lesson.pairs.2.hint")},
			Answers: []string{"b:e1g1"},
			Right:   i18n.Msg("lesson.pairs.2.right"),
			Mistakes: []Mistake{{
				Action: "b:h1f1",
				Why:    i18n.Msg("lesson.pairs.2.why"),
			}},
		}, {
			FEN:     "7k/8/1b2p3/3pP3/4K3/r7/8/5q2 w - d6 0 1 1",
			Prompt:  i18n.Msg("lesson.pairs.3.prompt"),
			Goal:    Mate{},
			Answers: []string{"b:e5d6"},
			Right:   i18n.Msg("lesson.pairs.3.right"),
		}},
	}
}

func mateByBan() Lesson {
	return Lesson{
		ID:      "mate-by-ban",
		Title:   i18n.Msg("lesson.mateByBan.title"),
		Summary: i18n.Msg("lesson.mateByBan.summary"),
		Steps: []Step{{
			FEN:     "r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3 11",
			Prompt:  i18n.Msg("lesson.mateByBan.1.prompt"),
			Goal:    Mate{},
			Answers: []string{"b:e8f7"},
			Right:   i18n.Msg("lesson.mateByBan.1.right"),
		}, {
			FEN:     "6k1/5pp1/8/8/8/8/5PPP/R5K1 w - - 0 1 2:h2h3",
			Prompt:  i18n.Msg("lesson.mateByBan.2.prompt"),
			Goal:    OneWayOut{},
			Answers: []string{"m:a1a8"},
			Right:   i18n.Msg("lesson.mateByBan.2.right"),
		}, {
			FEN:     "R5k1/5pp1/8/8/8/8/5PPP/6K1 b - - 1 1 3",
			Prompt:  i18n.Msg("lesson.mateByBan.3.prompt"),
			Goal:    Mate{},
			Answers: []string{"b:g8h7"},
			Right:   i18n.Msg("lesson.mateByBan.3.right"),
		}, {
			FEN:     "r5k1/5ppp/8/8/8/1Q6/5PPP/4R1K1 w - - 0 1 2:g1h1",
			Prompt:  i18n.Msg("lesson.mateByBan.4.prompt"),
			Goal:    OneWayOut{},
			Answers: []string{"m:b3b8", "m:e1e8"},
			Right:   i18n.Msg("lesson.mateByBan.4.right"),
			Mistakes: []Mistake{{
				Action: "m:b3f7",
				Why:    i18n.Msg("lesson.mateByBan.4.why"),
			}},
		}},
	}
}

func stalemateByBan() Lesson {
	return Lesson{
		ID:      "stalemate-by-ban",
		Title:   i18n.Msg("lesson.stalemateByBan.title"),
		Summary: i18n.Msg("lesson.stalemateByBan.summary"),
		Steps: []Step{{
			FEN:     "4k3/8/8/8/7P/8/2q5/K7 w - - 1 2 5",
			Prompt:  i18n.Msg("lesson.stalemateByBan.1.prompt"),
			Goal:    Draws{Reason: rules.ByBan},
			Answers: []string{"b:h4h5"},
			Right:   i18n.Msg("lesson.stalemateByBan.1.right"),
		}, {
			FEN:     "4k3/8/8/8/7P/8/3q4/K7 b - - 0 1 4:e8d8",
			Prompt:  i18n.Msg("lesson.stalemateByBan.2.prompt"),
			Goal:    OneWayOut{},
			Answers: []string{"m:d2a2", "m:d2b2", "m:d2c1"},
			Right:   i18n.Msg("lesson.stalemateByBan.2.right"),
			Mistakes: []Mistake{{
				Action: "m:d2c2",
				Why:    i18n.Msg("lesson.stalemateByBan.2.why"),
			}},
		}, {
			FEN:     "8/8/5Q2/7k/8/8/2K5/8 w - - 0 30 2:f6f4",
			Prompt:  i18n.Msg("lesson.stalemateByBan.3.prompt"),
			Goal:    AnyOf{Mate{}, OneWayOut{}},
			Answers: []string{"m:f6g5"},
			Right:   i18n.Msg("lesson.stalemateByBan.3.right"),
			Mistakes: []Mistake{{
				Action: "m:c2d3",
				Why:    i18n.Msg("lesson.stalemateByBan.3.why"),
			}},
		}},
	}
}

func twoWaysOut() Lesson {
	return Lesson{
		ID:      "two-ways-out",
		Title:   i18n.Msg("lesson.twoWaysOut.title"),
		Summary: i18n.Msg("lesson.twoWaysOut.summary"),
		Steps: []Step{{
			FEN:     "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3 9",
			Prompt:  i18n.Msg("lesson.twoWaysOut.1.prompt"),
			Goal:    SafeFromMate{Plies: 3, Threat: i18n.Msg("lesson.twoWaysOut.1.threat")},
			Answers: []string{"b:h5f7"},
			Right:   i18n.Msg("lesson.twoWaysOut.1.right"),
			Mistakes: []Mistake{{
				Action: "b:f1c4",
				Why:    i18n.Msg("lesson.twoWaysOut.1.why"),
			}},
		}, {
			FEN:     "7R/8/5k2/7p/5Q2/8/8/4K3 b - - 0 30 4:f6e7",
			Prompt:  i18n.Msg("lesson.twoWaysOut.2.prompt"),
			Goal:    SafeFromMate{Plies: 3, Threat: i18n.Msg("lesson.twoWaysOut.2.threat")},
			Answers: []string{"m:f6e6"},
			Right:   i18n.Msg("lesson.twoWaysOut.2.right"),
		}, {
			FEN:     "r5k1/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 20 4:g8f8",
			Prompt:  i18n.Msg("lesson.twoWaysOut.3.prompt"),
			Goal:    SafeFromMate{Plies: 3, Threat: i18n.Msg("lesson.twoWaysOut.3.threat")},
			Answers: []string{"m:a8e8", "m:a8f8", "m:f7f5", "m:f7f6", "m:g7g5", "m:g7g6", "m:h7h5", "m:h7h6"},
			Right:   i18n.Msg("lesson.twoWaysOut.3.right"),
			Mistakes: []Mistake{{
				Action: "m:g8h8",
				Why:    i18n.Msg("lesson.twoWaysOut.3.why"),
			}},
		}},
	}
}

func winningMaterial() Lesson {
	return Lesson{
		ID:      "winning-material",
		Title:   i18n.Msg("lesson.winningMaterial.title"),
		Summary: i18n.Msg("lesson.winningMaterial.summary"),
		Steps: []Step{{
			FEN:     "4rk2/5p1p/6p1/8/8/8/5PPP/4R1K1 w - - 0 1 2:g1f1",
			Prompt:  i18n.Msg("lesson.winningMaterial.1.prompt"),
			Goal:    WinsMaterial{Gain: 5, Plies: 2},
			Answers: []string{"m:e1e8"},
			Right:   i18n.Msg("lesson.winningMaterial.1.right"),
		}, {
			FEN:     "4Rk2/5p1p/6p1/8/8/8/5PPP/6K1 b - - 0 1 3",
			Prompt:  i18n.Msg("lesson.winningMaterial.2.prompt"),
			Goal:    WinsMaterial{Gain: 0, Plies: 1},
			Answers: []string{"b:f8e8"},
			Right:   i18n.Msg("lesson.winningMaterial.2.right"),
		}, {
			FEN:     "r2q2k1/pp3ppp/2n2n2/1B4B1/8/8/PPP1QPPP/6K1 w - - 0 1 2:g1h1",
			Prompt:  i18n.Msg("lesson.winningMaterial.3.prompt"),
			Goal:    WinsMaterial{Gain: 3, Plies: 2},
			Answers: []string{"m:b5c6"},
			Right:   i18n.Msg("lesson.winningMaterial.3.right"),
			Mistakes: []Mistake{{
				Action: "m:g5f6",
				Why:    i18n.Msg("lesson.winningMaterial.3.why"),
			}},
		}},
	}
}

func promotion() Lesson {
	return Lesson{
		ID:      "promotion",
		Title:   i18n.Msg("lesson.promotion.title"),
		Summary: i18n.Msg("lesson.promotion.summary"),
		Steps: []Step{{
			FEN:     "3r4/4Pk2/8/8/8/8/8/1K6 w - - 0 1 1",
			Prompt:  i18n.Msg("lesson.promotion.1.prompt"),
			Goal:    WinsMaterial{Gain: 0, Plies: 3},
			Answers: []string{"b:e7d8"},
			Right:   i18n.Msg("lesson.promotion.1.right"),
			Mistakes: []Mistake{{
				Action: "b:e7e8",
				Why:    i18n.Msg("lesson.promotion.1.why"),
			}},
		}, {
			FEN:     "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1 2:e7e8",
			Prompt:  i18n.Msg("lesson.promotion.2.prompt"),
			Goal:    Promotes{Piece: rules.Queen},
			Answers: []string{"m:e7d8q"},
			Right:   i18n.Msg("lesson.promotion.2.right"),
		}, {
			FEN:     "8/6Pp/7k/5K2/6R1/8/8/8 w - - 0 30 2:f5f6",
			Prompt:  i18n.Msg("lesson.promotion.3.prompt"),
			Goal:    AllOf{Promotes{}, OneWayOut{}},
			Answers: []string{"m:g7g8n"},
			Right:   i18n.Msg("lesson.promotion.3.right"),
			Mistakes: []Mistake{{
				Action: "m:g7g8q",
				Why:    i18n.Msg("lesson.promotion.3.why"),
			}},
		}},
	}
}

func gameEnd() Lesson {
	return Lesson{
		ID:      "game-end",
		Title:   i18n.Msg("lesson.gameEnd.title"),
		Summary: i18n.Msg("lesson.gameEnd.summary"),
		Steps: []Step{{
			FEN:     "8/8/8/7k/6P1/8/8/2K2B2 b - - 0 50 4:h5h6",
			Prompt:  i18n.Msg("lesson.gameEnd.1.prompt"),
			Goal:    Draws{Reason: rules.InsufficientMaterial},
			Answers: []string{"m:h5g4"},
			Right:   i18n.Msg("lesson.gameEnd.1.right"),
		}, {
			FEN:     "8/8/8/4k3/8/8/P7/R3K3 w - - 99 80 2:e1d1",
			Prompt:  i18n.Msg("lesson.gameEnd.2.prompt"),
			Goal:    ResetsFifty{},
			Answers: []string{"m:a2a3", "m:a2a4"},
			Right:   i18n.Msg("lesson.gameEnd.2.right"),
		}, {
			FEN:     "4k3/8/1p6/pP6/P7/8/8/4K3 b - - 0 40 4:e8f8",
			Before:  []string{"m:e8d8", "b:e1f1", "m:e1d1", "b:d8c8", "m:d8e8", "b:d1c1", "m:d1e1", "b:e8f8", "m:e8d8", "b:e1f1", "m:e1d1", "b:d8c8", "m:d8e8", "b:d1c1"},
			Prompt:  i18n.Msg("lesson.gameEnd.3.prompt"),
			Goal:    Draws{Reason: rules.ThreefoldRepetition},
			Answers: []string{"m:d1e1"},
			Right:   i18n.Msg("lesson.gameEnd.3.right"),
		}},
	}
}
