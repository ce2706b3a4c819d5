package lessons

import "github.com/banchess/banchess/rules"

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
		Title:   "Who bans, who moves",
		Summary: "Before every move the opponent bans one move: Black bans first, then each side moves and bans in turn.",
		Steps: []Step{{
			FEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1",
			Prompt:  "Ban Chess starts with a ban: before White's first move, Black forbids one of White's moves. You are Black. Ban White's most popular first move, e2–e4: pick the pawn on e2, then e4.",
			Goal:    Exact{Answers: []string{"b:e2e4"}, Hint: "Pick White's pawn on e2, then the square e4."},
			Answers: []string{"b:e2e4"},
			Right:   "Black banned e2–e4. For this one move White may play anything else; next turn the pawn may go to e4 again.",
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4",
			Prompt:  "Ply 2: White moves. The banned pair, e2–e4, is drawn as a red arrow and is not among White's choices. You are White: play the other central pawn, d2–d4.",
			Goal:    Exact{Answers: []string{"m:d2d4"}, Hint: "Pick the pawn on d2, then d4."},
			Answers: []string{"m:d2d4"},
			Right:   "White moved. Now comes the rule that surprises everyone: the side that just moved bans next. White will forbid one of Black's replies.",
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3",
			Prompt:  "Ply 3: White, who has just moved, bans one of Black's moves before Black plays. You are still White: ban Black's most natural answer, d7–d5.",
			Goal:    Exact{Answers: []string{"b:d7d5"}, Hint: "Pick Black's pawn on d7, then d5."},
			Answers: []string{"b:d7d5"},
			Right:   "So each side acts twice in a row: White moved, then banned. Now Black moves, then bans one of White's moves.",
			Mistakes: []Mistake{{
				Action: "b:e7e5",
				Why:    "That bans e7–e5. Black's reply to d4 that mirrors it is d7–d5: ban that one.",
			}},
		}, {
			FEN:     "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 4:d7d5",
			Prompt:  "Ply 4: Black moves, anything but d7–d5. You are Black: bring out the knight, g8–f6.",
			Goal:    Exact{Answers: []string{"m:g8f6"}, Hint: "Pick the knight on g8, then f6."},
			Answers: []string{"m:g8f6"},
			Right:   "That is the whole cycle, four plies: Black bans, White moves, White bans, Black moves. Ply 5 is Black's ban again — bans are plies too, and the page counts them.",
		}},
	}
}

func pairs() Lesson {
	return Lesson{
		ID:      "pairs",
		Title:   "A ban is a pair of squares",
		Summary: "A ban names a from–to pair, never a piece: one ban takes every promotion on two squares, a castling by the king's squares, an en passant capture by the pawn's.",
		Steps: []Step{{
			FEN:     "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 1",
			Prompt:  "White's pawn is about to promote on e8: to a queen, a rook, a bishop or a knight — four moves, but one pair of squares, e7–e8. A ban names squares only, so one ban forbids all four. You are Black: ban the promotion.",
			Goal:    Exact{Answers: []string{"b:e7e8"}, Hint: "Pick the pawn on e7, then e8: that pair is every promotion."},
			Answers: []string{"b:e7e8"},
			Right:   "All four promotions are gone for this move: White has to move the king, and the pawn waits.",
		}, {
			FEN:     "4k3/8/8/8/8/8/8/4K2R w K - 0 1 1",
			Prompt:  "Castling is a king move, written with the king's two squares: king-side castling is e1–g1. You are Black: ban White's castling.",
			Goal:    Exact{Answers: []string{"b:e1g1"}, Hint: "Castling is named by the king's squares: pick the king on e1, then g1."},
			Answers: []string{"b:e1g1"},
			Right:   "e1–g1 is banned, so White cannot castle this move. The rook's own moves, such as h1–f1, are other pairs and stay allowed.",
			Mistakes: []Mistake{{
				Action: "b:h1f1",
				Why:    "That bans the rook's move h1–f1, not castling: castling is named by the king's squares, e1–g1.",
			}},
		}, {
			FEN:     "7k/8/1b2p3/3pP3/4K3/r7/8/5q2 w - d6 0 1 1",
			Prompt:  "Black's pawn has just come from d7 to d5, giving check. White's only way out is to take it en passant, e5×d6. An en passant capture is named by the capturing pawn's squares. You are Black: ban it.",
			Goal:    Mate{},
			Answers: []string{"b:e5d6"},
			Right:   "e5–d6 was White's only legal move; banned, White is in check with no move at all. That is checkmate — by a ban.",
		}},
	}
}

