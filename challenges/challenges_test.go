package challenges_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/store/pgtest"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it.
var pg pgtest.Lazy

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// clock is a time that moves when told.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// stores are the stores challenges are tested on.
var stores = []struct {
	name string
	open func(t *testing.T) testsite.Store
}{
	{"memory", func(*testing.T) testsite.Store { return store.NewMemory() }},
	{"sqlite", func(t *testing.T) testsite.Store {
		s, err := store.OpenSQLite(context.Background(), ":memory:", store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(t *testing.T) testsite.Store {
		if testing.Short() {
			t.Skip("starts PostgreSQL")
		}
		p, err := store.OpenPostgres(context.Background(), pg.Server(t).Schema(t), store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}},
}

// refused checks err is an *errs.Error of code and detail.
func refused(t *testing.T, what string, err error, code errs.Code, detail errs.Detail) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != code || e.Detail != detail {
		t.Errorf("%s: %v, want %s %s", what, err, code, detail)
	}
}

// site is the services on st, on clk, with a player named for each of
// names (their credentials by name).
func site(t *testing.T, st testsite.Store, clk *clock, blocker challenges.Blocker, names ...string) (testsite.Site, map[string]players.Credential) {
	t.Helper()
	c := testsite.Config{Now: clk.Now}
	if blocker != nil {
		c.Challenges = []challenges.Option{challenges.WithBlocker(blocker)}
	}
	s := testsite.New(st, c)
	t.Cleanup(s.Close)
	creds := map[string]players.Credential{}
	for _, n := range names {
		in, err := s.Players.Register(context.Background(), players.SignUp{Name: n, Password: "a long secret", Kind: players.Token})
		if err != nil {
			t.Fatal(err)
		}
		creds[n] = in.Credential
	}
	anon, _, err := s.Players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	creds[""] = anon
	return s, creds
}

// blockList blocks the pairs it holds (challenger, then dest).
type blockList map[[2]string]bool

func (b blockList) Blocks(_ context.Context, challenger, dest string) (bool, error) {
	return b[[2]string{challenger, dest}], nil
}

// TestChallenges: a challenge is listed to both players, accepted once
// into a game with both seats taken as it asked, declined with a reason
// or cancelled by its maker only; bad terms, oneself, an anonymous
// player, a block, too many open and an expired challenge are refused
// and change nothing; on every store.
func TestChallenges(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
			blocks := blockList{}
			s, cred := site(t, st.open(t), clk, blocks, "Ann", "Bob", "Cat")
			cs := s.Challenges
			ann, _ := s.Players.Identify(ctx, cred["Ann"])
			bob, _ := s.Players.Identify(ctx, cred["Bob"])
			cat, _ := s.Players.Identify(ctx, cred["Cat"])
			blocks[[2]string{cat.ID, ann.ID}] = true

			five := games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}
			bad := []struct {
				what   string
				cred   players.Credential
				dest   string
				terms  challenges.Terms
				code   errs.Code
				detail errs.Detail
			}{
				{"oneself", cred["Ann"], "ann", challenges.Terms{}, errs.Invalid, errs.OwnChallenge},
				{"no such player", cred["Ann"], "Nobody", challenges.Terms{}, errs.NotFound, errs.NoPlayer},
				{"anonymous", cred[""], "Bob", challenges.Terms{}, errs.Forbidden, errs.NameNeeded},
				{"unknown variant", cred["Ann"], "Bob", challenges.Terms{Variant: "atomic"}, errs.Invalid, errs.BadVariant},
				{"bad colour", cred["Ann"], "Bob", challenges.Terms{Color: "green"}, errs.Invalid, errs.BadColor},
				{"rated without a clock", cred["Ann"], "Bob", challenges.Terms{Rated: true}, errs.Invalid, errs.BadClock},
				{"a clock too long", cred["Ann"], "Bob", challenges.Terms{Clock: games.TimeControl{Initial: 1000 * time.Minute}}, errs.Invalid, errs.BadClock},
				{"increment alone", cred["Ann"], "Bob", challenges.Terms{Clock: games.TimeControl{Increment: time.Second}}, errs.Invalid, errs.BadClock},
				{"days not offered", cred["Ann"], "Bob", challenges.Terms{Clock: games.DaysPerMove(4)}, errs.Invalid, errs.BadClock},
				{"bad FEN", cred["Ann"], "Bob", challenges.Terms{FEN: "not a fen"}, errs.Invalid, errs.BadFEN},
				{"blocked", cred["Cat"], "Ann", challenges.Terms{}, errs.Forbidden, errs.Blocked},
			}
			for _, b := range bad {
				_, err := cs.Create(ctx, b.cred, b.dest, b.terms)
				refused(t, b.what, err, b.code, b.detail)
			}
			if l, err := cs.List(ctx, cred["Bob"]); err != nil || len(l.In)+len(l.Out) != 0 {
				t.Fatalf("Bob's lists after refusals: %+v, %v", l, err)
			}

			c, err := cs.Create(ctx, cred["Ann"], "BOB", challenges.Terms{Clock: five, Color: "black", Rated: true})
			if err != nil {
				t.Fatal(err)
			}
			if c.Challenger.Name != "Ann" || c.Dest.Name != "Bob" || c.Dest.Rating != 1500 || !c.Dest.Provisional || c.Status != challenges.Created {
				t.Fatalf("the challenge: %+v", c)
			}
			in, _ := cs.List(ctx, cred["Bob"])
			out, _ := cs.List(ctx, cred["Ann"])
			if len(in.In) != 1 || in.In[0].ID != c.ID || len(in.Out) != 0 || len(out.Out) != 1 || len(out.In) != 0 {
				t.Fatalf("lists: Bob %+v, Ann %+v", in, out)
			}
			if got, _ := cs.Challenge(ctx, c.ID); got.Clock != five || got.Color != rules.Black || !got.Rated || got.Variant != "ban" {
				t.Fatalf("read back: %+v", got)
			}
			// Only its receiver accepts or declines it; only its maker
			// cancels it.
			refused(t, "Ann accepts her own", second(cs.Accept(ctx, cred["Ann"], c.ID)), errs.NotFound, errs.ChallengeGone)
			refused(t, "Cat declines", second(cs.Decline(ctx, cred["Cat"], c.ID, "")), errs.NotFound, errs.ChallengeGone)
			refused(t, "Bob cancels", second(cs.Cancel(ctx, cred["Bob"], c.ID)), errs.NotFound, errs.ChallengeGone)
			refused(t, "a bad reason", second(cs.Decline(ctx, cred["Bob"], c.ID, "rude")), errs.Invalid, errs.BadReason)

			clk.advance(time.Second)
			acc, err := cs.Accept(ctx, cred["Bob"], c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if acc.Status != challenges.Accepted || acc.Game == "" {
				t.Fatalf("accepted: %+v", acc)
			}
			refused(t, "accepted twice", second(cs.Accept(ctx, cred["Bob"], c.ID)), errs.NotFound, errs.ChallengeGone)
			err = s.Games.View(ctx, acc.Game, cred["Bob"], func(r *games.Record, seats games.Seats) {
				if r.White != bob.ID || r.Black != ann.ID || !r.Rated || r.Clock == nil || r.Clock.Control != five || !seats.White || seats.Black {
					t.Errorf("the game: white %s black %s rated %v clock %+v seats %+v", r.White, r.Black, r.Rated, r.Clock, seats)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := cs.List(ctx, cred["Bob"]); len(l.In) != 0 {
				t.Fatalf("an accepted challenge listed: %+v", l)
			}

			// Declined with a reason, cancelled; changes since a time are
			// told to both.
			clk.advance(time.Second)
			since := clk.Now()
			d, _ := cs.Create(ctx, cred["Ann"], "Bob", challenges.Terms{Variant: "classic"})
			k, _ := cs.Create(ctx, cred["Bob"], "Ann", challenges.Terms{})
			if got, err := cs.Decline(ctx, cred["Bob"], d.ID, "later"); err != nil || got.Status != challenges.Declined || got.Reason != "later" {
				t.Fatalf("declined: %+v, %v", got, err)
			}
			if got, err := cs.Cancel(ctx, cred["Bob"], k.ID); err != nil || got.Status != challenges.Canceled {
				t.Fatalf("cancelled: %+v, %v", got, err)
			}
			changed, err := cs.Changed(ctx, ann.ID, since)
			if err != nil || len(changed) != 2 {
				t.Fatalf("Ann's changed challenges: %+v, %v", changed, err)
			}

			// A game without a clock, from a FEN; and an expired challenge.
			fen := "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 1"
			u, err := cs.Create(ctx, cred["Cat"], "Bob", challenges.Terms{FEN: fen, Color: "white"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := cs.Accept(ctx, cred["Bob"], u.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Games.View(ctx, got.Game, "", func(r *games.Record, _ games.Seats) {
				if r.Clock != nil || r.White != cat.ID || r.Game.FEN() != u.FEN {
					t.Errorf("the game without a clock: clock %+v white %s FEN %s (%s)", r.Clock, r.White, r.Game.FEN(), u.FEN)
				}
			})
			// Days a move: a rated correspondence game.
			daily, err := cs.Create(ctx, cred["Cat"], "Bob", challenges.Terms{Clock: games.DaysPerMove(3), Rated: true})
			if err != nil || daily.Speed() != "correspondence" {
				t.Fatalf("a correspondence challenge: %+v %v", daily, err)
			}
			got, err = cs.Accept(ctx, cred["Bob"], daily.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Games.View(ctx, got.Game, "", func(r *games.Record, _ games.Seats) {
				if r.Clock == nil || r.Clock.Control != games.DaysPerMove(3) || !r.Rated {
					t.Errorf("the correspondence game: clock %+v rated %v", r.Clock, r.Rated)
				}
			})
			old, _ := cs.Create(ctx, cred["Ann"], "Cat", challenges.Terms{})
			clk.advance(challenges.Lifetime + time.Millisecond)
			refused(t, "expired", second(cs.Accept(ctx, cred["Cat"], old.ID)), errs.NotFound, errs.ChallengeGone)
			if got, _ := cs.Challenge(ctx, old.ID); got.StatusAt(clk.Now()) != challenges.Expired {
				t.Fatalf("expired: %+v", got)
			}

			// At most MaxOpen open a player.
			for i := range challenges.MaxOpen {
				if _, err := cs.Create(ctx, cred["Ann"], "Cat", challenges.Terms{}); err != nil {
					t.Fatalf("challenge %d: %v", i, err)
				}
			}
			refused(t, "too many", second(cs.Create(ctx, cred["Ann"], "Cat", challenges.Terms{})), errs.TooMany, errs.TooManyChallenges)
		})
	}
}

func second[A, B any](_ A, b B) B { return b }
