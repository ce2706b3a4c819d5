package views

import (
	"math"
	"strconv"

	"github.com/banchess/banchess/rules"
)

// AnalysisBoard is a position drawn small, White at the bottom, with the
// engine's best action as an arrow.
type AnalysisBoard struct {
	Squares []AnalysisSquare
	// Arrow is the best action, from the centre of one square to another
	// (nil for none); Ban says it is a ban (drawn in the ban colour).
	Arrow *AnalysisArrow
	Ban   bool
	// From and To name the best action's squares ("e2", "e4"; "" for
	// none), for the arrow the live panel draws on the game's own board.
	From, To string
}

// AnalysisSquare is one square of an AnalysisBoard.
type AnalysisSquare struct {
	X, Y  int // 0–7, from the top left
	Light bool
	Piece string // code, such as "wK"; "" for none
}

// AnalysisArrow runs from (X1, Y1) to (X2, Y2), in squares.
type AnalysisArrow struct{ X1, Y1, X2, Y2 string }

// NewAnalysisBoard draws pos with best as an arrow; an action from a
// square to itself, such as the zero Action, draws none.
func NewAnalysisBoard(pos *rules.Position, best rules.Action) AnalysisBoard {
	var b AnalysisBoard
	for sq := rules.Square(0); sq < 64; sq++ {
		b.Squares = append(b.Squares, AnalysisSquare{X: sq.File(), Y: 7 - sq.Rank(), Light: sq.Light(), Piece: pos.Board[sq].Code()})
	}
	if best.From.Valid() && best.To.Valid() && best.From != best.To && !best.From.IsX() && !best.To.IsX() {
		c := func(v int) string { return strconv.FormatFloat(float64(v)+0.5, 'f', 1, 64) }
		b.Arrow = &AnalysisArrow{X1: c(best.From.File()), Y1: c(7 - best.From.Rank()), X2: c(best.To.File()), Y2: c(7 - best.To.Rank())}
		b.Ban = best.Phase == rules.PhaseBan
		b.From, b.To = best.From.String(), best.To.String()
	}
	return b
}

// EvalShare is White's share of an evaluation bar, in percent: 50 for
// level, towards 100 as White is better (a mate is all of it). score is in
// centipawns for the side to act; mate in plies (0 for none).
func EvalShare(actor rules.Color, score, mate int) int {
	v := float64(score)
	if mate != 0 {
		v = math.Copysign(10000, float64(mate))
	}
	if actor == rules.Black {
		v = -v
	}
	return int(math.Round(100 / (1 + math.Exp(-v/400))))
}

// Count writes n in digits grouped by threes with commas, as the page's
// English prose does: 1234567 is "1,234,567".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	first := 0 // the first digit
	if n < 0 {
		first = 1
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > first && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