func mateByBan() Lesson {
	return Lesson{
		ID:      "mate-by-ban",
		Title:   "Checkmate by a ban",
		Summary: "A king in check with a single way out is lost: the ban takes that way away.",
		Steps: []Step{{
			FEN:     "r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3 11",
			Prompt:  "The queen has taken on f7 with check. It is not protected, so in chess the king simply takes it. But before Black moves, White bans — and Kxf7, e8–f7, is Black's only legal move. You are White: ban it.",
			Goal:    Mate{},
			Answers: []string{"b:e8f7"},
			Right:   "Black is in check and has no move left: checkmate by a ban. A check that leaves one way out is mate.",
		}, {
			FEN:     "6k1/5pp1/8/8/8/8/5PPP/R5K1 w - - 0 1 2:h2h3",
			Prompt:  "Now make such a check yourself. You are White: find the check after which Black has exactly one way out.",
			Goal:    OneWayOut{},
			Answers: []string{"m:a1a8"},
			Right:   "Ra8+ leaves Black only Kh7: the pawns block f7 and g7, the rook covers the back rank. Your ban comes next.",
		}, {
			FEN:     "R5k1/5pp1/8/8/8/8/5PPP/6K1 b - - 1 1 3",
			Prompt:  "White moved, so White bans next — and Black's one way out is g8–h7. You are White: finish it.",
			Goal:    Mate{},
			Answers: []string{"b:g8h7"},
			Right:   "Checkmate by a ban, on the back rank. In Ban Chess a check with a single escape is as good as mate: always count the ways out.",
		}, {
			FEN:     "r5k1/5ppp/8/8/8/1Q6/5PPP/4R1K1 w - - 0 1 2:g1h1",
			Prompt:  "Three checks: Qb8+, Re8+ and Qxf7+. Two of them leave Black a single way out, one leaves two. You are White: choose a check that wins.",
			Goal:    OneWayOut{},
			Answers: []string{"m:b3b8", "m:e1e8"},
			Right:   "The only answer to your check is to take the checking piece with the rook — and you ban exactly that. A check that takes material but leaves two ways out is worth less than one that leaves one.",
			Mistakes: []Mistake{{
				Action: "m:b3f7",
				Why:    "Qxf7+ wins a pawn with check, but the king has two ways out, Kxf7 and Kh8: your ban takes away one, and Black plays the other.",
			}},
		}},
	}
}

func stalemateByBan() Lesson {
	return Lesson{
		ID:      "stalemate-by-ban",
		Title:   "Stalemate by a ban",
		Summary: "A ban that takes a player's last move, when they are not in check, is stalemate: never leave a beaten opponent a single move without check.",
		Steps: []Step{{
			FEN:     "4k3/8/8/8/7P/8/2q5/K7 w - - 1 2 5",
			Prompt:  "Black is a queen up and has just played Qc2. White's king has no square, so White's only move is h4–h5 — and a ban cannot be skipped. You are Black: make the only ban there is, and watch.",
			Goal:    Draws{Reason: rules.ByBan},
			Answers: []string{"b:h4h5"},
			Right:   "White is not in check and has no move left: stalemate by a ban, a draw. Black threw the win away one move earlier, with Qc2.",
		}, {
			FEN:     "4k3/8/8/8/7P/8/3q4/K7 b - - 0 1 4:e8d8",
			Prompt:  "Back one move. Qc2 would leave White the single move h4–h5 and no check: your forced ban stalemates. Three queen moves win instead — each checks and leaves the king one way out, which your ban then takes. You are Black: find one.",
			Goal:    OneWayOut{},
			Answers: []string{"m:d2a2", "m:d2b2", "m:d2c1"},
			Right:   "Check with a single way out, then ban it: mate. Even a queen offered on a2 or b2 wins, because taking it is the king's only move — and you ban that.",
			Mistakes: []Mistake{{
				Action: "m:d2c2",
				Why:    "Qc2 leaves White only h4–h5, and no check: your ban must take it, and White is stalemated — a draw.",
			}},
		}, {
			FEN:     "8/8/5Q2/7k/8/8/2K5/8 w - - 0 30 2:f6f4",
			Prompt:  "A queen against a lone king. Black's king has one square, g4: any quiet move of yours leaves it just that, and your ban after it would stalemate. Give a check instead that leaves a single way out. You are White.",
			Goal:    AnyOf{Mate{}, OneWayOut{}},
			Answers: []string{"m:f6g5"},
			Right:   "Qg5+! The king's only move is to take the queen, and you ban it: checkmate. In Ban Chess a queen next to the enemy king is often a mate, not a blunder.",
			Mistakes: []Mistake{{
				Action: "m:c2d3",
				Why:    "Kd3 leaves Black one move, Kg4, and no check: your ban must take it, and that is stalemate — a draw.",
			}},
		}},
	}
}

