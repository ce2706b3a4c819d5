package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/training"
)

// v4Games are games as a database of schema version 4 holds them: holders
// are the hashes of the credentials that made them.
func v4Games(ann, bob players.Credential) []string {
	a, b := ann.Hash(), bob.Hash()
	return []string{
		`INSERT INTO games (id, variant, start_fen, actions, declared, tags, from_chess, created_at, touched_at, white, black, mode, updated_at, revision)
			VALUES ('hot', 'ban', '` + rules.New(rules.BanChess{}).StartFEN() + `', '', '', '[]', false, 100, 100, '` + a + `', '` + a + `', 'hotseat', 100000, 1)`,
		`INSERT INTO games (id, variant, start_fen, actions, declared, tags, from_chess, created_at, touched_at, white, black, mode, updated_at, revision)
			VALUES ('duel', 'ban', '` + rules.New(rules.BanChess{}).StartFEN() + `', '', '', '[]', false, 50, 200, '` + b + `', '` + a + `', 'invite', 200000, 1)`,
		`INSERT INTO games (id, variant, start_fen, actions, declared, tags, from_chess, created_at, touched_at, white, black, mode, updated_at, revision)
			VALUES ('bot', 'ban', '` + rules.New(rules.BanChess{}).StartFEN() + `', '', '', '[]', false, 300, 300, 'engine:3', '` + b + `', 'bot', 300000, 1)`,
	}
}

// checkHoldersMigrated checks a store migrated from schema version 4:
// every holder is a player whose credential is the one it was made from,
// holding the same seats; the computer is no player.
func checkHoldersMigrated(t *testing.T, st fullStore, ann, bob players.Credential) {
	t.Helper()
	ctx := context.Background()
	svc := newServices(st)
	defer svc.Close()
	for _, c := range []struct {
		cred         players.Credential
		id           string
		white, black bool
	}{{ann, "hot", true, true}, {ann, "duel", false, true}, {bob, "duel", true, false}, {bob, "bot", false, true}} {
		var seats games.Seats
		if err := svc.View(ctx, c.id, c.cred, func(_ *games.Record, s games.Seats) { seats = s }); err != nil {
			t.Fatal(err)
		}
		if seats.White != c.white || seats.Black != c.black {
			t.Errorf("game %s: seats %+v, want white %v black %v", c.id, seats, c.white, c.black)
		}
	}
	p, err := svc.players.Identify(ctx, ann)
	if err != nil || p.ID != ann.Hash() || p.Named() || p.Created.Unix() != 50 {
		t.Errorf("ann migrated as %+v, %v", p, err)
	}
	if err := svc.Play(ctx, "duel", bob, games.Input{Text: "e4"}, nil); errs.Of(err).Code != errs.Forbidden {
		t.Errorf("bob banning for black: %v", err)
	}
	if err := svc.Play(ctx, "duel", ann, games.Input{Text: "e4"}, nil); err != nil {
		t.Errorf("ann banning for black: %v", err)
	}
	if p, _ := st.CredentialPlayer(ctx, "engine:3"); p != "" {
		t.Errorf("the computer is a player: %q", p)
	}
	if list, err := svc.Games(ctx, bob, 10); err != nil || len(list) != 2 {
		t.Errorf("bob's games: %+v, %v", list, err)
	}
}

// TestSQLiteMigrateHolders: the seats' holders of a database of schema
// version 4 become players, and their credentials keep their seats.
func TestSQLiteMigrateHolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := players.NewCredential(), players.NewCredential()
	steps := append(append([]string{}, oldSQLiteMigrations[:4]...), v4Games(ann, bob)...)
	for _, q := range append(steps, "PRAGMA user_version = 4") {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	checkHoldersMigrated(t, openSQLite(t, path, Options{}), ann, bob)
}

