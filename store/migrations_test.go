package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestMigrationsFromOldSchemas: a database made by the two lists of
// migrations the one list replaced (oldSQLiteMigrations,
// oldPostgresMigrations), at any of their versions, is migrated by the
// list to the schema the old lists made and the list's migrations since
// (newMigrations) make of it. The old lists counted their steps as the
// list counts its migrations, so the version a database records means the
// same.
func TestMigrationsFromOldSchemas(t *testing.T) {
	if len(oldSQLiteMigrations) != len(oldPostgresMigrations) || len(oldSQLiteMigrations) > SchemaVersion {
		t.Fatalf("%d and %d old steps, %d migrations", len(oldSQLiteMigrations), len(oldPostgresMigrations), SchemaVersion)
	}
	seen := map[string]bool{}
	for _, m := range migrations {
		if m.name == "" || seen[m.name] || strings.ContainsAny(m.name, " -") {
			t.Errorf("migration name %q: empty, repeated, or not snake_case", m.name)
		}
		seen[m.name] = true
	}
	t.Run("sqlite", func(t *testing.T) {
		old := oldSQLiteSchema(t, len(oldSQLiteMigrations))
		for _, m := range newMigrations() {
			if _, err := old.Exec(sqliteDDL(m.sql)); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
		}
		want := sqliteSchema(t, old)
		if got := sqliteSchema(t, openSQLite(t, ":memory:", Options{}).db); got != want {
			t.Errorf("a new database's schema:\n%s\nthe old list's:\n%s", got, want)
		}
		for v := range len(oldSQLiteMigrations) + 1 {
			path := filepath.Join(t.TempDir(), "games.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range append(oldSQLiteMigrations[:v:v], fmt.Sprintf("PRAGMA user_version = %d", v)) {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			s, err := OpenSQLite(context.Background(), path, Options{})
			if err != nil {
				t.Fatalf("opening a database of the old schema version %d: %v", v, err)
			}
			var version int
			if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
				t.Errorf("from version %d: schema version %d (%v), want %d", v, version, err, SchemaVersion)
			}
			if got := sqliteSchema(t, s.db); got != want {
				t.Errorf("migrated from the old schema version %d:\n%s\nwant\n%s", v, got, want)
			}
			s.Close()
		}
	})
	t.Run("postgres", func(t *testing.T) {
		srv := pg.Server(t)
		ctx := context.Background()
		ref, err := pgxpool.New(ctx, srv.Schema(t))
		if err != nil {
			t.Fatal(err)
		}
		defer ref.Close()
		for _, q := range append([]string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
			fmt.Sprintf(`INSERT INTO schema_version VALUES (%d)`, len(oldPostgresMigrations))}, oldPostgresMigrations[:]...) {
			if _, err := ref.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range newMigrations() {
			if _, err := ref.Exec(ctx, postgresDDL(m.sql)); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
		}
		want := postgresSchema(t, ref)
		if got := postgresSchema(t, openPostgres(t, PostgresOptions{}).pool); got != want {
			t.Errorf("a new database's schema:\n%s\nthe old list's:\n%s", got, want)
		}
		for v := range len(oldPostgresMigrations) + 1 {
			url := srv.Schema(t)
			if v > 0 { // the version 0 the old code recorded is no table yet
				pool, err := pgxpool.New(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range append([]string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
					fmt.Sprintf(`INSERT INTO schema_version VALUES (%d)`, v)}, oldPostgresMigrations[:v]...) {
					if _, err := pool.Exec(ctx, q); err != nil {
						t.Fatal(err)
					}
				}
				pool.Close()
			}
			p := openPostgres(t, PostgresOptions{}, url)
			var version int
			if err := p.pool.QueryRow(ctx, "SELECT version FROM schema_version").Scan(&version); err != nil || version != SchemaVersion {
				t.Errorf("from version %d: schema version %d (%v), want %d", v, version, err, SchemaVersion)
			}
			if got := postgresSchema(t, p.pool); got != want {
				t.Errorf("migrated from the old schema version %d:\n%s\nwant\n%s", v, got, want)
			}
			p.Close()
		}
	})
}

// newMigrations are the migrations added to the list after the old lists
// it replaced.
func newMigrations() []migration { return migrations[len(oldSQLiteMigrations):] }

