package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/banchess/banchess/tournament"
)

// TestScheduledResultsMigrated: the migration tournament_result_scheduled
// marks the results stored before it of the tournaments the server's
// schedule made (their state names no creator), and no other, in SQLite
// and PostgreSQL.
func TestScheduledResultsMigrated(t *testing.T) {
	before := slices.IndexFunc(migrations[:], func(m migration) bool { return m.name == "tournament_result_scheduled" })
	rows := []struct{ id, data string }{
		{"sched", `{"id":"sched","kind":"arena","name":"Ban Chess arena","status":"finished"}`},
		{"typed", `{"id":"typed","kind":"arena","name":"Evening arena","creator":"p1","status":"finished"}`},
	}
	insert := func(exec func(q string, args ...any) error) {
		t.Helper()
		for _, r := range rows {
			if err := exec(`INSERT INTO tournaments (id, kind, status, starts_at, ends_at, revision, data) VALUES ($1, 'arena', 'finished', 1, 2, 3, $2)`, r.id, r.data); err != nil {
				t.Fatal(err)
			}
			if err := exec(`INSERT INTO tournament_results (player, tournament, name, place, score, players, ended_at, kind) VALUES ('p1', $1, 'x', 1, 2, 3, 4, 'arena')`, r.id); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(t *testing.T, st tournament.Store) {
		t.Helper()
		res, err := st.TournamentResults(context.Background(), "p1", 5)
		if err != nil || len(res) != 2 {
			t.Fatalf("results: %+v, %v", res, err)
		}
		for _, r := range res {
			if want := r.Tournament == "sched"; r.Scheduled != want {
				t.Errorf("%s: scheduled %v, want %v", r.Tournament, r.Scheduled, want)
			}
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "games.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range migrations[:before] {
			if _, err := db.Exec(sqliteDDL(m.sql)); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
		}
		insert(func(q string, args ...any) error { _, err := db.Exec(q, args...); return err })
		if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", before)); err != nil {
			t.Fatal(err)
		}
		db.Close()
		check(t, openSQLite(t, path, Options{}).Tournaments())
	})
	t.Run("postgres", func(t *testing.T) {
		url := pg.Server(t).Schema(t)
		ctx := context.Background()
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		steps := []string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, fmt.Sprintf(`INSERT INTO schema_version VALUES (%d)`, before)}
		for _, m := range migrations[:before] {
			steps = append(steps, postgresDDL(m.sql))
		}
		for _, q := range steps {
			if _, err := pool.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		insert(func(q string, args ...any) error { _, err := pool.Exec(ctx, q, args...); return err })
		pool.Close()
		check(t, openPostgres(t, PostgresOptions{}, url).Tournaments())
	})
}
