package api

import (
	"context"
	"net/http"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/handlers/kit"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/review"
)

// Review is a game's review as the API writes it.
type Review struct {
	Status   analysis.ReviewStatus `json:"status"`
	Place    *int                  `json:"place"` // a queued review's place in its server's queue; null otherwise
	Progress float64               `json:"progress"`
	Plies    []review.Ply          `json:"plies"`
	White    review.Side           `json:"white"`
	Black    review.Side           `json:"black"`
}

func reviewJSON(st analysis.ReviewState) Review {
	obj := Review{Status: st.Status, Progress: st.Progress, Plies: st.Plies, White: st.White, Black: st.Black}
	if st.Status == analysis.ReviewQueued {
		obj.Place = &st.Place
	}
	if obj.Plies == nil {
		obj.Plies = []review.Ply{}
	}
	return obj
}

// requestReview starts a review of the game, or answers the one stored or
// under way: POST /api/games/{id}/review. 202 while it is queued or
// running, 200 once done.
func (a *analysisAPI) requestReview(c echo.Context) error {
	player, err := a.s.players.PlayerID(c.Request().Context(), kit.Bearer(c))
	if err != nil {
		return err
	}
	by := analysis.Requester{Player: player, Addr: kit.ClientKey(c.RealIP())}
	return a.answerReview(c, func(ctx context.Context, id string) (analysis.ReviewState, error) {
		return a.s.analysis.RequestReview(ctx, id, by)
	}, http.StatusAccepted)
}

// gameReview answers the game's review: GET /api/games/{id}/review.
func (a *analysisAPI) gameReview(c echo.Context) error {
	return a.answerReview(c, a.s.analysis.Review, http.StatusOK)
}

// answerReview answers what ask says of the game's review, with status
// until it is done.
func (a *analysisAPI) answerReview(c echo.Context, ask func(ctx context.Context, id string) (analysis.ReviewState, error), status int) error {
	st, err := ask(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if st.Status == analysis.ReviewDone {
		status = http.StatusOK
	}
	return c.JSON(status, reviewJSON(st))
}
