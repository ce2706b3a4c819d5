package store

import (
	"context"
	"testing"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// safeStore is a store with its players and their safety.
type safeStore interface {
	fullStore
	Safety() players.SafetyStore
}

// safetyStores are the stores the safety's behaviours are tested on.
var safetyStores = []struct {
	name string
	open func(t *testing.T) safeStore
}{
	{"memory", func(*testing.T) safeStore { return NewMemory() }},
	{"sqlite", func(t *testing.T) safeStore { return openSQLite(t, ":memory:", Options{}) }},
	{"postgres", func(t *testing.T) safeStore { return openPostgres(t, PostgresOptions{}) }},
}

// TestSafetyStores: recovery codes are replaced as a set, read by id and
// counted; a recovery spends its code once, sets the password and leaves
// the new credential alone; closing revokes every credential and is
// read back, reopening forgets it; an unknown player is not closed.
func TestSafetyStores(t *testing.T) {
	for _, st := range safetyStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			safety := s.Safety()
			ctx := context.Background()
			ann := addPlayer(t, s, "p-ann", "Ann")
			bob := addPlayer(t, s, "p-bob", "Bob")
			if err := s.Issue(ctx, players.Issued{Hash: "ann-2", Player: ann, Kind: players.Token, Created: epoch}); err != nil {
				t.Fatal(err)
			}
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(safety.SetRecoveryCodes(ctx, ann, []players.RecoveryCode{{ID: "aaaa", Hash: "h1"}, {ID: "bbbb", Hash: "h2"}}))
			must(safety.SetRecoveryCodes(ctx, ann, []players.RecoveryCode{{ID: "cccc", Hash: "h3"}, {ID: "dddd", Hash: "h4"}, {ID: "eeee", Hash: "h5"}}))
			must(safety.SetRecoveryCodes(ctx, bob, []players.RecoveryCode{{ID: "cccc", Hash: "bob's"}}))
			if h, ok, err := safety.RecoveryCode(ctx, ann, "aaaa"); err != nil || ok || h != "" {
				t.Errorf("a code replaced: %q, %v, %v", h, ok, err)
			}
			if h, ok, err := safety.RecoveryCode(ctx, ann, "cccc"); err != nil || !ok || h != "h3" {
				t.Errorf("a code: %q, %v, %v", h, ok, err)
			}
			if n, err := safety.RecoveryCodesLeft(ctx, ann); err != nil || n != 3 {
				t.Errorf("codes left: %d, %v", n, err)
			}
			r := players.Recovery{Player: ann, Code: "cccc", Password: "new-hash", Issued: players.Issued{Hash: "ann-3", Player: ann, Kind: players.Cookie, Created: epoch}}
			if done, err := safety.Recover(ctx, r); err != nil || !done {
				t.Fatalf("recovering: %v, %v", done, err)
			}
			r.Issued.Hash = "ann-4"
			if done, err := safety.Recover(ctx, r); err != nil || done {
				t.Errorf("a code spent: %v, %v", done, err)
			}
			for hash, want := range map[string]string{"cred-p-ann": "", "ann-2": "", "ann-3": ann, "ann-4": "", "cred-p-bob": bob} {
				if got, err := s.CredentialPlayer(ctx, hash); err != nil || got != want {
					t.Errorf("credential %s names %q (%v), want %q", hash, got, err, want)
				}
			}
			if p, err := s.Player(ctx, ann); err != nil || p.Password != "new-hash" {
				t.Errorf("the password after recovering: %q, %v", p.Password, err)
			}
			if n, _ := safety.RecoveryCodesLeft(ctx, ann); n != 2 {
				t.Errorf("codes left after a recovery: %d", n)
			}
			if _, ok, _ := safety.RecoveryCode(ctx, bob, "cccc"); !ok {
				t.Error("bob's code of the same id went with ann's")
			}

			must(safety.SetClosed(ctx, ann, true, epoch))
			must(safety.SetClosed(ctx, ann, true, epoch)) // again
			if closed, err := safety.Closed(ctx, ann); err != nil || !closed {
				t.Errorf("closed: %v, %v", closed, err)
			}
			if got, _ := s.CredentialPlayer(ctx, "ann-3"); got != "" {
				t.Error("a closed account's credential still works")
			}
			if closed, _ := safety.Closed(ctx, bob); closed {
				t.Error("bob is closed")
			}
			refusedWith(t, "closing no one", safety.SetClosed(ctx, "p-nobody", true, epoch), errs.NotFound, errs.NoPlayer)
			must(safety.SetClosed(ctx, ann, false, epoch))
			if closed, err := safety.Closed(ctx, ann); err != nil || closed {
				t.Errorf("reopened: %v, %v", closed, err)
			}
		})
	}
}
