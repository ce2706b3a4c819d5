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
	"github.com/banchess/banchess/i18n"
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
	pz, err := p.s.training.NextAt(c.Request().Context(), id, t, difficultyOf(c))
	if err != nil {
		return kit.Titled(languageOf(c).T("train.noPuzzle"), err)
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

// puzzleAt is a request on a puzzle: its id, the moment of its solution
// it names, the theme trained and the view choices it carries.
type puzzleAt struct {
	id    string
	where training.Where
	theme puzzles.Theme
	o     views.Options
}

// onPuzzle serves a request on the puzzle its path names, as onGame does
// a game's: a refusal shows the puzzle again with its message.
func (p *trainer) onPuzzle(h func(c echo.Context, at *puzzleAt) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		at := &puzzleAt{id: c.Param("key")}
		if err := p.s.training.Known(at.id); err != nil {
			return kit.Titled(languageOf(c).T("train.noSuchPuzzle"), err)
		}
		var err error
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
		if !kit.ShowAgain(err) {
			return err
		}
		return kit.Shown(err, func(status int, e *errs.Error) error {
			at.o.Error = e.Msg
			if e.Detail == training.BadStep { // a moment not the solver's: from the start
				at.where = training.Where{}
			}
			return p.showPuzzle(c, at, status)
		})
	}
}

// puzzlePage shows the puzzle at a moment of its solution (?at=, from 0),
// with a square picked (?sel=, ?to= for a promotion).
func (p *trainer) puzzlePage(c echo.Context, at *puzzleAt) error {
	var err error
	if at.where.Moment, err = momentOf(c.QueryParam("at")); err != nil {
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

// selectInPuzzle picks a square (the no-JavaScript way) at the moment of
// the board's form.
func (p *trainer) selectInPuzzle(c echo.Context, at *puzzleAt) error {
	ply, err := seenPly(c)
	if err != nil {
		return err
	}
	at.where = training.Where{Ply: ply}
	return pick(c, &at.o, func() error { return p.showPuzzle(c, at, http.StatusOK) }, func() error { return p.sendTo(c, at) })
}

// sendTo redirects to the puzzle at the request's moment, with the square
// picked.
func (p *trainer) sendTo(c echo.Context, at *puzzleAt) error {
	n, err := p.s.training.MomentOf(at.id, at.where)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, at.url(n, "sel", squareName(at.o.Sel), "to", squareName(at.o.PromoTo)))
}

// url is the puzzle's address at moment n and the request's theme, with
// query pairs.
func (at *puzzleAt) url(n int, query ...string) string {
	q := []string{"at", "", "theme", string(at.theme)}
	if n > 0 {
		q[1] = strconv.Itoa(n)
	}
	return views.TrainingPath(at.id, append(q, query...)...)
}

// resultURL is the address of the result of the browser's last attempt.
func (at *puzzleAt) resultURL(query ...string) string {
	return "/training/" + at.id + "/result" + views.Query(append([]string{"theme", string(at.theme)}, query...)...)
}

// playPuzzle judges the solver's action: a right one that does not end
// the puzzle moves on to the solver's next moment (the replies played,
// with scripts after a pause), an attempt that ends (solved, or a wrong
// action) is kept and rated and its result shown.
func (p *trainer) playPuzzle(c echo.Context, at *puzzleAt) error {
	in, err := p.core.boardInput(c)
	if err != nil {
		return err
	}
	at.where = training.Where{Ply: in.Ply}
	id, err := p.s.kit.EnsureLearner(c)
	if err != nil {
		return err
	}
	res, err := p.s.training.Play(c.Request().Context(), id, at.id, in)
	if in.Text == "" && games.IsPromotionNeeded(err) {
		at.o.Sel, at.o.PromoTo = in.From, in.To
		if kit.IsHX(c) {
			return p.showPuzzle(c, at, http.StatusOK)
		}
		return p.sendTo(c, at)
	}
	if err != nil {
		return err
	}
	if r := res.Review; r != nil { // without scripts, the refutation at once; with them, after a pause
		if !kit.IsHX(c) {
			return c.Redirect(http.StatusSeeOther, at.resultURL())
		}
		c.Response().Header().Set("HX-Push-Url", at.resultURL())
		return p.renderResult(c, at, *r, false)
	}
	if res.Done() { // kept for no one: nothing to show
		return c.Redirect(http.StatusSeeOther, at.resultURL())
	}
	next := at.url(res.Next)
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, next)
	}
	c.Response().Header().Set("HX-Push-Url", next)
	pending := "" // the solver acts again: a ban after its move
	if !res.Moment.SolverActs() {
		pending = next // the replies come: the moment after the action, read-only, until they do
	}
	return p.renderPuzzle(c, at, *res.Moment, pending, http.StatusOK)
}

