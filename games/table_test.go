package games_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// manualClock is a time that moves only when told to.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// table is a game between two players on a service with a manual clock.
type table struct {
	t            *testing.T
	ctx          context.Context
	svc          service
	clk          *manualClock
	id, code     string
	white, black players.Credential
}

// newTable starts an invite game: white creates it, black joins.
func newTable(t *testing.T, tc string) *table {
	t.Helper()
	clk := &manualClock{now: epoch}
	svc := newService(store.NewMemory(), games.WithClock(clk.Now))
	t.Cleanup(svc.Close)
	tb := &table{t: t, ctx: context.Background(), svc: svc, clk: clk, white: issue(t, svc), black: issue(t, svc)}
	settings := games.InviteSettings{Color: rules.White}
	if tc != "" {
		c, ok, err := games.ParseTimeControl(tc)
		if err != nil || !ok {
			t.Fatalf("time control %q: %v", tc, err)
		}
		settings.Clock = &c
	}
	var side rules.Color
	var err error
	tb.id, tb.code, side, err = svc.CreateInvite(tb.ctx, tb.white, rules.New(rules.BanChess{}), settings)
	if err != nil || side != rules.White {
		t.Fatalf("create: side %v, %v", side, err)
	}
	seats, err := svc.Join(tb.ctx, tb.id, tb.black, tb.code)
	if err != nil || !seats.Black || seats.White {
		t.Fatalf("join: seats %+v, %v", seats, err)
	}
	return tb
}

func (tb *table) play(cred players.Credential, bcn string) error {
	return tb.svc.Play(tb.ctx, tb.id, cred, games.Input{Text: bcn}, nil)
}

func (tb *table) mustPlay(cred players.Credential, actions ...string) {
	tb.t.Helper()
	for _, a := range actions {
		if err := tb.play(cred, a); err != nil {
			tb.t.Fatalf("%s: %v", a, err)
		}
	}
}

// flagged reads game id, whose clock ran out, until the timer its read
// set going has ended it (at most 5 s), and returns how it ended.
func flagged(t *testing.T, svc service, id string) rules.Outcome {
	t.Helper()
	var out rules.Outcome
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		svc.View(context.Background(), id, "", func(rec *games.Record, _ games.Seats) { out = rec.Game.Outcome() })
		if out.Over() {
			break
		}
	}
	return out
}

