package api

import (
	"math"
	"net/http"
	"strconv"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/puzzles"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
)

// puzzleRoutes are the puzzles' API, when the server has training.
func (a *puzzlesAPI) puzzleRoutes() []apiEndpoint {
	if a.s.training == nil {
		return nil
	}
	return []apiEndpoint{
		{http.MethodGet, "/puzzles/next", a.nextPuzzle},
		{http.MethodGet, "/puzzles/daily", a.dailyPuzzle},
		{http.MethodGet, "/puzzles/:id", a.puzzle},
		{http.MethodPost, "/puzzles/:id/attempt", a.attempt},
	}
}

// puzzleJSON is a puzzle as the API answers it; Solution only for a
// puzzle asked for by its id.
type puzzleJSON struct {
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	Themes   []string `json:"themes"`
	Rating   int      `json:"rating"`
	Color    string   `json:"color"`
	Plays    int      `json:"plays"`
	Solution []string `json:"solution,omitempty"`
}

func puzzleObject(p training.Puzzle, withSolution bool) puzzleJSON {
	out := puzzleJSON{ID: p.ID, FEN: p.FEN, Themes: puzzles.ThemeKeys(p.Themes), Rating: int(math.Round(p.Stats.Rating.Rating)),
		Color: p.Solver.String(), Plays: p.Stats.Plays}
	if withSolution {
		out.Solution = p.Solution
	}
	return out
}

// apiLearner is the player an API request trains as: its bearer token's,
// else its cookie's, "" for neither. A token the server did not issue is
// refused.
func (a *puzzlesAPI) apiLearner(c echo.Context) (string, error) {
	ctx := c.Request().Context()
	if cred := kit.Bearer(c); cred != "" {
		id, err := a.s.players.PlayerID(ctx, cred)
		if err == nil && id == "" {
			err = &errs.Error{Code: errs.Unauthorized, Msg: "This token was not issued by this server, or was signed out."}
		}
		return id, err
	}
	return a.s.kit.Learner(c)
}

// nextPuzzle answers a puzzle near the player's rating (moved by
// ?difficulty=), of ?theme= when given, without its solution.
func (a *puzzlesAPI) nextPuzzle(c echo.Context) error {
	t, err := training.ParseTheme(c.QueryParam("theme"))
	if err != nil {
		return err
	}
	d, err := training.ParseDifficulty(c.QueryParam("difficulty"))
	if err != nil {
		return err
	}
	id, err := a.apiLearner(c)
	if err != nil {
		return err
	}
	p, err := a.s.training.NextAt(c.Request().Context(), id, t, d)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, puzzleObject(p, false))
}

// dailyPuzzle answers the puzzle of the day, without its solution.
func (a *puzzlesAPI) dailyPuzzle(c echo.Context) error {
	p, err := a.s.training.Daily(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, puzzleObject(p, false))
}

// puzzle answers the puzzle with the path's id, with its solution.
func (a *puzzlesAPI) puzzle(c echo.Context) error {
	p, err := a.s.training.Puzzle(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, puzzleObject(p, true))
}

// attemptRequest is the body of an attempt: the solver's actions, in
// BCN, in order.
type attemptRequest struct {
	Actions field[[]string] `json:"actions"`
}

// attemptJSON is the judgement of an attempt.
type attemptJSON struct {
	Correct  bool   `json:"correct"`
	Solved   bool   `json:"solved"`
	FailedAt *int   `json:"failedAt"`
	Reason   string `json:"reason,omitempty"`
	// Refutation is the engine's answer to the wrong action, in BCN (see
	// training.Attempt.Refutation); left out without one.
	Refutation []string `json:"refutation,omitempty"`
	Solution   []string `json:"solution"`
	// Rating is the player's puzzle rating after the attempt, null for
	// an attempt of nobody's; RatingChange what it changed by (0 unless
	// Rated).
	Rating       *int `json:"rating"`
	RatingChange int  `json:"ratingChange"`
	Provisional  bool `json:"provisional"`
	// Rated says the attempt changed the ratings: a player's first
	// finished attempt at the puzzle.
	Rated        bool `json:"rated"`
	PuzzleRating int  `json:"puzzleRating"`
}

// attempt judges the solver's actions at the puzzle, keeping and rating
// an attempt that ends for its player.
func (a *puzzlesAPI) attempt(c echo.Context) error {
	var req attemptRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if !req.Actions.ok {
		return &errs.Error{Code: errs.Invalid, Detail: training.BadActions, Msg: `Give the solver's actions, in order, as {"actions":["b:e2e4","m:g8f6"]}.`}
	}
	acts := make([]rules.Action, len(req.Actions.val))
	for i, text := range req.Actions.val {
		act, err := rules.ParseAction(text)
		if err != nil {
			return &errs.Error{Code: errs.Invalid, Detail: training.BadActions, Msg: errs.Sentence("action " + strconv.Itoa(i+1) + ": " + err.Error())}
		}
		acts[i] = act
	}
	id, err := a.apiLearner(c)
	if err != nil {
		return err
	}
	res, err := a.s.training.Attempt(c.Request().Context(), id, c.Param("id"), acts)
	if err != nil {
		return err
	}
	out := attemptJSON{Correct: res.Verdict.Correct, Solved: res.Verdict.Solved, Reason: res.Reason.String(),
		Refutation: bcn(res.Refutation), Solution: res.Puzzle.Solution, PuzzleRating: int(math.Round(res.Puzzle.Stats.Rating.Rating))}
	if !res.Verdict.Correct {
		out.FailedAt = &res.Verdict.FailedAt
	}
	if id != "" {
		r := int(math.Round(res.Learner.Rating.Rating))
		out.Rating, out.Provisional = &r, res.Learner.Rating.Provisional()
	}
	if k := res.Attempt; k != nil && k.Rated {
		out.Rated = true
		out.RatingChange = int(math.Round(k.After.Rating)) - int(math.Round(k.Before.Rating))
	}
	return c.JSON(http.StatusOK, out)
}

// bcn writes actions in BCN (nil for none).
func bcn(actions []rules.Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.String())
	}
	return out
}
