package handlers

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/review"
	"github.com/banchess/banchess/rules"
)

// reviewObject is a game's review as the API writes it.
type reviewObject struct {
	Status   games.ReviewStatus `json:"status"`
	Place    *int               `json:"place"` // a queued review's place in its server's queue; null otherwise
	Progress float64            `json:"progress"`
	Plies    []review.Ply       `json:"plies"`
	White    review.Side        `json:"white"`
	Black    review.Side        `json:"black"`
}

func reviewJSON(st games.ReviewState) reviewObject {
	obj := reviewObject{Status: st.Status, Progress: st.Progress, Plies: st.Plies, White: st.White, Black: st.Black}
	if st.Status == games.ReviewQueued {
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
func (a *api) requestReview(c echo.Context) error {
	return a.answerReview(c, a.s.games.RequestReview, http.StatusAccepted)
}

// gameReview answers the game's review: GET /api/games/{id}/review.
func (a *api) gameReview(c echo.Context) error {
	return a.answerReview(c, a.s.games.Review, http.StatusOK)
}

// answerReview answers what ask says of the game's review, with status
// until it is done.
func (a *api) answerReview(c echo.Context, ask func(ctx context.Context, id string) (games.ReviewState, error), status int) error {
	st, err := ask(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if st.Status == games.ReviewDone {
		status = http.StatusOK
	}
	return c.JSON(status, reviewJSON(st))
}

// reviewedPGN is recordPGN with, when rev is the done review of the game
// rec holds, each ply's class's NAG ($6, $2, $4) and evaluation ([%eval
// …], before its clock).
func reviewedPGN(rec *games.Record, rev games.StoredReview, own ...rules.Tag) string {
	var notes rules.PGNNotes
	if r, ok := rev.Of(rec.Game); ok {
		notes = rules.PGNNotes{NAGs: r.NAGs, Comment: r.EvalNote}
	}
	tags := slices.Concat(own, rec.Tags())
	if rec.Clock == nil {
		return exportPGN(rec.Game, notes, tags...)
	}
	notes.Comment = joinNotes(notes.Comment, rec.Clock.ClkComment)
	return rec.Game.Record().AnnotatedPGN(notes, tags...)
}

// joinNotes gives each ply both notes' comment commands, in one comment
// ("[%eval 0.17] [%clk 0:04:59]"); a nil note gives none.
func joinNotes(a, b func(int) string) func(int) string {
	if a == nil {
		return b
	}
	return func(n int) string {
		return strings.TrimSpace(a(n) + " " + b(n))
	}
}

// reviewedPGNOf writes game id's PGN (see reviewedPGN) with its review
// when one is done, under the game's lock.
func reviewedPGNOf(ctx context.Context, svc *guarded, id string, cred games.Credential, own ...rules.Tag) (string, error) {
	rev, _, err := svc.FinishedReview(ctx, id)
	if err != nil {
		return "", err
	}
	var text string
	err = svc.View(ctx, id, cred, func(rec *games.Record, _ games.Seats) {
		text = reviewedPGN(rec, rev, own...)
	})
	return text, err
}