func (tb *table) view() games.Record {
	tb.t.Helper()
	var rec games.Record
	err := tb.svc.View(tb.ctx, tb.id, "", func(r *games.Record, _ games.Seats) {
		rec = *r
		if r.Clock != nil {
			c := *r.Clock
			rec.Clock = &c
		}
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	return rec
}

func code(err error) string {
	if err == nil {
		return ""
	}
	e := errs.Of(err)
	if e.Detail != "" {
		return string(e.Detail)
	}
	return string(e.Code)
}

func TestInviteSeats(t *testing.T) {
	tb := newTable(t, "")
	third := issue(t, tb.svc)
	if _, err := tb.svc.Join(tb.ctx, tb.id, third, tb.code); code(err) != "seat_taken" {
		t.Fatalf("a third player joining: %v, want seat_taken", err)
	}
	if _, err := tb.svc.Join(tb.ctx, tb.id, third, "wrong"); code(err) != "bad_invite" {
		t.Fatalf("a wrong code: %v, want bad_invite", err)
	}
	if _, err := tb.svc.Join(tb.ctx, tb.id, tb.white, tb.code); code(err) != "already_seated" {
		t.Fatalf("the creator joining with the invite: %v, want already_seated", err)
	}
	// Each acts only on their turn: Black bans first.
	if err := tb.play(tb.white, "b:e7e5"); code(err) != "forbidden" {
		t.Fatalf("White acting at Black's ban: %v", err)
	}
	if err := tb.play(third, "b:e2e4"); err == nil {
		t.Fatal("a spectator played")
	}
	tb.mustPlay(tb.black, "b:e2e4")
	if err := tb.svc.Draw(tb.ctx, tb.id, tb.white, nil); code(err) != "forbidden" {
		t.Fatalf("a one-seat player agreeing a draw alone: %v", err)
	}
	if _, err := tb.svc.Undo(tb.ctx, tb.id, tb.white, nil); code(err) != "forbidden" {
		t.Fatalf("a one-seat player undoing alone: %v", err)
	}
}

// TestJoinHoldingASeat: a player who holds a seat of a game and joins it
// with its invite code is refused (Conflict, already_seated), told which
// seat they hold and, while the other is free, to send the link to their
// opponent; the game is left as it was.
func TestJoinHoldingASeat(t *testing.T) {
	svc := newService(store.NewMemory())
	t.Cleanup(svc.Close)
	ctx := context.Background()
	white, black := issue(t, svc), issue(t, svc)
	id, code, _, err := svc.CreateInvite(ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		t.Fatal(err)
	}
	record := func() games.Record {
		var rec games.Record
		if err := svc.View(ctx, id, "", func(r *games.Record, _ games.Seats) { rec = *r }); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	for _, tc := range []struct {
		name string
		cred players.Credential
		join bool // the opponent has joined first
		msg  string
	}{
		{"the creator, the other seat free", white, false, "You already hold White in this game: send the invite link to your opponent, who takes Black with it."},
		{"the creator, both seats taken", white, true, "You already hold White in this game: both seats are taken."},
		{"the opponent, joining again", black, true, "You already hold Black in this game: both seats are taken."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.join && record().Black == "" {
				if _, err := svc.Join(ctx, id, black, code); err != nil {
					t.Fatal(err)
				}
			}
			before := record()
			seats, err := svc.Join(ctx, id, tc.cred, code)
			if e := errs.Of(err); err == nil || e.Code != errs.Conflict || e.Detail != errs.AlreadySeated || e.Msg != tc.msg {
				t.Fatalf("joined holding a seat: seats %+v, %v; want Conflict already_seated %q", seats, err, tc.msg)
			}
			if after := record(); after.White != before.White || after.Black != before.Black || after.Revision != before.Revision {
				t.Errorf("the refused join changed the game: %+v, then %+v", before, after)
			}
		})
	}
}

func TestInviteRandomColourAndCreatorSeat(t *testing.T) {
	svc := newService(store.NewMemory())
	t.Cleanup(svc.Close)
	seen := map[rules.Color]bool{}
	for i := 0; i < 64 && len(seen) < 2; i++ {
		cred := issue(t, svc)
		id, _, side, err := svc.CreateInvite(context.Background(), cred, rules.New(rules.BanChess{}), games.InviteSettings{})
		if err != nil {
			t.Fatal(err)
		}
		seen[side] = true
		svc.View(context.Background(), id, cred, func(rec *games.Record, seats games.Seats) {
			if !seats.Has(side) || seats.Has(side.Other()) || rec.Mode != games.Invite {
				t.Fatalf("creator of side %v holds %+v (mode %s)", side, seats, rec.Mode)
			}
		})
	}
	if !seen[rules.White] || !seen[rules.Black] {
		t.Fatalf("random colour gave only %v in 64 games", seen)
	}
}

func TestOffers(t *testing.T) {
	t.Run("draw: accepted", func(t *testing.T) {
		tb := newTable(t, "")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4", "b:e7e5") // each side has acted
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, nil); err != nil {
			t.Fatal(err)
		}
		if got := tb.view().Offers.Draw; got != rules.Black {
			t.Fatalf("draw offer by %v", got)
		}
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, true, nil); code(err) != "no_offer" {
			t.Fatalf("the maker accepting their own offer: %v", err)
		}
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.white, games.OfferDraw, true, nil); err != nil {
			t.Fatal(err)
		}
		if o := tb.view().Game.Outcome(); o.Reason != rules.Agreement {
			t.Fatalf("outcome %v", o)
		}
	})
	t.Run("draw: declined, and the offerer told", func(t *testing.T) {
		tb := newTable(t, "")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
		tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, nil)
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.white, games.OfferDraw, false, nil); err != nil {
			t.Fatal(err)
		}
		rec := tb.view()
		if rec.Offers.Draw != 0 || rec.Declined.Draw != rules.Black {
			t.Fatalf("after the decline: offers %+v, declined %+v, want Black's offer declined", rec.Offers, rec.Declined)
		}
		// Offering again forgets the decline; a ply forgets it too.
		tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, nil)
		if rec := tb.view(); rec.Declined.Draw != 0 || rec.Offers.Draw != rules.Black {
			t.Fatalf("offered again: offers %+v, declined %+v", rec.Offers, rec.Declined)
		}
		tb.svc.AnswerOffer(tb.ctx, tb.id, tb.white, games.OfferDraw, false, nil)
		tb.mustPlay(tb.black, "m:d7d5")
		if rec := tb.view(); rec.Declined != (games.Offers{}) {
			t.Fatalf("after a ply the decline is still news: %+v", rec.Declined)
		}
	})
	t.Run("draw lapses when its maker plays", func(t *testing.T) {
		tb := newTable(t, "")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4")
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.white, games.OfferDraw, nil); err != nil {
			t.Fatal(err)
		}
		if err := tb.play(tb.white, "b:e7e5"); err != nil {
			t.Fatal(err)
		}
		if tb.view().Offers.Draw != 0 {
			t.Fatal("the offer stayed after its maker played")
		}
	})
	t.Run("takeback: back to the asker's last move, whoever is to act", func(t *testing.T) {
		tb := newTable(t, "")
		tb.mustPlay(tb.black, "b:e2e4")
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.white, games.OfferTakeback, nil); code(err) != "conflict" {
			t.Fatalf("a takeback with nothing to take back: %v", err)
		}
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferTakeback, nil); code(err) != "conflict" {
			t.Fatalf("a takeback by Black, who has only banned: %v", err)
		}
		tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
		tb.mustPlay(tb.black, "m:d7d5")
		// Black is to ban; White asks to take back its move d4: Black's
		// move and White's ban since go too, and White moves again,
		// facing Black's ban e2e4.
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.white, games.OfferTakeback, nil); err != nil {
			t.Fatal(err)
		}
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.white, games.OfferTakeback, true, nil); code(err) != "no_offer" {
			t.Fatalf("accepting one's own takeback: %v", err)
		}
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.black, games.OfferTakeback, true, nil); err != nil {
			t.Fatal(err)
		}
		g := tb.view().Game
		ban, banned := g.Ban()
		if g.Ply() != 2 || g.Turn().Actor != rules.White || g.Turn().Phase != rules.PhaseMove || !banned || ban.String() != "e2e4" {
			t.Fatalf("after the takeback: ply %d, %v to %v, ban %v %v; want White's move at ply 2 under the ban e2e4", g.Ply(), g.Turn().Actor, g.Turn().Phase, ban, banned)
		}
		// White asks while White itself is to move (its ban then Black's
		// move since): back to White's move again.
		tb.mustPlay(tb.white, "m:d2d4", "b:e7e5")
		tb.mustPlay(tb.black, "m:d7d5", "b:c2c4")
		tb.mustPlay(tb.white, "m:g1f3")
		tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferTakeback, nil)
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.white, games.OfferTakeback, true, nil); err != nil {
			t.Fatal(err)
		}
		if g := tb.view().Game; g.Ply() != 4 || g.Turn().Actor != rules.Black || g.Turn().Phase != rules.PhaseMove {
			t.Fatalf("Black's takeback asked at White's ban: ply %d, %v to %v; want Black's move at ply 4", g.Ply(), g.Turn().Actor, g.Turn().Phase)
		}
	})
	t.Run("takeback lapses at the next ply", func(t *testing.T) {
		tb := newTable(t, "")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferTakeback, nil)
		tb.play(tb.white, "m:d2d4")
		if tb.view().Offers.Takeback != 0 {
			t.Fatal("the takeback offer stayed after a ply")
		}
	})
	t.Run("rematch swaps colours", func(t *testing.T) {
		tb := newTable(t, "5+3")
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferRematch, nil); code(err) != "conflict" {
			t.Fatalf("a rematch before the end: %v", err)
		}
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4")
		if err := tb.svc.Resign(tb.ctx, tb.id, tb.black, rules.Black, nil); err != nil {
			t.Fatal(err)
		}
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferRematch, nil); err != nil {
			t.Fatal(err)
		}
		// Offering what the opponent offered accepts it.
		if err := tb.svc.MakeOffer(tb.ctx, tb.id, tb.white, games.OfferRematch, nil); err != nil {
			t.Fatal(err)
		}
		next := tb.view().Rematch
		if next == "" {
			t.Fatal("no rematch game")
		}
		tb.svc.View(tb.ctx, next, tb.black, func(rec *games.Record, seats games.Seats) {
			if !seats.White || seats.Black || rec.Clock == nil || rec.Clock.Control.Initial != 5*time.Minute {
				t.Fatalf("rematch: the old Black holds %+v, clock %+v", seats, rec.Clock)
			}
		})
	})
	t.Run("hot seat has no offers", func(t *testing.T) {
		e := newEnv(t)
		cred := e.cred()
		id := e.create(cred)
		if err := e.svc.MakeOffer(e.ctx, id, cred, games.OfferDraw, nil); code(err) != "not_invite" {
			t.Fatalf("an offer at a hot-seat game: %v", err)
		}
	})
}

