package games_test

import (
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// TestSweepEndsGamesDue: a rated game whose clock ran out, and one whose
// first action is overdue, are ended by a sweep with no one reading them
// and no flag timer firing (the server that armed it is gone): the flag
// falls and the result and ratings are recorded once, though two
// services sharing the store sweep at once; the overdue game is aborted
// and rates no one. A game not yet due is left alone.
func TestSweepEndsGamesDue(t *testing.T) {
	t.Run("a clock that ran out", func(t *testing.T) {
		rt := newRatedTable(t)
		rt.mustPlay(rt.black, "b:e2e4")
		rt.mustPlay(rt.white, "m:d2d4") // both have acted: White's clock (5+3) runs
		other := games.New(rt.store, rt.players, games.WithClock(rt.clk.Now))
		t.Cleanup(other.Close)
		rt.clk.advance(5*time.Minute - time.Second)
		if n, err := rt.svc.Clocks().Sweep(rt.ctx, rt.store); n != 0 || err != nil {
			t.Fatalf("a second before the flag: the sweep ended %d games (%v)", n, err)
		}
		rt.clk.advance(2 * time.Second)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ended := 0
		for _, svc := range []*games.Service{rt.svc.Service, other} {
			wg.Go(func() {
				n, err := svc.Clocks().Sweep(rt.ctx, rt.store)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				ended += n
				mu.Unlock()
			})
		}
		wg.Wait()
		if ended != 1 {
			t.Errorf("two sweeps at once ended %d games, want 1", ended)
		}
		if out := rt.view().Game.Outcome(); out.Status != rules.TimeForfeit || out.Winner != rules.Black {
			t.Fatalf("the game ended %+v, want White's flag fallen", out)
		}
		for _, p := range []players.Player{rt.ann, rt.bob} {
			list, err := rt.players.PlayedGames(rt.ctx, p.ID, players.PlayedGamesCursor{}, 10)
			if err != nil || len(list) != 1 {
				t.Errorf("%s's games: %+v, %v; want one result", p.Name, list, err)
			}
			st, err := rt.players.Standings(rt.ctx, p.ID)
			if err != nil || len(st) != 1 || st[0].Games != 1 {
				t.Errorf("%s's standings: %+v, %v; want one rated game", p.Name, st, err)
			}
		}
		if n, err := other.Clocks().Sweep(rt.ctx, rt.store); n != 0 || err != nil {
			t.Errorf("sweeping again ended %d games (%v)", n, err)
		}
	})
	t.Run("a first action overdue", func(t *testing.T) {
		rt := newRatedTable(t)
		rt.clk.advance(games.FirstActionWait + time.Second)
		if n, err := rt.svc.Clocks().Sweep(rt.ctx, rt.store); n != 1 || err != nil {
			t.Fatalf("the sweep ended %d games (%v), want 1", n, err)
		}
		if out := rt.view().Game.Outcome(); out.Status != rules.Aborted {
			t.Errorf("the game ended %+v, want aborted", out)
		}
		if played, rated := rt.results(); played != 0 || rated != 0 {
			t.Errorf("%d results, %d rated games: want none", played, rated)
		}
	})
}

// TestSweepEndsManyGames: more games due than one claim takes all end in
// one sweep.
func TestSweepEndsManyGames(t *testing.T) {
	rt := newRatedTable(t)
	for range 150 {
		rec := &games.Record{Game: rules.New(rules.BanChess{}), White: rt.ann.ID, Black: rt.ann.ID, Mode: games.HotSeat, Created: epoch, Updated: epoch, Revision: 1}
		rec.Clock = games.NewClock(games.TimeControl{Initial: time.Minute})
		rec.Clock.Running, rec.Clock.Since = rules.White, epoch
		if err := rt.store.Create(rt.ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	rt.clk.advance(time.Minute)
	if n, err := rt.svc.Clocks().Sweep(rt.ctx, rt.store); n != 151 || err != nil {
		t.Errorf("the sweep ended %d games (%v), want 151 (the rated game's first action overdue too)", n, err)
	}
}

// TestDue: a record's Due is when its clock would end it, by the same
// rules as a flag timer: the running side's time out, a first action
// overdue, never for a game over or a stopped clock.
func TestDue(t *testing.T) {
	rt := newRatedTable(t)
	if got, want := due(rt.view()), epoch.Add(games.FirstActionWait); !got.Equal(want) {
		t.Errorf("paired: due %v, want %v (Black's first ban)", got, want)
	}
	rt.clk.advance(10 * time.Second)
	rt.mustPlay(rt.black, "b:e2e4")
	if got, want := due(rt.view()), epoch.Add(10*time.Second+games.FirstActionWait); !got.Equal(want) {
		t.Errorf("after Black's ban: due %v, want %v (White's first move)", got, want)
	}
	rt.mustPlay(rt.white, "m:d2d4")
	rt.clk.advance(time.Minute)
	rt.mustPlay(rt.white, "b:e7e5") // White's ban: 5 min less a minute left, then Black's time runs
	rec := rt.view()
	left := rec.Clock.Black
	if got, want := due(rec), rt.clk.Now().Add(left); !got.Equal(want) || left != 5*time.Minute {
		t.Errorf("Black's time running: due %v, want %v (left %v)", got, want, left)
	}
	if err := rt.svc.Resign(rt.ctx, rt.id, rt.black, rules.Black, nil); err != nil {
		t.Fatal(err)
	}
	if got := due(rt.view()); !got.IsZero() {
		t.Errorf("over: due %v, want none", got)
	}
}

func due(rec games.Record) time.Time { return rec.Due() }
