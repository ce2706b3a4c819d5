package tournament_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/store/pgtest"
	"github.com/banchess/banchess/tournament"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it.
var pg pgtest.Lazy

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// TestArenaOnTwoServers: two servers share PostgreSQL and both tick; one
// runs the arena at a time, so nothing is paired twice; when it stops
// (dies), the other takes the arena over once its claim lapses, records
// the games that ended and pairs again.
func TestArenaOnTwoServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	url := pg.Server(t).Schema(t)
	clk := &manualClock{now: epoch}
	var arenas [2]*arena
	for i, owner := range []string{"one", "two"} {
		p, err := store.OpenPostgres(context.Background(), url, store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		site := testsite.New(p, testsite.Config{Now: clk.Now, Tournament: []tournament.Option{tournament.WithOwner(owner)}})
		t.Cleanup(site.Games.Close)
		arenas[i] = &arena{t: t, ctx: context.Background(), site: site, svc: site.Tournaments, clk: clk, creds: map[string]players.Credential{}, ids: map[string]string{}}
	}
	one, two := arenas[0], arenas[1]
	one.named("Ann", "Bob", "Cat", "Dan")
	two.creds, two.ids = one.creds, one.ids
	tr, err := one.svc.Create(one.ctx, one.creds["Ann"], tournament.Settings{Name: "Shared", Clock: "3+2", Minutes: 30})
	one.must(err)
	one.id, two.id = tr.ID, tr.ID
	for _, n := range []string{"Ann", "Bob", "Cat", "Dan"} {
		one.must(two.svc.Join(one.ctx, tr.ID, one.creds[n]))
	}
	one.tick()
	if tr = two.tick(); len(tr.Pairings) != 2 {
		t.Fatalf("two servers ticking paired %d games, want 2", len(tr.Pairings))
	}
	// Server one dies; the games end.
	for pair, id := range two.running(tr) {
		w, b := split(pair)
		two.play(id, 1, w, b)
		two.resign(id, b)
	}
	if tr = two.tick(); len(tr.Pairings) != 2 || two.running(tr) == nil || tr.Pairings[0].Done {
		t.Fatalf("server two ran the arena while server one's claim held: %+v", tr.Pairings)
	}
	clk.advance(tournament.DefaultLease)
	tr = two.tick()
	seen := map[string]bool{}
	for _, p := range tr.Pairings {
		if seen[p.Game] {
			t.Errorf("game %s paired twice", p.Game)
		}
		seen[p.Game] = true
	}
	if len(tr.Pairings) != 4 || len(two.running(tr)) != 2 {
		t.Errorf("after the takeover: %d pairings, %d running", len(tr.Pairings), len(two.running(tr)))
	}
	if got := sheets(two, tr); len(got["Ann"])+len(got["Bob"])+len(got["Cat"])+len(got["Dan"]) != 4 {
		t.Errorf("sheets %v", got)
	}
}

// TestSwissOnSQL plays the Swiss event of TestSwissThroughTheService on
// SQLite and PostgreSQL: the event's state round-trips through their JSON.
func TestSwissOnSQL(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		s, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "t.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		swissEvent(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		if testing.Short() {
			t.Skip("starts PostgreSQL")
		}
		p, err := store.OpenPostgres(context.Background(), pg.Server(t).Schema(t), store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		swissEvent(t, p)
	})
}
