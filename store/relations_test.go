package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/banchess/banchess/relations"
)

// relationStores are the stores the relations' behaviours are tested on.
var relationStores = []struct {
	name string
	open func(t *testing.T) relations.Store
}{
	{"memory", func(*testing.T) relations.Store { return NewMemory().Relations() }},
	{"sqlite", func(t *testing.T) relations.Store { return openSQLite(t, ":memory:", Options{}).Relations() }},
	{"postgres", func(t *testing.T) relations.Store { return openPostgres(t, PostgresOptions{}).Relations() }},
}

// TestRelationStores: follows and blocks are kept once each, listed the
// latest first within a limit, forgotten on request; a block ends the
// blocker's follow; Shunned sees blocks both ways; Relation says each.
func TestRelationStores(t *testing.T) {
	for _, st := range relationStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_700_000_000_000)
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			want := func(what string, got []string, err error, want ...string) {
				t.Helper()
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("%s: %q, %v; want %q", what, got, err, want)
				}
			}
			must(s.Follow(ctx, "ann", "bob", at))
			must(s.Follow(ctx, "ann", "cat", at.Add(time.Second)))
			must(s.Follow(ctx, "ann", "bob", at.Add(2*time.Second))) // again: nothing changes
			must(s.Follow(ctx, "bob", "ann", at))
			got, err := s.Following(ctx, "ann", 10)
			want("ann follows", got, err, "cat", "bob")
			got, err = s.Following(ctx, "ann", 1)
			want("ann follows, limit 1", got, err, "cat")
			must(s.Unfollow(ctx, "ann", "cat"))
			must(s.Unfollow(ctx, "ann", "dan")) // never followed
			got, err = s.Following(ctx, "ann", 10)
			want("ann follows after unfollowing cat", got, err, "bob")

			must(s.Block(ctx, "ann", "bob", at))
			got, err = s.Following(ctx, "ann", 10)
			want("ann follows after blocking bob", got, err)
			got, err = s.Following(ctx, "bob", 10)
			want("bob still follows ann", got, err, "ann")
			must(s.Block(ctx, "ann", "bob", at)) // again
			must(s.Block(ctx, "cat", "ann", at.Add(time.Second)))
			must(s.Block(ctx, "ann", "dan", at.Add(2*time.Second)))
			got, err = s.Blocking(ctx, "ann", 10)
			want("ann blocks", got, err, "dan", "bob")
			got, err = s.Shunned(ctx, "ann")
			slices.Sort(got)
			want("ann shuns and is shunned by", got, err, "bob", "cat", "dan")
			got, err = s.Shunned(ctx, "eve")
			want("eve", got, err)
			for _, c := range []struct {
				a, b            string
				follows, blocks bool
			}{
				{"ann", "bob", false, true},
				{"bob", "ann", true, false},
				{"cat", "ann", false, true},
				{"ann", "cat", false, false},
			} {
				f, b, err := s.Relation(ctx, c.a, c.b)
				if err != nil || f != c.follows || b != c.blocks {
					t.Errorf("Relation(%s, %s) = %v, %v, %v; want %v, %v", c.a, c.b, f, b, err, c.follows, c.blocks)
				}
			}
			must(s.Unblock(ctx, "ann", "bob"))
			got, err = s.Blocking(ctx, "ann", 10)
			want("ann blocks after unblocking bob", got, err, "dan")
		})
	}
}