func TestClock(t *testing.T) {
	t.Run("waits for each side's first action; runs during all of a side's plies; increment after a move", func(t *testing.T) {
		tb := newTable(t, "1+2")
		if c := tb.view().Clock; c.Running != 0 || !c.FirstBy.Equal(epoch.Add(games.FirstActionWait)) {
			t.Fatalf("after the join the clock %+v, want it waiting for Black's first ban since the join", c)
		}
		tb.clk.advance(5 * time.Second)
		tb.mustPlay(tb.black, "b:e2e4") // Black's first action: White's turn comes
		c := tb.view().Clock
		if c.Black != time.Minute || c.Running != 0 || !c.FirstBy.Equal(epoch.Add(5*time.Second+games.FirstActionWait)) {
			t.Fatalf("after Black's first ban: %+v, want no time spent, White's first turn from now", c)
		}
		tb.clk.advance(10 * time.Second)
		tb.play(tb.white, "m:d2d4") // each side has acted: the clock runs for White's ban
		c = tb.view().Clock
		if c.White != time.Minute || c.Running != rules.White || !c.FirstBy.IsZero() {
			t.Fatalf("after White's first move: %+v", c)
		}
		tb.clk.advance(3 * time.Second)
		tb.play(tb.white, "b:e7e5")
		tb.clk.advance(4 * time.Second)
		tb.play(tb.black, "m:d7d5") // a move: +2 s, and Black bans next
		c = tb.view().Clock
		if c.White != 57*time.Second || c.Black != 58*time.Second || c.Running != rules.Black {
			t.Fatalf("after Black's move: %+v", c)
		}
		for n, want := range map[int]string{1: "[%clk 0:01:00]", 2: "[%clk 0:01:00]", 3: "[%clk 0:00:57]", 4: "[%clk 0:00:58]", 5: ""} {
			if got := c.ClkComment(n); got != want {
				t.Errorf("clock comment after %d plies: %q, want %q", n, got, want)
			}
		}
		// Taking back White's first move brings the game back to its
		// opening: the clock waits again, and forgets the plies taken back.
		tb.svc.MakeOffer(tb.ctx, tb.id, tb.white, games.OfferTakeback, nil)
		if err := tb.svc.AnswerOffer(tb.ctx, tb.id, tb.black, games.OfferTakeback, true, nil); err != nil {
			t.Fatal(err)
		}
		if c := tb.view().Clock; c.Running != 0 || c.FirstBy.IsZero() || c.ClkComment(3) != "" {
			t.Errorf("after taking back White's first move: %+v", c)
		}
	})
	t.Run("a side that lets its first turn pass: the game is aborted, no one loses", func(t *testing.T) {
		tb := newTable(t, "1+0")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.clk.advance(games.FirstActionWait)
		if err := tb.play(tb.white, "m:d2d4"); code(err) != "game_over" {
			t.Fatalf("White's first move 30 s late: %v", err)
		}
		rec := tb.view()
		if o := rec.Game.Outcome(); o.Status != rules.Aborted || o.Winner != 0 || o.Result() != "*" {
			t.Fatalf("outcome %v", o)
		}
		if c := rec.Clock; c.White != time.Minute || c.Black != time.Minute || c.Running != 0 {
			t.Fatalf("a clock ran before each side acted: %+v", c)
		}
	})
	t.Run("a read sets the abort's timer going", func(t *testing.T) {
		tb := newTable(t, "1+0")
		tb.clk.advance(time.Hour)
		if o := flagged(t, tb.svc, tb.id); o.Status != rules.Aborted {
			t.Fatalf("outcome %v", o)
		}
	})
	t.Run("flag fall ends the game and refuses the ply", func(t *testing.T) {
		tb := newTable(t, "1+0")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4")
		tb.clk.advance(61 * time.Second)
		if err := tb.play(tb.white, "b:e7e5"); code(err) != "game_over" {
			t.Fatalf("a ply after the flag fell: %v", err)
		}
		rec := tb.view()
		if o := rec.Game.Outcome(); o.Status != rules.TimeForfeit || o.Winner != rules.Black {
			t.Fatalf("outcome %v", o)
		}
		if rec.Clock.Running != 0 || rec.Clock.White != 0 {
			t.Fatalf("clock after the flag: %+v", rec.Clock)
		}
	})
	t.Run("a read sets the fallen flag's timer going, and changes nothing", func(t *testing.T) {
		tb := newTable(t, "1+0")
		tb.mustPlay(tb.black, "b:e2e4")
		tb.mustPlay(tb.white, "m:d2d4")
		tb.clk.advance(2 * time.Minute)
		if rec := tb.view(); rec.Game.Outcome().Over() {
			t.Fatalf("the read itself ended the game: %v", rec.Game.Outcome())
		}
		if o := flagged(t, tb.svc, tb.id); o.Status != rules.TimeForfeit {
			t.Fatalf("outcome %v", o)
		}
	})
	t.Run("a side that cannot mate draws on time", func(t *testing.T) {
		clk := &manualClock{now: epoch}
		svc := newService(store.NewMemory(), games.WithClock(clk.Now))
		t.Cleanup(svc.Close)
		g, err := rules.FromFEN("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 2", rules.BanChess{})
		if err != nil {
			t.Fatal(err)
		}
		tc := games.TimeControl{Initial: time.Minute}
		white, black := issue(t, svc), issue(t, svc)
		ctx := context.Background()
		id, inv, _, _ := svc.CreateInvite(ctx, white, g, games.InviteSettings{Color: rules.White, Clock: &tc})
		svc.Join(ctx, id, black, inv)
		for _, a := range []struct {
			cred players.Credential
			bcn  string
		}{{white, "m:a1a2"}, {white, "b:e8d8"}, {black, "m:e8e7"}, {black, "b:a2a3"}} {
			if err := svc.Play(ctx, id, a.cred, games.Input{Text: a.bcn}, nil); err != nil {
				t.Fatalf("%s: %v", a.bcn, err)
			}
		}
		clk.advance(time.Hour) // White's time runs out; Black has a lone king
		if o := flagged(t, svc, id); o.Status != rules.Draw || o.Reason != rules.Timeout {
			t.Fatalf("outcome %v", o)
		}
	})
	t.Run("does not run before both seats are taken", func(t *testing.T) {
		clk := &manualClock{now: epoch}
		svc := newService(store.NewMemory(), games.WithClock(clk.Now))
		t.Cleanup(svc.Close)
		tc := games.TimeControl{Initial: time.Minute}
		id, _, _, _ := svc.CreateInvite(context.Background(), issue(t, svc), rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
		clk.advance(time.Hour)
		svc.View(context.Background(), id, "", func(rec *games.Record, _ games.Seats) {
			if rec.Game.Outcome().Over() || rec.Clock.Running != 0 || !rec.Clock.FirstBy.IsZero() {
				t.Fatalf("a clock ran with a free seat: %v, %+v", rec.Game.Outcome(), rec.Clock)
			}
		})
	})
}

func TestAbort(t *testing.T) {
	tb := newTable(t, "5+3")
	if err := tb.svc.Abort(tb.ctx, tb.id, "", nil); code(err) != "unauthorized" {
		t.Fatalf("an abort without a seat: %v", err)
	}
	tb.mustPlay(tb.black, "b:e2e4")
	if err := tb.svc.Abort(tb.ctx, tb.id, tb.black, nil); err != nil {
		t.Fatalf("Black aborts before White's first move: %v", err)
	}
	rec := tb.view()
	if o := rec.Game.Outcome(); o.Status != rules.Aborted || o.Winner != 0 {
		t.Fatalf("outcome %v", o)
	}
	if rec.White == "" {
		t.Fatal("White's seat is free")
	}
	if list, err := tb.svc.players.PlayedGames(tb.ctx, rec.White, players.PlayedGamesCursor{}, 10); err != nil || len(list) != 0 {
		t.Fatalf("an aborted game in White's list of games: %v, %v", list, err)
	}
	if err := tb.svc.Abort(tb.ctx, tb.id, tb.white, nil); code(err) != "game_over" {
		t.Fatalf("aborting an aborted game: %v", err)
	}

	late := newTable(t, "")
	late.mustPlay(late.black, "b:e2e4")
	late.mustPlay(late.white, "m:d2d4")
	if err := late.svc.Abort(late.ctx, late.id, late.white, nil); code(err) != "too_late_to_abort" {
		t.Fatalf("an abort once each side has acted: %v", err)
	}
	e := newEnv(t)
	cred := issue(t, e.svc)
	if err := e.svc.Abort(e.ctx, e.create(cred), cred, nil); code(err) != "not_invite" {
		t.Fatalf("an abort at a hot-seat game: %v", err)
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want games.TimeControl
		ok   bool
		err  bool
	}{
		{"", games.TimeControl{}, false, false},
		{"none", games.TimeControl{}, false, false},
		{"5+3", games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}, true, false},
		{" 15+10 ", games.TimeControl{Initial: 15 * time.Minute, Increment: 10 * time.Second}, true, false},
		{"1+0", games.TimeControl{Initial: time.Minute}, true, false},
		{"180+180", games.TimeControl{Initial: 180 * time.Minute, Increment: 180 * time.Second}, true, false},
		{"005+003", games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}, true, false},
		// The probe's: NaN became -9.2e15 ms, a huge increment wrapped
		// negative, a tiny initial time rounded to 0.
		{"NaN+0", games.TimeControl{}, false, true},
		{"5+9223372037", games.TimeControl{}, false, true},
		{"1e-9+0", games.TimeControl{}, false, true},
		{"Inf+0", games.TimeControl{}, false, true},
		{"0.5+0", games.TimeControl{}, false, true}, // whole minutes only
		{"1e2+0", games.TimeControl{}, false, true},
		{"0x10+0", games.TimeControl{}, false, true},
		{"5", games.TimeControl{}, false, true},
		{"0+3", games.TimeControl{}, false, true}, // under the minimum
		{"0+0", games.TimeControl{}, false, true},
		{"181+0", games.TimeControl{}, false, true},
		{"999+0", games.TimeControl{}, false, true},
		{"5+181", games.TimeControl{}, false, true},
		{"5+-1", games.TimeControl{}, false, true},
		{"-5+1", games.TimeControl{}, false, true},
		{"+5+3", games.TimeControl{}, false, true},
		{"5++3", games.TimeControl{}, false, true},
		{"5+3+1", games.TimeControl{}, false, true},
		{"5 +3", games.TimeControl{}, false, true},
		{"٥+3", games.TimeControl{}, false, true}, // an Arabic-Indic five
		{"0005+3", games.TimeControl{}, false, true},
	} {
		got, ok, err := games.ParseTimeControl(tt.in)
		if got != tt.want || ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("ParseTimeControl(%q) = %v, %v, %v", tt.in, got, ok, err)
		}
		if err != nil && errs.Of(err).Detail != "bad_clock" {
			t.Errorf("ParseTimeControl(%q): detail %q, want bad_clock", tt.in, errs.Of(err).Detail)
		}
	}
}

