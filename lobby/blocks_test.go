package lobby_test

import (
	"testing"

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
