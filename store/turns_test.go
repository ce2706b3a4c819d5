package store

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// TestTurns: every store lists a player's games in play against someone,
// those awaiting them first, with their clock, and counts those awaiting
// them (games.Record.ToAct), as the game's plies move the turn; hot-seat
// games, games over and games hidden are left out.
func TestTurns(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := epoch
			add := func(white, black string, fn func(*games.Record)) string {
				t.Helper()
				at = at.Add(time.Minute)
				rec := &games.Record{Game: rules.New(rules.BanChess{}), White: white, Black: black, Mode: games.Invite, Created: at, Updated: at, Revision: 1}
				if fn != nil {
					fn(rec)
				}
				if err := s.Create(ctx, rec); err != nil {
					t.Fatal(err)
				}
				return rec.ID
			}
			bobs := add("ann", "bob", nil) // Black bans first: Bob's turn
			days := games.DaysPerMove(3)
			anns := add("bob", "ann", func(r *games.Record) { r.Clock = games.NewClock(days) })
			free := add("ann", "", nil)
			add("ann", "ann", func(r *games.Record) { r.Mode = games.HotSeat })
			hidden := add("bob", "ann", func(r *games.Record) { r.BlackHidden = true }) // by Ann, not Bob
			add("bob", "ann", func(r *games.Record) { r.Game.Abort() })
			ongoing := func(holder string, want ...string) []games.Summary {
				t.Helper()
				list, err := s.Ongoing(ctx, holder, 10)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, sum := range list {
					got = append(got, sum.ID)
				}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("Ongoing(%q) = %q, want %q", holder, got, want)
				}
				return list
			}
			awaiting := func(holder string, want int) {
				t.Helper()
				if n, err := s.Awaiting(ctx, holder); n != want || err != nil {
					t.Errorf("Awaiting(%q) = %d, %v; want %d", holder, n, err, want)
				}
			}
			list := ongoing("ann", anns, free, bobs)
			if c := list[0].Clock; c == nil || c.Control != days {
				t.Errorf("the correspondence game's clock: %+v", c)
			}
			ongoing("bob", bobs, hidden, anns)
			ongoing("")
			awaiting("ann", 1)
			awaiting("bob", 1)
			awaiting("", 0)
			update(t, s, bobs, func(r *games.Record) error {
				r.Revision++
				r.Updated = at.Add(time.Hour)
				a, err := r.Game.Notation().ParseInput("b:e2e4")
				if err != nil {
					return err
				}
				return r.Game.Play(a)
			})
			awaiting("ann", 2)
			awaiting("bob", 0)
			ongoing("ann", bobs, anns, free)
			update(t, s, anns, func(r *games.Record) error { r.Revision++; r.BlackHidden = true; return nil })
			awaiting("ann", 1)
			ongoing("ann", bobs, free)
		})
	}
}

// TestSQLiteTurnIndexes: counting the games awaiting a player reads the
// index on to_act, and listing those in play the seats', not every game.
func TestSQLiteTurnIndexes(t *testing.T) {
	s := openSQLite(t, ":memory:", Options{})
	if plan := sqlitePlan(t, s, awaitingSQL, "ann"); strings.Contains(plan, "SCAN games") || !strings.Contains(plan, "games_to_act") {
		t.Errorf("%s\nis planned as\n%s", awaitingSQL, plan)
	}
	q := strings.ReplaceAll(ongoingSQL, "%s", "")
	if plan := sqlitePlan(t, s, q, "ann", 10); strings.Contains(plan, "SCAN games") || !strings.Contains(plan, "games_white") {
		t.Errorf("%s\nis planned as\n%s", q, plan)
	}
}

// TestCorrespondenceAcrossRestart: a correspondence game whose side to
// act runs out of its days while no server runs is decided at the right
// moment by the server started afterwards, with no page open: not a
// minute early, and at its sweep once due; the game it awaited its
// player in no longer awaits them.
func TestCorrespondenceAcrossRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	var mu sync.Mutex
	now := epoch
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	open := func() (*SQLite, *games.Service) {
		s, err := OpenSQLite(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s, games.New(s, players.New(s, players.WithClock(clock)), games.WithClock(clock))
	}
	s, svc := open()
	pl := players.New(s)
	ann, _, err := pl.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	bob, bobP, err := pl.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	tc := games.DaysPerMove(2)
	id, code, _, err := svc.CreateInvite(ctx, ann, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, id, bob, code); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		cred players.Credential
		bcn  string
	}{{bob, "b:e2e4"}, {ann, "m:d2d4"}, {ann, "b:d7d5"}} {
		advance(time.Hour)
		if err := svc.Play(ctx, id, p.cred, games.Input{Text: p.bcn}, nil); err != nil {
			t.Fatalf("%s: %v", p.bcn, err)
		}
	}
	due := clock().Add(2 * 24 * time.Hour) // Black's turn came now
	svc.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	advance(2*24*time.Hour - time.Minute) // no server runs meanwhile
	s, svc = open()
	defer s.Close()
	defer svc.Close()
	if n, err := s.Awaiting(ctx, bobP.ID); n != 1 || err != nil {
		t.Errorf("after the restart %d games await Black (%v), want 1", n, err)
	}
	if rec := viewRecord(t, s, id); !rec.Due().Equal(due) {
		t.Errorf("the game is due at %v, want %v", rec.Due(), due)
	}
	if n, err := svc.Clocks().Sweep(ctx, s); n != 0 || err != nil {
		t.Fatalf("a minute early the sweep ended %d games (%v)", n, err)
	}
	advance(2 * time.Minute)
	if n, err := svc.Clocks().Sweep(ctx, s); n != 1 || err != nil {
		t.Fatalf("once due the sweep ended %d games (%v), want 1", n, err)
	}
	rec := viewRecord(t, s, id)
	if out := rec.Game.Outcome(); out.Status != rules.TimeForfeit || out.Winner != rules.White {
		t.Errorf("the game ended %+v, want Black's flag fallen", out)
	}
	if n, err := s.Awaiting(ctx, bobP.ID); n != 0 || err != nil {
		t.Errorf("after the flag %d games await Black (%v), want 0", n, err)
	}
}