// FuzzParseTimeControl: whatever the text, a clock read is within its
// bounds, reads back from its own String, and nothing panics.
func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"5+3", "NaN+0", "5+9223372037", "1e-9+0", "180+180", "0+0", "+1+1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, ok, err := games.ParseTimeControl(s)
		if err != nil || !ok {
			if ok || tc != (games.TimeControl{}) {
				t.Fatalf("%q: refused or none, yet %v, %v", s, tc, ok)
			}
			return
		}
		if tc.Initial < games.MinInitialMinutes*time.Minute || tc.Initial > games.MaxInitialMinutes*time.Minute ||
			tc.Increment < 0 || tc.Increment > games.MaxIncrementSeconds*time.Second ||
			tc.Initial%time.Minute != 0 || tc.Increment%time.Second != 0 {
			t.Fatalf("%q read as %+v", s, tc)
		}
		if back, ok, err := games.ParseTimeControl(tc.String()); err != nil || !ok || back != tc {
			t.Fatalf("%q read as %v, whose String %q reads back as %v, %v", s, tc, tc.String(), back, err)
		}
	})
}

func TestFeed(t *testing.T) {
	tb := newTable(t, "")
	w, err := tb.svc.Watch(tb.ctx, tb.id, tb.white)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	<-w.C() // its own arrival
	spectator, _ := tb.svc.Watch(tb.ctx, tb.id, "")
	<-w.C()
	if p := tb.svc.Presence(tb.id); !p.White || p.Black || p.Spectators != 1 {
		t.Fatalf("presence %+v", p)
	}
	tb.mustPlay(tb.black, "b:e2e4")
	select {
	case <-w.C():
	default:
		t.Fatal("a ply woke no watcher")
	}
	select {
	case <-spectator.C():
	default:
		t.Fatal("a ply woke no spectator")
	}
	spectator.Close()
	spectator.Close() // twice is harmless
	<-w.C()
	if p := tb.svc.Presence(tb.id); p.Spectators != 0 {
		t.Fatalf("presence after the spectator left: %+v", p)
	}
	// A refused ply changes nothing and wakes no one.
	tb.play(tb.black, "b:e2e4")
	select {
	case <-w.C():
		t.Fatal("a refused ply woke a watcher")
	default:
	}
	if _, err := tb.svc.Watch(tb.ctx, "nope", ""); code(err) != "not_found" {
		t.Fatalf("watching no game: %v", err)
	}
}

