package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
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
	sqlStore
	db     *sql.DB
	sqlite *sqliteDB // db as a database (sqlStore.db)
	lock   *fileLock // held while the store is open: one store per file

	closeOnce sync.Once
	closeErr  error
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
	s := &SQLite{db: db, sqlite: d}
	s.start(d, sqlConfig{cacheSize: opts.CacheSize, cacheBytes: opts.CacheBytes, ttl: opts.TTL, now: opts.Now, groupWait: groupWait})
	if err := d.prepare(ctx, s.saves[:]...); err != nil {
		s.commits.close()
		d.close()
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
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
