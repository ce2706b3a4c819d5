package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/training"
)

// trainingStores are the stores training's behaviours are tested on.
var trainingStores = []struct {
	name string
	open func(t *testing.T) training.Store
}{
	{"memory", func(*testing.T) training.Store { return NewMemory() }},
	{"sqlite", func(t *testing.T) training.Store { return openSQLite(t, ":memory:", Options{}) }},
	{"postgres", func(t *testing.T) training.Store { return openPostgres(t, PostgresOptions{}) }},
}

// plusOne rates an attempt by adding 1 to the player's rating and 2 to
// the puzzle's: what the store does with the result is what is tested.
func plusOne(l training.Learner, p training.PuzzleStats) (rating.Rating, rating.Rating, error) {
	l.Rating.Rating++
	p.Rating.Rating += 2
	return l.Rating, p.Rating, nil
}

var puzzleStart = training.PuzzleStats{ID: "pz1", Rating: rating.Rating{Rating: 1200, Deviation: 150, Volatility: 0.06}}

// TestTrainingStores: lesson steps are kept once each, by lesson; a
// player's first attempt at a puzzle is rated (the puzzle's start rating
// when it was never rated, a new learner at rating.New()) and counted,
// later ones kept unrated with the ratings as they stand; the last
// attempt is what LastAttempt returns; Attempted lists the puzzles tried;
// and racing first attempts at one puzzle are each rated once, against
// each other's result.
func TestTrainingStores(t *testing.T) {
	for _, st := range trainingStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_700_000_000_000)

			for _, step := range []int{2, 0, 2} {
				if err := s.CompleteStep(ctx, "ann", "pairs", step, at); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.CompleteStep(ctx, "ann", "ply-order", 1, at); err != nil {
				t.Fatal(err)
			}
			l, err := s.Learner(ctx, "ann")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.Steps["pairs"], []int{0, 2}) || !slices.Equal(l.Steps["ply-order"], []int{1}) || l.Player != "ann" || l.Puzzles != 0 {
				t.Errorf("learner %+v", l)
			}

			if _, ok, err := s.PuzzleStats(ctx, "pz1"); ok || err != nil {
				t.Errorf("a puzzle never rated: %v %v", ok, err)
			}
			first, err := s.RecordAttempt(ctx, training.Attempt{Player: "ann", Puzzle: "pz1", At: at, FailedAt: 0, Actions: []string{"b:e2e4"}, Reason: "Not this.", Refutation: []string{"m:d2d4", "b:e7e5"}}, puzzleStart, plusOne)
			if err != nil {
				t.Fatal(err)
			}
			if !first.Rated || first.Before.Rating != 1500 || first.After.Rating != 1501 || first.PuzzleBefore.Rating != 1200 || first.PuzzleAfter.Rating != 1202 {
				t.Errorf("first attempt %+v", first)
			}
			if kept, ok, err := s.LastAttempt(ctx, "ann", "pz1"); err != nil || !ok || kept.Reason != "Not this." || !slices.Equal(kept.Refutation, []string{"m:d2d4", "b:e7e5"}) {
				t.Errorf("the failed attempt as kept %+v %v %v", kept, ok, err)
			}
			again, err := s.RecordAttempt(ctx, training.Attempt{Player: "ann", Puzzle: "pz1", At: at.Add(time.Minute), Solved: true, FailedAt: -1, Actions: []string{"b:d2d4", "m:e7e5"}}, puzzleStart, plusOne)
			if err != nil {
				t.Fatal(err)
			}
			if again.Rated || again.Before.Rating != 1501 || again.After.Rating != 1501 || again.PuzzleAfter.Rating != 1202 {
				t.Errorf("second attempt %+v", again)
			}
			l, _ = s.Learner(ctx, "ann")
			if l.Rating.Rating != 1501 || l.Puzzles != 1 || l.Solved != 0 || !l.RatedAt.Equal(at) {
				t.Errorf("learner after two attempts %+v", l)
			}
			p, ok, _ := s.PuzzleStats(ctx, "pz1")
			if !ok || p.Rating.Rating != 1202 || p.Plays != 1 || p.Solved != 0 {
				t.Errorf("puzzle after two attempts %+v", p)
			}
			last, ok, err := s.LastAttempt(ctx, "ann", "pz1")
			if err != nil || !ok || !last.Solved || last.FailedAt != -1 || !slices.Equal(last.Actions, []string{"b:d2d4", "m:e7e5"}) || last.Reason != "" || len(last.Refutation) != 0 || last.Rated || !last.At.Equal(at.Add(time.Minute)) {
				t.Errorf("last attempt %+v %v %v", last, ok, err)
			}
			if _, ok, _ := s.LastAttempt(ctx, "bob", "pz1"); ok {
				t.Error("bob has an attempt")
			}
			if ids, _ := s.Attempted(ctx, "ann"); !slices.Equal(ids, []string{"pz1"}) {
				t.Errorf("attempted %v", ids)
			}

			// Racers: ten players' first attempts at one puzzle at once.
			var wg sync.WaitGroup
			errs := make(chan error, 10)
			for i := range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := s.RecordAttempt(ctx, training.Attempt{Player: fmt.Sprint("racer", i), Puzzle: "pz2", At: at, Solved: true, FailedAt: -1, Actions: []string{"m:e2e4"}}, puzzleStart, plusOne)
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			p, _, _ = s.PuzzleStats(ctx, "pz2")
			if p.Plays != 10 || p.Solved != 10 || p.Rating.Rating != 1220 {
				t.Errorf("raced puzzle %+v: want 10 plays, 10 solved, 1220", p)
			}
		})
	}
}

