package analysis_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/review"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
	"github.com/banchess/banchess/store"
)

// backRank: White to move after Black's ban, Ra8+ leaves Black's king one
// way out (h8g7), whose ban by White mates; Black's rook on h4 reaches
// neither a8 nor the eighth rank.
const backRank = "7k/7p/6p1/8/7r/8/5PPP/R5K1 w - - 0 1"

// countingEngine is a real pool of one worker that counts its searches.
type countingEngine struct {
	*engine.Pool
	mu           sync.Mutex
	analyses     int
	lastLimits   engine.Limits
	failOnSearch *testing.T // when set, an analysis fails the test
}

func newCountingEngine() *countingEngine { return &countingEngine{Pool: engine.NewPool(1, 4, 16)} }

func (c *countingEngine) Analyse(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	c.mu.Lock()
	c.analyses++
	c.lastLimits = lim
	if c.failOnSearch != nil {
		c.failOnSearch.Errorf("searched at ply %d", g.Ply())
	}
	c.mu.Unlock()
	return c.Pool.Analyse(ctx, g, lim)
}

func (c *countingEngine) searches() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.analyses
}

// waitReview asks for game id's review until it is done.
func waitReview(t *testing.T, svc testsite.Site, id string) analysis.ReviewState {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, err := svc.Analysis.Review(context.Background(), id)
		if err != nil {
			t.Fatalf("review: %v", err)
		}
		if st.Status == analysis.ReviewDone {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the review is still %s (%.0f%%)", st.Status, 100*st.Progress)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fromFEN creates a hot-seat game of cred's from fen and plays actions.
func fromFEN(t *testing.T, e *env, cred players.Credential, fen string, actions ...string) string {
	t.Helper()
	g, err := e.svc.Games.Loader().FromFEN(fen, "")
	if err != nil {
		t.Fatal(err)
	}
	id := e.createGame(cred, g)
	e.play(id, cred, actions...)
	return id
}

// createFrom stores on svc a hot-seat game from backRank with actions
// played.
func createFrom(t *testing.T, svc testsite.Site, actions ...string) string {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, backRank, actions)
	if err != nil {
		t.Fatal(err)
	}
	id, err := svc.Games.Create(context.Background(), issue(t, svc), g)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The issue's case, through the service: Black's ban leaves White Ra8+,
// whose ban of the king's only way out mates; White plays f3 instead.
func TestReviewMarksMateByBan(t *testing.T) {
	eng := newCountingEngine()
	e := newEnv(t, testsite.Config{Engine: eng})
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	id := fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3")

	st, err := e.svc.Analysis.RequestReview(e.ctx, id, analysis.Requester{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Status == analysis.ReviewDone {
		t.Errorf("the first request answered a review done")
	}
	st = waitReview(t, e.svc, id)
	if len(st.Plies) != 2 || st.Progress != 1 {
		t.Fatalf("review of 2 plies: %d plies, progress %v", len(st.Plies), st.Progress)
	}
	ban, move := st.Plies[0], st.Plies[1]
	if ban.Ply != 1 || ban.Action != "b:g1f1" || !slices.Equal(ban.Labels, []review.Label{review.AllowedMateByBan}) || ban.Best != "b:a1a8" {
		t.Errorf("Black's ban: %+v", ban)
	}
	if move.Ply != 2 || move.Action != "m:f2f3" || !slices.Equal(move.Labels, []review.Label{review.MissedMateByBan}) ||
		move.Best != "m:a1a8" || move.Before != (review.Eval{Mate: 2}) || move.Class != review.Blunder {
		t.Errorf("White's move: %+v", move)
	}
	if st.White.MissedMatesByBan != 1 || st.Black.AllowedMatesByBan != 1 || st.White.Accuracy == nil {
		t.Errorf("sides: %+v %+v", st.White, st.Black)
	}
	if eng.lastLimits != review.DefaultLimits {
		t.Errorf("searched with %+v, want review.DefaultLimits", eng.lastLimits)
	}

	// A second request answers from storage, searching nothing.
	before := eng.searches()
	again, err := e.svc.Analysis.RequestReview(e.ctx, id, analysis.Requester{})
	if err != nil || again.Status != analysis.ReviewDone || len(again.Plies) != 2 || eng.searches() != before {
		t.Errorf("second request: %s, %d plies, %v; %d more searches", again.Status, len(again.Plies), err, eng.searches()-before)
	}

	// Played on, the game has no review until asked again.
	e.play(id, cred, "b:h8g8")
	_, err = e.svc.Analysis.Review(e.ctx, id)
	refused(t, "review after a ply", err, errs.NotFound, "no_review")
	if _, err := e.svc.Analysis.RequestReview(e.ctx, id, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	if st := waitReview(t, e.svc, id); len(st.Plies) != 3 {
		t.Errorf("review after a ply: %d plies", len(st.Plies))
	}
}

// A review is stored with the game: it survives a restart.
func TestReviewSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	open := func(a analysis.Analyser) (testsite.Site, func()) {
		st, err := store.OpenSQLite(context.Background(), path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		svc := testsite.New(st, testsite.Config{Engine: a, Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Depth: 2}})}})
		return svc, func() { svc.Close(); st.Close() }
	}
	svc, closeIt := open(newCountingEngine())
	id := createFrom(t, svc, "b:g1f1", "m:a1a8", "b:h8g7")
	if _, err := svc.Analysis.RequestReview(context.Background(), id, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	done := waitReview(t, svc, id)
	closeIt()

	eng := newCountingEngine()
	eng.failOnSearch = t
	svc, closeIt = open(eng)
	defer closeIt()
	for _, ask := range []func(context.Context, string) (analysis.ReviewState, error){svc.Analysis.Review, func(ctx context.Context, id string) (analysis.ReviewState, error) {
		return svc.Analysis.RequestReview(ctx, id, analysis.Requester{})
	}} {
		st, err := ask(context.Background(), id)
		if err != nil || st.Status != analysis.ReviewDone || len(st.Plies) != 3 || st.Plies[2].Eval != (review.Eval{Result: "1-0"}) ||
			*st.White.Accuracy != *done.White.Accuracy {
			t.Errorf("after a restart: %+v, %v", st, err)
		}
	}
}

func TestReviewRefusals(t *testing.T) {
	e := newEnv(t, testsite.Config{Engine: newCountingEngine()})
	t.Cleanup(e.svc.Close)
	cred := e.cred()

	_, err := e.svc.Analysis.RequestReview(e.ctx, "nope", analysis.Requester{})
	refused(t, "unknown game", err, errs.NotFound, "")
	_, err = e.svc.Analysis.RequestReview(e.ctx, e.create(cred), analysis.Requester{})
	refused(t, "no ply", err, errs.Conflict, "nothing_to_review")
	id := fromFEN(t, e, cred, backRank, "b:g1f1")
	_, err = e.svc.Analysis.Review(e.ctx, id)
	refused(t, "not asked for", err, errs.NotFound, "no_review")
	other := e.createGame(cred, rules.New(rulestest.NoFifty{})) // a variant the engine does not play
	e.play(other, cred, "b:e2e4")
	_, err = e.svc.Analysis.RequestReview(e.ctx, other, analysis.Requester{})
	refused(t, "Ban Chess without the fifty-move rule", err, errs.Invalid, "unsupported_variant")

	// A game between two players is locked until it ends.
	svc := testsite.New(store.NewMemory(), testsite.Config{Engine: newCountingEngine()})
	t.Cleanup(svc.Close)
	white, black := issue(t, svc), issue(t, svc)
	live, code, _, err := svc.Games.CreateInvite(e.ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Games.Join(e.ctx, live, black, code); err != nil {
		t.Fatal(err)
	}
	if err := svc.Games.Play(e.ctx, live, black, games.Input{Text: "b:e2e4"}, nil); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Analysis.RequestReview(e.ctx, live, analysis.Requester{})
	refused(t, "a live game", err, errs.Forbidden, "analysis_locked")
	if err := svc.Games.Play(e.ctx, live, white, games.Input{Text: "m:d2d4"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := svc.Games.Resign(e.ctx, live, white, rules.White, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Analysis.RequestReview(e.ctx, live, analysis.Requester{}); err != nil {
		t.Errorf("the game ended: %v", err)
	}
	if st := waitReview(t, svc, live); len(st.Plies) != 2 {
		t.Errorf("a resigned game of two plies: %d plies reviewed", len(st.Plies))
	}

	// Without a store that keeps reviews, or without an engine.
	noEngine := testsite.New(nil, testsite.Config{})
	_, err = noEngine.Analysis.RequestReview(e.ctx, "any", analysis.Requester{})
	refused(t, "no engine", err, errs.Internal, "")
}

// gatedEngine answers a search only when the test lets it, one at a time.
type gatedEngine struct {
	searches chan *rules.Game // each search, as it starts
	answer   chan struct{}    // lets one search answer
}

func newGatedEngine() *gatedEngine {
	return &gatedEngine{searches: make(chan *rules.Game, 64), answer: make(chan struct{})}
}

func (f *gatedEngine) Analyse(ctx context.Context, g *rules.Game, _ engine.Limits) (engine.Result, error) {
	f.searches <- g
	select {
	case <-f.answer:
		return engine.Result{Best: g.Legal()[0], PV: g.Legal()[:1], Score: 10}, nil
	case <-ctx.Done():
		return engine.Result{}, ctx.Err()
	}
}

func (f *gatedEngine) Play(context.Context, *rules.Game, engine.Limits) (engine.Result, error) {
	return engine.Result{}, errors.New("no play here")
}

// next waits for the next search to start.
func (f *gatedEngine) next(t *testing.T) *rules.Game {
	t.Helper()
	select {
	case g := <-f.searches:
		return g
	case <-time.After(10 * time.Second):
		t.Fatal("no search started")
		return nil
	}
}

// A server runs one review at a time and queues a bounded number more,
// each knowing its place; beyond, it refuses.
func TestReviewQueue(t *testing.T) {
	eng := newGatedEngine()
	e := newEnv(t, testsite.Config{Engine: eng, Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Queue: 2})}})
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	var ids []string
	for range 4 {
		ids = append(ids, fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3"))
	}
	for i, id := range ids[:3] {
		st, err := e.svc.Analysis.RequestReview(e.ctx, id, analysis.Requester{})
		if err != nil || st.Status != analysis.ReviewQueued || st.Place != max(i, 1) { // the first runs once it is queued
			t.Errorf("request %d: %s place %d, %v", i, st.Status, st.Place, err)
		}
		if i == 0 {
			eng.next(t) // the first runs, and waits for its first position
		}
	}
	_, err := e.svc.Analysis.RequestReview(e.ctx, ids[3], analysis.Requester{})
	refused(t, "a full queue", err, errs.TooMany, "review_queue_full")
	// Asked again, each answers where it stands.
	eng.answer <- struct{}{}
	eng.next(t)
	for i, want := range []analysis.ReviewState{{Status: analysis.ReviewRunning, Progress: 1.0 / 3}, {Status: analysis.ReviewQueued, Place: 1}, {Status: analysis.ReviewQueued, Place: 2}} {
		st, err := e.svc.Analysis.Review(e.ctx, ids[i])
		if err != nil || st.Status != want.Status || st.Place != want.Place || st.Progress != want.Progress {
			t.Errorf("review %d: %s place %d progress %v (%v), want %+v", i, st.Status, st.Place, st.Progress, err, want)
		}
	}
	if st, _ := e.svc.Analysis.Review(e.ctx, ids[0]); len(st.Plies) != 0 {
		t.Errorf("one position in: %d plies reviewed", len(st.Plies))
	}
	eng.answer <- struct{}{}
	eng.next(t)
	if st, _ := e.svc.Analysis.Review(e.ctx, ids[0]); len(st.Plies) != 1 || st.Plies[0].Action != "b:g1f1" {
		t.Errorf("two positions in: %+v", st.Plies)
	}
	// The rest run in turn: 9 positions in all, 3 started, 2 answered.
	for range 6 {
		eng.answer <- struct{}{}
		eng.next(t)
	}
	eng.answer <- struct{}{}
	for _, id := range ids[:3] {
		if st := waitReview(t, e.svc, id); len(st.Plies) != 2 {
			t.Errorf("%d plies reviewed", len(st.Plies))
		}
	}
	if _, err := e.svc.Analysis.RequestReview(e.ctx, ids[3], analysis.Requester{}); err != nil {
		t.Errorf("with room again: %v", err)
	}
}

// Two servers on one store: a review one server runs is seen as running
// by the other; when the first stops renewing its lease (it died), the
// other resumes the review from the positions the first saved.
func TestReviewResumedByAnotherServer(t *testing.T) {
	shared := store.NewMemory()
	clkA, clkB := &manualClock{now: epoch}, &manualClock{now: epoch}
	engA, engB := newGatedEngine(), newCountingEngine()
	a := testsite.New(shared, testsite.Config{Now: clkA.Now, Engine: engA})
	b := testsite.New(shared, testsite.Config{Now: clkB.Now, Engine: engB, Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Depth: 2}})}})
	t.Cleanup(b.Close)
	ctx := context.Background()
	id := createFrom(t, a, "b:g1f1", "m:f2f3", "b:h8g8")
	if _, err := a.Analysis.RequestReview(ctx, id, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		engA.next(t)
		engA.answer <- struct{}{}
	}
	engA.next(t) // A has saved two positions of four and searches the third

	st, err := b.Analysis.Review(ctx, id)
	if err != nil || st.Status != analysis.ReviewRunning || st.Progress != 0.5 || len(st.Plies) != 1 {
		t.Errorf("B sees A's review: %s %v, %d plies (%v)", st.Status, st.Progress, len(st.Plies), err)
	}
	if _, err := b.Analysis.RequestReview(ctx, id, analysis.Requester{}); err != nil || engB.searches() != 0 {
		t.Errorf("B asked while A holds it: %v, %d searches", err, engB.searches())
	}
	// A dies (its lease is not renewed); once the lease has run out, B's
	// next look resumes it.
	clkB.advance(analysis.DefaultReviewLease + time.Second)
	if _, err := b.Analysis.Review(ctx, id); err != nil {
		t.Fatal(err)
	}
	done := waitReview(t, b, id)
	if len(done.Plies) != 3 || engB.searches() != 2 {
		t.Errorf("B finished with %d plies and %d searches, want 3 and 2 (A's two kept)", len(done.Plies), engB.searches())
	}
	// A, stopped, cannot let go of what it no longer holds.
	a.Close()
	if st, err := b.Analysis.Review(ctx, id); err != nil || st.Status != analysis.ReviewDone {
		t.Errorf("after A stopped: %s, %v", st.Status, err)
	}
}

