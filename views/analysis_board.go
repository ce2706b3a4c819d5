package views

import (
	"math"
	"strconv"
	"strings"

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

// EvalText writes an evaluation, score in centipawns (or mate in plies,
// 0 for none) for actor, the side to act, from White's side: "+0.30"
// (good for White), "-1.20", "#3" (White mates in 3 plies), "#-2" (Black
// mates in 2); and in words ("White mates in 3 plies", "+0.30: White is
// better").
func EvalText(actor rules.Color, score, mate int) (short, words string) {
	if mate != 0 {
		winner, n := actor, mate
		if mate < 0 {
			winner, n = actor.Other(), -mate
		}
		short = "#" + strconv.Itoa(n)
		if winner == rules.Black {
			short = "#-" + strconv.Itoa(n)
		}
		return short, winner.Name() + " mates in " + strconv.Itoa(n) + " plies"
	}
	if actor == rules.Black {
		score = -score
	}
	short = strconv.FormatFloat(float64(score)/100, 'f', 2, 64)
	switch {
	case score > 0:
		short = "+" + short
		words = "White is better"
	case score < 0:
		words = "Black is better"
	default:
		short, words = "0.00", "level"
	}
	return short, words
}

// Where says where a position stands as the game's status does: "Move 2 ·
// White to move", "Move 1 · Black bans a White move".
func Where(g *rules.Game) string {
	pos := g.Position()
	ban, ok := g.Ban()
	var banned *rules.Pair
	if ok {
		banned = &ban
	}
	return statusLine(pos.Fullmove, g.Turn(), g.Outcome(), g.InCheck(), banned)
}

// PlyLine writes plies as the move list does, on one line, from a
// position of fullmove number fullmove: "1. ⊘e4 d4 ⊘e5 d5 2. ⊘Nf3 c4",
// "1… ⊘e5 d5".
func PlyLine(hist []rules.PlyInfo, fullmove int) string {
	var b strings.Builder
	for i, r := range rows(hist, 0, fullmove, -1) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(r.Number))
		if len(r.White) == 0 {
			b.WriteString("…")
		} else {
			b.WriteByte('.')
		}
		for _, side := range [][]HistoryItem{r.White, r.Black} {
			for _, it := range side {
				b.WriteByte(' ')
				if it.Ban {
					b.WriteString("⊘")
				}
				b.WriteString(it.Text)
			}
		}
	}
	return b.String()
}