// showPuzzle renders the puzzle at the request's moment when the solver
// acts there; from a moment of the replies, or past the solution, it
// leads on to the solver's next moment, or the result.
func (p *trainer) showPuzzle(c echo.Context, at *puzzleAt, status int) error {
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	m, err := p.s.training.Look(c.Request().Context(), id, at.id, at.where)
	if err != nil {
		return err
	}
	switch {
	case m.SolverActs():
		return p.renderPuzzle(c, at, m, "", status)
	case m.Ahead >= m.Length:
		return c.Redirect(http.StatusSeeOther, at.resultURL())
	}
	return c.Redirect(http.StatusSeeOther, at.url(m.Ahead))
}

// renderPuzzle renders the puzzle at moment m: the solver's to act (its
// board live), or — after a right action, pending set — the moment
// before the replies, which a page with scripts moves on from by itself.
func (p *trainer) renderPuzzle(c echo.Context, at *puzzleAt, m training.Moment, pending string, status int) error {
	t := p.trainerOf(at, m.Solver, m.Learner)
	t.Prompt, t.Goal = views.PuzzlePrompt(at.o.Lang, m.Game.Turn()), views.PuzzleGoal(at.o.Lang, m.Kind)
	if mine, replies, ok := m.Replied(); ok {
		names := make([]string, len(replies))
		for i, r := range replies {
			names[i] = at.o.Lang.Say(r.Name())
			if r.Action.Phase == rules.PhaseBan {
				names[i] = at.o.Lang.T("puzzle.banned", "Pair", lessons.Pair(r.Action.Pair()))
			}
		}
		t.Replied = views.PuzzleReplied(at.o.Lang, at.o.Lang.Say(mine.Name()), m.Solver.Other(), names)
	}
	t.Pending = pending
	t.Board = views.NewDrill(m.Game, m.Solver, m.SolverActs(), p.s.site(c), at.o, puzzlePaths(at, m.At), waitHint(at.o.Lang, pending))
	return renderTrainer(c, t, status)
}

// renderTrainer renders a puzzle's page: for htmx its main element.
func renderTrainer(c echo.Context, t views.Trainer, status int) error {
	if kit.IsHX(c) {
		return render(c, status, views.TrainerMain(t))
	}
	return render(c, status, views.TrainerPage(t))
}

// waitHint is the hint while the replies are pending: what the page does.
func waitHint(l *i18n.Language, pending string) string {
	if pending == "" {
		return ""
	}
	return l.T("train.replyComes")
}

// puzzlePaths are the addresses the puzzle's board posts to, at moment n.
func puzzlePaths(at *puzzleAt, n int) views.Paths {
	base := "/training/" + at.id
	q := views.Query("theme", string(at.theme))
	return views.Paths{Select: templ.SafeURL(base + "/select" + q), Ply: templ.SafeURL(base + "/play" + q), Page: templ.SafeURL(at.url(n))}
}

// trainerOf is what every view of a puzzle shows besides its board: the
// viewer's rating, the themes (when trained), the way on.
func (p *trainer) trainerOf(at *puzzleAt, solver rules.Color, l training.Learner) views.Trainer {
	t := views.Trainer{ID: at.id, Solver: solver, Theme: string(at.theme), Rating: ratingText(l.Rating)}
	t.Next = "/training"
	if at.theme != "" {
		t.Next += "/" + string(at.theme)
		t.Themes = []string{views.ThemeName(at.o.Lang, at.theme)}
	}
	t.ThemeLinks = p.themeLinks(at.o.Lang, at.theme)
	return t
}

// themeLinks are the themes to train, each with its count.
func (p *trainer) themeLinks(l *i18n.Language, current puzzles.Theme) []views.ThemeLink {
	var out []views.ThemeLink
	for _, t := range puzzles.AllThemes() {
		if n := p.s.training.Count(t); n > 0 {
			out = append(out, views.ThemeLink{Name: views.ThemeName(l, t), URL: "/training/" + string(t), Count: n, Current: t == current})
		}
	}
	return out
}

// puzzleResult shows the result of the browser's last attempt at the
// puzzle: where it went wrong, with the wrong action and its refutation
// played (?line= as many plies of them), or the solution step by step
// (?at= the moment shown; solved, at its end).
func (p *trainer) puzzleResult(c echo.Context, at *puzzleAt) error {
	shown, line := -1, -1 // where the attempt went wrong, all of it played
	var err error
	if v := c.QueryParam("at"); v != "" {
		if shown, err = momentOf(v); err != nil {
			return err
		}
	}
	if v := c.QueryParam("line"); v != "" {
		if line, err = momentOf(v); err != nil {
			return err
		}
	}
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	r, ok, err := p.s.training.Review(c.Request().Context(), id, at.id, shown, line)
	if err != nil {
		return err
	}
	if !ok {
		return c.Redirect(http.StatusSeeOther, at.url(0))
	}
	return p.renderResult(c, at, r, shown >= 0)
}