func TestRevisionCountsChanges(t *testing.T) {
	tb := newTable(t, "")
	r0 := tb.view().Revision
	tb.mustPlay(tb.black, "b:e2e4")
	tb.play(tb.black, "b:e2e4")                                     // refused
	tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, nil) // refused: White has yet to act
	tb.mustPlay(tb.white, "m:d2d4")
	tb.svc.MakeOffer(tb.ctx, tb.id, tb.black, games.OfferDraw, nil)
	if r := tb.view().Revision; r != r0+3 {
		t.Fatalf("revision %d after two plies and an offer from %d", r, r0)
	}
}

// TestFlagFallsWithNoOneActing: the service's timer ends a game whose
// clock runs out while no one acts, and wakes its watchers.
func TestFlagFallsWithNoOneActing(t *testing.T) {
	svc := newService(store.NewMemory())
	t.Cleanup(svc.Close)
	ctx := context.Background()
	tc := games.TimeControl{Initial: 50 * time.Millisecond}
	white, black := issue(t, svc), issue(t, svc)
	id, code, _, err := svc.CreateInvite(ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
	if err != nil {
		t.Fatal(err)
	}
	w, err := svc.Watch(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := svc.Join(ctx, id, black, code); err != nil {
		t.Fatal(err)
	}
	// Each side's first action starts the clock, for White's ban.
	for _, a := range []struct {
		cred players.Credential
		bcn  string
	}{{black, "b:e2e4"}, {white, "m:d2d4"}} {
		if err := svc.Play(ctx, id, a.cred, games.Input{Text: a.bcn}, nil); err != nil {
			t.Fatal(err)
		}
	}
	waitForEnd(t, svc, w, id, rules.Outcome{Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.Black})
}

// waitForEnd waits, reading game id each time w wakes, until it is over,
// and checks it ended as want.
func waitForEnd(t *testing.T, svc service, w *games.Watch, id string, want rules.Outcome) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		var out rules.Outcome
		svc.View(context.Background(), id, "", func(rec *games.Record, _ games.Seats) { out = rec.Game.Outcome() })
		if out.Over() {
			if out != want {
				t.Fatalf("outcome %v, want %v", out, want)
			}
			return
		}
		select {
		case <-w.C():
		case <-deadline:
			t.Fatalf("the game did not end within 5 s, want %v", want)
		}
	}
}

