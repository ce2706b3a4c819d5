package games_test

import (
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

const day = 24 * time.Hour

// TestParseDays: correspondence's controls are read as "3d" and
// "unlimited", written back so, classed as correspondence; other days are
// refused (bad_clock).
func TestParseDays(t *testing.T) {
	for _, tc := range []struct {
		in      string
		days    int
		initial time.Duration
		err     string
	}{
		{"1d", 1, day, ""},
		{"3d", 3, 3 * day, ""},
		{"14D", 14, 14 * day, ""},
		{"unlimited", games.UnlimitedDays, 0, ""},
		{"4d", 0, 0, "bad_clock"},
		{"0d", 0, 0, "bad_clock"},
		{"15d", 0, 0, "bad_clock"},
		{"d", 0, 0, "bad_clock"},
		{"-1d", 0, 0, "bad_clock"},
	} {
		got, ok, err := games.ParseTimeControl(tc.in)
		if code(err) != tc.err {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.err)
			continue
		}
		if tc.err != "" {
			continue
		}
		if !ok || got.Days != tc.days || got.Initial != tc.initial || got.Increment != 0 || !got.Correspondence() {
			t.Errorf("%q: %+v (%v)", tc.in, got, ok)
		}
		if again, _, _ := games.ParseTimeControl(got.String()); again != got {
			t.Errorf("%q written as %q reads back as %+v", tc.in, got.String(), again)
		}
		if got.Speed() != rating.Correspondence || got.PGN() != "-" {
			t.Errorf("%q: speed %q, PGN %q", tc.in, got.Speed(), got.PGN())
		}
	}
	if live, _, _ := games.ParseTimeControl("5+3"); live.Correspondence() || live.Speed() != rating.Blitz {
		t.Errorf("5+3 is %+v, speed %q", live, live.Speed())
	}
}

// TestCorrespondenceClock: a side's time is the days of a turn, reset once
// its turn (its move and the ban after it) is over; a side out of time
// loses; a game in which a side has yet to make its first action is
// aborted when that action is overdue; an unlimited game never ends on
// time.
func TestCorrespondenceClock(t *testing.T) {
	type step struct {
		wait  time.Duration // the time that passes first
		white bool          // who acts: White, else Black
		bcn   string        // "" only waits
		err   string        // the refusal wanted
	}
	for _, tc := range []struct {
		name  string
		tc    string
		steps []step
		// white and black are the times left at the end; out the outcome.
		white, black time.Duration
		out          rules.Outcome
	}{
		{"the time is reset after each turn", "3d", []step{
			{day, false, "b:e2e4", ""},
			{day, true, "m:d2d4", ""}, // both have acted: White's time runs
			{2 * day, true, "b:d7d5", ""},
			{2*day + 12*time.Hour, false, "m:e7e5", ""},
			{time.Hour, false, "", ""},
		}, 3 * day, 12*time.Hour - time.Hour, rules.Outcome{}},
		{"the ban after the move is in the same turn", "1d", []step{
			{0, false, "b:e2e4", ""},
			{0, true, "m:d2d4", ""},
			{20 * time.Hour, true, "b:d7d5", ""},
			{20 * time.Hour, false, "m:e7e5", ""},
			{5 * time.Hour, false, "b:d4e5", "game_over"}, // 25 h in Black's turn
		}, day, 0, rules.Outcome{Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.White}},
		{"out of time loses", "2d", []step{
			{0, false, "b:e2e4", ""},
			{0, true, "m:d2d4", ""},
			{2*day + time.Second, true, "b:d7d5", "game_over"},
		}, 0, 2 * day, rules.Outcome{Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.Black}},
		{"aborted when nobody moved", "3d", []step{
			{3*day - time.Second, false, "", ""},
			{2 * time.Second, false, "b:e2e4", "game_over"},
		}, 3 * day, 3 * day, rules.Outcome{Status: rules.Aborted, Reason: rules.Abort}},
		{"aborted when White never moved", "7d", []step{
			{6 * day, false, "b:e2e4", ""},
			{7*day + time.Second, true, "m:d2d4", "game_over"},
		}, 7 * day, 7 * day, rules.Outcome{Status: rules.Aborted, Reason: rules.Abort}},
		{"unlimited never times out", "unlimited", []step{
			{400 * day, false, "b:e2e4", ""},
			{400 * day, true, "m:d2d4", ""},
			{400 * day, true, "b:d7d5", ""},
			{400 * day, false, "m:e7e5", ""},
		}, 0, 0, rules.Outcome{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, tc.tc)
			for _, s := range tc.steps {
				tb.clk.advance(s.wait)
				if s.bcn == "" {
					continue
				}
				cred := tb.black
				if s.white {
					cred = tb.white
				}
				if err := tb.play(cred, s.bcn); code(err) != s.err {
					t.Fatalf("%s: %v, want %q", s.bcn, err, s.err)
				}
			}
			rec := tb.view()
			if out := rec.Game.Outcome(); out != tc.out {
				t.Errorf("the game ended %+v, want %+v", out, tc.out)
			}
			if tc.out.Over() {
				if !rec.Due().IsZero() {
					t.Errorf("a game over is due at %v", rec.Due())
				}
				return
			}
			v := rec.Clock.At(tb.clk.Now())
			if v.White != tc.white || v.Black != tc.black {
				t.Errorf("White has %v, Black %v; want %v and %v", v.White, v.Black, tc.white, tc.black)
			}
			if tc.tc == "unlimited" && (!rec.Due().IsZero() || rec.Clock.Expired(tb.clk.Now())) {
				t.Errorf("an unlimited game is due at %v", rec.Due())
			}
		})
	}
}

// TestSweepEndsCorrespondence: with no page open and no flag timer (the
// server that armed it is gone), the sweep ends a correspondence game
// whose side ran out of its days, and the result is rated at the speed
// correspondence.
func TestSweepEndsCorrespondence(t *testing.T) {
	rt := newRatedTableOn(t, games.DaysPerMove(3))
	rt.mustPlay(rt.black, "b:e2e4")
	rt.mustPlay(rt.white, "m:d2d4", "b:d7d5")
	other := games.New(rt.store, rt.players, games.WithClock(rt.clk.Now)) // another server, which armed no timer
	t.Cleanup(other.Close)
	rt.clk.advance(3*day - time.Minute)
	if n, err := other.Clocks().Sweep(rt.ctx, rt.store); n != 0 || err != nil {
		t.Fatalf("a minute before Black's time is out: the sweep ended %d games (%v)", n, err)
	}
	rt.clk.advance(2 * time.Minute)
	if n, err := other.Clocks().Sweep(rt.ctx, rt.store); n != 1 || err != nil {
		t.Fatalf("the sweep ended %d games (%v), want 1", n, err)
	}
	if out := rt.view().Game.Outcome(); out.Status != rules.TimeForfeit || out.Winner != rules.White {
		t.Fatalf("the game ended %+v, want Black's flag fallen", out)
	}
	st, err := rt.players.Standings(rt.ctx, rt.ann.ID)
	if err != nil || len(st) != 1 || st[0].Speed != rating.Correspondence || st[0].Games != 1 {
		t.Errorf("Ann's standings: %+v, %v; want one correspondence game", st, err)
	}
}
