package handlers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/handlers/api"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/review"
)

// newReviewAPI serves everything Register adds, reviewing at depth 2.
func newReviewAPI(t *testing.T, opts ...analysis.Option) *apiT {
	svc := newServiceWith(nil, testsite.Config{Engine: engine.NewPool(1, 4, 8),
		Analysis: append([]analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Depth: 2}})}, opts...)})
	t.Cleanup(closer(svc))
	e := echo.New()
	New(svc, apiClock).Register(e)
	return newAPIT(t, e)
}

// review checks r is a review object with status want and decodes it.
func (a *apiT) review(r apiResp, want int) api.Review {
	a.t.Helper()
	if r.code != want {
		a.t.Fatalf("status %d, want %d: %s", r.code, want, r.body)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &raw); err != nil {
		a.t.Fatalf("%v: %s", err, r.body)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range raw {
			if !yield(k) {
				return
			}
		}
	})
	if want := []string{"black", "place", "plies", "progress", "status", "white"}; !slices.Equal(names, want) {
		a.t.Fatalf("review object fields %v, want %v", names, want)
	}
	var obj api.Review
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		a.t.Fatalf("%s: %v", r.body, err)
	}
	return obj
}

// reviewDone asks for game id's review until it is done.
func (a *apiT) reviewDone(id string) api.Review {
	a.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		obj := a.review(a.do(http.MethodGet, "/api/games/"+id+"/review", ""), http.StatusOK)
		if obj.Status == analysis.ReviewDone {
			return obj
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the review is still %s", obj.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// backRankFEN: White to move after Black's ban, Ra8+ leaves Black's king
// one way out, whose ban by White mates.
const backRankFEN = "7k/7p/6p1/8/7r/8/5PPP/R5K1 w - - 0 1"

func TestAPIReview(t *testing.T) {
	a := newReviewAPI(t)
	g := a.create(`{"fen":"` + backRankFEN + `"}`)
	a.play(g.ID, "b:g1f1", "m:f2f3")
	path := "/api/games/" + g.ID + "/review"
	a.fail(a.do(http.MethodGet, path, ""), http.StatusNotFound, "no_review")

	first := a.review(a.do(http.MethodPost, path, ""), http.StatusAccepted)
	if first.Status == analysis.ReviewDone || first.Progress == 1 {
		t.Errorf("first answer: %+v", first)
	}
	done := a.reviewDone(g.ID)
	if done.Place != nil || done.Progress != 1 || len(done.Plies) != 2 {
		t.Fatalf("done: %+v", done)
	}
	move := done.Plies[1]
	if move.Ply != 2 || move.Color != "white" || move.Action != "m:f2f3" || move.Best != "m:a1a8" ||
		!slices.Equal(move.Labels, []review.Label{review.MissedMateByBan}) || move.Before != (review.Eval{Mate: 2}) {
		t.Errorf("White's f3: %+v", move)
	}
	if !slices.Equal(done.Plies[0].Labels, []review.Label{review.AllowedMateByBan}) || done.White.Accuracy == nil || done.Black.MissedMatesByBan != 0 {
		t.Errorf("Black's ban and the sides: %+v %+v %+v", done.Plies[0], done.White, done.Black)
	}
	// The JSON of a ply and its evaluations, as docs/api.md shows it.
	body := string(a.do(http.MethodGet, path, "").body)
	for _, want := range []string{`"before":{"mate":2}`, `"best":"m:a1a8"`, `"labels":["missedMateByBan"]`, `"class":"blunder"`, `"place":null`} {
		if !strings.Contains(body, want) {
			t.Errorf("the review's JSON has no %s: %s", want, body)
		}
	}
	// Asked again, it answers at once: 200, done.
	if again := a.review(a.do(http.MethodPost, path, ""), http.StatusOK); again.Status != analysis.ReviewDone || len(again.Plies) != 2 {
		t.Errorf("second POST: %+v", again)
	}

	// The PGN downloads carry each ply's class's NAG and evaluation.
	for _, path := range []string{"/api/games/" + g.ID + "/pgn", "/g/" + g.ID + "/pgn"} {
		pgn := string(a.do(http.MethodGet, path, "").body)
		if !strings.Contains(pgn, "{banning: g1f1} $4 {[%eval #2]}") || !strings.Contains(pgn, "f3 $4 {[%eval ") {
			t.Errorf("%s without the review's NAGs and evaluations:\n%s", path, pgn)
		}
	}
	// Played on, the game's PGN is without them.
	a.play(g.ID, "b:h8g8")
	if pgn := string(a.do(http.MethodGet, "/api/games/"+g.ID+"/pgn", "").body); strings.Contains(pgn, "%eval") {
		t.Errorf("the PGN of a game played on since its review has its evaluations:\n%s", pgn)
	}
	// Not the game object's: it stays as it was.
	if obj := a.game(a.do(http.MethodGet, "/api/games/"+g.ID, ""), http.StatusOK); strings.Contains(obj.PGN, "%eval") {
		t.Errorf("the game object's PGN has the review: %s", obj.PGN)
	}
}

// TestAPIReviewENChess: an EN-Chess game is reviewed as the others are,
// each of its moves (a swap among them) with the engine's best.
func TestAPIReviewENChess(t *testing.T) {
	a := newReviewAPI(t)
	g := a.create(`{"variant":"en"}`)
	a.play(g.ID, "m:e2e4", "m:x9e8", "m:d2d4")
	a.review(a.do(http.MethodPost, "/api/games/"+g.ID+"/review", ""), http.StatusAccepted)
	done := a.reviewDone(g.ID)
	if len(done.Plies) != 3 || done.Plies[1].Action != "m:x9e8" || done.Plies[1].Color != "black" || done.White.Accuracy == nil || done.Black.Accuracy == nil {
		t.Fatalf("done: %+v", done)
	}
	for _, p := range done.Plies {
		if !strings.HasPrefix(p.Best, "m:") {
			t.Errorf("ply %d: best %q, want a move", p.Ply, p.Best)
		}
	}
}

func TestAPIReviewRefused(t *testing.T) {
	a := newReviewAPI(t)
	fresh, played := a.create(`{}`), a.create(`{}`)
	a.play(played.ID, "b:e2e4")
	for _, c := range []struct {
		method, path string
		status       int
		code         string
	}{
		{http.MethodPost, "/api/games/nope/review", http.StatusNotFound, "not_found"},
		{http.MethodGet, "/api/games/nope/review", http.StatusNotFound, "not_found"},
		{http.MethodGet, "/api/games/" + played.ID + "/review", http.StatusNotFound, "no_review"},
		{http.MethodGet, "/api/games/" + fresh.ID + "/review", http.StatusConflict, "nothing_to_review"},
		{http.MethodPost, "/api/games/" + fresh.ID + "/review", http.StatusConflict, "nothing_to_review"},
		{http.MethodPut, "/api/games/" + fresh.ID + "/review", http.StatusMethodNotAllowed, "method_not_allowed"},
	} {
		a.fail(a.do(c.method, c.path, ""), c.status, c.code)
	}
	// A game between two players, until it ends.
	var created, joined struct{ ID, Token, InviteCode string }
	r := a.do(http.MethodPost, "/api/games", `{"mode":"invite","color":"white"}`)
	if err := json.Unmarshal(r.body, &created); r.code != http.StatusCreated || err != nil {
		t.Fatalf("creating a game between two players: %d %s (%v)", r.code, r.body, err)
	}
	r = a.doAs("", http.MethodPost, "/api/games/"+created.ID+"/join", `{"invite":"`+created.InviteCode+`"}`)
	if err := json.Unmarshal(r.body, &joined); r.code != http.StatusOK || err != nil {
		t.Fatalf("joining: %d %s (%v)", r.code, r.body, err)
	}
	if r := a.doAs(joined.Token, http.MethodPost, "/api/games/"+created.ID+"/actions", `{"action":"b:e2e4"}`); r.code != http.StatusOK {
		t.Fatalf("ban: %s", r.body)
	}
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		a.fail(a.doAs(created.Token, method, "/api/games/"+created.ID+"/review", ""), http.StatusForbidden, "analysis_locked")
	}
}

func TestAPIReviewQueueFull(t *testing.T) {
	a := newReviewAPI(t, analysis.WithReviewSettings(analysis.ReviewSettings{Queue: 1, Limits: engine.Limits{Nodes: 2_000_000}}))
	var ids []string
	for range 3 {
		g := a.create(`{}`)
		a.play(g.ID, "b:e2e4", "m:d2d4", "b:d7d5", "m:g8f6")
		ids = append(ids, g.ID)
	}
	a.review(a.do(http.MethodPost, "/api/games/"+ids[0]+"/review", ""), http.StatusAccepted)
	// The first runs (or waits to), the second waits: the third is refused.
	for {
		if st := a.review(a.do(http.MethodGet, "/api/games/"+ids[0]+"/review", ""), http.StatusOK); st.Status == analysis.ReviewRunning {
			break
		}
		time.Sleep(time.Millisecond)
	}
	queued := a.review(a.do(http.MethodPost, "/api/games/"+ids[1]+"/review", ""), http.StatusAccepted)
	if queued.Status != analysis.ReviewQueued || queued.Place == nil || *queued.Place != 1 {
		t.Errorf("the second: %+v", queued)
	}
	// This client holds two already; another's is refused for the full
	// queue.
	a.fail(a.do(http.MethodPost, "/api/games/"+ids[2]+"/review", ""), http.StatusTooManyRequests, "too_many_reviews")
	req := a.request(http.MethodPost, "/api/games/"+ids[2]+"/review", "")
	req.RemoteAddr = "198.51.100.9:1234"
	r := a.send(req)
	a.fail(r, http.StatusTooManyRequests, "review_queue_full")
	if r.hdr.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
}
