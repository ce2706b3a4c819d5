package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"github.com/banchess/banchess/games"
)

// Options configure an SQLite store.
type Options struct {
	// Fsync makes every commit wait for the disk (synchronous=FULL), so a
	// power loss loses no acknowledged ply. Without it (synchronous=NORMAL
	// in WAL mode) a commit survives the process being killed, not the
	// machine losing power.
	Fsync bool
	// CacheSize bounds the games kept in memory; 0 means DefaultCacheSize.
	CacheSize int
	// CacheBytes bounds the memory the games kept in memory take, as
	// estimated from their plies and tags (see gameBytes); 0 means
	// DefaultCacheBytes. The cache keeps within both bounds.
	CacheBytes int64
	// TTL is how long a game may stay untouched before Sweep removes it;
	// 0 means games never expire.
	TTL time.Duration
	// Now gives the time; nil means time.Now.
	Now func() time.Time

	// shareFile skips the lock that keeps a second store off the file, for
	// tests of two writers on one file.
	shareFile bool
}

// DefaultCacheSize is the number of games an SQLite store keeps in memory
// unless told otherwise.
const DefaultCacheSize = 10_000

// DefaultCacheBytes is the memory an SQLite store's cache takes at most
// unless told otherwise: 64 MiB. main runs the server with GOGC=400 and a
// 512 MiB soft memory limit, so the heap may grow to five times what is
// live; 64 MiB of games, with what requests hold, keeps that under the
// limit. It holds about 5,000 games of 100 plies, or 300 of 2,000.
const DefaultCacheBytes = 64 << 20

// SQLite keeps games in an SQLite database, one row per game, and the games
// in use in memory, up to a bound (least recently used leave first). Every
// change is committed before Update returns. It is safe for concurrent use;
// each game is only ever touched under its own lock.
type SQLite struct {
	db       *sql.DB
	sqlite   *sqliteDB         // db as a database
	lock     *fileLock         // held while the store is open: one store per file
	saves    [saveKinds]string // insert a game's row, or update what the kind of save changes
	commits  *committer
	failures writeFailures

	closeOnce sync.Once
	closeErr  error
	opts      Options

	gameCache
	sqlPlayers
	sqlTraining
}

