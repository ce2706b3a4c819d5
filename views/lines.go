package views

import (
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Lines is a game's plies with their variations, as its analysis board
// lists them: the main line, each ply followed by the variations that are
// alternatives to it, nested, and the viewer's own line not kept with the
// game (Pending).
type Lines struct {
	Start   LinePly // the position before the first ply
	Main    []LinePly
	Pending []LinePly
}

// LinePly is one ply of a line, a link to the analysis board after it.
type LinePly struct {
	Number  string // "3." before a White turn's first ply, "3…" where a line starts on Black's; "" else
	Text    string // SAN; for a ban, ⊘ and the banned move's SAN ("⊘e4")
	Ban     bool
	NAGs    string // "?! $13"
	Comment string
	Title   string // "Ply 5: White played Nf3"
	URL     templ.SafeURL
	Current bool
	// Variations are the alternatives to this ply, each its own line.
	Variations [][]LinePly
}

// LineParam writes a line's path as the analysis board's line= query
// value: each branch "after.index", joined by commas ("3.0,1.1"); "" for
// the main line.
func LineParam(p rules.Path) string {
	steps := make([]string, len(p))
	for i, b := range p {
		steps[i] = strconv.Itoa(b.After) + "." + strconv.Itoa(b.Index)
	}
	return strings.Join(steps, ",")
}

// NewLines lists, in l, g's lines with the spot at marked current, and pending,
// the viewer's actions played on from current that the game does not
// keep; url gives the address of a spot with the first k of pending
// played on from it.
func NewLines(l *i18n.Language, g *rules.Game, current games.Spot, pending []rules.Action, url func(s games.Spot, k int) templ.SafeURL) (Lines, error) {
	f, err := g.Variations().GameAt(current.Line, current.N)
	if err != nil {
		return Lines{}, err
	}
	w := linesWalk{l: l, g: g, current: current, url: url, pending: len(pending) > 0}
	ls := Lines{Start: LinePly{Text: l.T("nav.first"), Title: l.T("view.start"), URL: url(games.Spot{}, 0), Current: len(current.Line) == 0 && current.N == 0 && len(pending) == 0}}
	if ls.Main, err = w.line(nil); err != nil {
		return Lines{}, err
	}
	if len(pending) > 0 {
		before := f.StartPosition().Fullmove
		if h := f.Record().History(); len(h) > 0 {
			before = h[len(h)-1].Position.Fullmove
		}
		for _, a := range pending {
			if err := f.Play(a); err != nil {
				return Lines{}, err
			}
		}
		hist := f.Record().History()
		afterBan := false
		for k, p := range hist[len(hist)-len(pending):] {
			lp := linePly(l, p, k == 0, afterBan, before)
			afterBan = opensTurn(p)
			lp.URL, lp.Current = url(current, k+1), k+1 == len(pending)
			before = p.Position.Fullmove
			ls.Pending = append(ls.Pending, lp)
		}
	}
	return ls, nil
}

// linesWalk lists the lines of a game.
type linesWalk struct {
	l       *i18n.Language
	g       *rules.Game
	current games.Spot
	pending bool // the viewer's own line goes on from current
	url     func(games.Spot, int) templ.SafeURL
}

// line lists the line at path, with the variations within it.
func (w linesWalk) line(path rules.Path) ([]LinePly, error) {
	var v *rules.Variation
	length := len(w.g.Actions())
	if len(path) > 0 {
		var err error
		if v, err = games.VariationAt(w.g, path); err != nil {
			return nil, err
		}
		length = v.Len()
	}
	f, err := w.g.Variations().GameAt(path, length)
	if err != nil {
		return nil, err
	}
	hist := f.Record().History()
	hist = hist[len(hist)-length:]
	fullmove := f.StartPosition().Fullmove
	if all := f.Record().History(); len(all) > length {
		fullmove = all[len(all)-length-1].Position.Fullmove
	}
	out := make([]LinePly, 0, length)
	afterBan := false
	for j, p := range hist {
		lp := linePly(w.l, p, j == 0, afterBan, fullmove)
		afterBan = opensTurn(p)
		fullmove = p.Position.Fullmove
		at := games.Spot{Line: path, N: j + 1}
		lp.URL = w.url(at, 0)
		lp.Current = !w.pending && sameSpot(at, w.current)
		var nags []rules.NAG
		var alts []*rules.Variation
		if v == nil {
			nags, lp.Comment, alts = w.g.Record().NAGs(j+1), w.g.Record().Comment(j+1), w.g.Variations().After(j)
		} else {
			nags, lp.Comment, alts = v.NAGs(j+1), v.Comment(j+1), v.Variations(j)
		}
		lp.NAGs = nagText(nags)
		for i := range alts {
			sub, err := w.line(append(path[:len(path):len(path)], rules.Branch{After: j, Index: i}))
			if err != nil {
				return nil, err
			}
			lp.Variations = append(lp.Variations, sub)
		}
		out = append(out, lp)
	}
	return out, nil
}

// linePly words ply p, played from a position whose move number is
// fullmove; first says it starts its line, and afterBan that the ply
// before it was a ban of the same side's move (it opened the number).
func linePly(l *i18n.Language, p rules.PlyInfo, first, afterBan bool, fullmove int) LinePly {
	lp := LinePly{Ban: p.Action.Phase == rules.PhaseBan, Title: plyTitle(l, p)}
	switch {
	case !lp.Ban:
		lp.Text = p.SAN
	case p.SAN != "": // the banned move, as the list writes it
		lp.Text = "⊘" + p.SAN
	default:
		lp.Text = "⊘" + dashPair(p.Action.Pair())
	}
	switch {
	case moveSide(p) == rules.White && (first || !afterBan):
		lp.Number = strconv.Itoa(fullmove) + "."
	case first:
		lp.Number = strconv.Itoa(fullmove) + "…"
	}
	return lp
}

// moveSide is the side whose move p is or restricts.
func moveSide(p rules.PlyInfo) rules.Color {
	if p.Action.Phase == rules.PhaseBan {
		return p.Actor.Other()
	}
	return p.Actor
}

// opensTurn reports whether p is a ban: the ply after it is the move of
// the same turn.
func opensTurn(p rules.PlyInfo) bool { return p.Action.Phase == rules.PhaseBan }

// nagText writes NAGs as their glyphs, space-separated.
func nagText(nags []rules.NAG) string {
	out := make([]string, len(nags))
	for i, n := range nags {
		out[i] = n.Symbol()
	}
	return strings.Join(out, " ")
}

// sameSpot reports whether a and b are the same spot.
func sameSpot(a, b games.Spot) bool { return a.N == b.N && slices.Equal(a.Line, b.Line) }