func twoWaysOut() Lesson {
	return Lesson{
		ID:      "two-ways-out",
		Title:   "Keep two ways out",
		Summary: "Against a check you need two ways out, since one can be banned; one ban can stop one threat, not two.",
		Steps: []Step{{
			FEN:     "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3 9",
			Prompt:  "White threatens Qxf7+: f7 is guarded only by the king, so Kxf7 would be Black's one way out — and White would ban it. You are Black, and it is your ban. Stop the threat.",
			Goal:    SafeFromMate{Plies: 3, Threat: "Qxf7+ leaves only Kxf7, and White bans it: checkmate."},
			Answers: []string{"b:h5f7"},
			Right:   "With Qxf7 banned, White has no check that leaves one way out. Look for such checks before every ban you make.",
			Mistakes: []Mistake{{
				Action: "b:f1c4",
				Why:    "Bc4 is not the danger: Qxf7+ leaves only Kxf7, White bans it, and it is checkmate.",
			}},
		}, {
			FEN:     "7R/8/5k2/7p/5Q2/8/8/4K3 b - - 0 30 4:f6e7",
			Prompt:  "Black is in check, and White has banned Ke7. Three squares are left: e6, g6 and g7. Near the edge, White's queen and rook find checks that leave a single way out — more than one, and you can ban only one. You are Black: choose the square where the king keeps room.",
			Goal:    SafeFromMate{Plies: 3, Threat: "White has more than one check that leaves you one way out, and your single ban cannot stop them all."},
			Answers: []string{"m:f6e6"},
			Right:   "In the middle of the board every check leaves the king several ways out. Kings in Ban Chess want room, not corners.",
		}, {
			FEN:     "r5k1/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 20 4:g8f8",
			Prompt:  "White threatens two back-rank checks, Re8+ and Qd8+: after either, taking with the rook would be your one way out, and White would ban it. Your ban after this move can stop only one of them. You are Black: make a move that leaves you safe.",
			Goal:    SafeFromMate{Plies: 3, Threat: "Re8+ and Qd8+ each leave one way out, and your ban stops only one of them."},
			Answers: []string{"m:a8e8", "m:a8f8", "m:f7f5", "m:f7f6", "m:g7g5", "m:g7g6", "m:h7h5", "m:h7h6"},
			Right:   "After this move White has at most one check that leaves you a single way out, and your ban takes that one away. The usual cure is a pawn step in front of the king: after …h6, Re8+ is met by Rxe8 or Kh7.",
			Mistakes: []Mistake{{
				Action: "m:g8h8",
				Why:    "Kh8 changes nothing: Re8+ and Qd8+ still leave only the rook's capture, and one ban cannot stop both.",
			}},
		}},
	}
}

func winningMaterial() Lesson {
	return Lesson{
		ID:      "winning-material",
		Title:   "Win material with a ban",
		Summary: "Capture a piece that is defended once, then ban the recapture.",
		Steps: []Step{{
			FEN:     "4rk2/5p1p/6p1/8/8/8/5PPP/4R1K1 w - - 0 1 2:g1f1",
			Prompt:  "Black's rook on e8 is defended by the king alone. In chess, Rxe8+ Kxe8 is an even trade. In Ban Chess you move and then ban: take the rook, then forbid the recapture. You are White: start with the capture.",
			Goal:    WinsMaterial{Gain: 5, Plies: 2},
			Answers: []string{"m:e1e8"},
			Right:   "Rxe8+, and now it is your ban.",
		}, {
			FEN:     "4Rk2/5p1p/6p1/8/8/8/5PPP/6K1 b - - 0 1 3",
			Prompt:  "Black's only recapture is the king's, f8–e8. You are White: ban it.",
			Goal:    WinsMaterial{Gain: 0, Plies: 1},
			Answers: []string{"b:f8e8"},
			Right:   "The king must step away to g7, and White is a rook up. A piece defended once is not defended in Ban Chess.",
		}, {
			FEN:     "r2q2k1/pp3ppp/2n2n2/1B4B1/8/8/PPP1QPPP/6K1 w - - 0 1 2:g1h1",
			Prompt:  "Both black knights are attacked. The one on c6 is defended once, by the b7 pawn; the one on f6 twice, by the g7 pawn and the queen. You are White: take the knight whose one recapture you can ban.",
			Goal:    WinsMaterial{Gain: 3, Plies: 2},
			Answers: []string{"m:b5c6"},
			Right:   "Bxc6, then ban b7×c6: a knight up. Count the defenders: once is nothing in Ban Chess, twice is a real defence.",
			Mistakes: []Mistake{{
				Action: "m:g5f6",
				Why:    "Bxf6 is met by two recaptures, g7×f6 and Q×f6: you ban one, Black plays the other, and it is only a trade.",
			}},
		}},
	}
}

