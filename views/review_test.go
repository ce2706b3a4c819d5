package views

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/banchess/banchess/analysis"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/review"
	"github.com/banchess/banchess/rules"
)

func TestEvalGraph(t *testing.T) {
	url := func(i int) templ.SafeURL { return templ.SafeURL("/r/" + strconv.Itoa(i)) }
	label := func(i int) string { return "position " + strconv.Itoa(i) }
	kind := func(i int) string {
		if i == 2 {
			return "blunder"
		}
		return ""
	}
	for _, tc := range []struct {
		name    string
		evals   []review.Eval
		current int
		xs, ys  []string
	}{
		{"level, White winning, Black mating", []review.Eval{{}, {CP: 1000}, {Mate: -3}}, 1,
			[]string{"0.0", "300.0", "600.0"}, []string{"120.0", "5.9", "234.1"}},
		{"a result is its winner's", []review.Eval{{CP: 5}, {Result: "1-0"}}, -1,
			[]string{"0.0", "600.0"}, []string{"118.9", "5.9"}},
		{"one position sits in the middle", []review.Eval{{Result: "1/2-1/2"}}, 0,
			[]string{"300.0"}, []string{"120.0"}},
	} {
		g := NewEvalGraph(tc.evals, tc.current, url, label, kind)
		if len(g.Points) != len(tc.evals) {
			t.Fatalf("%s: %d points", tc.name, len(g.Points))
		}
		for i, p := range g.Points {
			if p.X != tc.xs[i] || p.Y != tc.ys[i] {
				t.Errorf("%s: point %d at (%s, %s), want (%s, %s)", tc.name, i, p.X, p.Y, tc.xs[i], tc.ys[i])
			}
			if p.URL != url(i) || p.Label != label(i) || p.Kind != kind(i) || p.Current != (i == tc.current) {
				t.Errorf("%s: point %d is %+v", tc.name, i, p)
			}
		}
		if (g.Current != nil) != (tc.current >= 0) || g.Current != nil && g.Current.Index != tc.current {
			t.Errorf("%s: current %+v", tc.name, g.Current)
		}
		if !strings.HasPrefix(g.Area, "M0,120.0 ") || !strings.HasSuffix(g.Area, ",120.0 Z") {
			t.Errorf("%s: area %q", tc.name, g.Area)
		}
	}
	if g := NewEvalGraph(nil, 0, url, label, kind); len(g.Points) != 0 || g.Current != nil {
		t.Errorf("no evaluations: %+v", g)
	}
}

// reviewedGame is a game of four plies and a review of it: White's d4 a
// blunder that missed a mate by ban, Black's ban best.
func reviewedGame(t *testing.T) (*rules.Game, analysis.ReviewState) {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"})
	if err != nil {
		t.Fatal(err)
	}
	acc := 71.25
	st := analysis.ReviewState{Status: analysis.ReviewDone, Progress: 1, Review: review.Review{
		Plies: []review.Ply{
			{Ply: 1, Before: review.Eval{CP: 20}, Eval: review.Eval{CP: 30}, Best: "b:e2e4", Line: []string{"b:e2e4", "m:d2d4"}, Class: review.Best},
			{Ply: 2, Before: review.Eval{CP: 30}, Eval: review.Eval{CP: -400}, Best: "m:g1f3", Line: []string{"m:g1f3", "b:d7d5", "m:e7e6"}, Class: review.Blunder, Labels: []review.Label{review.MissedMateByBan}},
			{Ply: 3, Before: review.Eval{CP: -400}, Eval: review.Eval{CP: -380}, Best: "b:e7e5", Class: review.Best},
			{Ply: 4, Before: review.Eval{CP: -380}, Eval: review.Eval{CP: -390}, Best: "m:d7d5", Line: []string{"m:d7d5"}, Class: review.Best},
		},
		White: review.Side{Accuracy: &acc, Actions: 2, Best: 1, Blunders: 1, MissedMatesByBan: 1},
		Black: review.Side{Actions: 2, Best: 2},
	}}
	return g, st
}

func TestNewReviewView(t *testing.T) {
	g, st := reviewedGame(t)
	v := NewReviewView(g, "abc", Options{}, st, 2, "/g/abc/review")
	if len(v.Graph.Points) != 5 || v.Graph.Current == nil || v.Graph.Current.Index != 2 || v.Graph.Points[2].Kind != "blunder" {
		t.Fatalf("graph %+v", v.Graph)
	}
	if got := v.Graph.Points[3].URL; got != "/g/abc/review/3" {
		t.Errorf("point 3 leads to %s", got)
	}
	if len(v.Marked) != 1 || v.Marked[0].Index != 2 || len(v.Marks) != 1 {
		t.Fatalf("marked %+v, marks %+v", v.Marked, v.Marks)
	}
	m := v.Marked[0]
	if m.Said != "Ply 2: White played d4" || m.Best != "Nf3" || m.Line != "1. Nf3 ⊘d5 e6" || m.Eval != "-4.00" {
		t.Errorf("the marked ply %+v", m)
	}
	if glyphs := []string{m.Marks[0].Glyph, m.Marks[1].Glyph}; glyphs[0] != "??" || glyphs[1] != "⊘#" {
		t.Errorf("marks %+v", m.Marks)
	}
	if v.Shown == nil || v.Shown.Index != 2 {
		t.Errorf("shown %+v", v.Shown)
	}
	if v.White.Accuracy != "71.2%" && v.White.Accuracy != "71.3%" || v.Black.Accuracy != "–" || v.White.Counts[2].N != 1 || v.White.Counts[3].N != 1 {
		t.Errorf("summary %+v %+v", v.White, v.Black)
	}
	// The start shows no ply's review; the end's ply is reviewed though unmarked.
	if v := NewReviewView(g, "abc", Options{}, st, 0, ""); v.Shown != nil {
		t.Errorf("at the start: %+v", v.Shown)
	}
	if v := NewReviewView(g, "abc", Options{}, st, 4, ""); v.Shown == nil || v.Shown.Best != "d5" {
		t.Errorf("at the end: %+v", v.Shown)
	}
}

func TestReviewPanel(t *testing.T) {
	g, st := reviewedGame(t)
	for _, tc := range []struct {
		name string
		st   analysis.ReviewState
		req  templ.SafeURL
		want []string
		not  []string
	}{
		{"none yet", analysis.ReviewState{}, "/g/abc/review", []string{`action="/g/abc/review"`, "Request a review", "no review yet"}, []string{"eval-graph", "hx-trigger"}},
		{"none, and none may be asked", analysis.ReviewState{}, "", []string{"no review yet"}, []string{"<form"}},
		{"queued", analysis.ReviewState{Status: analysis.ReviewQueued, Place: 2}, "/g/abc/review", []string{"2nd in line", `hx-trigger="every 2s"`, "<progress"}, []string{"<form"}},
		{"done", st, "/g/abc/review", []string{
			`id="eval-graph"`, `href="/g/abc/review/2"`, `aria-current="step"`, `class="graph-point mark-blunder current"`,
			"Missed a mate by ban", "Best: 1. Nf3 ⊘d5 e6", `id="review-summary"`,
		}, []string{"hx-trigger", "<form"}},
	} {
		var b bytes.Buffer
		v := NewReviewView(g, "abc", Options{}, tc.st, 2, tc.req)
		if err := reviewPanel(v).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, b.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", tc.name, w, b.String())
			}
		}
	}
}
