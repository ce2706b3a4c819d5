package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

// TestEachGame checks that SQLite and PostgreSQL stores walk their games in
// the order of their ids, with what each is made of, and stop at fn's
// error.
func TestEachGame(t *testing.T) {
	type walker interface {
		fullStore
		EachGame(ctx context.Context, fn func(id, variant, startFEN string, actions []string) error) error
	}
	for _, st := range []struct {
		name string
		open func(t *testing.T) walker
	}{
		{"sqlite", func(t *testing.T) walker { return openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{}) }},
		{"postgres", func(t *testing.T) walker { return openPostgres(t, PostgresOptions{}) }},
	} {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ban, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5"})
			if err != nil {
				t.Fatal(err)
			}
			classic, err := rules.Replay(rules.Classic{}, "", []string{"m:e2e4"})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for _, g := range []*rules.Game{ban, classic, rules.New(rules.BanChess{})} {
				id := create(t, s, g, "ann")
				want[id] = g.Variant().ID() + " " + g.StartFEN() + " " + strings.Join(g.BCN(), " ")
			}
			var ids []string
			err = s.EachGame(context.Background(), func(id, variant, start string, actions []string) error {
				ids = append(ids, id)
				if got := variant + " " + start + " " + strings.Join(actions, " "); got != want[id] {
					t.Errorf("game %s: %q, want %q", id, got, want[id])
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != 3 || !slices.IsSorted(ids) {
				t.Errorf("walked %q, want the 3 games by id", ids)
			}
			stop := errors.New("stop")
			calls := 0
			err = s.EachGame(context.Background(), func(string, string, string, []string) error { calls++; return stop })
			if err != stop || calls != 1 {
				t.Errorf("fn's error: %v after %d calls, want it after 1", err, calls)
			}
		})
	}
}