// renderResult renders the review of an attempt, with the solution's
// steps when solution says so (see resultOf).
func (p *trainer) renderResult(c echo.Context, at *puzzleAt, r training.Review, solution bool) error {
	t := p.trainerOf(at, r.Solver, r.Learner)
	t.Themes, t.PuzzleRating = views.ThemeNamesOf(at.o.Lang, r.Themes), strconv.Itoa(int(math.Round(r.Stats.Rating.Rating)))
	t.Retry = views.TrainingPath(at.id, "theme", string(at.theme))
	t.Result = resultOf(at, r, solution)
	at.o.Sel, at.o.PromoTo = rules.NoSquare, rules.NoSquare
	t.Board = views.NewDrill(r.Game, r.Solver, false, p.s.site(c), at.o, puzzlePaths(at, 0), t.Result.Caption)
	// The attempt is over: nobody's turn, whatever the position shown.
	t.Board.Status, t.Board.Title, t.Board.Phase = views.ResultStatus(at.o.Lang, r.Attempt.Solved), t.Title(), "over"
	return renderTrainer(c, t, http.StatusOK)
}

// reasonText is a failed attempt's reason under "That's not the move!",
// in l: without the wrong action's name when the board shows that action
// (failure).
func reasonText(l *i18n.Language, a training.Attempt, failure []training.Ply) string {
	why := a.Why()
	if len(failure) > 0 {
		return l.Say(training.WhyNot(why))
	}
	if why.ID == "reason.notThis" {
		return l.T("reason.actionWhy", "Action", l.Say(why.Arg("Action").(i18n.Message)), "Why", l.Say(training.WhyNot(why)))
	}
	return strings.TrimPrefix(l.Say(why), "Not this: ") // kept in English before reasons were messages
}

// failureCaption says what the board shows of failure, the wrong action
// and its refutation, shown plies of it played.
func failureCaption(l *i18n.Language, failure []training.Ply, shown int, solver rules.Color) string {
	var bans []string
	answer := ""
	for _, pl := range failure[1:] {
		switch {
		case pl.Mine:
			bans = append(bans, lessons.Pair(pl.Action.Pair()))
		case pl.Action.Phase == rules.PhaseBan:
			answer = l.T("puzzle.ban", "Pair", lessons.Pair(pl.Action.Pair()))
		default:
			answer = l.WriteMove(pl.SAN) // the refutation, in the viewer's letters
		}
	}
	return views.FailureCaption(l, l.Say(failure[0].Name()), bans, answer, solver.Other(), shown < len(failure))
}

// resultOf describes the attempt r reviews for its page: a failed one
// where it went wrong, unless solution asks for the solution's steps
// (shown once solved).
func resultOf(at *puzzleAt, r training.Review, solution bool) *views.TrainerResult {
	a := r.Attempt
	out := &views.TrainerResult{Solved: a.Solved, Text: reasonText(at.o.Lang, a, r.Failure), Rated: a.Rated,
		Before: ratingText(a.Before), After: ratingText(a.After), Change: views.RatingChange(a.After.Rating - a.Before.Rating),
		ShowSteps: a.Solved || solution}
	if a.Solved {
		out.Text = views.SolvedText(at.o.Lang, len(a.Actions))
	}
	if !out.ShowSteps { // where it went wrong, the solution a click away
		out.ViewSolution = at.resultURL("at", strconv.Itoa(min(r.Failed+1, len(r.Steps))))
		out.Caption = at.o.Lang.T("puzzle.wentWrong")
		if len(r.Failure) > 0 {
			out.Caption = failureCaption(at.o.Lang, r.Failure, r.FailureShown, r.Solver)
		}
		if r.FailureShown < len(r.Failure) {
			out.Then = at.resultURL()
		}
		return out
	}
	out.Start = at.resultURL("at", "0")
	out.Caption = views.SolutionCaption(at.o.Lang, 0, "", len(r.Steps))
	for i, st := range r.Steps {
		name := at.o.Lang.Say(st.Name())
		if st.Action.Phase == rules.PhaseBan {
			name = "⊘ " + lessons.Pair(st.Action.Pair())
		}
		out.Steps = append(out.Steps, views.SolutionStep{Text: name, URL: at.resultURL("at", strconv.Itoa(i+1)), Mine: st.Mine, Current: i+1 == r.Shown})
		if i+1 == r.Shown {
			out.Caption = views.SolutionCaption(at.o.Lang, i+1, name, len(r.Steps))
		}
	}
	return out
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
	return &views.DailyPuzzle{URL: views.TrainingPath(pz.ID), Placement: placement, Solver: pz.Solver,
		Rating: fmt.Sprint(int(math.Round(pz.Stats.Rating.Rating)))}
}
