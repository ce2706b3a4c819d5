package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/store"
)

// TestAdminGrantMod: banchess admin grant-mod NAME makes the player a
// moderator in the store --db names (the name in any case), and the log
// records it as the server's; revoke-mod undoes it; an unknown name, a
// missing database and a wrong use fail, saying why.
func TestAdminGrantMod(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "games.db")
	st, err := store.OpenSQLite(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := players.New(st).Register(ctx, players.SignUp{Name: "Ann", Password: "a long enough password", Kind: players.Token})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	admin := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"admin"}, args...), strings.NewReader(""), &out, &errOut)
		return code, out.String() + errOut.String()
	}
	moderator := func() bool {
		t.Helper()
		st, err := store.OpenSQLite(ctx, db, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		mod, err := st.Moderation().Moderator(ctx, in.Player.ID)
		if err != nil {
			t.Fatal(err)
		}
		return mod
	}
	if code, out := admin("grant-mod", "--db", db, "ann"); code != 0 || !strings.Contains(out, "ann is a moderator") || !moderator() {
		t.Fatalf("grant-mod: %d %q", code, out)
	}
	if code, out := admin("revoke-mod", "--db", db, "Ann"); code != 0 || moderator() {
		t.Fatalf("revoke-mod: %d %q", code, out)
	}
	st, err = store.OpenSQLite(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log, err := st.Moderation().Entries(ctx, 10)
	st.Close()
	if err != nil || len(log) != 2 || log[0].Action != "revoke-mod" || log[1].Action != "grant-mod" || log[1].ModeratorName != "the server" || log[1].PlayerName != "Ann" {
		t.Errorf("the log: %+v, %v", log, err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"grant-mod", "--db", db, "nobody"}, "No player is called"},
		{[]string{"grant-mod", "--db", filepath.Join(t.TempDir(), "none.db"), "Ann"}, "--db"},
		{[]string{"grant-mod", "--db", db}, "usage: banchess admin"},
		{[]string{"promote", "Ann"}, "usage: banchess admin"},
		{nil, "usage: banchess admin"},
	} {
		if code, out := admin(c.args...); code != 1 || !strings.Contains(out, c.says) {
			t.Errorf("admin %q: %d %q, want it to say %q", c.args, code, out, c.says)
		}
	}
}
