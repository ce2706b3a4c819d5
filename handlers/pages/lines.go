package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/views"
)

// The analysis board of a game (its analysis page) lists the game's lines
// — the main line and its variations — and plays on them: an action other
// than the line's next one makes a variation. A viewer who holds a seat
// keeps it with the game (games.Service.PlayVariation); anyone else's line
// stays in the page's address (moves=…), played on from a spot of the
// game's lines.

// maxPageMoves bounds the plies a page's own line holds.
const maxPageMoves = 64

// boardSpot is where an analysis board stands: a spot of the game's
// lines, and the viewer's own plies played on from it.
type boardSpot struct {
	games.Spot
	moves []string // BCN
	// main says the spot was named by the main line's ply (ply=…), as the
	// game's own pages link to it.
	main bool
	// flip says the board is turned round (flip=1), which its links and
	// forms carry on, as a game's pages do.
	flip bool
}

// readSpot reads a board's spot from the form or query: line (branches
// "after.index", comma-separated) and at (the plies into it), or ply (a
// ply number of the main line; none: the game now), and moves (BCN,
// comma-separated). start is the game's first ply and now its ply.
func readSpot(f url.Values, start, now int) (boardSpot, error) {
	b := boardSpot{flip: f.Get("flip") == "1"}
	line, at, ply := f.Get("line"), f.Get("at"), f.Get("ply")
	switch {
	case line != "" || at != "":
		p, err := parseLine(line)
		if err != nil {
			return b, err
		}
		n, err := strconv.Atoi(at)
		if err != nil || n < 0 {
			return b, kit.Invalidf("%q is not a number of plies into the line.", kit.TrimText(at))
		}
		b.Spot = games.Spot{Line: p, N: n}
	case ply != "":
		n, err := strconv.Atoi(ply)
		if err != nil || n < 1 {
			return b, kit.Invalidf("%q is not a ply: give its number, from 1.", kit.TrimText(ply))
		}
		b.Spot, b.main = games.Spot{N: n - start}, true
	default:
		b.Spot, b.main = games.Spot{N: now - start}, true
	}
	for len(b.Line) > 0 && b.N == 0 { // a variation's start is where it branched
		last := b.Line[len(b.Line)-1]
		b.Line, b.N = b.Line[:len(b.Line)-1], last.After
	}
	if m := f.Get("moves"); m != "" {
		b.moves = strings.Split(m, ",")
		if len(b.moves) > maxPageMoves {
			return b, kit.Invalidf("A line kept in the page holds %d plies at most.", maxPageMoves)
		}
	}
	return b, nil
}

// parseLine reads a line= value (views.LineParam writes them).
func parseLine(s string) (rules.Path, error) {
	if s == "" {
		return nil, nil
	}
	var p rules.Path
	for step := range strings.SplitSeq(s, ",") {
		a, i, ok := strings.Cut(step, ".")
		after, err1 := strconv.Atoi(a)
		index, err2 := strconv.Atoi(i)
		if !ok || err1 != nil || err2 != nil || after < 0 || index < 0 {
			return nil, kit.Invalidf("%q names no variation: each step is after.index, such as 3.0.", kit.TrimText(step))
		}
		p = append(p, rules.Branch{After: after, Index: index})
	}
	if len(p) > 64 {
		return nil, kit.Invalidf("%q names no variation: it nests too deep.", kit.TrimText(s))
	}
	return p, nil
}

// boardURL is the analysis board of game id at spot with the first k of
// its moves played on, and extra query pairs (name, value, …; an empty
// value is left out).
func boardURL(id string, start int, b boardSpot, k int, extra ...string) string {
	q := url.Values{}
	if len(b.Line) == 0 {
		q.Set("ply", strconv.Itoa(start+b.N))
	} else {
		q.Set("line", views.LineParam(b.Line))
		q.Set("at", strconv.Itoa(b.N))
	}
	if k > 0 {
		q.Set("moves", strings.Join(b.moves[:k], ","))
	}
	if b.flip {
		q.Set("flip", "1")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] != "" {
			q.Set(extra[i], extra[i+1])
		}
	}
	return kit.GamePath(id) + "/analysis?" + q.Encode()
}

