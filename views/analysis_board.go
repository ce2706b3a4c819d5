package views

import (
	"math"
	"strconv"
	"strings"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// BestArrow is the engine's best action as the analysis board draws it:
// an arrow over the board's squares, from From to To ("" for none; the
// live panel draws the same arrow on the game's own board); Ban says it
// is a ban (drawn in the ban colour).
type BestArrow struct {
	From, To string
	Ban      bool
}

// AnalysisArrow runs from (X1, Y1) to (X2, Y2), in squares from the
// board's top left corner.
type AnalysisArrow struct{ X1, Y1, X2, Y2 string }

// NewBestArrow is best as an arrow; an action from a square to itself,
// such as the zero Action, or from or to a square beside the board, is
// none.
func NewBestArrow(best rules.Action) BestArrow {
	if !best.From.Valid() || !best.To.Valid() || best.From == best.To || best.From.IsX() || best.To.IsX() {
		return BestArrow{}
	}
	return BestArrow{From: best.From.String(), To: best.To.String(), Ban: best.Phase == rules.PhaseBan}
}

// Kind is the arrow's kind: "ban", "move", or "" for none.
func (b BestArrow) Kind() string {
	switch {
	case b.From == "":
		return ""
	case b.Ban:
		return "ban"
	}
	return "move"
}

// Line is the arrow on a board, flipped (Black at the bottom) or not,
// between its squares' centres; nil for none.
func (b BestArrow) Line(flipped bool) *AnalysisArrow {
	from, err1 := rules.ParseSquare(b.From)
	to, err2 := rules.ParseSquare(b.To)
	if b.From == "" || err1 != nil || err2 != nil {
		return nil
	}
	c1, r1 := displayXY(from, flipped)
	c2, r2 := displayXY(to, flipped)
	return &AnalysisArrow{X1: centre(c1), Y1: centre(r1), X2: centre(c2), Y2: centre(r2)}
}

// NewAnalysisGame lays out position g for the analysis page with the game
// page's board, status, players' strips and promotion picker, built by
// the same code as the game page's: when play says so either side's
// action can be played on it, its forms posting to paths (Select, Ply,
// and Page, the page itself); else it is read-only. players are the
// strips' (zero for a bare position: the sides' names); seats are the
// viewer's, which turn the board as on the game's page (Black's player
// sees Black at the bottom), with o's Flip.
func NewAnalysisGame(g *rules.Game, site Site, players [2]Player, seats games.Seats, o Options, paths Paths, play bool) Game {
	perm := games.Permissions{Seats: seats, Side: g.Turn().Actor, Play: play, Analyse: true}
	o.Auto = false // the board turns round with Flip only
	m := describeGame(g, Info{Site: site, Perm: perm, Players: players}, o, lastMove(g))
	m.Paths = paths
	m.Board.ReadOnly = !play
	m.Title = o.Lang.T("analysis.pageTitle", "Where", m.Status)
	switch {
	case m.Over:
		m.Hint = o.Lang.T("analysis.hint.over")
	case !play:
		m.Hint = o.Lang.T("analysis.hint.view")
	default:
		m.Hint += " " + o.Lang.T("analysis.hint.play")
	}
	return m
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
// mates in 2); and in words, in l ("White mates in 3 plies", "+0.30: White is
// better").
func EvalText(l *i18n.Language, actor rules.Color, score, mate int) (short, words string) {
	if mate != 0 {
		winner, n := actor, mate
		if mate < 0 {
			winner, n = actor.Other(), -mate
		}
		short = "#" + strconv.Itoa(n)
		if winner == rules.Black {
			short = "#-" + strconv.Itoa(n)
		}
		if winner == rules.White {
			return short, l.N("analysis.mates.w", n)
		}
		return short, l.N("analysis.mates.b", n)
	}
	if actor == rules.Black {
		score = -score
	}
	short = strconv.FormatFloat(float64(score)/100, 'f', 2, 64)
	switch {
	case score > 0:
		short = "+" + short
		words = l.T("analysis.better.w")
	case score < 0:
		words = l.T("analysis.better.b")
	default:
		short, words = "0.00", l.T("analysis.level")
	}
	return short, words
}

// Where says where a position stands as the game's status does: "Move 2 ·
// White to move", "Move 1 · Black bans a White move".
func Where(l *i18n.Language, g *rules.Game) string {
	pos := g.Position()
	ban, ok := g.Ban()
	var banned *rules.Pair
	if ok {
		banned = &ban
	}
	return statusLine(l, pos.Fullmove, g.Turn(), g.Outcome(), g.InCheck(), banned)
}

// PlyLine writes plies as the move list does, on one line, from a
// position of fullmove number fullmove: "1. ⊘e4 d4 ⊘e5 d5 2. ⊘Nf3 c4",
// "1… ⊘e5 d5".
func PlyLine(hist []rules.PlyInfo, fullmove int) string {
	var b strings.Builder
	for i, r := range rows(i18n.Builtin().Source(), NotationEnglish, hist, 0, fullmove, -1) { // the titles are not shown
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
