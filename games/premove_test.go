package games_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// actionsOf returns the game's plies in BCN.
func actionsOf(g *rules.Game) []string {
	var out []string
	for _, a := range g.Actions() {
		out = append(out, a.String())
	}
	return out
}

// TestPremoves: a premove queued while the opponent acts is played the
// moment its side's turn comes — the move, then the ban queued with it —
// or dropped, saying why, when the opponent banned it or it is no longer
// legal; one queued at the player's own turn is played at once.
func TestPremoves(t *testing.T) {
	// Black bans first; after these White has moved and banned, and
	// Black is to move.
	opening := []string{"b:e2e4", "m:d2d4", "b:e7e5"}
	for _, tc := range []struct {
		name    string
		queue   []string // White's, while Black is to move
		black   []string // then Black's move and ban
		played  []string // the plies after the opening and Black's
		dropped string   // what White's queue says after, if dropped
	}{
		{"move and ban played", []string{"m:c2c4", "b:c7c5"}, []string{"m:d7d5", "b:g1f3"}, []string{"m:c2c4", "b:c7c5"}, ""},
		{"a move alone", []string{"m:c2c4"}, []string{"m:d7d5", "b:g1f3"}, []string{"m:c2c4"}, ""},
		{"the move banned", []string{"m:c2c4", "b:c7c5"}, []string{"m:d7d5", "b:c2c4"}, nil, "Your premove c2c4 was banned"},
		{"the move no longer legal", []string{"m:d4e5"}, []string{"m:d7d5", "b:g1f3"}, nil, "Your premove d4e5 was no longer legal"},
		{"the ban no longer legal", []string{"m:c2c4", "b:d5c4"}, []string{"m:e7e6", "b:g1f3"}, []string{"m:c2c4"}, "Your preban d5c4 was no longer legal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, "")
			tb.mustPlay(tb.black, opening[0])
			tb.mustPlay(tb.white, opening[1:]...)
			q, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, tc.queue, nil)
			if err != nil || !slices.Equal(q.Actions(), tc.queue) {
				t.Fatalf("queued %v: %+v, %v", tc.queue, q, err)
			}
			tb.mustPlay(tb.black, tc.black...)
			rec := tb.view()
			want := slices.Concat(opening, tc.black, tc.played)
			if got := actionsOf(rec.Game); !slices.Equal(got, want) {
				t.Errorf("the game: %v, want %v", got, want)
			}
			got, err := tb.svc.Premoves().Get(tb.ctx, tb.id, tb.white)
			if err != nil || got.Queued() || !strings.HasPrefix(got.Dropped, tc.dropped) || (tc.dropped == "") != (got.Dropped == "") {
				t.Errorf("White's queue after: %+v, %v; want it empty, dropped %q", got, err, tc.dropped)
			}
		})
	}
}

// TestPremoveCostsNoTime: in a clocked game the premove is played at the
// instant of the opponent's ban, so its side's clock loses nothing; the
// opponent's stream hears of both plies.
func TestPremoveCostsNoTime(t *testing.T) {
	tb := newTable(t, "5+2")
	tb.mustPlay(tb.black, "b:e2e4")
	tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
	tb.clk.advance(3 * time.Second)
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, []string{"m:c2c4", "b:c7c5"}, nil); err != nil {
		t.Fatal(err)
	}
	tb.mustPlay(tb.black, "m:d7d5")
	before := tb.view().Clock.Left(rules.White, tb.clk.Now())
	tb.clk.advance(4 * time.Second)
	tb.mustPlay(tb.black, "b:g1f3")
	rec := tb.view()
	if got := actionsOf(rec.Game); got[len(got)-1] != "b:c7c5" {
		t.Fatalf("the premove was not played: %v", got)
	}
	// The premove's move earned its increment and cost nothing.
	if left := rec.Clock.Left(rules.White, tb.clk.Now()); left != before+2*time.Second {
		t.Errorf("White has %v after the premove, want %v (before it, plus the increment)", left, before+2*time.Second)
	}
	if rec.Clock.Running != rules.Black {
		t.Errorf("the clock runs for %v, want Black", rec.Clock.Running)
	}
}

// TestPremoveAtOwnTurn: a premove queued when it is the player's move is
// played at once; both sides' queues play in turn when each is due.
func TestPremoveAtOwnTurn(t *testing.T) {
	tb := newTable(t, "")
	tb.mustPlay(tb.black, "b:e2e4")
	q, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, []string{"m:d2d4", "b:e7e5"}, nil)
	if err != nil || q.Queued() || q.Dropped != "" {
		t.Fatalf("queued at White's own move: %+v, %v; want it played", q, err)
	}
	// Black queues its move and ban; White's next ones then play too.
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.black, []string{"m:d7d5", "b:c2c4"}, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:c2c4"}
	if got := actionsOf(tb.view().Game); !slices.Equal(got, want) {
		t.Fatalf("the game: %v, want %v", got, want)
	}
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.black, []string{"m:c7c5", "b:d4c5"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, []string{"m:g1f3", "b:b8c6"}, nil); err != nil {
		t.Fatal(err)
	}
	want = append(want, "m:g1f3", "b:b8c6", "m:c7c5", "b:d4c5")
	if got := actionsOf(tb.view().Game); !slices.Equal(got, want) {
		t.Fatalf("both queues: %v, want %v", got, want)
	}
}