// spotQuery is spot b with the first k of its moves as the board's forms
// post it: line (none for the main line), at and moves. It never says
// ply, which the board's own ply field says (the position's ply, which is
// not the spot's where the viewer's moves go on from it).
func spotQuery(b boardSpot, k int) url.Values {
	q := url.Values{"line": {views.LineParam(b.Line)}, "at": {strconv.Itoa(b.N)}}
	if k > 0 {
		q.Set("moves", strings.Join(b.moves[:k], ","))
	}
	return q
}

// spotGame replays game g to spot b: its line's position, then b's own
// moves, which must be legal.
func spotGame(g *rules.Game, b boardSpot) (*rules.Game, []rules.Action, error) {
	f, err := g.Variations().GameAt(b.Line, b.N)
	if err != nil {
		return nil, nil, errs.Of(err)
	}
	acts := make([]rules.Action, 0, len(b.moves))
	for _, m := range b.moves {
		a, err := rules.ParseAction(m)
		if err == nil {
			err = f.Play(a)
		}
		if err != nil {
			return nil, nil, kit.Invalidf("The line in this address does not replay: %s.", kit.TrimText(err.Error()))
		}
		acts = append(acts, a)
	}
	return f, acts, nil
}

// lineBoard lays out, in l, the analysis board of rec's game at b for a viewer
// with perm: its lines, and the forms that play on them.
func lineBoard(l *i18n.Language, rec *games.Record, perm games.Permissions, b boardSpot, acts []rules.Action, over bool) (*views.LineBoard, error) {
	g := rec.Game
	url := func(s games.Spot, k int) templ.SafeURL {
		return templ.SafeURL(boardURL(rec.ID, g.StartPly(), boardSpot{Spot: s, moves: b.moves, flip: b.flip}, k))
	}
	ls, err := views.NewLines(l, g, b.Spot, acts, url)
	if err != nil {
		return nil, errs.Of(err)
	}
	lb := &views.LineBoard{Lines: ls, Line: views.LineParam(b.Line), At: strconv.Itoa(b.N), Moves: strings.Join(b.moves, ","),
		Flip: b.flip, Kept: perm.Seats.Any()}
	// Where the game stands, a ply is the game's own (games.FindOnLine);
	// but for a player forecasting while the opponent is to act, whose
	// line stays in the page till saved.
	lb.Forecast = forecastBoard(rec, perm.Seats, b, ls.Pending)
	now := len(b.Line) == 0 && len(b.moves) == 0 && b.N == len(g.Actions()) && !g.Outcome().Over()
	fromNow := len(b.Line) == 0 && b.N == len(g.Actions()) // the forecasts' lines, at a game in play
	if !over && (perm.Analyse && !now || lb.Forecast != nil && fromNow) {
		lb.Play = templ.SafeURL(kit.GamePath(rec.ID) + "/lines/play")
	}
	if perm.Analyse && perm.Seats.Any() && len(b.Line) > 0 && len(b.moves) == 0 {
		lb.Delete = templ.SafeURL(kit.GamePath(rec.ID) + "/lines/delete")
		if len(b.Line) > 1 || rec.Mode == games.HotSeat {
			lb.Promote = templ.SafeURL(kit.GamePath(rec.ID) + "/lines/promote")
		}
	}
	return lb, nil
}

// lineSteps are the steps from the board at b along its line: back to the
// line's start (the game's), one ply back (from a variation's first ply,
// to where it branched), one ply on and to the line's end; a page's own
// line steps back only.
func lineSteps(g *rules.Game, id string, b boardSpot) views.Steps {
	link := func(s boardSpot, k int) templ.SafeURL {
		s.flip = b.flip
		return templ.SafeURL(boardURL(id, g.StartPly(), s, k))
	}
	var st views.Steps
	st.First = link(boardSpot{}, 0)
	switch k := len(b.moves); {
	case k > 0:
		st.Prev = link(b, k-1)
		return st
	case b.N > 1 || b.N == 1 && len(b.Line) == 0:
		st.Prev = link(boardSpot{Spot: games.Spot{Line: b.Line, N: b.N - 1}}, 0)
	case len(b.Line) > 0: // its first ply: back to where it branched
		last := b.Line[len(b.Line)-1]
		st.Prev = link(boardSpot{Spot: games.Spot{Line: b.Line[:len(b.Line)-1], N: last.After}}, 0)
	}
	length := len(g.Actions())
	if len(b.Line) > 0 {
		if v, err := games.VariationAt(g, b.Line); err == nil {
			length = v.Len()
		}
	}
	if b.N < length {
		st.Next = link(boardSpot{Spot: games.Spot{Line: b.Line, N: b.N + 1}}, 0)
		st.Last = link(boardSpot{Spot: games.Spot{Line: b.Line, N: length}}, 0)
	}
	return st
}

