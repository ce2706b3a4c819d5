package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
)

// TestLookAlikeSignUpsRace (issue 45, item 9): names that look alike
// (players.Skeleton), signed up at once, on two servers sharing
// PostgreSQL, name one player: the others are refused as taken or as
// looking like it, though each passed the check made before hashing
// (which takes a while here, so that all of them do).
func TestLookAlikeSignUpsRace(t *testing.T) {
	for _, tc := range twoServers() {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			pw := &countedPasswords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 40)}
			var servers []*players.Service
			for _, st := range tc.open(t) {
				servers = append(servers, players.New(st, players.WithPasswords(pw)))
			}
			names := []string{"Carlsen", "CarIsen", "Car1sen", "carisen", "CARLSEN", "CarlSen", "Car1Sen", "CaRIsen"}
			var anons []players.Credential // half of them name an anonymous player
			for range len(names) / 2 {
				cred, _, err := servers[0].NewPlayer(ctx, players.Cookie)
				if err != nil {
					t.Fatal(err)
				}
				anons = append(anons, cred)
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			answers := make([]error, len(names))
			for i, name := range names {
				wg.Go(func() {
					up := players.SignUp{Name: name, Password: "correct horse", Client: fmt.Sprint("10.0.0.", i), Kind: players.Cookie}
					if i%2 == 1 {
						up.Credential = anons[i/2]
					}
					<-start
					_, answers[i] = servers[i%2].Register(ctx, up)
				})
			}
			close(start)
			wg.Wait()
			var won []string
			for i, err := range answers {
				switch d := errs.Of(err); {
				case err == nil:
					won = append(won, names[i])
				case d.Detail != errs.NameTaken && d.Detail != errs.NameLookAlike:
					t.Errorf("%s: %v", names[i], err)
				}
			}
			if len(won) != 1 {
				t.Errorf("%d look-alike names signed up at once (%d passwords hashed): %q won, want one", len(names), pw.hashes.Load(), won)
			}
		})
	}
}

// TestSkeletonMigration (issue 45, item 9): the migration that keeps the
// names' skeletons computes them as players.Skeleton does, for the
// players named before it; of two named alike then, both keep their
// names and can sign in, the older holds the skeleton, and a new
// look-alike is refused, its message naming the older.
func TestSkeletonMigration(t *testing.T) {
	names := []struct {
		id, name string
		created  int64
	}{
		{"p-carisen", "CarIsen", 2000}, {"p-carlsen", "Carlsen", 1000}, {"p-carl1sen", "carlisen", 1500}, // carlisen: not like them
		{"p-bob", "B0b_rn-vv", 1000}, {"p-anon", "", 1000}, {"p-anon2", "", 1000}, {"p-kill", "KIl1|", 1000},
		{"p-b-will", "Will", 1000}, {"p-a-will", "VVill", 1000}, // as old as each other: the lesser id holds the skeleton
	}
	n := migrationIndex(t, "players_name_skeleton")
	hash := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)
	pwHash, err := hash.Hash(context.Background(), "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	insert := func(exec execer) {
		t.Helper()
		for _, p := range names {
			key := any(nil)
			if p.name != "" {
				key = players.NameKey(p.name)
			}
			if err := exec(`INSERT INTO players (id, name, name_key, password, created_at) VALUES ($1, $2, $3, $4, $5)`, p.id, p.name, key, pwHash, p.created); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(t *testing.T, st fullStore, skeletons func() map[string]*string) {
		t.Helper()
		got := skeletons()
		for _, p := range names {
			var want *string
			if s := players.Skeleton(p.name); p.name != "" && p.id != "p-carisen" && p.id != "p-b-will" {
				want = &s
			}
			switch g := got[p.id]; {
			case (g == nil) != (want == nil), g != nil && *g != *want:
				t.Errorf("%s (%q): skeleton %v, want %v", p.id, p.name, deref(g), deref(want))
			}
		}
		svc := players.New(st, players.WithPasswords(hash))
		ctx := context.Background()
		for _, name := range []string{"Carlsen", "carisen"} {
			if _, err := svc.Login(ctx, players.SignIn{Name: name, Password: "correct horse", Client: "10.0.0.1", Kind: players.Cookie}); err != nil {
				t.Errorf("%s signing in: %v", name, err)
			}
		}
		_, err := svc.Register(ctx, players.SignUp{Name: "CARL5EN", Password: "correct horse", Kind: players.Cookie})
		if err != nil {
			t.Errorf("an unlike name: %v", err)
		}
		_, err = svc.Register(ctx, players.SignUp{Name: "Car1sen", Password: "correct horse", Kind: players.Cookie})
		if e := errs.Of(err); err == nil || e.Detail != errs.NameLookAlike || !strings.Contains(e.Msg, "like Carlsen") {
			t.Errorf("a new look-alike of Carlsen and CarIsen: %v", err)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		st := sqliteFrom(t, n, insert)
		check(t, st, func() map[string]*string {
			r, err := st.db.Query(`SELECT id, name_skeleton FROM players`)
			if err != nil {
				t.Fatal(err)
			}
			return skeletonsOf(t, sqlRows{r})
		})
	})
	t.Run("postgres", func(t *testing.T) {
		st := postgresFrom(t, n, insert)
		check(t, st, func() map[string]*string {
			r, err := st.pool.Query(context.Background(), `SELECT id, name_skeleton FROM players`)
			if err != nil {
				t.Fatal(err)
			}
			return skeletonsOf(t, pgRows{r})
		})
	})
}

// skeletonsOf reads the rows of ids and name skeletons (nil for NULL).
func skeletonsOf(t *testing.T, r rows) map[string]*string {
	t.Helper()
	defer r.Close()
	out := map[string]*string{}
	for r.Next() {
		var id string
		var sk *string
		if err := r.Scan(&id, &sk); err != nil {
			t.Fatal(err)
		}
		out[id] = sk
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// twoServers are stores as two servers share them: memory and SQLite (one
// store, reached by both) and PostgreSQL (two servers on one database).
func twoServers() []struct {
	name string
	open func(t *testing.T) []fullStore
} {
	return []struct {
		name string
		open func(t *testing.T) []fullStore
	}{
		{"memory", func(*testing.T) []fullStore { m := NewMemory(); return []fullStore{m, m} }},
		{"sqlite", func(t *testing.T) []fullStore {
			s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{})
			return []fullStore{s, s}
		}},
		{"postgres, two servers", func(t *testing.T) []fullStore {
			// Their subject is the race between servers, not a busy pool:
			// many at once may wait for a connection as long as a loaded
			// machine needs.
			url, opts := pg.Server(t).Schema(t), PostgresOptions{ConnWait: 10 * time.Second}
			return []fullStore{openPostgres(t, opts, url), openPostgres(t, opts, url)}
		}},
	}
}
