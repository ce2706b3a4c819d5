package games_test

import (
	"errors"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// TestBerserk: only a tournament's game may be berserked, by a player of
// it before their first action, once: their time is halved and they get
// no increment, while the other side keeps theirs.
func TestBerserk(t *testing.T) {
	rt := newRatedTable(t)
	detail := func(err error) errs.Detail {
		var e *errs.Error
		if errors.As(err, &e) {
			return e.Detail
		}
		return "none"
	}
	if err := rt.svc.Clocks().Berserk(rt.ctx, rt.id, rt.white); detail(err) != errs.NotTournamentGame {
		t.Errorf("a lobby game berserked: %v", err)
	}
	// A tournament's game between the same two.
	var rec *games.Record
	if err := rt.store.View(rt.ctx, rt.id, func(r *games.Record) error { rec = r.Clone(); return nil }); err != nil {
		t.Fatal(err)
	}
	rec.ID, rec.Tournament = "", "t1"
	if err := rt.store.Create(rt.ctx, rec); err != nil {
		t.Fatal(err)
	}
	rt.id = rec.ID
	if err := rt.svc.Clocks().Berserk(rt.ctx, rt.id, ""); err == nil {
		t.Error("a watcher berserked")
	}
	if err := rt.svc.Clocks().Berserk(rt.ctx, rt.id, rt.white); err != nil {
		t.Fatal(err)
	}
	if err := rt.svc.Clocks().Berserk(rt.ctx, rt.id, rt.white); detail(err) != errs.BerserkLate {
		t.Errorf("berserk twice: %v", err)
	}
	rt.mustPlay(rt.black, "b:e2e4")
	if err := rt.svc.Clocks().Berserk(rt.ctx, rt.id, rt.black); detail(err) != errs.BerserkLate {
		t.Errorf("berserk after the first action: %v", err)
	}
	rt.mustPlay(rt.white, "m:d2d4", "b:e7e5")
	rt.mustPlay(rt.black, "m:d7d5", "b:c2c4")
	rt.mustPlay(rt.white, "m:g1f3")
	var clk games.Clock
	if err := rt.store.View(rt.ctx, rt.id, func(r *games.Record) error { clk = *r.Clock; return nil }); err != nil {
		t.Fatal(err)
	}
	// No time passed: White has half of 5 minutes and no increment; Black
	// 5 minutes and one increment (his move after both had acted).
	if clk.White != 150*time.Second || clk.Black != 303*time.Second || clk.Berserk != (games.Seats{White: true}) {
		t.Errorf("clock: white %v, black %v, berserk %+v", clk.White, clk.Black, clk.Berserk)
	}
}