// playLine plays an action on a game's analysis board (POST
// /g/{id}/lines/play: line, at, moves, and the action typed, or from the
// board: from, to and promotion) and answers with the board where it led:
// for a viewer who holds a seat the game keeps the variation; anyone
// else's line goes on in the address. A pawn's move to the last rank from
// the board without a piece chosen answers the board with the promotion
// picker open.
func (p *browse) playLine(c echo.Context) error {
	if _, err := p.core.options(c); err != nil {
		return err
	}
	f := c.Request().Form
	text, from, to, err := p.lineInput(c)
	if err != nil {
		return p.lineRefused(c, c.Param("id"), err)
	}
	var b boardSpot
	var start int
	var keep, promote bool
	verr := p.s.games.View(c.Request().Context(), c.Param("id"), kit.Player(c), func(rec *games.Record, seats games.Seats) {
		g := rec.Game
		start = g.StartPly()
		if b, err = readSpot(f, start, g.Ply()); err != nil {
			return
		}
		if err = rec.MayAnalyse(); err != nil && !forecastsFrom(rec, seats, b) {
			return
		}
		err = nil
		if from.Valid() && f.Get("promotion") == "" {
			if promote, err = promotes(g, b, from, to); err != nil || promote {
				return
			}
		}
		// A player keeps variations with the game, but for plies after its
		// end (a finished game's), which are no alternative to one of it.
		end := len(b.Line) == 0 && b.N == len(g.Actions())
		if keep = seats.Any() && len(b.moves) == 0 && !end; keep {
			return // the service plays it, under its own lock
		}
		b, err = pageLine(g, b, text, forecastsFrom(rec, seats, b))
	})
	switch {
	case verr != nil:
		return verr
	case err == nil && promote:
		return c.Redirect(http.StatusSeeOther, boardURL(c.Param("id"), start, b, len(b.moves), "sel", from.String(), "to", to.String()))
	case err == nil && keep:
		var at games.Spot
		if at, err = p.s.games.PlayVariation(c.Request().Context(), c.Param("id"), kit.Player(c), b.Spot, text); err == nil {
			b = boardSpot{Spot: at, flip: b.flip}
		}
	}
	if err != nil {
		return p.lineRefused(c, c.Param("id"), err)
	}
	return c.Redirect(http.StatusSeeOther, boardURL(c.Param("id"), start, b, len(b.moves)))
}

// lineInput reads the action a form of the analysis board plays: typed
// (action), or from the board (from, to, promotion), written as typed
// coordinates ("e2e4", "e7e8q"), which the position reads as its phase's
// action; from is NoSquare for a typed one.
func (p *browse) lineInput(c echo.Context) (text string, from, to rules.Square, err error) {
	f := c.Request().Form
	if text = strings.TrimSpace(f.Get("action")); text != "" || f.Get("to") == "" {
		return text, rules.NoSquare, rules.NoSquare, nil
	}
	if from, err = square(c, "from", false); err != nil {
		return "", from, to, err
	}
	if to, err = square(c, "to", false); err != nil {
		return "", from, to, err
	}
	k, err := p.core.promotion(c)
	if err != nil {
		return "", from, to, err
	}
	text = from.String() + to.String()
	if k != 0 {
		text += strings.ToLower(string(k.Letter()))
	}
	return text, from, to, nil
}

// promotes reports whether the move from→to at spot b of g is a pawn's
// that promotes (a piece must then be chosen).
func promotes(g *rules.Game, b boardSpot, from, to rules.Square) (bool, error) {
	f, _, err := spotGame(g, b)
	if err != nil {
		return false, err
	}
	if f.Turn().Phase != rules.PhaseMove {
		return false, nil
	}
	for _, a := range f.Legal() {
		if a.From == from && a.To == to && a.Promotion != 0 {
			return true, nil
		}
	}
	return false, nil
}

