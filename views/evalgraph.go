package views

import (
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/review"
)

// The evaluation graph's drawing box, in its own units: the SVG scales to
// its container's width.
const (
	graphWidth  = 600
	graphHeight = 240
)

// EvalGraph is a reviewed game's evaluations as a graph, drawn by the
// server: one point for each position (the start, and after each ply),
// White's winning chances upwards from the middle line (level), each point
// a link to its position.
type EvalGraph struct {
	Points []GraphPoint
	// Line joins the points (an SVG polyline's points); Area is the share
	// above the middle line, White's (an SVG path).
	Line, Area string
	// Current is the point of the position shown, or nil.
	Current *GraphPoint
}

// GraphPoint is one position on the graph.
type GraphPoint struct {
	Index int    // plies since the start: 0 for the start
	X, Y  string // its place, in the graph's units
	// Left and Width are the column of the graph that leads to it when
	// clicked (around X).
	Left, Width string
	URL         templ.SafeURL
	Label       string // what a screen reader hears: "After ply 5, White played Nf3: +0.35, mistake"
	Kind        string // the mark of the ply that led to it, as a class: "blunder", "banmate", …; "" for none
	Current     bool
}

// NewEvalGraph draws evals, the evaluation of each position from the start
// (evals[i] after i plies), with the position current (an index of evals;
// -1 for none) marked. url gives each position's address, label its
// words, and kind the class of its mark ("" for none).
func NewEvalGraph(evals []review.Eval, current int, url func(i int) templ.SafeURL, label func(i int) string, kind func(i int) string) EvalGraph {
	var g EvalGraph
	if len(evals) == 0 {
		return g
	}
	step := float64(graphWidth) / float64(max(1, len(evals)-1))
	line := make([]string, 0, len(evals))
	area := []string{"M0," + coord(graphHeight/2)}
	for i, e := range evals {
		x := step * float64(i)
		if len(evals) == 1 {
			x = graphWidth / 2
		}
		y := graphHeight / 2 * (1 - e.WinningChances())
		left := max(0, x-step/2)
		p := GraphPoint{
			Index: i, X: coord(x), Y: coord(y),
			Left: coord(left), Width: coord(min(graphWidth, x+step/2) - left),
			URL: url(i), Label: label(i), Kind: kind(i), Current: i == current,
		}
		g.Points = append(g.Points, p)
		line = append(line, p.X+","+p.Y)
		area = append(area, "L"+p.X+","+coord(min(y, graphHeight/2)))
	}
	area = append(area, "L"+g.Points[len(g.Points)-1].X+","+coord(graphHeight/2), "Z")
	g.Line, g.Area = strings.Join(line, " "), strings.Join(area, " ")
	if current >= 0 && current < len(g.Points) {
		g.Current = &g.Points[current]
	}
	return g
}

// coord writes a graph coordinate with at most one decimal.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// graphViewBox is the graph's viewBox attribute.
func graphViewBox() string {
	return "0 0 " + strconv.Itoa(graphWidth) + " " + strconv.Itoa(graphHeight)
}

// graphMid is the middle line's height: a level evaluation.
func graphMid() string { return coord(graphHeight / 2) }

// graphPointClass lists a point's classes.
func graphPointClass(p GraphPoint) string {
	c := "graph-point"
	if p.Kind != "" {
		c += " mark-" + p.Kind
	}
	if p.Current {
		c += " current"
	}
	return c
}