func promotion() Lesson {
	return Lesson{
		ID:      "promotion",
		Title:   "Promotion under bans",
		Summary: "A pawn on the seventh rank may promote by more than one pair; choose which to ban, promote where the ban is not, and mind the stalemate a new queen can make.",
		Steps: []Step{{
			FEN:     "3r4/4Pk2/8/8/8/8/8/1K6 w - - 0 1 1",
			Prompt:  "White's pawn can promote two ways: straight to e8, or by taking the rook on d8. Your rook and king both guard e8; nothing guards d8. You are Black: which pair do you ban?",
			Goal:    WinsMaterial{Gain: 0, Plies: 3},
			Answers: []string{"b:e7d8"},
			Right:   "Now e8=Q+ is answered by one of your two recaptures: White can ban only one. Guarded twice is guarded in Ban Chess.",
			Mistakes: []Mistake{{
				Action: "b:e7e8",
				Why:    "Then White plays exd8=Q, taking your rook, and nothing of yours can take back on d8.",
			}},
		}, {
			FEN:     "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1 2:e7e8",
			Prompt:  "Black has banned e7–e8. A ban is one pair: the capture e7–d8 is another, and it is free. You are White: promote by taking the rook, to a queen.",
			Goal:    Promotes{Piece: rules.Queen},
			Answers: []string{"m:e7d8q"},
			Right:   "exd8=Q+. Black banned e7–e8 and left e7–d8: every pair is banned separately.",
		}, {
			FEN:     "8/6Pp/7k/5K2/6R1/8/8/8 w - - 0 30 2:f5f6",
			Prompt:  "A new queen on g8 would leave Black a single move, Kh5, and no check: your ban would have to take it — stalemate. Promote to a piece that gives check instead, so that the single way out is one you may ban. You are White.",
			Goal:    AllOf{Promotes{}, OneWayOut{}},
			Answers: []string{"m:g7g8n"},
			Right:   "g8=N+ checks from g8; Black's only move is Kh5, and your ban takes it: checkmate. Sometimes a knight is worth more than a queen.",
			Mistakes: []Mistake{{
				Action: "m:g7g8q",
				Why:    "g8=Q leaves Black only Kh5, and no check: your ban must take it, and that is stalemate — a draw.",
			}},
		}},
	}
}

func gameEnd() Lesson {
	return Lesson{
		ID:      "game-end",
		Title:   "How a game ends",
		Summary: "Besides mate and stalemate, a game is drawn by insufficient material, the fifty-move rule and threefold repetition — automatically, the moment it happens.",
		Steps: []Step{{
			FEN:     "8/8/8/7k/6P1/8/8/2K2B2 b - - 0 50 4:h5h6",
			Prompt:  "You are Black, a bishop and a pawn down. A king and a bishop alone cannot mate, and the game ends drawn the moment only that is left. Find the move that saves the game.",
			Goal:    Draws{Reason: rules.InsufficientMaterial},
			Answers: []string{"m:h5g4"},
			Right:   "Kxg4: king and bishop against king is insufficient material, a draw at once. A pawn, a rook or a queen anywhere would play on.",
		}, {
			FEN:     "8/8/8/4k3/8/8/P7/R3K3 w - - 99 80 2:e1d1",
			Prompt:  "The fifty-move rule: a hundred moves in a row, fifty by each side, with no capture and no pawn move, and the game is drawn (bans do not count). The count here stands at 99. You are White, and winning: do not let the win slip.",
			Goal:    ResetsFifty{},
			Answers: []string{"m:a2a3", "m:a2a4"},
			Right:   "A pawn move (or a capture) starts the count again from zero.",
		}, {
			FEN:     "4k3/8/1p6/pP6/P7/8/8/4K3 b - - 0 40 4:e8f8",
			Before:  []string{"m:e8d8", "b:e1f1", "m:e1d1", "b:d8c8", "m:d8e8", "b:d1c1", "m:d1e1", "b:e8f8", "m:e8d8", "b:e1f1", "m:e1d1", "b:d8c8", "m:d8e8", "b:d1c1"},
			Prompt:  "Nobody can break through, and the kings have walked back and forth: the position with your king on e1 and Black to move has stood twice (bans do not count, only the positions after moves). You are White: take the draw.",
			Goal:    Draws{Reason: rules.ThreefoldRepetition},
			Answers: []string{"m:d1e1"},
			Right:   "Ke1 brings the same position a third time: drawn by threefold repetition, at once — no one has to claim it.",
		}},
	}
}