// A server that stops lets go of its reviews: another resumes them at once.
func TestReviewReleasedOnClose(t *testing.T) {
	shared := store.NewMemory()
	clk := &manualClock{now: epoch}
	engA := newGatedEngine()
	a := testsite.New(shared, testsite.Config{Now: clk.Now, Engine: engA})
	b := testsite.New(shared, testsite.Config{Now: clk.Now, Engine: newCountingEngine(), Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Depth: 2}})}})
	t.Cleanup(b.Close)
	ctx := context.Background()
	id := createFrom(t, a, "b:g1f1")
	if _, err := a.Analysis.RequestReview(ctx, id, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	engA.next(t)
	a.Close()
	if st := waitReview(t, b, id); len(st.Plies) != 1 {
		t.Errorf("%d plies", len(st.Plies))
	}
}

// Reviews search through the engine's pool one position at a time, as
// analyses: the computer's plies, which go first, are not held up behind
// a whole review.
func TestReviewLetsTheComputerPlay(t *testing.T) {
	eng := newCountingEngine()
	e := newEnv(t, testsite.Config{Engine: eng, Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Limits: engine.Limits{Nodes: 300_000}})}})
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	long := e.createGame(cred, selfPlayed(t, 30))
	if _, err := e.svc.Analysis.RequestReview(e.ctx, long, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	for eng.searches() == 0 {
		time.Sleep(time.Millisecond)
	}
	// Black (the computer) bans first.
	bot, _, err := e.svc.Games.CreateBot(e.ctx, cred, rules.New(rules.BanChess{}), games.BotSettings{Color: rules.White, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	for {
		var ply int
		if err := e.svc.Games.View(e.ctx, bot, cred, func(rec *games.Record, _ games.Seats) { ply = rec.Game.Ply() }); err != nil {
			t.Fatal(err)
		}
		if ply > 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	st, err := e.svc.Analysis.Review(e.ctx, long)
	if err != nil || st.Status == analysis.ReviewDone {
		t.Errorf("the computer played only once the review was %s (%v)", st.Status, err)
	}
}

// selfPlayed is a game of plies plies, the engine's first choice each.
func selfPlayed(t testing.TB, plies int) *rules.Game {
	t.Helper()
	g := rules.New(rules.BanChess{})
	s := engine.NewSearcher(1)
	for range plies {
		st, err := engine.FromGame(g)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), st, engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(res.Best); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// BenchmarkReviewService reviews a 60-ply game through the service, on
// SQLite and a pool of one worker at review.DefaultLimits, as a server
// does: from the request to the review stored, and then a second request,
// answered from the store.
func BenchmarkReviewService(b *testing.B) {
	g := selfPlayed(b, 60)
	if g.Outcome().Over() {
		b.Fatalf("the game ended at ply %d", g.Ply())
	}
	var again time.Duration
	for b.Loop() {
		db, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "games.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		svc := testsite.New(db, testsite.Config{Engine: engine.NewPool(1, 4, 32)})
		id, err := svc.Games.Create(context.Background(), issue(b, svc), g)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Analysis.RequestReview(context.Background(), id, analysis.Requester{}); err != nil {
			b.Fatal(err)
		}
		for {
			st, err := svc.Analysis.Review(context.Background(), id)
			if err != nil {
				b.Fatal(err)
			}
			if st.Status == analysis.ReviewDone {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		start := time.Now()
		if st, err := svc.Analysis.RequestReview(context.Background(), id, analysis.Requester{}); err != nil || st.Status != analysis.ReviewDone || len(st.Plies) != 60 {
			b.Fatalf("second request: %s, %d plies, %v", st.Status, len(st.Plies), err)
		}
		again += time.Since(start)
		svc.Close()
		db.Close()
	}
	b.ReportMetric(float64(again.Microseconds())/float64(b.N), "µs/second-request")
}

// One player, or one address, holds at most two reviews (queued or
// running) at once: the third is refused with its code, whoever else
// still has room.
func TestReviewsPerRequester(t *testing.T) {
	eng := newGatedEngine()
	e := newEnv(t, testsite.Config{Engine: eng})
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	var ids []string
	for range 8 {
		ids = append(ids, fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3"))
	}
	a := analysis.Requester{Player: "p1", Addr: "198.51.100.1"}
	for i, id := range ids[:2] {
		if _, err := e.svc.Analysis.RequestReview(e.ctx, id, a); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	for i, id := range ids[2:] {
		_, err := e.svc.Analysis.RequestReview(e.ctx, id, a)
		refused(t, "a third review of one client", err, errs.TooMany, "too_many_reviews")
		if i == 0 {
			if ee := errs.Of(err); ee == nil || ee.RetryAfter <= 0 {
				t.Errorf("no Retry-After: %+v", ee)
			}
		}
	}
	_, err := e.svc.Analysis.RequestReview(e.ctx, ids[2], analysis.Requester{Player: "p2", Addr: a.Addr})
	refused(t, "another player at the same address", err, errs.TooMany, "too_many_reviews")
	_, err = e.svc.Analysis.RequestReview(e.ctx, ids[2], analysis.Requester{Player: a.Player, Addr: "198.51.100.2"})
	refused(t, "the same player at another address", err, errs.TooMany, "too_many_reviews")
	if _, err := e.svc.Analysis.RequestReview(e.ctx, ids[2], analysis.Requester{Player: "p3", Addr: "198.51.100.3"}); err != nil {
		t.Errorf("another client: %v", err)
	}
}

// The queue takes turns among requesters: with client A's first review
// running and its second queued, client B's, asked for after, runs
// before A's second.
func TestReviewQueueTakesTurns(t *testing.T) {
	eng := newGatedEngine()
	e := newEnv(t, testsite.Config{Engine: eng})
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	a1, a2, b1 := fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3"), fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3"), fromFEN(t, e, cred, backRank, "b:g1f1", "m:f2f3")
	a, b := analysis.Requester{Player: "pa", Addr: "198.51.100.1"}, analysis.Requester{Player: "pb", Addr: "198.51.100.2"}
	if _, err := e.svc.Analysis.RequestReview(e.ctx, a1, a); err != nil {
		t.Fatal(err)
	}
	eng.next(t) // A's first runs
	if _, err := e.svc.Analysis.RequestReview(e.ctx, a2, a); err != nil {
		t.Fatal(err)
	}
	st, err := e.svc.Analysis.RequestReview(e.ctx, b1, b)
	if err != nil || st.Place != 1 {
		t.Errorf("B's review: place %d (%v), want 1", st.Place, err)
	}
	if st, _ := e.svc.Analysis.Review(e.ctx, a2); st.Place != 2 {
		t.Errorf("A's second: place %d, want 2", st.Place)
	}
	// A's first has 3 positions; then the next review starts.
	for range 2 {
		eng.answer <- struct{}{}
		eng.next(t)
	}
	eng.answer <- struct{}{}
	eng.next(t)
	if st, _ := e.svc.Analysis.Review(e.ctx, b1); st.Status != analysis.ReviewRunning {
		t.Errorf("after A's first, B's is %s, want running", st.Status)
	}
	if st, _ := e.svc.Analysis.Review(e.ctx, a2); st.Status != analysis.ReviewQueued || st.Place != 1 {
		t.Errorf("after A's first, A's second is %s at %d, want queued at 1", st.Status, st.Place)
	}
}

// A review's cost is bounded by plies: of a game longer than
// ReviewSettings.Plies, only the first Plies are searched (Plies+1
// positions), and the review ends done there. Ban Chess's draws
// (repetition, the fifty-move rule) keep the test from building a
// 2,000-ply game; the bound is the same code at any length: a 2,000-ply
// game is searched at DefaultReviewPlies+1 positions.
func TestReviewCostBoundedByPlies(t *testing.T) {
	eng := newCountingEngine()
	e := newEnv(t, testsite.Config{Engine: eng, Analysis: []analysis.Option{analysis.WithReviewSettings(analysis.ReviewSettings{Plies: 20, Limits: engine.Limits{Depth: 1}})}})
	t.Cleanup(e.svc.Close)
	long := e.createGame(e.cred(), selfPlayed(t, 60))
	if _, err := e.svc.Analysis.RequestReview(e.ctx, long, analysis.Requester{}); err != nil {
		t.Fatal(err)
	}
	st := waitReview(t, e.svc, long)
	if n := eng.searches(); n != 21 {
		t.Errorf("%d positions searched of a 60-ply game, want 21", n)
	}
	if len(st.Plies) != 20 || st.Progress != 1 {
		t.Errorf("%d plies reviewed, progress %v; want 20, 1", len(st.Plies), st.Progress)
	}
	if analysis.DefaultReviewPlies != 400 {
		t.Errorf("DefaultReviewPlies %d, documented as 400", analysis.DefaultReviewPlies)
	}
}
