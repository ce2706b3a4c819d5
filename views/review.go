package views

import (
	"fmt"
	"strconv"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/i18n"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/review"
	"github.com/banchess/banchess/rules"
)

// ReviewView is a game's review as its page shows it: where it stands
// (none yet, queued, running, done), and what it has found.
type ReviewView struct {
	// Status is the review's ("" when the game has none yet).
	Status analysis.ReviewStatus
	// Place is a queued review's place in its server's queue (1 next);
	// Percent the share of positions evaluated.
	Place, Percent int
	// Request is where a form asks for a review ("" when none may be
	// asked for), and Message says why there is none, or what went wrong.
	Request templ.SafeURL
	Message string
	// Self is the view's own address, which a page waiting for the review
	// reloads.
	Self templ.SafeURL

	Graph EvalGraph
	// Marked are the plies the review marks, in order, each with the
	// engine's better line; Shown is the review of the ply that led to the
	// position shown (nil at the start, or before it is reviewed).
	Marked []ReviewPly
	Shown  *ReviewPly
	// Marks are each ply's marks, by its index (plies since the start),
	// for the move list.
	Marks        map[int][]ReviewMark
	White, Black ReviewSide
}

// ReviewMark is a mark the review gives an action: its class's glyph, or
// a label's.
type ReviewMark struct {
	Glyph string // "?!", "?", "??", "⊘#" (a mate by ban), "#" (a mate)
	Kind  string // its class: "inaccuracy", "mistake", "blunder", "banmate", "mate"
	Title string // in words: "Blunder", "Missed a mate by ban"
}

// ReviewPly is the review of one action, in words.
type ReviewPly struct {
	Index int           // plies since the start, this one included
	URL   templ.SafeURL // the review view after it
	Said  string        // "Ply 7: White played Nf3"
	Marks []ReviewMark
	Eval  string // the evaluation after it, White's side: "+0.35", "#3", "1-0"
	// Best is the engine's best action where this one was played, and
	// Line the line it expected, Best first, as the list writes plies
	// ("" when the game was over there).
	Best, Line string
}

// ReviewSide is one side's summary.
type ReviewSide struct {
	Name     string // "White"
	Accuracy string // "87.3%", or "–" with no action reviewed
	Counts   []ReviewCount
}

// ReviewCount is how many of a side's actions have a class or label.
type ReviewCount struct {
	Label, Glyph, Kind string
	N                  int
}

// ReviewURL returns the address of game id's review view showing the
// position after index plies (index < 0: the game's end), with o's
// orientation.
func (o Options) ReviewURL(id string, index int) string {
	if index < 0 {
		return gamePath(id) + "/review" + o.query()
	}
	return gamePath(id) + "/review/" + strconv.Itoa(index) + o.query()
}

// NewReviewView words st, the review of game g (id), for the view showing
// the position after shown plies; request is where the viewer may ask for
// one ("" when they may not).
func NewReviewView(g *rules.Game, id string, o Options, st analysis.ReviewState, shown int, request templ.SafeURL) ReviewView {
	v := ReviewView{Status: st.Status, Place: st.Place, Percent: int(100 * st.Progress), Request: request,
		Self: templ.SafeURL(o.ReviewURL(id, shown)), Marks: map[int][]ReviewMark{}}
	if st.Status == "" {
		return v
	}
	hist := g.Record().History()
	link := func(i int) templ.SafeURL { return templ.SafeURL(o.ReviewURL(id, i)) }
	plies := make([]ReviewPly, len(st.Plies))
	for i, p := range st.Plies {
		rp := ReviewPly{Index: i + 1, URL: link(i + 1), Marks: marksOf(o.Lang, p), Eval: p.Eval.String()}
		if i < len(hist) {
			rp.Said = plyTitle(o.Lang, hist[i])
		}
		if len(rp.Marks) > 0 || i+1 == shown {
			rp.Best, rp.Line = bestLine(g, i, p.Line)
		}
		plies[i] = rp
		if len(rp.Marks) > 0 {
			v.Marks[i+1] = rp.Marks
			v.Marked = append(v.Marked, rp)
		}
	}
	if shown >= 1 && shown <= len(plies) {
		v.Shown = &plies[shown-1]
	}
	if len(st.Plies) > 0 {
		evals := make([]review.Eval, 0, len(st.Plies)+1)
		evals = append(evals, st.Plies[0].Before)
		for _, p := range st.Plies {
			evals = append(evals, p.Eval)
		}
		label := func(i int) string {
			if i == 0 {
				return o.Lang.T("review.graph.start", "Eval", evals[0].String())
			}
			s := o.Lang.T("review.graph.point", "Ply", plies[i-1].Said, "Eval", plies[i-1].Eval)
			for _, m := range plies[i-1].Marks {
				s += ", " + m.Title
			}
			return s
		}
		kind := func(i int) string {
			if i == 0 || len(plies[i-1].Marks) == 0 {
				return ""
			}
			return plies[i-1].Marks[0].Kind
		}
		v.Graph = NewEvalGraph(evals, shown, link, label, kind)
	}
	v.White, v.Black = reviewSide(o.Lang, rules.White, st.White), reviewSide(o.Lang, rules.Black, st.Black)
	return v
}

