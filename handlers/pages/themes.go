package pages

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/training"
	"github.com/banchess/banchess/views"
)

// DifficultyCookie keeps the browser's choice of puzzle difficulty
// (training.Difficulty), which choosing the next puzzle applies.
const DifficultyCookie = "puzzle_difficulty"

// themePages are the themes page (/training/themes): every theme with
// its puzzles and the viewer's results, and the difficulty of the next
// puzzle.
type themePages struct {
	s    *deps
	core *core
}

// themeRoutes adds the themes page and the difficulty's form.
func (p *themePages) themeRoutes(e *echo.Echo, get func(string, echo.HandlerFunc)) {
	get("/training/themes", p.themesPage)
	e.POST("/training/difficulty", p.chooseDifficulty)
}

// difficultyOf is the browser's difficulty (Normal when its cookie says
// none, or nothing known).
func difficultyOf(c echo.Context) training.Difficulty {
	ck, err := c.Cookie(DifficultyCookie)
	if err != nil {
		return training.Normal
	}
	d, err := training.ParseDifficulty(ck.Value)
	if err != nil {
		return training.Normal
	}
	return d
}

// themesPage lists the themes with the viewer's results, and the
// difficulty form.
func (p *themePages) themesPage(c echo.Context) error {
	o, err := p.core.options(c)
	if err != nil {
		return err
	}
	id, err := p.s.kit.Learner(c)
	if err != nil {
		return err
	}
	ts, err := p.s.training.Themes(c.Request().Context(), id)
	if err != nil {
		return err
	}
	v := views.Themes{Asset: p.s.asset, Difficulty: string(difficultyOf(c))}
	for _, t := range ts {
		row := views.ThemeRow{Name: views.ThemeName(o.Lang, t.Theme), URL: "/training/" + string(t.Theme), Count: strconv.Itoa(t.Count),
			Tried: strconv.Itoa(t.Tried)}
		if t.Tried > 0 {
			row.Solved = o.Lang.T("themes.percent", "Percent", int(math.Round(100*t.SolvedShare())))
			row.Change = views.RatingChange(t.Change)
		}
		v.Rows = append(v.Rows, row)
	}
	for _, d := range training.Difficulties() {
		v.Choices = append(v.Choices, views.DifficultyChoice{Value: string(d), Label: difficultyLabel(o, d)})
	}
	return render(c, http.StatusOK, views.ThemesPage(v))
}

// difficultyLabel names a difficulty for people.
func difficultyLabel(o views.Options, d training.Difficulty) string {
	switch d {
	case training.Easier:
		return o.Lang.T("themes.easier", "Step", training.DifficultyStep)
	case training.Harder:
		return o.Lang.T("themes.harder", "Step", training.DifficultyStep)
	}
	return o.Lang.T("themes.normal")
}

// chooseDifficulty keeps the browser's difficulty and goes back to the
// themes page.
func (p *themePages) chooseDifficulty(c echo.Context) error {
	d, err := training.ParseDifficulty(c.FormValue("difficulty"))
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{
		Name:     DifficultyCookie,
		Value:    string(d),
		Path:     "/",
		MaxAge:   int((400 * 24 * time.Hour).Seconds()),
		Secure:   p.s.kit.Scheme(c) == "https",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
	})
	return c.Redirect(http.StatusSeeOther, "/training/themes")
}