// TestPremoveRefused: what is not a premove of the player's own, or not
// at a game between two players still going, is refused and changes
// nothing; the queue is seen by its side only, and cancelled.
func TestPremoveRefused(t *testing.T) {
	tb := newTable(t, "")
	tb.mustPlay(tb.black, "b:e2e4")
	tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
	for _, tc := range []struct {
		name    string
		actions []string
		code    errs.Detail
	}{
		{"nothing", nil, errs.BadPremove},
		{"three", []string{"m:c2c4", "b:c7c5", "m:g1f3"}, errs.BadPremove},
		{"a ban first", []string{"b:c7c5", "m:c2c4"}, errs.BadPremove},
		{"two moves", []string{"m:c2c4", "m:g1f3"}, errs.BadPremove},
		{"not BCN", []string{"Nf3"}, errs.BadPremove},
		{"an empty square", []string{"m:c3c4"}, errs.BadPremove},
		{"the opponent's piece", []string{"m:e7e5"}, errs.BadPremove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, tc.actions, nil)
			if code(err) != string(tc.code) {
				t.Errorf("%v: %v, want %s", tc.actions, err, tc.code)
			}
		})
	}
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, issue(t, tb.svc), []string{"m:c2c4"}, nil); errs.Of(err).Code != errs.Forbidden {
		t.Errorf("a spectator's premove: %v, want forbidden", err)
	}
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, []string{"m:c2c4", "b:c7c5"}, nil); err != nil {
		t.Fatal(err)
	}
	if q, err := tb.svc.Premoves().Get(tb.ctx, tb.id, tb.black); err != nil || q.Queued() {
		t.Errorf("Black sees %+v (%v): White's queue is White's alone", q, err)
	}
	if err := tb.svc.Premoves().Cancel(tb.ctx, tb.id, tb.white, nil); err != nil {
		t.Fatal(err)
	}
	tb.mustPlay(tb.black, "m:d7d5", "b:g1f3")
	if got := actionsOf(tb.view().Game); len(got) != 5 {
		t.Errorf("a cancelled premove was played: %v", got)
	}

	// At a hot-seat game there is nothing to premove.
	svc := newService(store.NewMemory())
	cred := issue(t, svc)
	id, err := svc.Create(context.Background(), cred, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Premoves().Set(context.Background(), id, cred, []string{"m:e2e4"}, nil); code(err) != string(errs.NotInvite) {
		t.Errorf("a hot-seat premove: %v, want %s", err, errs.NotInvite)
	}
}

// TestPremoveIsSecret: queueing or cancelling a premove tells the game's
// watchers nothing (the opponent must not learn of it); the plies it
// plays are told as any.
func TestPremoveIsSecret(t *testing.T) {
	tb := newTable(t, "")
	tb.mustPlay(tb.black, "b:e2e4")
	tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
	w, err := tb.svc.Watch(tb.ctx, tb.id, tb.black)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for drained := false; !drained; { // what opening the watch told
		select {
		case <-w.C():
		case <-time.After(50 * time.Millisecond):
			drained = true
		}
	}
	if _, err := tb.svc.Premoves().Set(tb.ctx, tb.id, tb.white, []string{"m:c2c4"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tb.svc.Premoves().Cancel(tb.ctx, tb.id, tb.white, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.C():
		t.Fatal("the opponent's watch heard of a premove")
	case <-time.After(50 * time.Millisecond):
	}
	tb.mustPlay(tb.black, "m:d7d5")
	select {
	case <-w.C():
	case <-time.After(5 * time.Second):
		t.Fatal("a ply was not told")
	}
}

// BenchmarkPremoveAfterBan: the opponent's ban that brings the player's
// turn, at a clocked game, with and without the player's premove (a move
// and a ban) played in the same change; p50 and p99 of the ban's call.
// The difference is all a premove waits after the opponent's ply: the
// server's work, charged to no clock.
//
//	go test ./games -run '^$' -bench PremoveAfterBan -benchtime 3000x -count 3
func BenchmarkPremoveAfterBan(b *testing.B) {
	for _, premoved := range []bool{false, true} {
		name := map[bool]string{false: "ban", true: "ban+premove"}[premoved]
		b.Run(name, func(b *testing.B) {
			svc := newService(store.NewMemory())
			b.Cleanup(svc.Close)
			ctx := context.Background()
			white, black := issue(b, svc), issue(b, svc)
			tc := games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}
			must := func(err error) {
				if err != nil {
					b.Fatal(err)
				}
			}
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				b.StopTimer()
				id, code, _, err := svc.CreateInvite(ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
				must(err)
				_, err = svc.Join(ctx, id, black, code)
				must(err)
				for _, p := range []struct {
					cred players.Credential
					text string
				}{{black, "b:e2e4"}, {white, "m:d2d4"}, {white, "b:e7e5"}, {black, "m:d7d5"}} {
					must(svc.Play(ctx, id, p.cred, games.Input{Text: p.text}, nil))
				}
				if premoved {
					_, err := svc.Premoves().Set(ctx, id, white, []string{"m:c2c4", "b:c7c5"}, nil)
					must(err)
				}
				b.StartTimer()
				t0 := time.Now()
				must(svc.Play(ctx, id, black, games.Input{Text: "b:g1f3"}, nil))
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
