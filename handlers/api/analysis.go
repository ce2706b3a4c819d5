package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/banchess/banchess/handlers/kit"

	"github.com/banchess/banchess/analysis"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
)

// Analysis is an analysis as the API writes it: the best action and
// line in BCN, the score in centipawns for the side to act (null when a
// mate is found) or the plies to mate (positive when the side to act
// mates; null when none is found).
type Analysis struct {
	Best  string   `json:"best"`
	PV    []string `json:"pv"`
	Score *int     `json:"score"`
	Mate  *int     `json:"mate"`
	Depth int      `json:"depth"`
	Nodes int64    `json:"nodes"`
	MS    int64    `json:"ms"`
}

func analysisJSON(r engine.Result) Analysis {
	obj := Analysis{Best: r.Best.String(), PV: make([]string, 0, len(r.PV)), Depth: r.Depth, Nodes: r.Nodes, MS: r.Time.Milliseconds()}
	for _, a := range r.PV {
		obj.PV = append(obj.PV, a.String())
	}
	if r.Mate != 0 {
		obj.Mate = &r.Mate
	} else {
		obj.Score = &r.Score
	}
	return obj
}

// analysisRequest reads ms, level and depth from the query.
func analysisRequest(c echo.Context) (analysis.Request, error) {
	var req analysis.Request
	var ms int
	for _, f := range []struct {
		name, what string
		detail     errs.Detail
		dst        *int
	}{{"level", "a whole number", errs.BadLevel, &req.Level}, {"depth", "a whole number", errs.BadDepth, &req.Depth}, {"ms", "a whole number of milliseconds", errs.BadBudget, &ms}} {
		if v := c.QueryParam(f.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return req, &errs.Error{Code: errs.Invalid, Detail: f.detail, Msg: fmt.Sprintf("%s must be %s from 1, not %q.", f.name, f.what, kit.TrimText(v))}
			}
			*f.dst = n
		}
	}
	req.Budget = time.Duration(ms) * time.Millisecond
	return req, nil
}

// analysis analyses a position: GET /api/analysis?fen=…&variant=…&ms=…
func (a *analysisAPI) analysis(c echo.Context) error {
	req, err := analysisRequest(c)
	if err != nil {
		return err
	}
	fen := c.QueryParam("fen")
	if fen == "" {
		return &errs.Error{Code: errs.Invalid, Detail: errs.BadFEN, Msg: "Give the position as fen=<extended FEN>."}
	}
	res, err := a.s.analysis.AnalysePosition(c.Request().Context(), fen, c.QueryParam("variant"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, analysisJSON(res))
}

// gameAnalysis analyses a game as it stands: GET /api/games/{id}/analysis.
func (a *analysisAPI) gameAnalysis(c echo.Context) error {
	req, err := analysisRequest(c)
	if err != nil {
		return err
	}
	res, err := a.s.analysis.AnalyseGame(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, analysisJSON(res))
}
