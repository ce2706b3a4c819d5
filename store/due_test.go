package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// clocked stores a game between ann and bob whose clock is set by set.
func clocked(t *testing.T, s fullStore, set func(c *games.Clock)) string {
	t.Helper()
	c := games.NewClock(games.TimeControl{Initial: time.Minute})
	set(c)
	rec := &games.Record{Game: rules.New(rules.BanChess{}), Mode: games.Invite, White: "ann", Black: "bob", Created: epoch, Updated: epoch, Revision: 1}
	rec.Clock = c
	if err := s.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// claimIs checks what ClaimDue(now, until, limit) claims.
func claimIs(t *testing.T, s fullStore, now, until time.Time, limit int, want ...string) {
	t.Helper()
	got, err := s.ClaimDue(context.Background(), now, until, limit)
	if err != nil {
		t.Fatalf("ClaimDue at %v: %v", now.Sub(epoch), err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ClaimDue at %v claimed %q, want %q", now.Sub(epoch), got, want)
	}
}

// TestClaimDue: every store finds the games its clocks should end once
// they are due (a running side's time out, a first action overdue), the
// soonest first, and not a game without a clock, stopped or over; a claim
// holds a game until its lease ends, and a save writes its time afresh;
// two claims at once never take one game twice.
func TestClaimDue(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			running := clocked(t, s, func(c *games.Clock) { c.Running, c.Since = rules.White, epoch }) // due at 1 min
			first := clocked(t, s, func(c *games.Clock) { c.FirstBy = epoch.Add(30 * time.Second) })
			clocked(t, s, func(c *games.Clock) {}) // stopped, waiting for no one
			over := clocked(t, s, func(c *games.Clock) { c.Running, c.Since = rules.Black, epoch })
			if err := s.Update(ctx, over, func(rec *games.Record) error {
				rec.Revision++
				return rec.Game.Resign(rules.Black)
			}); err != nil {
				t.Fatal(err)
			}
			newGame(t, s) // no clock

			at := func(d time.Duration) time.Time { return epoch.Add(d) }
			claimIs(t, s, at(29*time.Second), at(time.Hour), 10)
			claimIs(t, s, at(30*time.Second), at(35*time.Second), 10, first)
			claimIs(t, s, at(34*time.Second), at(time.Hour), 10)      // claimed
			claimIs(t, s, at(2*time.Minute), at(time.Hour), 1, first) // its lease ran out
			claimIs(t, s, at(2*time.Minute), at(2*time.Minute+5*time.Second), 10, running)
			claimIs(t, s, at(2*time.Minute+4*time.Second), at(time.Hour), 10)

			// A save writes the game's time afresh: White's clock now
			// runs from 3 minutes, with its minute.
			if err := s.Update(ctx, running, func(rec *games.Record) error {
				rec.Revision++
				rec.Clock.Since = at(3 * time.Minute)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			claimIs(t, s, at(3*time.Minute+59*time.Second), at(time.Hour), 10)
			claimIs(t, s, at(4*time.Minute), at(time.Hour), 10, running)

			// Twenty games due, claimed by two at once: each goes to one.
			var due []string
			for range 20 {
				due = append(due, clocked(t, s, func(c *games.Clock) { c.FirstBy = at(5 * time.Minute) }))
			}
			var mu sync.Mutex
			var wg sync.WaitGroup
			var claimed []string
			for range 2 {
				wg.Go(func() {
					ids, err := s.ClaimDue(ctx, at(6*time.Minute), at(time.Hour), 100)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					claimed = append(claimed, ids...)
					mu.Unlock()
				})
			}
			wg.Wait()
			slices.Sort(due)
			slices.Sort(claimed)
			if !slices.Equal(claimed, due) {
				t.Errorf("two claims at once took %d games (%d due): %q", len(claimed), len(due), claimed)
			}
		})
	}
}

// TestSQLiteDueIndex: the claim finds the games due through the index of
// the games a clock may end, not by reading every game.
func TestSQLiteDueIndex(t *testing.T) {
	s := openSQLite(t, ":memory:", Options{})
	q := fmt.Sprintf(claimDueSQL, "") // SQLite locks no rows
	plan := sqlitePlan(t, s, q, 1, 2, 3)
	if strings.Contains(plan, "SCAN games") || !strings.Contains(plan, "games_due_at") {
		t.Errorf("%s\nis planned as\n%s", q, plan)
	}
}
