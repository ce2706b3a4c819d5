package store

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/players"
)

// TestResetLinksAndDeletion: a reset link is kept by hash with its
// player and expiry, and spent once (the password set, every other
// credential revoked); a deleted account shows the deleted name, keeps
// its name from anyone else, has no credential, stays closed when a
// moderator reopens it, and loses its reset links; an unknown player is
// refused.
func TestResetLinksAndDeletion(t *testing.T) {
	for _, st := range safetyStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			safety := s.Safety()
			ctx := context.Background()
			ann := addPlayer(t, s, "p-ann", "Ann")
			bob := addPlayer(t, s, "p-bob", "Bob")
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(s.Issue(ctx, players.Issued{Hash: "ann-2", Player: ann, Kind: players.Token, Created: epoch}))
			expires := epoch.Add(24 * time.Hour)
			must(safety.AddResetLink(ctx, ann, "link-1", expires))
			if err := safety.AddResetLink(ctx, "p-nobody", "link-x", expires); err == nil {
				t.Error("a reset link for no player")
			}
			if p, exp, ok, err := safety.ResetLink(ctx, "link-1"); err != nil || !ok || p != ann || !exp.Equal(expires) {
				t.Errorf("the link: %q %v %v %v", p, exp, ok, err)
			}
			if _, _, ok, err := safety.ResetLink(ctx, "link-2"); err != nil || ok {
				t.Errorf("an unknown link: %v %v", ok, err)
			}
			r := players.Recovery{Player: ann, Code: "link-1", Password: "new-hash", Issued: players.Issued{Hash: "ann-3", Player: ann, Kind: players.Cookie, Created: epoch}}
			if ok, err := safety.UseResetLink(ctx, players.Recovery{Player: bob, Code: "link-1", Issued: players.Issued{Hash: "bob-x", Player: bob, Created: epoch}}); err != nil || ok {
				t.Errorf("another player's link: %v %v", ok, err)
			}
			if ok, err := safety.UseResetLink(ctx, r); err != nil || !ok {
				t.Fatalf("using the link: %v %v", ok, err)
			}
			r.Issued.Hash = "ann-4"
			if ok, err := safety.UseResetLink(ctx, r); err != nil || ok {
				t.Errorf("using the link again: %v %v", ok, err)
			}
			if p, err := s.CredentialPlayer(ctx, "ann-2"); err != nil || p != "" {
				t.Errorf("the old credential after the reset: %q %v", p, err)
			}
			if p, err := s.Player(ctx, ann); err != nil || p.Password != "new-hash" {
				t.Errorf("the password after the reset: %q %v", p.Password, err)
			}

			must(safety.AddResetLink(ctx, ann, "link-5", expires))
			must(safety.Delete(ctx, ann, epoch))
			if err := safety.Delete(ctx, "p-nobody", epoch); err == nil {
				t.Error("deleting no player")
			}
			if p, err := s.PlayerNamed(ctx, "ann"); err != nil || p.ID != ann || p.Name != players.DeletedName || p.Password != "" {
				t.Errorf("the deleted player: %+v %v", p, err)
			}
			if p, err := s.CredentialPlayer(ctx, "ann-3"); err != nil || p != "" {
				t.Errorf("a credential after the deletion: %q %v", p, err)
			}
			if _, _, ok, err := safety.ResetLink(ctx, "link-5"); err != nil || ok {
				t.Errorf("a reset link after the deletion: %v %v", ok, err)
			}
			must(safety.SetClosed(ctx, ann, false, epoch))
			if closed, err := safety.Closed(ctx, ann); err != nil || !closed {
				t.Errorf("a deleted account reopened: %v %v", closed, err)
			}
			if p, err := s.Player(ctx, bob); err != nil || p.Name != "Bob" {
				t.Errorf("bob after ann's deletion: %+v %v", p, err)
			}
		})
	}
}
