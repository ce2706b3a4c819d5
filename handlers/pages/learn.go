package pages

import (
	"net/http"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// learnRoutes adds /learn: the lessons, each step a page whose board
// posts the learner's answer (a plain form without JavaScript).
func (p *trainer) learnRoutes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc) { e.Match([]string{http.MethodGet, http.MethodHead}, path, h) }
	get("/learn", p.learn)
	get("/learn/:lesson", p.lesson)
	get("/learn/:lesson/:step", p.onStep(p.lessonStep))
	e.POST("/learn/:lesson/:step/select", p.onStep(p.selectInStep))
	e.POST("/learn/:lesson/:step", p.onStep(p.answerStep))
}

// learn lists the lessons with the browser's progress.
func (p *trainer) learn(c echo.Context) error {
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	l, course, err := p.s.training.Course(c.Request().Context(), id)
	if err != nil {
		return err
	}
	list := views.LessonList{Site: p.s.site(c), Rating: ratingText(l.Rating)}
	for _, pr := range course {
		ls := pr.Lesson
		list.Lessons = append(list.Lessons, views.LessonLink{
			URL: views.LearnPath(ls.ID, -1), Title: ls.Title, Summary: ls.Summary,
			Done: pr.Done, Steps: len(ls.Steps),
		})
	}
	return render(c, http.StatusOK, views.LearnPage(list))
}

// lesson sends the browser to the step of the lesson it takes up (see
// training.Service.Resume).
func (p *trainer) lesson(c echo.Context) error {
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	ls, n, err := p.s.training.Resume(c.Request().Context(), id, c.Param("lesson"))
	if err != nil {
		if errs.Of(err).Detail == training.NoLesson {
			return kit.Titled(languageOf(c).T("lesson.noSuch"), err)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, views.LearnPath(ls.ID, n))
}

// stepAt is a lesson step a request is about, and the view choices it
// carries.
type stepAt struct {
	lesson lessons.Lesson
	n      int // from 0
	o      views.Options
}

// onStep serves a request on the lesson step its path names (1-based),
// as onGame does a game's: a refusal shows the step again with its
// message, at the refusal's status; a step that is not there gets its
// error page.
func (p *trainer) onStep(h func(c echo.Context, at *stepAt) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		n, err := strconv.Atoi(c.Param("step"))
		if err != nil || n < 1 {
			return kit.Titled(languageOf(c).T("lesson.noSuch"), &errs.Error{Code: errs.NotFound, Detail: training.NoLesson, Msg: "Steps are numbered from 1."})
		}
		at := &stepAt{n: n - 1}
		if at.lesson, err = p.s.training.Lesson(c.Param("lesson"), at.n); err != nil {
			return kit.Titled(languageOf(c).T("lesson.noSuch"), err)
		}
		if at.o, err = p.core.options(c); err == nil {
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
			return p.showStep(c, at, status)
		})
	}
}

// lessonStep shows a step: to be answered, or (played, in BCN) with the
// judgement of that answer.
func (p *trainer) lessonStep(c echo.Context, at *stepAt) error {
	var err error
	if at.o.Sel, err = square(c, "sel", true); err != nil {
		return err
	}
	if at.o.PromoTo, err = square(c, "to", true); err != nil {
		return err
	}
	text := c.QueryParam("played")
	if text == "" {
		return p.showStep(c, at, http.StatusOK)
	}
	a, err := rules.ParseAction(text)
	if err != nil {
		return kit.Invalidf("%q is not an action.", kit.TrimText(text))
	}
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	st, err := p.s.training.Answered(c.Request().Context(), id, at.lesson.ID, at.n, a)
	if err != nil {
		return err
	}
	return p.renderStep(c, at, st, http.StatusOK)
}

// selectInStep picks a square on the step's board (the no-JavaScript
// way), as a game's board does.
func (p *trainer) selectInStep(c echo.Context, at *stepAt) error {
	return pick(c, &at.o, func() error { return p.showStep(c, at, http.StatusOK) }, func() error {
		return c.Redirect(http.StatusSeeOther, stepURL(at, "sel", squareName(at.o.Sel)))
	})
}

// answerStep judges the learner's answer and keeps a right one as the
// browser's progress; the page then shows the judgement.
func (p *trainer) answerStep(c echo.Context, at *stepAt) error {
	in, err := p.core.boardInput(c)
	if err != nil {
		return err
	}
	id, err := p.s.kit.EnsureLearner(c)
	if err != nil {
		return err
	}
	st, err := p.s.training.TryStep(c.Request().Context(), id, at.lesson.ID, at.n, in)
	if in.Text == "" && games.IsPromotionNeeded(err) {
		at.o.Sel, at.o.PromoTo = in.From, in.To
		if kit.IsHX(c) {
			return p.showStep(c, at, http.StatusOK)
		}
		return c.Redirect(http.StatusSeeOther, stepURL(at, "sel", in.From.String(), "to", in.To.String()))
	}
	if err != nil {
		return err
	}
	played := stepURL(at, "played", st.Answer.String())
	if !kit.IsHX(c) {
		return c.Redirect(http.StatusSeeOther, played)
	}
	c.Response().Header().Set("HX-Push-Url", played)
	return p.renderStep(c, at, st, http.StatusOK)
}

// stepURL is the address of the step with query pairs.
func stepURL(at *stepAt, query ...string) string {
	return views.LearnPath(at.lesson.ID, at.n) + views.Query(query...)
}

// squareName is a square's name, "" for none.
func squareName(s rules.Square) string {
	if s.Valid() {
		return s.String()
	}
	return ""
}

// showStep renders the step, to be answered.
func (p *trainer) showStep(c echo.Context, at *stepAt, status int) error {
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	st, err := p.s.training.Step(c.Request().Context(), id, at.lesson.ID, at.n)
	if err != nil {
		return err
	}
	return p.renderStep(c, at, st, status)
}

// renderStep renders step st: its board to answer on or, after a right
// answer, the position it led to, with the feedback.
func (p *trainer) renderStep(c echo.Context, at *stepAt, st training.Step, status int) error {
	ls := st.Lesson
	here := views.LearnPath(ls.ID, st.N)
	paths := views.Paths{Select: templ.SafeURL(here + "/select"), Ply: templ.SafeURL(here), Page: templ.SafeURL(here)}
	m := views.LessonStep{Lesson: ls.Title, Summary: ls.Summary, Index: st.N, Prompt: ls.Steps[st.N].Prompt}
	for i, done := range st.Done {
		m.Steps = append(m.Steps, views.StepLink{URL: views.LearnPath(ls.ID, i), Done: done, Current: i == st.N})
	}
	switch v := st.Verdict; {
	case v != nil && v.Right:
		m.Feedback = &views.Feedback{Right: true, Played: v.Played, Text: v.Text}
		m.Board = views.NewDrill(st.Game, st.Side, false, p.s.site(c), at.o, paths, at.o.Lang.T("lesson.wellDone"))
		m.Retry = here
		m.Next, m.Last = "/learn", true
		if next := st.Next(); next >= 0 {
			m.Next, m.Last = views.LearnPath(ls.ID, next), false
		}
	case v != nil:
		m.Feedback = &views.Feedback{Played: v.Played, Text: v.Text}
		fallthrough
	default:
		m.Board = views.NewDrill(st.Game, st.Side, true, p.s.site(c), at.o, paths, "")
	}
	if kit.IsHX(c) {
		return render(c, status, views.LessonMain(m))
	}
	return render(c, status, views.LessonPage(m))
}