// TestMigrationSchemasAlike: the list makes the same tables in SQLite and
// PostgreSQL, with the same columns in the same order, of types that
// store the same values, and the same indexes.
func TestMigrationSchemasAlike(t *testing.T) {
	p := openPostgres(t, PostgresOptions{})
	s := openSQLite(t, ":memory:", Options{})
	ctx := context.Background()
	// PostgreSQL's types as SQLite stores them.
	types := map[string]string{"text": "TEXT", "bigint": "INTEGER", "integer": "INTEGER", "boolean": "INTEGER", "double precision": "REAL"}
	var pgCols []string
	rows, err := p.pool.Query(ctx, `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, column, typ, nullable string
		if err := rows.Scan(&table, &column, &typ, &nullable); err != nil {
			t.Fatal(err)
		}
		mapped, ok := types[typ]
		if !ok {
			t.Errorf("%s.%s has the type %s, which SQLite's words do not cover", table, column, typ)
		}
		pgCols = append(pgCols, fmt.Sprintf("%s.%s %s null=%s", table, column, mapped, nullable))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var sqliteCols []string
	for _, table := range sqliteNames(t, s.db, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`) {
		rows, err := s.db.Query(`SELECT name, type, "notnull" FROM pragma_table_info(?) ORDER BY cid`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var column, typ string
			var notNull bool
			if err := rows.Scan(&column, &typ, &notNull); err != nil {
				t.Fatal(err)
			}
			// An INTEGER PRIMARY KEY is never null, said or not.
			nullable := map[bool]string{true: "NO", false: "YES"}[notNull || table == "write_probe" && column == "id"]
			sqliteCols = append(sqliteCols, fmt.Sprintf("%s.%s %s null=%s", table, column, typ, nullable))
		}
		rows.Close()
	}
	if got, want := strings.Join(sqliteCols, "\n"), strings.Join(pgCols, "\n"); got != want {
		t.Errorf("SQLite's columns:\n%s\nPostgreSQL's:\n%s", got, want)
	}
	sqliteIndexes := sqliteNames(t, s.db, `SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1`)
	var pgIndexes []string
	rows, err = p.pool.Query(ctx, `SELECT tablename || '.' || indexname FROM pg_indexes WHERE schemaname = current_schema()
		AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		pgIndexes = append(pgIndexes, name)
	}
	if got, want := strings.Join(sqliteIndexes, " "), strings.Join(pgIndexes, " "); got != want {
		t.Errorf("SQLite's indexes: %s\nPostgreSQL's: %s", got, want)
	}
}

// oldSQLiteSchema is a database made by the first n old SQLite steps.
func oldSQLiteSchema(t *testing.T, n int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, q := range oldSQLiteMigrations[:n] {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// sqliteSchema describes an SQLite database's schema: each table's and
// index's SQL (without comments or runs of spaces) and each table's
// columns as SQLite reads them.
func sqliteSchema(t *testing.T, db *sql.DB) string {
	t.Helper()
	comment, spaces := regexp.MustCompile(`--[^\n]*`), regexp.MustCompile(`\s+`)
	var out []string
	rows, err := db.Query(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, q string
		if err := rows.Scan(&typ, &name, &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+spaces.ReplaceAllString(comment.ReplaceAllString(q, ""), " "))
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, table := range tables {
		rows, err := db.Query(`SELECT cid, name, type, "notnull", coalesce(dflt_value, 'NULL'), pk FROM pragma_table_xinfo(?)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var cid, notNull, pk int
			var name, typ, dflt string
			if err := rows.Scan(&cid, &name, &typ, &notNull, &dflt, &pk); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("column %s.%d %s %s notnull=%d default=%s pk=%d", table, cid, name, typ, notNull, dflt, pk))
		}
		rows.Close()
	}
	return strings.Join(out, "\n")
}