// TestRematchAbortedWithNoOneActing: a rematch's clock waits for both its
// players to come to it (as a game with a friend's does for the other
// player to take the seat), not from its acceptance; then its first turn
// comes, and the service's timer aborts it when the first action does not
// come in time.
func TestRematchAbortedWithNoOneActing(t *testing.T) {
	svc := newService(store.NewMemory(), games.WithFirstActionWait(100*time.Millisecond))
	t.Cleanup(svc.Close)
	ctx := context.Background()
	tc := games.TimeControl{Initial: time.Minute}
	white, black := issue(t, svc), issue(t, svc)
	id, code, _, err := svc.CreateInvite(ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, id, black, code); err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		cred players.Credential
		bcn  string
	}{{black, "b:e2e4"}, {white, "m:d2d4"}} {
		if err := svc.Play(ctx, id, a.cred, games.Input{Text: a.bcn}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Resign(ctx, id, black, rules.Black, nil); err != nil {
		t.Fatal(err)
	}
	if err := svc.MakeOffer(ctx, id, white, games.OfferRematch, nil); err != nil {
		t.Fatal(err)
	}
	var next string
	err = svc.AnswerOffer(ctx, id, black, games.OfferRematch, true, func(rec *games.Record, _ games.Seats) { next = rec.Rematch })
	if err != nil || next == "" {
		t.Fatalf("rematch %q: %v", next, err)
	}
	w, err := svc.Watch(ctx, next, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// As in any game, the clock waits for both players to come to it: a
	// spectator, and one player, start nothing.
	time.Sleep(150 * time.Millisecond)
	for _, cred := range []players.Credential{"", black} { // black is White now
		svc.View(ctx, next, cred, func(rec *games.Record, _ games.Seats) {
			if c := rec.Clock; c.Running != 0 || !c.FirstBy.IsZero() || rec.Game.Outcome().Over() || c.White != tc.Initial {
				t.Fatalf("after %q opened it, the rematch's clock runs: %+v, %v", cred, c, rec.Game.Outcome())
			}
		})
	}
	ww, err := svc.Watch(ctx, next, white) // Black comes by its stream
	if err != nil {
		t.Fatal(err)
	}
	defer ww.Close()
	waitForEnd(t, svc, w, next, rules.Outcome{Status: rules.Aborted, Reason: rules.Abort})
}
