package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// execer runs a statement with arguments ($1, $2…) on a database being
// set up.
type execer func(q string, args ...any) error

// migrationIndex is the number of migrations that run before the one named name.
func migrationIndex(t *testing.T, name string) int {
	t.Helper()
	i := slices.IndexFunc(migrations[:], func(m migration) bool { return m.name == name })
	if i < 0 {
		t.Fatalf("no migration %s", name)
	}
	return i
}

// sqliteFrom is a SQLite store opened on a database the first n
// migrations made, holding the rows insert adds: opening it runs the
// migrations after them.
func sqliteFrom(t *testing.T, n int, insert func(execer)) *SQLite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:n] {
		if _, err := db.Exec(sqliteDDL(m.sql)); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	insert(func(q string, args ...any) error { _, err := db.Exec(q, args...); return err })
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", n)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	return openSQLite(t, path, Options{})
}

// postgresFrom is sqliteFrom for PostgreSQL (started by the tests).
func postgresFrom(t *testing.T, n int, insert func(execer)) *Postgres {
	t.Helper()
	url := pg.Server(t).Schema(t)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	steps := []string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, fmt.Sprintf(`INSERT INTO schema_version VALUES (%d)`, n)}
	for _, m := range migrations[:n] {
		steps = append(steps, postgresDDL(m.sql))
	}
	for _, q := range steps {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	insert(func(q string, args ...any) error { _, err := pool.Exec(ctx, q, args...); return err })
	pool.Close()
	return openPostgres(t, PostgresOptions{}, url)
}