// selectLine picks a square on the analysis board (POST
// /g/{id}/lines/select, the way without JavaScript: with board.js a pick
// needs no request), and answers with the board where the form stands,
// the square picked (or none, when it picks the picked one again).
func (p *browse) selectLine(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	var b boardSpot
	var start int
	verr := p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, _ games.Seats) {
		start = rec.Game.StartPly()
		b, err = readSpot(c.Request().Form, start, rec.Game.Ply())
	})
	switch {
	case verr != nil:
		return verr
	case err != nil:
		return p.lineRefused(c, id, err)
	}
	to := func() error {
		return c.Redirect(http.StatusSeeOther, boardURL(id, start, b, len(b.moves), "sel", squareName(o.Sel)))
	}
	return pick(c, &o, to, to)
}

// pageLine plays text on g's analysis board at b for a viewer whose line
// stays in the page: into the game's own lines where they hold it, else
// on b's moves (from the position now too, for forecasts).
func pageLine(g *rules.Game, b boardSpot, text string, forecasts bool) (boardSpot, error) {
	f, _, err := spotGame(g, b)
	if err != nil {
		return b, err
	}
	if len(b.moves) == 0 && !forecasts {
		a, next, found, err := games.FindOnLine(g, b.Spot, text)
		switch {
		case err != nil:
			return b, err
		case found:
			return boardSpot{Spot: next, flip: b.flip}, nil
		}
		b.moves = []string{a.String()}
		return b, nil
	}
	a, err := f.Notation().ParseInput(text)
	if err == nil {
		err = f.Play(a)
	}
	if err != nil {
		return b, errs.Of(err)
	}
	if len(b.moves) >= maxPageMoves {
		return b, kit.Invalidf("A line kept in the page holds %d plies at most: take a seat to keep longer ones.", maxPageMoves)
	}
	b.moves = append(b.moves, a.String())
	return b, nil
}

// promoteLine promotes the variation line= names (POST
// /g/{id}/lines/promote) and answers with the board at the same position.
func (p *browse) promoteLine(c echo.Context) error {
	return p.editLine(c, func(id string, b boardSpot) (boardSpot, error) {
		parent, err := p.s.games.PromoteVariation(c.Request().Context(), id, kit.Player(c), b.Line)
		last := b.Line[len(b.Line)-1]
		return boardSpot{Spot: games.Spot{Line: parent, N: last.After + b.N}}, err
	})
}

// deleteLine deletes the variation line= names (POST /g/{id}/lines/delete)
// and answers with the board where it branched.
func (p *browse) deleteLine(c echo.Context) error {
	return p.editLine(c, func(id string, b boardSpot) (boardSpot, error) {
		err := p.s.games.DeleteVariation(c.Request().Context(), id, kit.Player(c), b.Line)
		last := b.Line[len(b.Line)-1]
		return boardSpot{Spot: games.Spot{Line: b.Line[:len(b.Line)-1], N: last.After}}, err
	})
}

// editLine reads the variation a form names and edits it by edit, then
// answers with the board where edit says.
func (p *browse) editLine(c echo.Context, edit func(id string, b boardSpot) (boardSpot, error)) error {
	if _, err := p.core.options(c); err != nil {
		return err
	}
	id := c.Param("id")
	line, err := parseLine(c.Request().Form.Get("line"))
	if err == nil && len(line) == 0 {
		err = kit.Invalidf("Name the variation: the main line is neither promoted nor deleted here.")
	}
	if err != nil {
		return p.lineRefused(c, id, err)
	}
	start := 0
	if err := p.s.games.View(c.Request().Context(), id, kit.Player(c), func(rec *games.Record, _ games.Seats) { start = rec.Game.StartPly() }); err != nil {
		return err
	}
	at, _ := strconv.Atoi(c.Request().Form.Get("at"))
	to, err := edit(id, boardSpot{Spot: games.Spot{Line: line, N: max(0, at)}})
	if err != nil {
		return p.lineRefused(c, id, err)
	}
	to.flip = c.Request().Form.Get("flip") == "1"
	return c.Redirect(http.StatusSeeOther, boardURL(id, start, to, 0))
}

// lineRefused answers a refused form of the analysis board: the board
// again, at the spot the form names, with the refusal in its list; a
// refusal that leaves no board to show (no such game or line) has its
// error page.
func (p *browse) lineRefused(c echo.Context, id string, err error) error {
	if !kit.ShowAgain(err) {
		return err
	}
	return p.analyseGame(c, id, false, kit.ErrorOf(err))
}
