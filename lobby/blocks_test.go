package lobby_test

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/store"
)

// TestBlockedNeverPaired: two players one of whom blocks the other are
// never paired: over many pool joins the pool passes over the other's
// seek (and pairs a third who comes), and accepting the other's seek is
// refused, whichever of the two blocks; on every store.
func TestBlockedNeverPaired(t *testing.T) {
	stores := []struct {
		name string
		open func(t *testing.T) testsite.Store
	}{
		{"memory", func(*testing.T) testsite.Store { return store.NewMemory() }},
		{"postgres", func(t *testing.T) testsite.Store {
			if testing.Short() {
				t.Skip("starts PostgreSQL")
			}
			p, err := store.OpenPostgres(t.Context(), pg.Server(t).Schema(t), store.PostgresOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close() })
			return p
		}},
		{"sqlite", func(t *testing.T) testsite.Store {
			s, err := store.OpenSQLite(t.Context(), ":memory:", store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}},
	}
	for _, st := range stores {
		for _, blocker := range []string{"ann", "bob"} {
			t.Run(st.name+"/"+blocker+" blocks", func(t *testing.T) {
				l := newLobby(t, st.open(t))
				dan := l.named("Dan")
				from, to := l.ann, "Bob"
				if blocker == "bob" {
					from, to = l.bob, "Ann"
				}
				if err := l.svc.Relations.Block(l.ctx, from, to); err != nil {
					t.Fatal(err)
				}
				for i := range 20 {
					first, second := l.ann, l.bob
					if i%2 == 1 {
						first, second = second, first
					}
					if game, _, err := l.svc.Lobby.JoinPool(l.ctx, first, "5+3", ""); err != nil || game != "" {
						t.Fatalf("round %d: the first joins: %q, %v", i, game, err)
					}
					if game, _, err := l.svc.Lobby.JoinPool(l.ctx, second, "5+3", ""); err != nil || game != "" {
						t.Fatalf("round %d: the two blocked were paired into %q (%v)", i, game, err)
					}
					if v := l.view(); v.Waiting["5+3"] != 2 {
						t.Fatalf("round %d: %d waiting, want both", i, v.Waiting["5+3"])
					}
					for _, k := range l.view().Seeks { // each cancels their own: the other's answers not found
						_ = l.svc.Lobby.CancelSeek(l.ctx, first, k.ID)
						_ = l.svc.Lobby.CancelSeek(l.ctx, second, k.ID)
					}
				}
				if _, _, err := l.svc.Lobby.JoinPool(l.ctx, l.ann, "5+3", ""); err != nil {
					t.Fatal(err)
				}
				if game, _, err := l.svc.Lobby.JoinPool(l.ctx, dan, "5+3", ""); err != nil || game == "" {
					t.Errorf("a third is paired with the waiting: %q, %v", game, err)
				}
				k := l.seek(l.ann, lobby.SeekSettings{Clock: "10+5"})
				_, err := l.svc.Lobby.AcceptSeek(l.ctx, l.bob, k.ID)
				refused(t, "accepting the blocked player's seek", err, errs.Forbidden, string(errs.Blocked))
				if game, err := l.svc.Lobby.AcceptSeek(l.ctx, l.cat, k.ID); err != nil || game == "" {
					t.Errorf("another accepts the seek: %q, %v", game, err)
				}
			})
		}
	}
}

// TestTwoInstancesShareBlocksAndMutes: on two servers sharing PostgreSQL,
// a block made on one keeps the pool on the other from pairing the two;
// a mute made on one refuses the player's line on the other; an account
// closed on one signs its credential out on the other.
func TestTwoInstancesShareBlocksAndMutes(t *testing.T) {
	two := instances(t)
	ctx := context.Background()
	ann, bob := register(t, two[0], "Ann"), register(t, two[0], "Bob")
	register(t, two[0], "Warden")
	if err := two[0].Relations.Block(ctx, ann, "bob"); err != nil {
		t.Fatal(err)
	}
	if game, _, err := two[0].Lobby.JoinPool(ctx, ann, "5+3", ""); err != nil || game != "" {
		t.Fatalf("ann joins: %q, %v", game, err)
	}
	if game, _, err := two[1].Lobby.JoinPool(ctx, bob, "5+3", ""); err != nil || game != "" {
		t.Fatalf("bob, on the other server, was paired with ann into %q (%v)", game, err)
	}

	id, code, _, err := two[0].Games.CreateInvite(ctx, ann, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := two[1].Games.Join(ctx, id, bob, code); err != nil {
		t.Fatal(err)
	}
	if err := two[0].Moderation.SetModerator(ctx, "Warden", true); err != nil {
		t.Fatal(err)
	}
	warden, err := two[0].Players.Login(ctx, players.SignIn{Name: "Warden", Password: "password Warden", Kind: players.Cookie})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := two[0].Moderation.Do(ctx, warden.Credential, moderation.Act{Action: moderation.Mute, Player: "Bob", For: time.Hour, Why: "insults"}); err != nil {
		t.Fatal(err)
	}
	_, err = two[1].Chat.Post(ctx, id, bob, chat.PlayerRoom, "hello")
	refused(t, "a line muted on the other server", err, errs.Forbidden, string(errs.ChatMuted))

	if p, err := two[1].Players.Identify(ctx, bob); err != nil || p.Name != "Bob" {
		t.Fatalf("bob on the second server: %+v, %v", p, err)
	}
	if _, err := two[0].Moderation.Do(ctx, warden.Credential, moderation.Act{Action: moderation.Close, Player: "Bob", Why: "an engine"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		p, err := two[1].Players.Identify(ctx, bob)
		if err == nil && p.ID == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bob's credential still names %+v (%v) on the other server", p, err)
		}
	}
}