// TestPostgresMigrateHolders is TestSQLiteMigrateHolders on PostgreSQL.
func TestPostgresMigrateHolders(t *testing.T) {
	url := pg.Server(t).Schema(t)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := players.NewCredential(), players.NewCredential()
	steps := append(append([]string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, `INSERT INTO schema_version VALUES (4)`}, oldPostgresMigrations[:4]...), v4Games(ann, bob)...)
	for _, q := range steps {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	pool.Close()
	checkHoldersMigrated(t, openPostgres(t, PostgresOptions{}, url), ann, bob)
}

// TestSQLitePlayerIndexes checks that a player's list of games and the
// list of leaders are read from their indexes, not by reading every row.
func TestSQLitePlayerIndexes(t *testing.T) {
	s := openSQLite(t, ":memory:", Options{})
	for _, c := range []struct {
		q, index string
		args     []any
	}{
		{playedQuery, "played_newest", []any{"ann", 1, "g", 10}},
		{leadersQuery, "standings_leaders", []any{"ban", "blitz", 10, 50}},
		{`SELECT player FROM credentials WHERE hash = $1`, "PRIMARY KEY", []any{"h"}},
		{`SELECT id FROM players WHERE name_key = $1`, "USING INDEX sqlite_autoindex_players", []any{"ann"}},
		{`SELECT id FROM players WHERE name_skeleton = $1`, "INDEX players_name_skeleton", []any{"ann"}},
		{`SELECT hash FROM credentials WHERE player = $1`, "credentials_player", []any{"p"}},
	} {
		text := sqlitePlan(t, s, c.q, c.args...)
		if strings.Contains(text, "SCAN played") || strings.Contains(text, "SCAN s") || strings.Contains(text, "TEMP B-TREE") || !strings.Contains(text, c.index) {
			t.Errorf("%s\nis planned as\n%s", c.q, text)
		}
	}
}

// TestPostgresPlayerIndexes: PostgreSQL can read a player's list of games
// and the leaders from their indexes (with sequential scans discouraged:
// a table of a few rows is read whole whatever its indexes).
func TestPostgresPlayerIndexes(t *testing.T) {
	p := openPostgres(t, PostgresOptions{})
	ctx := context.Background()
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q, index string
		args     []any
	}{
		{playedQuery, "played_newest", []any{"ann", int64(1), "g", 10}},
		{leadersQuery, "standings_leaders", []any{"ban", "blitz", 10, 50}},
	} {
		rows, err := conn.Query(ctx, "EXPLAIN "+c.q, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, c.index) || strings.Contains(text, "Sort") {
			t.Errorf("%s\nis planned as\n%s", c.q, text)
		}
	}
}

// TestPostgresAcceptRacers: twenty players accepting one seek at once
// through two stores (two instances) make one game; the others find the
// seek gone. Twenty joining a pool at once make ten games.
func TestPostgresAcceptRacers(t *testing.T) {
	url := pg.Server(t).Schema(t)
	// Its subject is the race, not a busy pool: twenty at once may wait
	// for a connection as long as a loaded machine needs.
	opts := PostgresOptions{ConnWait: 10 * time.Second}
	stores := []*Postgres{openPostgres(t, opts, url), openPostgres(t, opts, url)}
	ctx := context.Background()
	open := lobby.SeekWindow{AliveSince: epoch.Add(-time.Minute), CreatedSince: epoch.Add(-time.Hour)}
	maker := addPlayer(t, stores[0], "p-maker", "Maker")
	k := seek(maker, "", epoch)
	if err := stores[1].AddSeek(ctx, k, open, lobby.SeekLimits{PerPlayer: 3}); err != nil {
		t.Fatal(err)
	}
	var racers []string
	for i := range 20 {
		racers = append(racers, addPlayer(t, stores[i%2], "p-racer"+string(rune('a'+i)), ""))
	}
	race := func(req func(i int) lobby.PairRequest) (games_ []string, gone int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() {
				rec, _, err := stores[i%2].Pair(ctx, req(i))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && rec != nil:
					games_ = append(games_, rec.ID)
				case err != nil && errs.Of(err).Detail == "seek_gone":
					gone++
				case err != nil:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		return games_, gone
	}
	won, gone := race(func(i int) lobby.PairRequest {
		return lobby.PairRequest{Taker: racers[i], Seek: k.ID, Open: open, At: epoch, Game: pairedGame}
	})
	if len(won) != 1 || gone != 19 {
		t.Fatalf("%d games, %d found the seek gone; want 1 and 19", len(won), gone)
	}
	var n int
	if err := stores[0].pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d games stored (%v)", n, err)
	}
	won, _ = race(func(i int) lobby.PairRequest {
		return lobby.PairRequest{Taker: racers[i], Pool: "5+3", Wait: seek(racers[i], "5+3", epoch), Open: open, At: epoch, Game: pairedGame}
	})
	if len(won) != 10 {
		t.Errorf("twenty joining a pool: %d games, want 10", len(won))
	}
	seeksAre(t, stores[0], open)
}

