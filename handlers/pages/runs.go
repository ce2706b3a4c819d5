package pages

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/a-h/templ"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// runPages are Puzzle Streak (/training/streak) and Puzzle Storm
// (/storm): a start page, each run's page at /…/{run} with the puzzle at
// hand, its board's forms, Streak's skip and Storm's end.
type runPages struct {
	s    *deps
	core *core
}

// runRoutes adds Streak's and Storm's pages.
func (p *runPages) runRoutes(e *echo.Echo, get func(string, echo.HandlerFunc)) {
	for _, k := range []training.RunKind{training.StreakRun, training.StormRun} {
		base := runBase(k)
		get(base, p.startPage(k))
		e.POST(base, p.start(k))
		get(base+"/:run", p.onRun(k, p.runPage))
		e.POST(base+"/:run/select", p.onRun(k, p.selectInRun))
		e.POST(base+"/:run/play", p.onRun(k, p.playRun))
	}
	e.POST(runBase(training.StreakRun)+"/:run/skip", p.onRun(training.StreakRun, p.skip))
	e.POST(runBase(training.StormRun)+"/:run/end", p.onRun(training.StormRun, p.end))
}

// runBase is the address of a kind's pages.
func runBase(k training.RunKind) string {
	if k == training.StormRun {
		return "/storm"
	}
	return "/training/streak"
}

// runAt is a request on a run: its kind, id, the moment of the puzzle
// at hand it names, and the view choices it carries.
type runAt struct {
	kind   training.RunKind
	id     string
	player string
	where  training.Where
	o      views.Options
	said   string // the last action was "right" or "wrong" ("": neither said)
}

// url is the run's page at moment n, with query pairs.
func (at *runAt) url(n int, query ...string) string {
	q := []string{"at", ""}
	if n > 0 {
		q[1] = strconv.Itoa(n)
	}
	return runBase(at.kind) + "/" + at.id + views.Query(append(q, query...)...)
}

// runState is a run as its pages show it, of either kind.
type runState struct {
	run       training.Run
	puzzle    *training.Puzzle
	bests     training.Bests
	remaining time.Duration
	won       bool
}

func streakState(s training.Streak) runState {
	return runState{run: s.Run, puzzle: s.Puzzle, bests: s.Bests, won: s.Won()}
}

func stormState(s training.Storm) runState {
	return runState{run: s.Run, puzzle: s.Puzzle, bests: s.Bests, remaining: s.Remaining}
}

// startPage shows how a run goes, the viewer's bests and a button to
// start one.
func (p *runPages) startPage(k training.RunKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		o, err := p.core.options(c)
		if err != nil {
			return err
		}
		id, err := p.s.kit.Learner(c)
		if err != nil {
			return err
		}
		b, err := p.s.training.Runs().Bests(c.Request().Context(), id, k)
		if err != nil {
			return err
		}
		v := p.view(k, o, runState{bests: b})
		return p.render(c, v, http.StatusOK)
	}
}

// start starts a run for the browser (a learner's cookie set if it had
// none) and sends it to the run's page.
func (p *runPages) start(k training.RunKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := p.s.kit.EnsureLearner(c)
		if err != nil {
			return err
		}
		r, err := p.s.training.Runs().Start(c.Request().Context(), id, k)
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, runBase(k)+"/"+r.ID)
	}
}

// onRun serves a request on the browser's run its path names: a refusal
// shows the run again with its message.
func (p *runPages) onRun(k training.RunKind, h func(c echo.Context, at *runAt) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		at := &runAt{kind: k, id: c.Param("run")}
		var err error
		if at.o, err = p.core.options(c); err != nil {
			return err
		}
		if at.player, err = p.s.kit.Learner(c); err != nil {
			return err
		}
		if _, err := p.state(c, at); err != nil {
			return kit.Titled(languageOf(c).T("error.title.noRun"), err)
		}
		err = h(c, at)
		if err == nil || !kit.ShowAgain(err) {
			return err
		}
		return kit.Shown(err, func(status int, e *errs.Error) error {
			at.o.Error = e.Msg
			if e.Detail == training.BadStep || e.Detail == training.MovedOn { // from the puzzle at hand's start
				at.where = training.Where{}
			}
			return p.show(c, at, status)
		})
	}
}