// OpenSQLite opens (creating or migrating as needed) the database at path;
// ":memory:" gives a database that lives as long as the store.
func OpenSQLite(ctx context.Context, path string, opts Options) (*SQLite, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open database: the path %q must be non-empty and without ? or #", path)
	}
	synchronous := "NORMAL"
	if opts.Fsync {
		synchronous = "FULL"
	}
	dsn := path + "?_busy_timeout=10000&_txlock=immediate&_synchronous=" + synchronous
	var lock *fileLock
	if path != ":memory:" {
		dsn += "&_journal_mode=WAL"
		if !opts.shareFile {
			var err error
			if lock, err = lockFile(path); err != nil {
				return nil, err
			}
		}
	}
	s, err := openDB(ctx, path, dsn, opts)
	if err != nil {
		lock.release()
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// saveSQL inserts a game's row, or updates the columns set (see
// upsertSQL).
var saveSQL = upsertSQL("?", "games")

// openDB opens the database with dsn, migrated, and prepares the
// store's statements.
func openDB(ctx context.Context, path, dsn string, opts Options) (*SQLite, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// One connection: SQLite takes one writer at a time anyway, and a
	// :memory: database exists only on its own connection.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	d := newSQLiteDB(db)
	if err := migrate(ctx, d); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// A ply rewrites only what a ply changes (see saveSets).
	var saves [saveKinds]string
	for k, set := range saveSets {
		saves[k] = fmt.Sprintf(saveSQL, set)
	}
	if err := d.prepare(ctx, saves[:]...); err != nil {
		d.close()
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	s := &SQLite{db: db, sqlite: d, saves: saves, commits: newCommitter(d, groupWait, 0), opts: opts}
	s.init(opts.CacheSize, opts.CacheBytes, opts.Now)
	s.load, s.gameCache.write, s.finish = s.loadRow, s.write, s.writeFinished
	s.sqlPlayers = sqlPlayers{db: d}
	s.sqlTraining = sqlTraining{db: d}
	return s, nil
}

// write commits c's game (see writeRow).
func (s *SQLite) write(c *cachedGame) (int64, error) {
	return writeRow(c, s.opts.Now(), &s.failures, func(kind saveKind, args []any) error {
		// Once begun, a save runs to its end whatever becomes of the
		// request.
		return s.commits.write(c.id, s.saves[kind], args)
	})
}

// loadRow reads a game's record from its row (see scanRecord).
func (s *SQLite) loadRow(ctx context.Context, id string) (rec *games.Record, revision, size int64, err error) {
	return scanRecord(id, s.db.QueryRowContext(ctx, `SELECT `+loadColumns+` FROM games WHERE id = ?`, id).Scan, sql.ErrNoRows)
}

// listQuery lists holder ?1's games, up to ?2. The terms saying a seat is
// not free (the partial indexes' conditions) let SQLite use the indexes on
// the seats: without them it reads every game.
const listQuery = `SELECT ` + summaryColumns + ` FROM games
	WHERE white = ?1 AND white <> '' AND white_hidden = 0 OR black = ?1 AND black <> '' AND black_hidden = 0
	ORDER BY updated_at DESC, created_at DESC, id LIMIT ?2`

// List returns up to limit of holder's games that it has not hidden, the
// most recently updated first. No one ("") holds a game.
func (s *SQLite) List(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if holder == "" || limit <= 0 {
		return nil, ctx.Err()
	}
	rows, err := s.db.QueryContext(ctx, listQuery, holder, limit)
	if err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	defer rows.Close()
	var out []games.Summary
	for rows.Next() {
		sum, err := scanSummary(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("listing games: %w", err)
		}
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	return out, nil
}

// Sweep removes the games untouched for longer than the TTL and reports how
// many it removed. It first records when the cached games were last used,
// so a game in play is never swept.
// Then it removes the anonymous players made before the TTL who hold no
// seat any more (see sweepPlayers).
func (s *SQLite) Sweep(ctx context.Context) (int, error) {
	n, err := s.sweep(ctx, s.opts.TTL, s.touch, s.removeUntouched)
	if err == nil && s.opts.TTL > 0 {
		err = s.sweepPlayers(ctx, s.opts.Now().Add(-s.opts.TTL))
	}
	return n, err
}

// removeUntouched deletes the rows untouched since cutoff (unix seconds),
// and the reviews of the games removed, and counts the games.
func (s *SQLite) removeUntouched(ctx context.Context, cutoff int64) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM games WHERE touched_at < ?`, cutoff)
	if err != nil {
		return 0, err
	}
	if _, err := s.db.ExecContext(ctx, sweepReviewsSQL); err != nil {
		return 0, fmt.Errorf("the reviews of removed games: %w", err)
	}
	return res.RowsAffected()
}

// touch records when the games were last used.
func (s *SQLite) touch(ctx context.Context, used map[string]time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `UPDATE games SET touched_at = max(touched_at, ?) WHERE id = ?`)
	if err != nil {
		return err
	}
	for id, t := range used {
		if _, err := stmt.ExecContext(ctx, t.Unix(), id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Ping checks the database answers, and that writes work: while saves
// are failing (a full disk, a read-only file) it returns an error that
// says so (WritesFailing reports true), until a save succeeds again. So
// that a server no longer sent requests learns when writes work again, it
// then tries a tiny write itself, at most once every probeEvery.
func (s *SQLite) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	now := s.opts.Now()
	return s.failures.check(now, func() error {
		_, err := s.db.ExecContext(ctx, probeSQL, now.Unix())
		return err
	})
}

// Stats counts the games stored and those cached in memory.
func (s *SQLite) Stats(ctx context.Context) (stored, cached int, err error) {
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM games").Scan(&stored); err != nil {
		return 0, 0, fmt.Errorf("counting games: %w", err)
	}
	return stored, s.cached(), nil
}

// Close closes the database. Every acknowledged change is already
// committed; call it once no request is in flight. Closing again does
// nothing.
func (s *SQLite) Close() error {
	s.closeOnce.Do(func() {
		s.commits.close()
		s.sqlite.close()
		if err := s.db.Close(); err != nil {
			s.closeErr = fmt.Errorf("close database: %w", err)
		}
		s.lock.release()
	})
	return s.closeErr
}
