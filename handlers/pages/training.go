package pages

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// trainingRoutes adds /training: the next puzzle near the browser's
// rating (of a theme: /training/{theme}), every puzzle at /training/{id},
// the result of an attempt and its solution step by step.
func (p *trainer) trainingRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/training", p.nextPuzzle)
	get("/training/:key", p.puzzleOrTheme)
	get("/training/:key/result", p.onPuzzle(p.puzzleResult))
	e.POST("/training/:key/select", p.onPuzzle(p.selectInPuzzle))
	e.POST("/training/:key/play", p.onPuzzle(p.playPuzzle))
}

// nextPuzzle sends the browser to the puzzle nearest its rating that it
// has not tried, of the theme the path names ("" for any).
func (p *trainer) nextPuzzle(c echo.Context) error { return p.nextOf(c, "") }

func (p *trainer) nextOf(c echo.Context, t puzzles.Theme) error {
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	pz, err := p.s.training.Next(c.Request().Context(), id, t)
	if err != nil {
		return kit.Titled("No puzzle", err)
	}
	return c.Redirect(http.StatusSeeOther, views.TrainingPath(pz.ID, "theme", string(t)))
}

// puzzleOrTheme serves /training/{key}: a theme's next puzzle, or the
// puzzle with that id.
func (p *trainer) puzzleOrTheme(c echo.Context) error {
	if t := puzzles.Theme(c.Param("key")); t.Known() {
		return p.nextOf(c, t)
	}
	return p.onPuzzle(p.puzzlePage)(c)
}

// puzzleAt is a puzzle a request is about, the moment of its solution
// shown (the plies played into it), the theme trained and the view
// choices the request carries.
type puzzleAt struct {
	pz    training.Puzzle
	at    int
	theme puzzles.Theme
	o     views.Options
}

// onPuzzle serves a request on the puzzle its path names, as onGame does
// a game's: a refusal shows the puzzle again with its message.
func (p *trainer) onPuzzle(h func(c echo.Context, at *puzzleAt) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		pz, err := p.s.training.Puzzle(c.Request().Context(), c.Param("key"))
		if err != nil {
			return kit.Titled("No such puzzle", err)
		}
		at := &puzzleAt{pz: pz}
		at.o, err = p.core.options(c)
		if err == nil {
			at.theme, err = training.ParseTheme(c.Request().Form.Get("theme"))
		}
		if err == nil {
			err = h(c, at)
		}
		if err == nil {
			return nil
		}
		switch kit.ErrorOf(err).Code {
		case errs.Timeout, errs.TooMany, errs.Unavailable, errs.Internal:
			return err
		}
		return kit.Shown(err, func(status int, e *errs.Error) error {
			at.o.Error = e.Msg
			if e.Detail == training.BadStep { // a moment not the solver's: from the start
				at.at = 0
			}
			return p.showPuzzle(c, at, status)
		})
	}
}

// puzzlePage shows the puzzle at a moment of its solution (?at=, from 0),
// with a square picked (?sel=, ?to= for a promotion).
func (p *trainer) puzzlePage(c echo.Context, at *puzzleAt) error {
	var err error
	if at.at, err = momentOf(c.QueryParam("at")); err != nil {
		return err
	}
	if at.o.Sel, err = square(c, "sel", true); err != nil {
		return err
	}
	if at.o.PromoTo, err = square(c, "to", true); err != nil {
		return err
	}
	return p.showPuzzle(c, at, http.StatusOK)
}

// momentOf reads a moment of a solution: plies from its start.
func momentOf(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 64 {
		return 0, kit.Invalidf("%q is not a moment of the puzzle: give the plies played into its solution, from 0.", kit.TrimText(v))
	}
	return n, nil
}

// formMoment is the moment a board's form was made at: its ply field
// less the puzzle's first ply.
func formMoment(c echo.Context, pz training.Puzzle) (int, error) {
	ply, err := seenPly(c)
	if err != nil {
		return 0, err
	}
	g, err := pz.Start()
	if err != nil {
		return 0, errs.Internalf(err, "puzzle %s", pz.ID)
	}
	if ply == 0 {
		return 0, nil
	}
	return ply - g.Ply(), nil
}

