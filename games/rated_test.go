package games_test

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// ratedTable is a rated game the lobby paired, Ann White and Bob Black,
// on a clock of 5+3, on a service with a manual clock.
type ratedTable struct {
	*table
	ann, bob players.Player
	store    *store.Memory
	players  *players.Service
}

func newRatedTable(t *testing.T) *ratedTable {
	t.Helper()
	return newRatedTableOn(t, games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second})
}

// newRatedTableOn is newRatedTable on the clock tc.
func newRatedTableOn(t *testing.T, tc games.TimeControl) *ratedTable {
	t.Helper()
	clk := &manualClock{now: epoch}
	m := store.NewMemory()
	pl := players.New(m, players.WithClock(clk.Now), players.WithPasswords(password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 1)))
	svc := service{Service: games.New(m, pl, games.WithClock(clk.Now)), players: pl}
	t.Cleanup(svc.Close)
	ctx := context.Background()
	rt := &ratedTable{table: &table{t: t, ctx: ctx, svc: svc, clk: clk}, store: m, players: pl}
	ann, err := pl.Register(ctx, players.SignUp{Name: "Ann", Password: "correct horse", Kind: players.Cookie})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := pl.Register(ctx, players.SignUp{Name: "Bob", Password: "battery staple", Kind: players.Cookie})
	if err != nil {
		t.Fatal(err)
	}
	rt.white, rt.ann, rt.black, rt.bob = ann.Credential, ann.Player, bob.Credential, bob.Player
	seated := func(p players.Player) games.Seated {
		st, err := pl.Standing(ctx, p.ID, rules.BanChess{}.ID(), tc.Speed())
		if err != nil {
			t.Fatal(err)
		}
		return games.Seated{Player: p, Standing: st}
	}
	rec, err := svc.PairedGame(rules.BanChess{}.ID(), tc, true, rules.White, seated(rt.ann), seated(rt.bob), clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	svc.Started(rec, clk.Now())
	rt.id = rec.ID
	return rt
}

// results returns how many results are recorded for Ann and Bob, and
// how many rated games their standings count.
func (rt *ratedTable) results() (played, rated int) {
	rt.t.Helper()
	for _, p := range []players.Player{rt.ann, rt.bob} {
		list, err := rt.svc.players.PlayedGames(rt.ctx, p.ID, players.PlayedGamesCursor{}, 10)
		if err != nil {
			rt.t.Fatal(err)
		}
		standings, err := rt.svc.players.Standings(rt.ctx, p.ID)
		if err != nil {
			rt.t.Fatal(err)
		}
		played += len(list)
		for _, st := range standings {
			rated += st.Games
			if st.Rating.Rating != rating.DefaultRating {
				rt.t.Errorf("%s's rating moved to %v", p.Name, st.Rating.Rating)
			}
		}
	}
	return played, rated
}

