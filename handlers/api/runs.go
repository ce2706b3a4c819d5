package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/training"
)

// runsAPI is Puzzle Streak and Puzzle Storm for programs: a run is asked
// for (its puzzles in order, the server's start), solved off line and
// its results posted once, judged and timed by the server.
type runsAPI struct{ pz *puzzlesAPI }

// runRoutes are the runs' routes, when the server has training.
func (a *runsAPI) runRoutes() []apiEndpoint {
	if a.pz.s.training == nil {
		return nil
	}
	return []apiEndpoint{
		{http.MethodGet, "/puzzles/streak", a.startRun(training.StreakRun)},
		{http.MethodPost, "/puzzles/streak", a.streakResult},
		{http.MethodGet, "/storm", a.startRun(training.StormRun)},
		{http.MethodPost, "/storm", a.stormResult},
	}
}

// runJSON is a run as the API answers it: its id and puzzles in order
// (without solutions), the player's bests; for Storm its clock's rules.
type runJSON struct {
	ID      string       `json:"id"`
	Puzzles []puzzleJSON `json:"puzzles"`
	Best    int          `json:"best"`
	Today   *int         `json:"today,omitempty"`
	// Storm: the server's start (unix ms) and the clock's rules, in ms.
	Started int64 `json:"started,omitempty"`
	Time    int64 `json:"timeMs,omitempty"`
	Penalty int64 `json:"penaltyMs,omitempty"`
	Grace   int64 `json:"graceMs,omitempty"`
}

// startRun starts a run of kind for the request's player and answers it.
func (a *runsAPI) startRun(k training.RunKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := a.pz.apiLearner(c)
		if err != nil {
			return err
		}
		rs, ctx := a.pz.s.training.Runs(), c.Request().Context()
		r, err := rs.Start(ctx, id, k)
		if err != nil {
			return err
		}
		b, err := rs.Bests(ctx, id, k)
		if err != nil {
			return err
		}
		out := runJSON{ID: r.ID, Best: b.Best}
		for _, p := range rs.Puzzles(r) {
			out.Puzzles = append(out.Puzzles, runPuzzle(p))
		}
		if k == training.StormRun {
			out.Today, out.Started = &b.Today, r.Started.UnixMilli()
			out.Time, out.Penalty, out.Grace = training.StormTime.Milliseconds(), training.StormPenalty.Milliseconds(), training.StormGrace.Milliseconds()
		}
		return c.JSON(http.StatusOK, out)
	}
}

// runPuzzle is a puzzle of a run, at its starting rating.
func runPuzzle(p puzzles.Puzzle) puzzleJSON {
	solver, _ := p.Solver()
	return puzzleJSON{ID: p.ID, FEN: p.FEN, Themes: puzzles.ThemeKeys(p.Themes), Rating: p.Rating, Color: solver.String()}
}

// runResultJSON is the answer to one puzzle of a run.
type runResultJSON struct {
	Puzzle  string   `json:"puzzle"`
	Actions []string `json:"actions"`
	Skip    bool     `json:"skip"`
	MS      int64    `json:"ms"`
}

// runResultRequest is the body of a run's result.
type runResultRequest struct {
	Run     field[string]          `json:"run"`
	Results field[[]runResultJSON] `json:"results"`
}

// read reads the body: the run's id and its results.
func (req *runResultRequest) read(c echo.Context, example string) ([]training.RunResult, error) {
	if err := readJSON(c, req); err != nil {
		return nil, err
	}
	if !req.Run.ok || !req.Results.ok {
		return nil, &errs.Error{Code: errs.Invalid, Detail: training.BadResults, Msg: "Give the run's id and its results, as " + example + "."}
	}
	out := make([]training.RunResult, len(req.Results.val))
	for i, r := range req.Results.val {
		out[i] = training.RunResult{Puzzle: r.Puzzle, Actions: r.Actions, Skip: r.Skip, At: r.MS}
	}
	return out, nil
}

// runOutcomeJSON is a run's result as judged.
type runOutcomeJSON struct {
	Score   int   `json:"score"`
	Counted *int  `json:"counted,omitempty"`
	Best    int   `json:"best"`
	Today   *int  `json:"today,omitempty"`
	Clock   int64 `json:"clockMs,omitempty"`
}

// streakResult judges a streak's results: solved up to the first wrong
// answer, one skip allowed.
func (a *runsAPI) streakResult(c echo.Context) error {
	var req runResultRequest
	results, err := req.read(c, `{"run":"…","results":[{"puzzle":"…","actions":["b:e2e4"]},{"puzzle":"…","skip":true}]}`)
	if err != nil {
		return err
	}
	id, err := a.pz.apiLearner(c)
	if err != nil {
		return err
	}
	st, err := a.pz.s.training.Runs().StreakResult(c.Request().Context(), id, req.Run.val, results)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, runOutcomeJSON{Score: st.Run.Score, Best: st.Bests.Best})
}

// stormResult judges a storm's results on the server's clock.
func (a *runsAPI) stormResult(c echo.Context) error {
	var req runResultRequest
	results, err := req.read(c, `{"run":"…","results":[{"puzzle":"…","actions":["m:c5f2"],"ms":4200}]}`)
	if err != nil {
		return err
	}
	id, err := a.pz.apiLearner(c)
	if err != nil {
		return err
	}
	st, counted, err := a.pz.s.training.Runs().StormResult(c.Request().Context(), id, req.Run.val, results)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, runOutcomeJSON{Score: st.Run.Score, Counted: &counted, Best: st.Bests.Best, Today: &st.Bests.Today, Clock: st.Run.Clock().Milliseconds()})
}