// selectInPuzzle picks a square (the no-JavaScript way).
func (p *trainer) selectInPuzzle(c echo.Context, at *puzzleAt) error {
	var err error
	if at.at, err = formMoment(c, at.pz); err != nil {
		return err
	}
	return pick(c, &at.o, func() error { return p.showPuzzle(c, at, http.StatusOK) }, func() error {
		return c.Redirect(http.StatusSeeOther, at.url("sel", squareName(at.o.Sel)))
	})
}

// url is the puzzle's address at the request's moment and theme, with
// query pairs.
func (at *puzzleAt) url(query ...string) string {
	q := []string{"at", "", "theme", string(at.theme)}
	if at.at > 0 {
		q[1] = strconv.Itoa(at.at)
	}
	return views.TrainingPath(at.pz.ID, append(q, query...)...)
}

// resultURL is the address of the result of the browser's last attempt.
func (at *puzzleAt) resultURL(query ...string) string {
	return "/training/" + at.pz.ID + "/result" + views.Query(append([]string{"theme", string(at.theme)}, query...)...)
}

// playPuzzle judges the solver's action: a right one that does not end
// the puzzle moves on to the solver's next moment (the replies played,
// with scripts after a pause), an attempt that ends (solved, or a wrong
// action) is kept and rated and its result shown.
func (p *trainer) playPuzzle(c echo.Context, at *puzzleAt) error {
	var err error
	if at.at, err = formMoment(c, at.pz); err != nil {
		return err
	}
	in, err := p.core.boardInput(c)
	if err != nil {
		return err
	}
	id, err := p.s.kit.EnsureLearner(c)
	if err != nil {
		return err
	}
	res, err := p.s.training.Play(c.Request().Context(), id, at.pz.ID, at.at, in)
	if in.Text == "" && games.IsPromotionNeeded(err) {
		at.o.Sel, at.o.PromoTo = in.From, in.To
		if kit.IsHX(c) {
			return p.showPuzzle(c, at, http.StatusOK)
		}
		return c.Redirect(http.StatusSeeOther, at.url("sel", in.From.String(), "to", in.To.String()))
	}
	if err != nil {
		return err
	}
	if res.Done() {
		if !kit.IsHX(c) {
			return c.Redirect(http.StatusSeeOther, at.resultURL())
		}
		c.Response().Header().Set("HX-Push-Url", at.resultURL())
		return p.puzzleResult(c, at)
	}
	next := &puzzleAt{pz: at.pz, at: res.Next, theme: at.theme}
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, next.url())
	}
	c.Response().Header().Set("HX-Push-Url", next.url())
	if next.at == at.at+1 { // the solver acts again: a ban after its move
		next.o = at.o
		return p.showPuzzle(c, next, http.StatusOK)
	}
	at.at++ // the moment after the solver's action, before the replies
	return p.renderPuzzle(c, at, next.url(), http.StatusOK)
}

// showPuzzle renders the puzzle at its moment.
func (p *trainer) showPuzzle(c echo.Context, at *puzzleAt, status int) error {
	return p.renderPuzzle(c, at, "", status)
}

// renderPuzzle renders the puzzle at its moment: the solver's to act
// (its board live), or — after a right action, pending set — the moment
// before the replies, which a page with scripts moves on from by itself.
// A moment past the solver's last leads to the result.
func (p *trainer) renderPuzzle(c echo.Context, at *puzzleAt, pending string, status int) error {
	g, line, err := p.replay(at.pz, at.at)
	if err != nil {
		return err
	}
	m, err := p.trainer(c, at)
	if err != nil {
		return err
	}
	solverActs := at.at < len(line) && g.Turn().Actor == at.pz.Solver
	if !solverActs && pending == "" {
		// A moment of the replies, or past the solution: on to the
		// solver's next moment, or the result.
		for at.at < len(line) && g.Turn().Actor != at.pz.Solver {
			if err := g.Play(line[at.at]); err != nil {
				return errs.Internalf(err, "puzzle %s", at.pz.ID)
			}
			at.at++
		}
		if at.at >= len(line) {
			return c.Redirect(http.StatusSeeOther, at.resultURL())
		}
		return c.Redirect(http.StatusSeeOther, at.url())
	}
	m.Prompt = views.PuzzlePrompt(g.Turn())
	m.Replied = replied(at.pz, line, at.at)
	m.Pending = pending
	m.Board = views.NewDrill(g, at.pz.Solver, solverActs, p.s.site(c), at.o, puzzlePaths(at), waitHint(pending))
	if kit.IsHX(c) {
		return render(c, status, views.TrainerMain(m))
	}
	return render(c, status, views.TrainerPage(m))
}