// TestRunStores: a run is kept and replaced whole by its id (its start
// kept); a best score is kept where it beats the best, ever and by day,
// each player's and kind's apart.
func TestRunStores(t *testing.T) {
	for _, st := range trainingStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			if _, ok, err := s.Run(ctx, "nope"); err != nil || ok {
				t.Fatalf("Run(nope) = %v, %v; want none", ok, err)
			}
			r := training.Run{ID: "r1", Player: "ann", Kind: training.StormRun, Seed: -42, Started: time.UnixMilli(1_700_000_000_123)}
			if err := s.SaveRun(ctx, r); err != nil {
				t.Fatal(err)
			}
			r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over = 3, 2, 7, -7000, true, true
			if err := s.SaveRun(ctx, r); err != nil {
				t.Fatal(err)
			}
			was := r
			was.Pos, r.Pos, r.Score = 2, 4, 3 // read when the run was at its second puzzle
			if ok, err := s.UpdateRun(ctx, r, was); err != nil || ok {
				t.Fatalf("UpdateRun from a stale run = %v, %v; want refused", ok, err)
			}
			r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over = 3, 2, 7, -7000, true, true
			got, ok, err := s.Run(ctx, "r1")
			if err != nil || !ok || !got.Started.Equal(r.Started) {
				t.Fatalf("Run = %+v, %v, %v", got, ok, err)
			}
			got.Started = r.Started
			if got != r {
				t.Errorf("Run = %+v, want %+v", got, r)
			}
			was, r.Pos, r.Score, r.Combo, r.BonusMS, r.Skipped, r.Over = r, 4, 3, 0, 3000, false, false
			if ok, err := s.UpdateRun(ctx, r, was); err != nil || !ok {
				t.Fatalf("UpdateRun = %v, %v", ok, err)
			}
			if got, _, _ := s.Run(ctx, "r1"); got.Pos != 4 || got.Score != 3 || got.BonusMS != 3000 || got.Over || got.Seed != -42 {
				t.Errorf("after UpdateRun: %+v", got)
			}
			for _, sc := range []struct {
				day   string
				score int
			}{{"2026-12-02", 5}, {"2026-12-03", 3}, {"2026-12-03", 4}, {"2026-12-03", 2}} {
				if err := s.RecordScore(ctx, "ann", training.StormRun, sc.day, sc.score); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.RecordScore(ctx, "bob", training.StormRun, "2026-12-03", 9); err != nil {
				t.Fatal(err)
			}
			if err := s.RecordScore(ctx, "ann", training.StreakRun, "2026-12-03", 11); err != nil {
				t.Fatal(err)
			}
			b, err := s.Bests(ctx, "ann", training.StormRun, "2026-12-03")
			if err != nil || b != (training.Bests{Best: 5, Today: 4}) {
				t.Errorf("Bests(ann, storm) = %+v, %v; want 5 ever, 4 today", b, err)
			}
			if b, err := s.Bests(ctx, "cy", training.StormRun, "2026-12-03"); err != nil || b != (training.Bests{}) {
				t.Errorf("Bests(cy) = %+v, %v; want none", b, err)
			}
		})
	}
}

// TestFirstAttempts: the rated attempt at each puzzle is kept as it was,
// whatever later tries of it say.
func TestFirstAttempts(t *testing.T) {
	for _, st := range trainingStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_700_000_000_000)
			pz2 := puzzleStart
			pz2.ID = "pz2"
			for _, a := range []training.Attempt{
				{Player: "ann", Puzzle: "pz1", At: at, Solved: true, FailedAt: -1, Actions: []string{"b:e2e4"}},
				{Player: "ann", Puzzle: "pz1", At: at, FailedAt: 0, Actions: []string{"b:d2d4"}},
				{Player: "ann", Puzzle: "pz2", At: at, FailedAt: 0, Actions: []string{"b:d2d4"}},
				{Player: "bob", Puzzle: "pz2", At: at, Solved: true, FailedAt: -1, Actions: []string{"b:e2e4"}},
			} {
				start := puzzleStart
				if a.Puzzle == "pz2" {
					start = pz2
				}
				if _, err := s.RecordAttempt(ctx, a, start, plusOne); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.FirstAttempts(ctx, "ann")
			want := []training.FirstAttempt{{Puzzle: "pz1", Solved: true, Change: 1}, {Puzzle: "pz2", Change: 1}}
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("FirstAttempts(ann) = %+v, %v; want %+v", got, err, want)
			}
		})
	}
}
