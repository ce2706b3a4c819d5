package store

import (
	"context"
	"testing"

	"github.com/banchess/banchess/tournament"
)

// TestScheduledResultsMigrated: the migration tournament_result_scheduled
// marks the results stored before it of the tournaments the server's
// schedule made (their state names no creator), and no other, in SQLite
// and PostgreSQL.
func TestScheduledResultsMigrated(t *testing.T) {
	n := migrationIndex(t, "tournament_result_scheduled")
	rows := []struct{ id, data string }{
		{"sched", `{"id":"sched","kind":"arena","name":"Ban Chess arena","status":"finished"}`},
		{"typed", `{"id":"typed","kind":"arena","name":"Evening arena","creator":"p1","status":"finished"}`},
	}
	insert := func(exec execer) {
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
	t.Run("sqlite", func(t *testing.T) { check(t, sqliteFrom(t, n, insert).Tournaments()) })
	t.Run("postgres", func(t *testing.T) { check(t, postgresFrom(t, n, insert).Tournaments()) })
}