// TestNoResultBeforeBothActed: a game between two players in which a
// side has yet to make its first action (Black's first ban, White's first
// move) ends with no result: resigning and draws are refused (too_early),
// the game can be aborted, a first action too late aborts it, and no
// rating moves. Once both have acted, a resignation counts.
func TestNoResultBeforeBothActed(t *testing.T) {
	offer := func(rt *ratedTable, cred players.Credential, o games.Offer) error {
		return rt.svc.MakeOffer(rt.ctx, rt.id, cred, o, nil)
	}
	answer := func(rt *ratedTable, cred players.Credential, o games.Offer) error {
		return rt.svc.AnswerOffer(rt.ctx, rt.id, cred, o, true, nil)
	}
	for _, tc := range []struct {
		name string
		// try does what the case tries last: it must be refused with want.
		try  func(rt *ratedTable) error
		want string
	}{
		{"White resigns at the start", func(rt *ratedTable) error {
			return rt.svc.Resign(rt.ctx, rt.id, rt.white, rules.White, nil)
		}, "too_early"},
		{"Black resigns at the start", func(rt *ratedTable) error {
			return rt.svc.Resign(rt.ctx, rt.id, rt.black, rules.Black, nil)
		}, "too_early"},
		{"Black resigns after its first ban", func(rt *ratedTable) error {
			rt.mustPlay(rt.black, "b:e2e4")
			return rt.svc.Resign(rt.ctx, rt.id, rt.black, rules.Black, nil)
		}, "too_early"},
		{"White resigns before its first move", func(rt *ratedTable) error {
			rt.mustPlay(rt.black, "b:e2e4")
			return rt.svc.Resign(rt.ctx, rt.id, rt.white, rules.White, nil)
		}, "too_early"},
		{"Black offers a draw at the start", func(rt *ratedTable) error {
			return offer(rt, rt.black, games.OfferDraw)
		}, "too_early"},
		{"White offers a draw before its first move", func(rt *ratedTable) error {
			rt.mustPlay(rt.black, "b:e2e4")
			if err := offer(rt, rt.black, games.OfferDraw); code(err) != "too_early" {
				rt.t.Errorf("Black's draw offer before White's first move: %v", err)
			}
			return offer(rt, rt.white, games.OfferDraw)
		}, "too_early"},
		{"a draw offered, then a takeback to before White's first move", func(rt *ratedTable) error {
			rt.mustPlay(rt.black, "b:e2e4")
			rt.mustPlay(rt.white, "m:d2d4")
			for _, err := range []error{offer(rt, rt.black, games.OfferDraw), offer(rt, rt.white, games.OfferTakeback), answer(rt, rt.black, games.OfferTakeback)} {
				if err != nil {
					rt.t.Fatal(err)
				}
			}
			if err := rt.svc.Resign(rt.ctx, rt.id, rt.black, rules.Black, nil); code(err) != "too_early" {
				rt.t.Errorf("resigning after the takeback: %v", err)
			}
			return answer(rt, rt.white, games.OfferDraw) // the offer lapsed
		}, "no_offer"},
		{"Black's first ban too late", func(rt *ratedTable) error {
			rt.clk.advance(games.FirstActionWait + time.Second)
			return rt.play(rt.black, "b:e2e4")
		}, "game_over"},
		{"White's first move too late", func(rt *ratedTable) error {
			rt.mustPlay(rt.black, "b:e2e4")
			rt.clk.advance(games.FirstActionWait + time.Second)
			return rt.play(rt.white, "m:d2d4")
		}, "game_over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := newRatedTable(t)
			if err := tc.try(rt); code(err) != tc.want {
				t.Fatalf("refused with %q (%v), want %s", code(err), err, tc.want)
			}
			if out := rt.view().Game.Outcome(); !out.Over() {
				if err := rt.svc.Abort(rt.ctx, rt.id, rt.black, nil); err != nil {
					t.Fatalf("aborting: %v", err)
				}
			}
			if out := rt.view().Game.Outcome(); out.Status != rules.Aborted {
				t.Errorf("the game ended %v, want aborted", out)
			}
			if played, rated := rt.results(); played != 0 || rated != 0 {
				t.Errorf("%d results recorded, %d rated games counted: want none", played, rated)
			}
		})
	}
	t.Run("once both have acted, a resignation counts", func(t *testing.T) {
		rt := newRatedTable(t)
		rt.mustPlay(rt.black, "b:e2e4")
		rt.mustPlay(rt.white, "m:d2d4")
		if err := rt.svc.Resign(rt.ctx, rt.id, rt.black, rules.Black, nil); err != nil {
			t.Fatal(err)
		}
		var standings []players.Standing
		for _, p := range []players.Player{rt.ann, rt.bob} {
			st, err := rt.svc.players.Standings(rt.ctx, p.ID)
			if err != nil || len(st) != 1 {
				t.Fatalf("%s's standings: %+v, %v", p.Name, st, err)
			}
			standings = append(standings, st[0])
		}
		if w, b := standings[0], standings[1]; w.Games != 1 || b.Games != 1 || w.Rating.Rating <= b.Rating.Rating {
			t.Errorf("after Black resigned: White %+v, Black %+v", w, b)
		}
	})
}

// TestResultOfAGameNoOneOpened: however a rated game came to end before
// each side made its first action, its result rates no one; once both
// have acted, it does.
func TestResultOfAGameNoOneOpened(t *testing.T) {
	for _, tc := range []struct {
		plies []string
		rated bool
	}{
		{nil, false},
		{[]string{"b:e2e4"}, false},
		{[]string{"b:e2e4", "m:d2d4"}, true},
	} {
		g, err := rules.Replay(rules.BanChess{}, "", tc.plies)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Resign(rules.White); err != nil {
			t.Fatal(err)
		}
		rec := &games.Record{Game: g, Mode: games.Invite, White: "ann", Black: "bob"}
		rec.Rated, rec.Clock = true, games.NewClock(games.TimeControl{Initial: 5 * time.Minute})
		res, ok := games.ResultOf(rec)
		if !ok || res.Rated != tc.rated || res.Result != "0-1" {
			t.Errorf("resigned after %q: %+v, %v; want a result, rated %v", tc.plies, res, ok, tc.rated)
		}
	}
}