// sqliteNames reads a column of names.
func sqliteNames(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// postgresSchema describes the schema of the pool's connections: each
// column as the information schema has it, each index's definition and
// each constraint's.
func postgresSchema(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT table_name || '.' || ordinal_position || ' ' || column_name || ' ' || data_type || ' null=' || is_nullable ||
			' default=' || coalesce(column_default, 'NULL') || ' collation=' || coalesce(collation_name, '')
			FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
		`SELECT replace(indexdef, current_schema() || '.', '') FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`,
		`SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
			WHERE connamespace = current_schema()::regnamespace ORDER BY 1`,
	} {
		rows, err := pool.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			out = append(out, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(out, "\n")
}

// oldSQLiteMigrations and oldPostgresMigrations are the two lists of
// migrations the one list replaced, frozen: databases made so far were
// made by them, and record how many of their steps ran.
var oldSQLiteMigrations = [...]string{
	`CREATE TABLE games (
		id         TEXT PRIMARY KEY,
		variant    TEXT NOT NULL,
		start_fen  TEXT NOT NULL,
		actions    TEXT NOT NULL,  -- every ply in BCN, separated by spaces
		declared   TEXT NOT NULL,  -- '', 'white-resigned', 'black-resigned' or 'draw-agreed'
		tags       TEXT NOT NULL,  -- PGN tags as JSON
		from_chess INTEGER NOT NULL,
		created_at INTEGER NOT NULL, -- unix seconds
		touched_at INTEGER NOT NULL  -- unix seconds of the last request
	) WITHOUT ROWID;
	CREATE INDEX games_touched_at ON games(touched_at);`,
	// Seats, and a summary of each game for lists. Games stored before
	// have no holders: the browser whose cookie names one claims it.
	`ALTER TABLE games ADD COLUMN white TEXT NOT NULL DEFAULT '';  -- the holders of the seats
	ALTER TABLE games ADD COLUMN black TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN white_hidden INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN black_hidden INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'hotseat';
	ALTER TABLE games ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0; -- unix milliseconds of the last change
	ALTER TABLE games ADD COLUMN fen TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN actor TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN phase TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN result TEXT NOT NULL DEFAULT '';
	UPDATE games SET updated_at = touched_at * 1000;
	CREATE INDEX games_white ON games(white) WHERE white <> '';
	CREATE INDEX games_black ON games(black) WHERE black <> '';`,
	// A revision per row, which every save checks and increments, so a
	// save from a stale copy of a game (another process's) overwrites
	// nothing; and a row a health check may write to learn whether writes
	// work.
	`ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0; -- counts the row's saves
	CREATE TABLE write_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);`,
	// What a game between two players has besides its game (the invite,
	// the clock, the offers), as JSON: '' for a hot-seat game.
	`ALTER TABLE games ADD COLUMN table_state TEXT NOT NULL DEFAULT '';`,
	// Each game's review (games.StoredReview): which state of the game it
	// is of, where it stands, the server holding it and until when, and
	// the positions evaluated so far as JSON.
	`CREATE TABLE reviews (
		game_id     TEXT PRIMARY KEY,
		game_key    TEXT NOT NULL,    -- SHA-256 of the game reviewed: variant, start, plies
		status      TEXT NOT NULL,    -- 'queued', 'running' or 'done'
		owner       TEXT NOT NULL,    -- the server that queued or runs it
		lease_until INTEGER NOT NULL, -- unix milliseconds: until when owner holds it
		place       INTEGER NOT NULL, -- a queued review's place in its server's queue
		total       INTEGER NOT NULL, -- positions to evaluate
		positions   TEXT NOT NULL     -- JSON: the positions evaluated so far
	) WITHOUT ROWID;`,
	// Players, the credentials issued to them (hashes), their results and
	// ratings, failed logins and the lobby's seeks (times in unix
	// milliseconds). Every seat's holder so far becomes a player, and its
	// hash (the SHA-256 of the cookie or token it was) that player's
	// credential: seats now belong to players.
	`CREATE TABLE players (
		id         TEXT PRIMARY KEY,
		name       TEXT NOT NULL DEFAULT '', -- '' until chosen
		name_key   TEXT UNIQUE,              -- lower(name), NULL until chosen: names are unique in any case
		password   TEXT NOT NULL DEFAULT '', -- argon2id, PHC string
		created_at INTEGER NOT NULL,
		wins       INTEGER NOT NULL DEFAULT 0,
		losses     INTEGER NOT NULL DEFAULT 0,
		draws      INTEGER NOT NULL DEFAULT 0
	) WITHOUT ROWID;
	CREATE TABLE credentials (
		hash       TEXT PRIMARY KEY, -- SHA-256 of the cookie or token
		player     TEXT NOT NULL,
		kind       TEXT NOT NULL,    -- 'cookie' or 'token'
		created_at INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX credentials_player ON credentials(player);
	CREATE TABLE standings (
		player     TEXT NOT NULL,
		variant    TEXT NOT NULL,
		speed      TEXT NOT NULL,
		rating     REAL NOT NULL,
		deviation  REAL NOT NULL,
		volatility REAL NOT NULL,
		games      INTEGER NOT NULL,
		last_at    INTEGER NOT NULL, -- the last rated game's end
		PRIMARY KEY (player, variant, speed)
	) WITHOUT ROWID;
	CREATE INDEX standings_leaders ON standings(variant, speed, rating) WHERE games >= 10;
	CREATE TABLE played (
		player        TEXT NOT NULL,
		game          TEXT NOT NULL,
		ended_at      INTEGER NOT NULL,
		color         TEXT NOT NULL,
		opponent      TEXT NOT NULL, -- the name the game recorded, '' for none
		score         REAL NOT NULL,
		result        TEXT NOT NULL,
		ending        TEXT NOT NULL,
		variant       TEXT NOT NULL,
		speed         TEXT NOT NULL,
		rated         INTEGER NOT NULL,
		rating_before REAL NOT NULL,
		rating_after  REAL NOT NULL,
		fen           TEXT NOT NULL,
		PRIMARY KEY (player, game)
	) WITHOUT ROWID;
	CREATE INDEX played_newest ON played(player, ended_at, game);
	CREATE TABLE seeks (
		id           TEXT PRIMARY KEY,
		player       TEXT NOT NULL,
		name         TEXT NOT NULL,
		rating       INTEGER NOT NULL,
		provisional  INTEGER NOT NULL,
		variant      TEXT NOT NULL,
		initial_ms   INTEGER NOT NULL,
		increment_ms INTEGER NOT NULL,
		color        TEXT NOT NULL, -- the maker's, '' for random
		rated        INTEGER NOT NULL,
		pool         TEXT NOT NULL, -- '' for a custom seek
		created_at   INTEGER NOT NULL,
		alive_at     INTEGER NOT NULL, -- the maker last seen in the lobby
		game         TEXT NOT NULL,    -- once accepted
		acceptor     TEXT NOT NULL,
		accepted_at  INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX seeks_player ON seeks(player);
	CREATE INDEX seeks_acceptor ON seeks(acceptor) WHERE acceptor <> '';
	CREATE INDEX seeks_pool ON seeks(pool, created_at) WHERE game = '';
	CREATE TABLE failed_logins (key TEXT NOT NULL, at INTEGER NOT NULL);
	CREATE INDEX failed_logins_key ON failed_logins(key, at);
	CREATE INDEX failed_logins_at ON failed_logins(at);
	INSERT INTO players (id, created_at)
		SELECT holder, min(created) * 1000 FROM (
			SELECT white AS holder, created_at AS created FROM games WHERE white <> '' AND white NOT LIKE 'engine:%'
			UNION ALL SELECT black, created_at FROM games WHERE black <> '' AND black NOT LIKE 'engine:%'
		) GROUP BY holder;
	INSERT INTO credentials (hash, player, kind, created_at) SELECT id, id, 'cookie', created_at FROM players;`,
	// Training (package training): each player's puzzle rating and
	// counts, the lesson steps they have done, each puzzle's rating once
	// it is rated, and each player's last finished attempt at each puzzle
	// (its ratings as shown).
	`CREATE TABLE learners (
		player     TEXT PRIMARY KEY,
		rating     REAL NOT NULL,
		deviation  REAL NOT NULL,
		volatility REAL NOT NULL,
		rated_at   INTEGER NOT NULL, -- the last rated attempt
		puzzles    INTEGER NOT NULL, -- rated attempts
		solved     INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE lesson_steps (
		player  TEXT NOT NULL,
		lesson  TEXT NOT NULL,
		step    INTEGER NOT NULL, -- from 0
		done_at INTEGER NOT NULL,
		PRIMARY KEY (player, lesson, step)
	) WITHOUT ROWID;
	CREATE TABLE puzzle_ratings (
		puzzle     TEXT PRIMARY KEY,
		rating     REAL NOT NULL,
		deviation  REAL NOT NULL,
		volatility REAL NOT NULL,
		plays      INTEGER NOT NULL, -- rated attempts
		solved     INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE puzzle_attempts (
		player           TEXT NOT NULL,
		puzzle           TEXT NOT NULL,
		at               INTEGER NOT NULL,
		solved           INTEGER NOT NULL,
		failed_at        INTEGER NOT NULL, -- the wrong action's index, -1 when solved
		actions          TEXT NOT NULL,    -- the solver's actions, BCN, space-separated
		reason           TEXT NOT NULL,    -- why the wrong action fails
		rated            INTEGER NOT NULL,
		before_rating    REAL NOT NULL,
		before_deviation REAL NOT NULL,
		after_rating     REAL NOT NULL,
		after_deviation  REAL NOT NULL,
		puzzle_before    REAL NOT NULL,
		puzzle_after     REAL NOT NULL,
		PRIMARY KEY (player, puzzle)
	) WITHOUT ROWID;`,
}

var oldPostgresMigrations = [...]string{
	`CREATE TABLE games (
		id         TEXT PRIMARY KEY,
		variant    TEXT NOT NULL,
		start_fen  TEXT NOT NULL,
		actions    TEXT NOT NULL,
		declared   TEXT NOT NULL,
		tags       TEXT NOT NULL,
		from_chess BOOLEAN NOT NULL,
		created_at BIGINT NOT NULL,
		touched_at BIGINT NOT NULL
	);
	CREATE INDEX games_touched_at ON games(touched_at);`,
	`ALTER TABLE games ADD COLUMN white TEXT NOT NULL DEFAULT '',
		ADD COLUMN black TEXT NOT NULL DEFAULT '',
		ADD COLUMN white_hidden BOOLEAN NOT NULL DEFAULT false,
		ADD COLUMN black_hidden BOOLEAN NOT NULL DEFAULT false,
		ADD COLUMN mode TEXT NOT NULL DEFAULT 'hotseat',
		ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0,
		ADD COLUMN fen TEXT NOT NULL DEFAULT '',
		ADD COLUMN ply INTEGER NOT NULL DEFAULT 0,
		ADD COLUMN actor TEXT NOT NULL DEFAULT '',
		ADD COLUMN phase TEXT NOT NULL DEFAULT '',
		ADD COLUMN result TEXT NOT NULL DEFAULT '';
	UPDATE games SET updated_at = touched_at * 1000;
	CREATE INDEX games_white ON games(white) WHERE white <> '';
	CREATE INDEX games_black ON games(black) WHERE black <> '';`,
	`ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
	CREATE TABLE write_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at BIGINT NOT NULL);`,
	`ALTER TABLE games ADD COLUMN table_state TEXT NOT NULL DEFAULT '';`,
	`CREATE TABLE reviews (
		game_id     TEXT PRIMARY KEY,
		game_key    TEXT NOT NULL,
		status      TEXT NOT NULL,
		owner       TEXT NOT NULL,
		lease_until BIGINT NOT NULL,
		place       INTEGER NOT NULL,
		total       INTEGER NOT NULL,
		positions   TEXT NOT NULL
	);`,
	`CREATE TABLE players (
		id         TEXT PRIMARY KEY,
		name       TEXT NOT NULL DEFAULT '',
		name_key   TEXT UNIQUE,
		password   TEXT NOT NULL DEFAULT '',
		created_at BIGINT NOT NULL,
		wins       INTEGER NOT NULL DEFAULT 0,
		losses     INTEGER NOT NULL DEFAULT 0,
		draws      INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE credentials (
		hash       TEXT PRIMARY KEY,
		player     TEXT NOT NULL,
		kind       TEXT NOT NULL,
		created_at BIGINT NOT NULL
	);
	CREATE INDEX credentials_player ON credentials(player);
	CREATE TABLE standings (
		player     TEXT NOT NULL,
		variant    TEXT NOT NULL,
		speed      TEXT NOT NULL,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		games      INTEGER NOT NULL,
		last_at    BIGINT NOT NULL,
		PRIMARY KEY (player, variant, speed)
	);
	CREATE INDEX standings_leaders ON standings(variant, speed, rating) WHERE games >= 10;
	CREATE TABLE played (
		player        TEXT NOT NULL,
		game          TEXT COLLATE "C" NOT NULL,
		ended_at      BIGINT NOT NULL,
		color         TEXT NOT NULL,
		opponent      TEXT NOT NULL,
		score         DOUBLE PRECISION NOT NULL,
		result        TEXT NOT NULL,
		ending        TEXT NOT NULL,
		variant       TEXT NOT NULL,
		speed         TEXT NOT NULL,
		rated         BOOLEAN NOT NULL,
		rating_before DOUBLE PRECISION NOT NULL,
		rating_after  DOUBLE PRECISION NOT NULL,
		fen           TEXT NOT NULL,
		PRIMARY KEY (player, game)
	);
	CREATE INDEX played_newest ON played(player, ended_at, game);
	CREATE TABLE seeks (
		id           TEXT PRIMARY KEY,
		player       TEXT NOT NULL,
		name         TEXT NOT NULL,
		rating       INTEGER NOT NULL,
		provisional  BOOLEAN NOT NULL,
		variant      TEXT NOT NULL,
		initial_ms   BIGINT NOT NULL,
		increment_ms BIGINT NOT NULL,
		color        TEXT NOT NULL,
		rated        BOOLEAN NOT NULL,
		pool         TEXT NOT NULL,
		created_at   BIGINT NOT NULL,
		alive_at     BIGINT NOT NULL,
		game         TEXT NOT NULL,
		acceptor     TEXT NOT NULL,
		accepted_at  BIGINT NOT NULL
	);
	CREATE INDEX seeks_player ON seeks(player);
	CREATE INDEX seeks_acceptor ON seeks(acceptor) WHERE acceptor <> '';
	CREATE INDEX seeks_pool ON seeks(pool, created_at) WHERE game = '';
	CREATE TABLE failed_logins (key TEXT NOT NULL, at BIGINT NOT NULL);
	CREATE INDEX failed_logins_key ON failed_logins(key, at);
	CREATE INDEX failed_logins_at ON failed_logins(at);
	INSERT INTO players (id, created_at)
		SELECT holder, min(created) * 1000 FROM (
			SELECT white AS holder, created_at AS created FROM games WHERE white <> '' AND white NOT LIKE 'engine:%'
			UNION ALL SELECT black, created_at FROM games WHERE black <> '' AND black NOT LIKE 'engine:%'
		) AS holders GROUP BY holder;
	INSERT INTO credentials (hash, player, kind, created_at) SELECT id, id, 'cookie', created_at FROM players;`,
	`CREATE TABLE learners (
		player     TEXT PRIMARY KEY,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		rated_at   BIGINT NOT NULL,
		puzzles    INTEGER NOT NULL,
		solved     INTEGER NOT NULL
	);
	CREATE TABLE lesson_steps (
		player  TEXT NOT NULL,
		lesson  TEXT NOT NULL,
		step    INTEGER NOT NULL,
		done_at BIGINT NOT NULL,
		PRIMARY KEY (player, lesson, step)
	);
	CREATE TABLE puzzle_ratings (
		puzzle     TEXT PRIMARY KEY,
		rating     DOUBLE PRECISION NOT NULL,
		deviation  DOUBLE PRECISION NOT NULL,
		volatility DOUBLE PRECISION NOT NULL,
		plays      INTEGER NOT NULL,
		solved     INTEGER NOT NULL
	);
	CREATE TABLE puzzle_attempts (
		player           TEXT NOT NULL,
		puzzle           TEXT COLLATE "C" NOT NULL,
		at               BIGINT NOT NULL,
		solved           BOOLEAN NOT NULL,
		failed_at        INTEGER NOT NULL,
		actions          TEXT NOT NULL,
		reason           TEXT NOT NULL,
		rated            BOOLEAN NOT NULL,
		before_rating    DOUBLE PRECISION NOT NULL,
		before_deviation DOUBLE PRECISION NOT NULL,
		after_rating     DOUBLE PRECISION NOT NULL,
		after_deviation  DOUBLE PRECISION NOT NULL,
		puzzle_before    DOUBLE PRECISION NOT NULL,
		puzzle_after     DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (player, puzzle)
	);`,
}