// state reads the run at names.
func (p *runPages) state(c echo.Context, at *runAt) (runState, error) {
	rs, ctx := p.s.training.Runs(), c.Request().Context()
	if at.kind == training.StormRun {
		s, err := rs.Storm(ctx, at.player, at.id)
		return stormState(s), err
	}
	s, err := rs.Streak(ctx, at.player, at.id)
	return streakState(s), err
}

// runPage shows the run at the puzzle at hand's moment ?at= (from 0),
// with a square picked (?sel=, ?to= for a promotion).
func (p *runPages) runPage(c echo.Context, at *runAt) error {
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
	switch c.QueryParam("last") {
	case "right", "wrong":
		at.said = c.QueryParam("last")
	}
	return p.show(c, at, http.StatusOK)
}

// selectInRun picks a square (the no-JavaScript way).
func (p *runPages) selectInRun(c echo.Context, at *runAt) error {
	ply, err := seenPly(c)
	if err != nil {
		return err
	}
	at.where = training.Where{Ply: ply}
	return pick(c, &at.o, func() error { return p.show(c, at, http.StatusOK) }, func() error {
		st, err := p.state(c, at)
		if err != nil || st.puzzle == nil {
			return err
		}
		n, err := p.s.training.MomentOf(st.puzzle.ID, at.where)
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, at.url(n, "sel", squareName(at.o.Sel), "to", squareName(at.o.PromoTo)))
	})
}

// playRun judges an action at the puzzle at hand: right and unfinished,
// on to the solver's next moment; solved, the next puzzle; wrong, the
// streak ends, the storm goes on to the next puzzle.
func (p *runPages) playRun(c echo.Context, at *runAt) error {
	in, err := p.core.boardInput(c)
	if err != nil {
		return err
	}
	at.where = training.Where{Ply: in.Ply}
	rs, ctx := p.s.training.Runs(), c.Request().Context()
	var j training.Judged
	if at.kind == training.StormRun {
		var sp training.StormPlayed
		sp, err = rs.StormPlay(ctx, at.player, at.id, c.QueryParam("p"), in)
		j = sp.Judged
	} else {
		var sp training.StreakPlayed
		sp, err = rs.StreakPlay(ctx, at.player, at.id, c.QueryParam("p"), in)
		j = sp.Judged
	}
	if in.Text == "" && games.IsPromotionNeeded(err) {
		at.o.Sel, at.o.PromoTo = in.From, in.To
		if kit.IsHX(c) {
			return p.show(c, at, http.StatusOK)
		}
		return c.Redirect(http.StatusSeeOther, at.url(0, "sel", squareName(in.From), "to", squareName(in.To)))
	}
	if err != nil {
		return err
	}
	said := "right"
	if !j.Verdict.Correct {
		said = "wrong"
	}
	return p.moveOn(c, at, max(j.Next, 0), said)
}

// moveOn sends the browser to the run at moment n after an action,
// saying what the action was (said: "right", "wrong" or "") (for htmx,
// the page there, its address pushed).
func (p *runPages) moveOn(c echo.Context, at *runAt, n int, said string) error {
	u := at.url(n, "last", said)
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, u)
	}
	c.Response().Header().Set("HX-Push-Url", u)
	at.where, at.said = training.Where{Moment: n}, said
	at.o.Sel, at.o.PromoTo = views.NoSelection().Sel, views.NoSelection().PromoTo
	return p.show(c, at, http.StatusOK)
}