// TestSweepPlayers: a sweep removes the anonymous players older than the
// TTL who hold no seat, with their credentials; not a named player, one
// holding a seat, one who has done a lesson step, one with a best
// streak, or one made within the TTL; and Streak's and Storm's runs
// started before the TTL.
func TestSweepPlayers(t *testing.T) {
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			clk := &clock{now: epoch.Add(40 * 24 * time.Hour)}
			ttl := 30 * 24 * time.Hour
			var st interface {
				fullStore
				Sweep(context.Context) (int, error)
			}
			if name == "sqlite" {
				st = openSQLite(t, ":memory:", Options{TTL: ttl, Now: clk.Now})
			} else {
				st = openPostgres(t, PostgresOptions{TTL: ttl, Now: clk.Now})
			}
			ctx := context.Background()
			gone, seated, named := addPlayer(t, st, "p-gone", ""), addPlayer(t, st, "p-seated", ""), addPlayer(t, st, "p-named", "Ann")
			rec := record(rules.New(rules.BanChess{}), seated)
			rec.Created = clk.Now()
			if err := st.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			newer := players.Player{ID: "p-new", Created: clk.Now()}
			if err := st.AddPlayer(ctx, newer, players.Issued{Hash: "cred-p-new", Player: newer.ID, Created: clk.Now()}); err != nil {
				t.Fatal(err)
			}
			learner := addPlayer(t, st, "p-learner", "")
			if err := st.(training.Store).CompleteStep(ctx, learner, "ply-order", 0, clk.Now()); err != nil {
				t.Fatal(err)
			}
			oldRun := training.Run{ID: "old-run", Player: "p-gone", Kind: training.StormRun, Started: clk.Now().Add(-ttl - time.Hour)}
			newRun := training.Run{ID: "new-run", Player: "p-new", Kind: training.StormRun, Started: clk.Now()}
			for _, r := range []training.Run{oldRun, newRun} {
				if err := st.(training.Store).SaveRun(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			streaker := addPlayer(t, st, "p-streaker", "")
			if err := st.(training.Store).RecordScore(ctx, streaker, training.StreakRun, "2026-12-03", 4); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
			for id, kept := range map[string]bool{oldRun.ID: false, newRun.ID: true} {
				if _, ok, err := st.(training.Store).Run(ctx, id); err != nil || ok != kept {
					t.Errorf("run %s: kept %v, %v; want %v", id, ok, err, kept)
				}
			}
			for id, kept := range map[string]bool{gone: false, seated: true, named: true, "p-new": true, learner: true, streaker: true} {
				p, _ := st.CredentialPlayer(ctx, "cred-"+id)
				_, err := st.Player(ctx, id)
				if (p == id) != kept || (err == nil) != kept {
					t.Errorf("%s: credential's player %q, %v; want kept %v", id, p, err, kept)
				}
			}
		})
	}
}
