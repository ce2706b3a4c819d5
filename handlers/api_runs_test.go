package handlers

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// runObj is a run as the API answers it.
type runObj struct {
	ID      string      `json:"id"`
	Puzzles []puzzleObj `json:"puzzles"`
	Best    int         `json:"best"`
	Today   *int        `json:"today"`
	Started int64       `json:"started"`
	Time    int64       `json:"timeMs"`
	Penalty int64       `json:"penaltyMs"`
	Grace   int64       `json:"graceMs"`
}

// outcomeObj is a run's result as judged.
type outcomeObj struct {
	Score   int   `json:"score"`
	Counted *int  `json:"counted"`
	Best    int   `json:"best"`
	Today   *int  `json:"today"`
	Clock   int64 `json:"clockMs"`
}

// solverBCN is the solver's actions of the shipped puzzle id, as JSON.
func solverBCN(t *testing.T, id string) string {
	t.Helper()
	set, err := puzzles.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := set.ByID(id)
	g, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	solver := g.Turn().Actor
	var out []string
	for _, text := range p.Solution {
		if g.Turn().Actor == solver {
			out = append(out, text)
		}
		a, _ := rules.ParseAction(text)
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// wrongBCN is a wrong first action of the shipped puzzle id, as JSON.
func wrongBCN(t *testing.T, id string) string {
	t.Helper()
	set, _ := puzzles.Shipped()
	p, _ := set.ByID(id)
	w, _ := wrongAction(t, p)
	return `["` + w + `"]`
}

// TestAPIRuns: a streak is its puzzles in rising order without
// solutions; its results score up to the first wrong answer and are
// posted once; a storm carries its clock's rules and counts the answers
// timed within it; every refusal has its status and code and changes
// nothing; another player's run is not found.
func TestAPIRuns(t *testing.T) {
	st := store.NewMemory()
	a := newAPIT(t, newTrainingServer(t, st))
	token := a.tokens[a.create(`{}`).ID]
	other := a.tokens[a.create(`{}`).ID]

	var streak runObj
	decodeStrict(t, a.doAs(token, http.MethodGet, "/api/puzzles/streak", ""), &streak)
	if len(streak.Puzzles) != 60 || streak.Today != nil || streak.Time != 0 {
		t.Fatalf("a streak: %d puzzles, %+v", len(streak.Puzzles), streak)
	}
	for i, p := range streak.Puzzles {
		if p.Solution != nil || i > 0 && p.Rating < streak.Puzzles[i-1].Rating {
			t.Fatalf("puzzle %d: %+v", i, p)
		}
	}
	ps := streak.Puzzles
	good := `{"run":"` + streak.ID + `","results":[{"puzzle":"` + ps[0].ID + `","actions":` + solverBCN(t, ps[0].ID) + `},` +
		`{"puzzle":"` + ps[1].ID + `","skip":true},{"puzzle":"` + ps[2].ID + `","actions":` + wrongBCN(t, ps[2].ID) + `}]}`
	for _, c := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"no run", token, `{"results":[]}`, http.StatusBadRequest, "bad_results"},
		{"unknown run", token, `{"run":"nope","results":[{"puzzle":"x","skip":true}]}`, http.StatusNotFound, "no_run"},
		{"another's run", other, good, http.StatusNotFound, "no_run"},
		{"out of order", token, `{"run":"` + streak.ID + `","results":[{"puzzle":"` + ps[1].ID + `","skip":true}]}`, http.StatusBadRequest, "bad_results"},
		{"two skips", token, `{"run":"` + streak.ID + `","results":[{"puzzle":"` + ps[0].ID + `","skip":true},{"puzzle":"` + ps[1].ID + `","skip":true}]}`, http.StatusBadRequest, "bad_results"},
		{"not BCN", token, `{"run":"` + streak.ID + `","results":[{"puzzle":"` + ps[0].ID + `","actions":["e2e4"]}]}`, http.StatusBadRequest, "bad_results"},
		{"unknown member", token, `{"run":"` + streak.ID + `","results":[],"score":99}`, http.StatusBadRequest, "unknown_field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.fail(a.doAs(c.token, http.MethodPost, "/api/puzzles/streak", c.body), c.status, c.code)
		})
	}
	var out outcomeObj
	decodeStrict(t, a.doAs(token, http.MethodPost, "/api/puzzles/streak", good), &out)
	if out.Score != 1 || out.Best != 1 || out.Counted != nil {
		t.Errorf("the streak's result: %+v", out)
	}
	a.fail(a.doAs(token, http.MethodPost, "/api/puzzles/streak", good), http.StatusConflict, "run_over")

	var storm runObj
	decodeStrict(t, a.doAs(token, http.MethodGet, "/api/storm", ""), &storm)
	if len(storm.Puzzles) != 150 || storm.Time != 180000 || storm.Penalty != 10000 || storm.Grace != 3000 || storm.Today == nil || storm.Started != apiClock().UnixMilli() {
		t.Fatalf("a storm: %d puzzles, %+v", len(storm.Puzzles), storm)
	}
	sp := storm.Puzzles
	late := `{"run":"` + storm.ID + `","results":[{"puzzle":"` + sp[0].ID + `","actions":` + solverBCN(t, sp[0].ID) + `,"ms":5000}]}`
	a.fail(a.doAs(token, http.MethodPost, "/api/storm", late), http.StatusBadRequest, "bad_results")
	body := strings.Replace(late, `"ms":5000`, `"ms":500`, 1)
	body = strings.Replace(body, `]}`, `,{"puzzle":"`+sp[1].ID+`","actions":`+wrongBCN(t, sp[1].ID)+`,"ms":900}]}`, 1)
	decodeStrict(t, a.doAs(token, http.MethodPost, "/api/storm", body), &out)
	if out.Score != 1 || out.Counted == nil || *out.Counted != 2 || out.Best != 1 || out.Today == nil || *out.Today != 1 || out.Clock != 170000 {
		t.Errorf("the storm's result: %+v", out)
	}
	a.fail(a.doAs(token, http.MethodPost, "/api/storm", body), http.StatusConflict, "run_over")

	a.fail(a.doAs(token, http.MethodGet, "/api/puzzles/next?difficulty=hardest", ""), http.StatusBadRequest, "bad_difficulty")
	var easy, hard puzzleObj
	decodeStrict(t, a.doAs(token, http.MethodGet, "/api/puzzles/next?difficulty=easier", ""), &easy)
	decodeStrict(t, a.doAs(token, http.MethodGet, "/api/puzzles/next?difficulty=harder", ""), &hard)
	if easy.Rating >= 1300 || hard.Rating <= 1700 {
		t.Errorf("easier %d, harder %d, at a rating of 1500", easy.Rating, hard.Rating)
	}
}
