package challenges_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// TestOpenChallenges: an open challenge is listed to its maker alone,
// is never rated, cannot be declined nor accepted by its maker; a player
// without a name accepts it, as the colour their link says (refused when
// its maker took that colour), once, and is its receiver from then on;
// on every store.
func TestOpenChallenges(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
			s, cred := site(t, st.open(t), clk, nil, "Ann", "Bob") // the players' own block lists, read from the store
			cs := s.Challenges
			ann, _ := s.Players.Identify(ctx, cred["Ann"])
			guest, _ := s.Players.Identify(ctx, cred[""])
			five := games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}

			refused(t, "rated", second(cs.CreateOpen(ctx, cred["Ann"], challenges.Terms{Clock: five, Rated: true}, "")), errs.Invalid, errs.BadRated)
			refused(t, "a long name", second(cs.CreateOpen(ctx, cred["Ann"], challenges.Terms{}, strings.Repeat("x", 101))), errs.Invalid, errs.BadName)
			refused(t, "by a guest", second(cs.CreateOpen(ctx, cred[""], challenges.Terms{}, "")), errs.Forbidden, errs.NameNeeded)
			c, err := cs.CreateOpen(ctx, cred["Ann"], challenges.Terms{Clock: five, Color: "white"}, " Friday game ")
			if err != nil {
				t.Fatal(err)
			}
			if !c.Anyone || c.Name != "Friday game" || c.Dest.ID != "" || c.Challenger.ID != ann.ID {
				t.Fatalf("the open challenge: %+v", c)
			}
			if got, _ := cs.Challenge(ctx, c.ID); !got.Anyone || got.Name != "Friday game" || got.Dest.ID != "" {
				t.Fatalf("read back: %+v", got)
			}
			if l, _ := cs.List(ctx, cred["Ann"]); len(l.Out) != 1 || len(l.In) != 0 {
				t.Errorf("Ann's lists: %+v", l)
			}
			if l, _ := cs.List(ctx, cred["Bob"]); len(l.Out)+len(l.In) != 0 {
				t.Errorf("Bob's lists: %+v", l)
			}
			refused(t, "declined", second(cs.Decline(ctx, cred["Bob"], c.ID, "")), errs.NotFound, errs.ChallengeGone)
			refused(t, "by its maker", second(cs.AcceptAs(ctx, cred["Ann"], c.ID, "")), errs.Invalid, errs.OwnChallenge)
			refused(t, "as its maker's colour", second(cs.AcceptAs(ctx, cred[""], c.ID, "white")), errs.Invalid, errs.BadColor)
			refused(t, "no one", second(cs.AcceptAs(ctx, "", c.ID, "")), errs.Unauthorized, "")

			clk.advance(time.Second)
			acc, err := cs.AcceptAs(ctx, cred[""], c.ID, "black")
			if err != nil {
				t.Fatal(err)
			}
			if acc.Status != challenges.Accepted || acc.Game == "" || acc.Dest.ID != guest.ID {
				t.Fatalf("accepted: %+v", acc)
			}
			refused(t, "accepted twice", second(cs.AcceptAs(ctx, cred["Bob"], c.ID, "")), errs.NotFound, errs.ChallengeGone)
			err = s.Games.View(ctx, acc.Game, cred[""], func(r *games.Record, seats games.Seats) {
				if r.White != ann.ID || r.Black != guest.ID || r.Rated || r.Clock == nil || r.Clock.Control != five || !seats.Black {
					t.Errorf("the game: white %s black %s rated %v clock %+v seats %+v", r.White, r.Black, r.Rated, r.Clock, seats)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := cs.Challenge(ctx, c.ID); got.Dest.ID != guest.ID || got.Status != challenges.Accepted || !got.Anyone {
				t.Errorf("read back accepted: %+v", got)
			}

			// Random colours: the link's colour is the acceptor's.
			r, err := cs.CreateOpen(ctx, cred["Ann"], challenges.Terms{}, "")
			if err != nil {
				t.Fatal(err)
			}
			acc, err = cs.AcceptAs(ctx, cred["Bob"], r.ID, "white")
			if err != nil {
				t.Fatal(err)
			}
			bob, _ := s.Players.Identify(ctx, cred["Bob"])
			_ = s.Games.View(ctx, acc.Game, cred["Bob"], func(r *games.Record, _ games.Seats) {
				if r.White != bob.ID || r.Black != ann.ID || r.Clock != nil {
					t.Errorf("the game of the white link: white %s black %s clock %+v", r.White, r.Black, r.Clock)
				}
			})
		})
	}
}