// waitHint is the hint while the replies are pending: what the page does.
func waitHint(pending string) string {
	if pending == "" {
		return ""
	}
	return "Right! The reply comes…"
}

// puzzlePaths are the addresses the puzzle's board posts to.
func puzzlePaths(at *puzzleAt) views.Paths {
	base := "/training/" + at.pz.ID
	q := views.Query("theme", string(at.theme))
	return views.Paths{Select: templ.SafeURL(base + "/select" + q), Ply: templ.SafeURL(base + "/play" + q), Page: templ.SafeURL(at.url())}
}

// replay plays the first n plies of the puzzle's solution.
func (p *trainer) replay(pz training.Puzzle, n int) (*rules.Game, []rules.Action, error) {
	g, err := pz.Start()
	if err != nil {
		return nil, nil, errs.Internalf(err, "puzzle %s", pz.ID)
	}
	line, err := pz.Line()
	if err != nil {
		return nil, nil, errs.Internalf(err, "puzzle %s", pz.ID)
	}
	if n > len(line) {
		return nil, nil, kit.Invalidf("This puzzle's solution has %d plies.", len(line))
	}
	for _, a := range line[:n] {
		if err := g.Play(a); err != nil {
			return nil, nil, errs.Internalf(err, "puzzle %s", pz.ID)
		}
	}
	return g, line, nil
}

// replied says, at moment n, what the solver's last action was and what
// the opponent replied since: "Right: Ra8+. Black replied Kh7, then
// banned a1a2." ("" at the start).
func replied(pz training.Puzzle, line []rules.Action, n int) string {
	if n == 0 {
		return ""
	}
	g, err := pz.Start()
	if err != nil {
		return ""
	}
	var mine string
	var replies []string
	for _, a := range line[:n] {
		name := lessons.Name(g, a)
		if g.Turn().Actor == pz.Solver {
			mine, replies = name, nil
		} else {
			if a.Phase == rules.PhaseBan {
				name = "banned " + lessons.Pair(a.Pair())
			}
			replies = append(replies, name)
		}
		if g.Play(a) != nil {
			return ""
		}
	}
	return views.PuzzleReplied(mine, pz.Solver.Other(), replies)
}

// trainer is what every view of a puzzle shows besides its board: the
// viewer's rating, the themes (when trained), the way on.
func (p *trainer) trainer(c echo.Context, at *puzzleAt) (views.Trainer, error) {
	ctx := c.Request().Context()
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return views.Trainer{}, err
	}
	l, err := p.s.training.Learner(ctx, id)
	if err != nil {
		return views.Trainer{}, err
	}
	m := views.Trainer{ID: at.pz.ID, Solver: at.pz.Solver.Name(), Theme: string(at.theme), Rating: ratingText(l.Rating)}
	m.Next = "/training"
	if at.theme != "" {
		m.Next += "/" + string(at.theme)
		m.Themes = []string{string(at.theme)}
	}
	m.ThemeLinks = p.themeLinks(at.theme)
	return m, nil
}

// themeLinks are the themes to train, each with its count.
func (p *trainer) themeLinks(current puzzles.Theme) []views.ThemeLink {
	var out []views.ThemeLink
	for _, t := range puzzles.AllThemes() {
		if n := p.s.training.Count(t); n > 0 {
			out = append(out, views.ThemeLink{Name: string(t), URL: "/training/" + string(t), Count: n, Current: t == current})
		}
	}
	return out
}

