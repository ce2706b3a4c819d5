package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/banchess/banchess/analysis"

	"github.com/banchess/banchess/review"
)

// storedReview is a review of game id by owner, held until lease.
func storedReview(id, key, owner string, lease time.Time) analysis.StoredReview {
	return analysis.StoredReview{GameID: id, Key: key, Status: analysis.ReviewQueued, Owner: owner, Lease: lease, Place: 2, Total: 3}
}

// TestReviewStores runs games.ReviewStore's contract on every store.
func TestReviewStores(t *testing.T) {
	ctx := context.Background()
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			gs := st.open(t)
			s := gs.(interface{ Reviews() analysis.ReviewStore }).Reviews()
			id := newGame(t, gs)
			load := func() (analysis.StoredReview, bool) {
				t.Helper()
				rev, ok, err := s.LoadReview(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				return rev, ok
			}
			claim := func(rev analysis.StoredReview, now time.Time, want bool) {
				t.Helper()
				if ok, err := s.ClaimReview(ctx, rev, now); err != nil || ok != want {
					t.Errorf("claim by %s of %s at %v: %v (%v), want %v", rev.Owner, rev.Key, now.Sub(epoch), ok, err, want)
				}
			}
			saveAs := func(rev analysis.StoredReview, want bool) {
				t.Helper()
				if ok, err := s.SaveReview(ctx, rev); err != nil || ok != want {
					t.Errorf("save by %s of %s: %v (%v), want %v", rev.Owner, rev.Key, ok, err, want)
				}
			}
			if _, ok := load(); ok {
				t.Fatal("a review before any was stored")
			}
			lease := epoch.Add(time.Minute)
			a := storedReview(id, "k1", "server:a", lease)
			saveAs(a, false) // nothing to save over
			claim(a, epoch, true)
			if got, ok := load(); !ok || !sameReview(got, a) {
				t.Errorf("stored %+v, read back %+v", a, got)
			}
			// Held by a: another server may not claim it until the lease
			// runs out; a may again.
			b := storedReview(id, "k1", "server:b", lease.Add(time.Minute))
			claim(b, epoch.Add(30*time.Second), false)
			claim(a, epoch.Add(30*time.Second), true)
			claim(b, lease, true) // a lease up to now has run out
			// Taken over: a's saves fail, b's go through.
			a.Status, a.Positions = analysis.ReviewRunning, []review.Position{{Eval: review.Eval{CP: 12}, Best: "b:e2e4"}}
			saveAs(a, false)
			b.Status, b.Place = analysis.ReviewRunning, 0
			b.Positions = []review.Position{
				{Eval: review.Eval{CP: 30}, Best: "b:e2e4", Line: []string{"b:e2e4", "m:d2d4"}, BanMates: []string{"m:a1a8"}},
				{Eval: review.Eval{Mate: -3}, Best: "m:d7d5", Mates: []string{"m:d8h4"}},
			}
			saveAs(b, true)
			if got, _ := load(); !sameReview(got, b) {
				t.Errorf("saved %+v, read back %+v", b, got)
			}
			// Done: no one claims it again, whatever the lease.
			b.Status, b.Positions = analysis.ReviewDone, append(b.Positions, review.Position{Eval: review.Eval{Result: "0-1"}})
			saveAs(b, true)
			claim(storedReview(id, "k1", "server:b", lease), lease.Add(time.Hour), false)
			claim(storedReview(id, "k1", "server:c", lease), lease.Add(time.Hour), false)
			if got, _ := load(); got.Status != analysis.ReviewDone || len(got.Positions) != 3 || got.Positions[2].Eval.Result != "0-1" {
				t.Errorf("done review read back as %+v", got)
			}
			// The game played on: a review of it replaces the old one, and
			// the old one's server can no longer save.
			c := storedReview(id, "k2", "server:c", lease)
			claim(c, epoch, true)
			saveAs(b, false)
			if got, _ := load(); got.Key != "k2" || got.Owner != "server:c" || len(got.Positions) != 0 {
				t.Errorf("after the game played on: %+v", got)
			}
		})
	}
}

// sameReview reports whether a and b are the same review (their leases
// the same instant).
func sameReview(a, b analysis.StoredReview) bool {
	la, lb := a.Lease, b.Lease
	a.Lease, b.Lease = time.Time{}, time.Time{}
	return la.Equal(lb) && reflect.DeepEqual(a, b)
}

// sweptStore is a store that sweeps and keeps reviews.
type sweptStore interface {
	fullStore
	analysis.ReviewStore
	Sweep(context.Context) (int, error)
}

// TestSweepRemovesReviews: a swept game's review goes with it.
func TestSweepRemovesReviews(t *testing.T) {
	ctx := context.Background()
	for _, open := range []func(clk *clock) sweptStore{
		func(clk *clock) sweptStore { return openSQLite(t, ":memory:", Options{TTL: time.Hour, Now: clk.Now}) },
		func(clk *clock) sweptStore { return openPostgres(t, PostgresOptions{TTL: time.Hour, Now: clk.Now}) },
	} {
		clk := &clock{now: epoch}
		s := open(clk)
		old, kept := newGame(t, s), newGame(t, s)
		for _, id := range []string{old, kept} {
			if ok, err := s.ClaimReview(ctx, storedReview(id, "k", "server:a", epoch), epoch); !ok || err != nil {
				t.Fatalf("claim: %v %v", ok, err)
			}
		}
		clk.advance(50 * time.Minute)
		viewState(t, s, kept)
		clk.advance(20 * time.Minute)
		if n, err := s.Sweep(ctx); n != 1 || err != nil {
			t.Fatalf("swept %d (%v), want 1", n, err)
		}
		if _, ok, err := s.LoadReview(ctx, old); ok || err != nil {
			t.Errorf("the swept game's review: %v (%v)", ok, err)
		}
		if _, ok, err := s.LoadReview(ctx, kept); !ok || err != nil {
			t.Errorf("the kept game's review: %v (%v)", ok, err)
		}
	}
}