// skip skips the streak's puzzle at hand (once a run).
func (p *runPages) skip(c echo.Context, at *runAt) error {
	if _, err := p.s.training.Runs().StreakSkip(c.Request().Context(), at.player, at.id); err != nil {
		return err
	}
	return p.moveOn(c, at, 0, "")
}

// end ends the storm (the clock ran out on the page, or the player
// stopped).
func (p *runPages) end(c echo.Context, at *runAt) error {
	if _, err := p.s.training.Runs().StormEnd(c.Request().Context(), at.player, at.id); err != nil {
		return err
	}
	return p.moveOn(c, at, 0, "")
}

// show renders the run: its puzzle at hand at the request's moment when
// the solver acts there (from a moment of the replies, on to the
// solver's next), or the run over.
func (p *runPages) show(c echo.Context, at *runAt, status int) error {
	st, err := p.state(c, at)
	if err != nil {
		return err
	}
	v := p.view(at.kind, at.o, st)
	v.InRun, v.Right, v.Wrong = true, at.said == "right", at.said == "wrong"
	v.Start = runBase(at.kind)
	if at.kind == training.StreakRun && !st.run.Skipped {
		v.Skip = runBase(at.kind) + "/" + at.id + "/skip"
	}
	if at.kind == training.StormRun {
		v.End = runBase(at.kind) + "/" + at.id + "/end"
	}
	if st.puzzle == nil {
		if last := st.run.Pos; at.kind == training.StreakRun && st.run.Over && last < len(p.s.training.Runs().Puzzles(st.run)) {
			v.Last = views.TrainingPath(p.s.training.Runs().Puzzles(st.run)[last].ID)
		}
		return p.render(c, v, status)
	}
	m, err := p.s.training.Look(c.Request().Context(), "", st.puzzle.ID, at.where)
	if err != nil {
		return err
	}
	if !m.SolverActs() {
		if m.Ahead >= m.Length { // past the solution: the page of the run as it stands
			m, err = p.s.training.Look(c.Request().Context(), "", st.puzzle.ID, training.Where{})
		} else {
			m, err = p.s.training.Look(c.Request().Context(), "", st.puzzle.ID, training.Where{Moment: m.Ahead})
		}
		if err != nil {
			return err
		}
	}
	v.Prompt, v.Goal = views.PuzzlePrompt(at.o.Lang, m.Game.Turn()), views.PuzzleGoal(at.o.Lang, m.Kind)
	base := runBase(at.kind) + "/" + at.id
	// The board's forms name the puzzle they were made at: one sent again
	// after the run moved on is refused, not judged at the next puzzle.
	q := views.Query("p", st.puzzle.ID)
	paths := views.Paths{Select: templ.SafeURL(base + "/select" + q), Ply: templ.SafeURL(base + "/play" + q), Page: templ.SafeURL(at.url(m.At))}
	b := views.NewDrill(m.Game, m.Solver, m.SolverActs(), p.s.site(c), at.o, paths, "")
	v.Board, v.PuzzleID = &b, st.puzzle.ID
	return p.render(c, v, status)
}

// view is what every page of a run of kind shows.
func (p *runPages) view(k training.RunKind, o views.Options, st runState) views.Run {
	v := views.Run{Kind: string(k), Asset: p.s.asset, Over: st.run.Over, Score: st.run.Score, Best: st.bests.Best, Today: st.bests.Today,
		Combo: st.run.Combo, RemainingMS: st.remaining.Milliseconds(), Start: runBase(k), Error: o.Error, Won: st.won}
	if k == training.StormRun {
		v.Title, v.Rules = o.Lang.T("storm.title"), o.Lang.T("storm.rules")
	} else {
		v.Title, v.Rules = o.Lang.T("streak.title"), o.Lang.T("streak.rules")
	}
	return v
}

// render renders a run's page: for htmx its main element.
func (p *runPages) render(c echo.Context, v views.Run, status int) error {
	if kit.IsHX(c) {
		return render(c, status, views.RunMain(v))
	}
	return render(c, status, views.RunPage(v))
}