// puzzleResult shows the result of the browser's last attempt at the
// puzzle, with the solution step by step (?at= the moment shown).
func (p *trainer) puzzleResult(c echo.Context, at *puzzleAt) error {
	ctx := c.Request().Context()
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	a, ok, err := p.s.training.LastAttempt(ctx, id, at.pz.ID)
	if err != nil {
		return err
	}
	if !ok {
		return c.Redirect(http.StatusSeeOther, at.url())
	}
	_, line, err := p.replay(at.pz, 0)
	if err != nil {
		return err
	}
	shown := failedMoment(at.pz, line, a)
	if v := c.QueryParam("at"); v != "" {
		if shown, err = momentOf(v); err != nil {
			return err
		}
	}
	g, _, err := p.replay(at.pz, min(shown, len(line)))
	if err != nil {
		return err
	}
	m, err := p.trainer(c, at)
	if err != nil {
		return err
	}
	m.Themes, m.PuzzleRating = puzzles.ThemeNames(at.pz.Themes), strconv.Itoa(int(math.Round(at.pz.Stats.Rating.Rating)))
	m.Retry = views.TrainingPath(at.pz.ID, "theme", string(at.theme))
	m.Result = resultOf(at, a, line, shown)
	at.o.Sel, at.o.PromoTo = rules.NoSquare, rules.NoSquare
	m.Board = views.NewDrill(g, at.pz.Solver, false, p.s.site(c), at.o, puzzlePaths(at), m.Result.Caption)
	if kit.IsHX(c) {
		return render(c, http.StatusOK, views.TrainerMain(m))
	}
	return render(c, http.StatusOK, views.TrainerPage(m))
}

// failedMoment is where an attempt went wrong: the moment of its wrong
// action, or the end of the solution once solved.
func failedMoment(pz training.Puzzle, line []rules.Action, a training.Attempt) int {
	if a.Solved {
		return len(line)
	}
	g, err := pz.Start()
	if err != nil {
		return 0
	}
	mine := 0
	for i, act := range line {
		if g.Turn().Actor == pz.Solver {
			if mine == a.FailedAt {
				return i
			}
			mine++
		}
		if g.Play(act) != nil {
			return i
		}
	}
	return len(line)
}

// resultOf describes attempt a for its page, the solution shown at
// moment shown.
func resultOf(at *puzzleAt, a training.Attempt, line []rules.Action, shown int) *views.TrainerResult {
	r := &views.TrainerResult{Solved: a.Solved, Text: a.Reason, Rated: a.Rated,
		Before: ratingText(a.Before), After: ratingText(a.After), Change: views.RatingChange(a.After.Rating - a.Before.Rating)}
	if a.Solved {
		r.Text = views.SolvedText(len(a.Actions))
	}
	base := &puzzleAt{pz: at.pz, theme: at.theme}
	r.Start = base.resultURL("at", "0")
	g, err := at.pz.Start()
	if err != nil {
		return r
	}
	r.Caption = views.SolutionCaption(0, "", len(line))
	for i, act := range line {
		mine := g.Turn().Actor == at.pz.Solver
		name := lessons.Name(g, act)
		if act.Phase == rules.PhaseBan {
			name = "⊘ " + lessons.Pair(act.Pair())
		}
		if g.Play(act) != nil {
			break
		}
		r.Steps = append(r.Steps, views.SolutionStep{Text: name, URL: base.resultURL("at", strconv.Itoa(i+1)), Mine: mine, Current: i+1 == shown})
		if i+1 == shown {
			r.Caption = views.SolutionCaption(i+1, name, len(line))
		}
	}
	return r
}

// dailyPuzzle is the puzzle of the day as a game's page links to it; nil
// without training, or when it cannot be read (logged).
func (s *deps) dailyPuzzle(ctx context.Context) *views.DailyPuzzle {
	if s.training == nil {
		return nil
	}
	pz, err := s.training.Daily(ctx)
	if err != nil {
		if errs.Of(err).Code != errs.NotFound {
			s.log.ErrorContext(ctx, "the puzzle of the day", "err", err)
		}
		return nil
	}
	placement, _, _ := strings.Cut(pz.FEN, " ")
	return &views.DailyPuzzle{URL: views.TrainingPath(pz.ID), Placement: placement, Solver: pz.Solver.Name(),
		Rating: fmt.Sprint(int(math.Round(pz.Stats.Rating.Rating)))}
}