// marksOf gives a reviewed ply's marks: its class's, then its labels'.
func marksOf(l *i18n.Language, p review.Ply) []ReviewMark {
	var out []ReviewMark
	switch p.Class {
	case review.Inaccuracy:
		out = append(out, ReviewMark{"?!", "inaccuracy", l.T("review.mark.inaccuracy")})
	case review.Mistake:
		out = append(out, ReviewMark{"?", "mistake", l.T("review.mark.mistake")})
	case review.Blunder:
		out = append(out, ReviewMark{"??", "blunder", l.T("review.mark.blunder")})
	}
	for _, label := range p.Labels {
		switch label {
		case review.MissedMateByBan:
			out = append(out, ReviewMark{"⊘#", "banmate", l.T("review.mark.missedMateByBan")})
		case review.AllowedMateByBan:
			out = append(out, ReviewMark{"⊘#", "banmate", l.T("review.mark.allowedMateByBan")})
		case review.MissedMate:
			out = append(out, ReviewMark{"#", "mate", l.T("review.mark.missedMate")})
		case review.AllowedMate:
			out = append(out, ReviewMark{"#", "mate", l.T("review.mark.allowedMate")})
		}
	}
	return out
}

// bestLine words line (BCN), the engine's line from the position before
// ply index i of g (from 0): its first action ("⊘e4", "Nf3"), and the
// whole line as the list writes plies ("1. ⊘e4 d4 ⊘e5"). It stops at an
// action it cannot read.
func bestLine(g *rules.Game, i int, line []string) (best, text string) {
	f, err := g.Variations().GameAt(nil, i)
	if err != nil {
		return "", ""
	}
	fullmove := f.Position().Fullmove
	start := len(f.Actions())
	for _, s := range line {
		a, err := rules.ParseAction(s)
		if err != nil || f.Play(a) != nil {
			break
		}
	}
	played := f.Record().HistorySince(start)
	if len(played) == 0 {
		return "", ""
	}
	best = played[0].SAN
	if played[0].Action.Phase == rules.PhaseBan {
		if best == "" {
			best = dashPair(played[0].Action.Pair())
		}
		best = "⊘" + best
	}
	return best, PlyLine(played, fullmove)
}

// reviewSide words one side's summary.
func reviewSide(l *i18n.Language, c rules.Color, s review.Side) ReviewSide {
	out := ReviewSide{Name: l.T(bySide(c, "color.w", "color.b")), Accuracy: "–"}
	if s.Accuracy != nil {
		out.Accuracy = l.T("review.percent", "Percent", fmt.Sprintf("%.1f", *s.Accuracy))
	}
	out.Counts = []ReviewCount{
		{l.T("review.count.inaccuracies"), "?!", "inaccuracy", s.Inaccuracies},
		{l.T("review.count.mistakes"), "?", "mistake", s.Mistakes},
		{l.T("review.count.blunders"), "??", "blunder", s.Blunders},
		{l.T("review.count.missedMatesByBan"), "⊘#", "banmate", s.MissedMatesByBan},
		{l.T("review.count.allowedMatesByBan"), "⊘#", "banmate", s.AllowedMatesByBan},
		{l.T("review.count.missedMates"), "#", "mate", s.MissedMates},
		{l.T("review.count.allowedMates"), "#", "mate", s.AllowedMates},
	}
	return out
}

// WithReview makes m, the game's view after index plies, its review
// view: v beside the board, its steps and list leading through the review
// view, and each reviewed ply marked in the list.
func WithReview(m Game, v ReviewView, index, last int) Game {
	m.Review = &v
	link := func(i int) templ.SafeURL { return templ.SafeURL(m.Opts.ReviewURL(m.Info.ID, i)) }
	m.Steps = Steps{}
	if index > 0 {
		m.Steps.First, m.Steps.Prev = link(0), link(index-1)
	}
	if index < last {
		m.Steps.Next, m.Steps.Last = link(index+1), link(last)
	}
	for r := range m.History {
		for _, side := range [][]HistoryItem{m.History[r].White, m.History[r].Black} {
			for i := range side {
				side[i].Marks = v.Marks[side[i].Index]
			}
		}
	}
	return m
}

// Waiting reports whether the review is under way: its page reloads
// itself until it is done.
func (v ReviewView) Waiting() bool {
	return v.Status == analysis.ReviewQueued || v.Status == analysis.ReviewRunning
}

// statusText says where the review stands, in l.
func (v ReviewView) statusText(l *i18n.Language) string {
	switch v.Status {
	case analysis.ReviewQueued:
		return l.Ordinal("review.queued", v.Place, "Percent", v.Percent)
	case analysis.ReviewRunning:
		return l.T("review.running", "Percent", v.Percent)
	case analysis.ReviewDone:
		return l.T("review.done")
	}
	return l.T("review.none")
}

// appendMarks writes a ply's review marks in the history list: each glyph
// (its words for a screen reader) in a span of its kind.
func appendMarks(b []byte, marks []ReviewMark) []byte {
	for _, m := range marks {
		b = append(b, `<span class="review-mark mark-`...)
		b = append(b, m.Kind...)
		b = append(b, '"')
		b = attr(b, "title", m.Title)
		b = append(b, `><span aria-hidden="true">`...)
		b = appendEscaped(b, m.Glyph)
		b = append(b, `</span><span class="sr-only"> `...)
		b = appendEscaped(b, m.Title)
		b = append(b, "</span></span>"...)
	}
	return b
}
