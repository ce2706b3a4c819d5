package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/lessons"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/training"
)

// readCounter counts the reads made of the training it keeps: of
// learners, puzzles' ratings, and attempts.
type readCounter struct {
	training.Store
	reads atomic.Int64
}

func (s *readCounter) Learner(ctx context.Context, player string) (training.Learner, error) {
	s.reads.Add(1)
	return s.Store.Learner(ctx, player)
}

func (s *readCounter) PuzzleStats(ctx context.Context, id string) (training.PuzzleStats, bool, error) {
	s.reads.Add(1)
	return s.Store.PuzzleStats(ctx, id)
}

func (s *readCounter) Attempted(ctx context.Context, player string) ([]string, error) {
	s.reads.Add(1)
	return s.Store.Attempted(ctx, player)
}

func (s *readCounter) LastAttempt(ctx context.Context, player, puzzle string) (training.Attempt, bool, error) {
	s.reads.Add(1)
	return s.Store.LastAttempt(ctx, player, puzzle)
}

// BenchmarkPuzzleRequest serves the requests of a puzzle's page: the
// page at the solver's second moment, the solver's right first ban by
// htmx (answered by the moment before the replies), the result of a
// solved attempt, an attempt by the API, and a lesson's step. Each
// reports the training store's reads per request (reads/op).
func BenchmarkPuzzleRequest(b *testing.B) {
	set, err := puzzles.Shipped()
	if err != nil {
		b.Fatal(err)
	}
	var p puzzles.Puzzle
	for _, q := range set.All() {
		if banThenMove(q) {
			p = q
			break
		}
	}
	g, err := p.Start()
	if err != nil {
		b.Fatal(err)
	}
	ply := strconv.Itoa(g.Ply())
	st := &readCounter{Store: store.NewMemory()}
	e := echo.New()
	New(newService(nil), apiClock, withTraining(training.New(set, lessons.All(), st, training.WithClock(apiClock)))).Register(e)

	var cookie *http.Cookie
	serve := func(method, target string, form url.Values, hx bool, want int) *httptest.ResponseRecorder {
		var req *http.Request
		if form != nil {
			req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		} else {
			req = httptest.NewRequest(method, target, nil)
		}
		if hx {
			req.Header.Set("HX-Request", "true")
		}
		if cookie != nil {
			req.AddCookie(cookie)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != want {
			b.Fatalf("%s %s: %d, want %d: %.300s", method, target, rec.Code, want, rec.Body)
		}
		for _, ck := range rec.Result().Cookies() {
			if ck.Name == kit.PlayerCookie {
				cookie = ck
			}
		}
		return rec
	}
	// The browser becomes a player and solves the puzzle: its result is
	// there to show.
	serve(http.MethodPost, "/training/"+p.ID+"/play", url.Values{"text": {p.Solution[0]}, "ply": {ply}}, false, http.StatusSeeOther)
	serve(http.MethodPost, "/training/"+p.ID+"/play", url.Values{"text": {p.Solution[3]}, "ply": {strconv.Itoa(g.Ply() + 3)}}, false, http.StatusSeeOther)

	run := func(name string, do func()) {
		b.Run(name, func(b *testing.B) {
			st.reads.Store(0)
			b.ReportAllocs()
			for b.Loop() {
				do()
			}
			b.ReportMetric(float64(st.reads.Load())/float64(b.N), "reads/op")
		})
	}
	run("page", func() { serve(http.MethodGet, "/training/"+p.ID+"?at=3", nil, false, http.StatusOK) })
	run("move", func() {
		serve(http.MethodPost, "/training/"+p.ID+"/play", url.Values{"text": {p.Solution[0]}, "ply": {ply}}, true, http.StatusOK)
	})
	run("result", func() { serve(http.MethodGet, "/training/"+p.ID+"/result", nil, false, http.StatusOK) })
	run("api", func() {
		body := `{"actions":["` + p.Solution[0] + `"]}`
		req := httptest.NewRequest(http.MethodPost, "/api/puzzles/"+p.ID+"/attempt", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(cookie)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("attempt: %d %s", rec.Code, rec.Body)
		}
	})
	run("step", func() { serve(http.MethodGet, "/learn/ply-order/1", nil, false, http.StatusOK) })
}
