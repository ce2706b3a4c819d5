package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// querier runs statements on either database, in a transaction or not.
// The statements are written once, with $n placeholders, which SQLite
// reads as PostgreSQL does (a game's save aside: see
// database.placeholder).
type querier interface {
	exec(ctx context.Context, q string, args ...any) (int64, error)
	// queryRow's Scan fails with errNoRows when there is no row.
	queryRow(ctx context.Context, q string, args ...any) scanner
	query(ctx context.Context, q string, args ...any) (rows, error)
}

type scanner interface{ Scan(dest ...any) error }

// rows are a query's rows; Close is safe to call twice.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// errNoRows is what queryRow's Scan answers for no row, on either
// database.
var errNoRows = errors.New("no rows")

// database is what the code both databases share (the games table's, the
// players', the lobby's, the migrations') needs of a store's database
// besides statements: transactions, and the few words the two databases
// say differently.
type database interface {
	querier
	// inTx runs fn in a transaction, committed when fn returns nil.
	inTx(ctx context.Context, fn func(q querier) error) error
	// forUpdate locks the rows a SELECT reads until the transaction ends
	// (" FOR UPDATE" in PostgreSQL; SQLite's transaction holds the whole
	// database already).
	forUpdate() string
	// skipLocked locks the rows a SELECT reads, passing over those another
	// transaction holds (" FOR UPDATE SKIP LOCKED" in PostgreSQL; "" in
	// SQLite, whose writers take turns).
	skipLocked() string
	// lock takes a lock named key until the transaction ends.
	lock(ctx context.Context, q querier, key string) error
	// notify tells the servers sharing the database of a change, when the
	// transaction commits.
	notify(ctx context.Context, q querier, notice string) error
	// batch runs stmts in order in one transaction and returns what each
	// did, or nil when none ran; err says why the transaction did not
	// commit (then none of it did). SQLite undoes a statement it refuses
	// alone and commits the others; in PostgreSQL it fails the batch.
	batch(ctx context.Context, stmts []statement) (done []outcome, err error)

	// placeholder is how a save writes its parameters (see upsertSQL):
	// "?", SQLite's own, or "$" for PostgreSQL's $1, $2, ….
	placeholder() string
	// saveStatement is the statement a save runs, given its upsert (see
	// upsertSQL): PostgreSQL's also notifies NotifyChannel of the save.
	saveStatement(upsert string) string
	// byteOrder, after an ORDER BY's term, orders text byte by byte, as
	// SQLite's BINARY collation does.
	byteOrder() string

	// schemaVersion reads, in migrate's transaction, how many migrations
	// have run; setSchemaVersion records it.
	schemaVersion(ctx context.Context, q querier) (int, error)
	setSchemaVersion(ctx context.Context, q querier, version int) error
	// ddl is a migration's SQL in the database's words (see sqliteDDL).
	ddl(sql string) string
}

// statement is a statement of a batch, with its arguments.
type statement struct {
	query string
	args  []any
}

// outcome is what a statement of a batch did: the rows it affected, or
// its error.
type outcome struct {
	rows int64
	err  error
}

// sqlQuerier runs statements on database/sql (SQLite).
type sqlQuerier struct {
	q interface {
		ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
		QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
		QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	}
}

func (s sqlQuerier) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.q.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqlQuerier) queryRow(ctx context.Context, q string, args ...any) scanner {
	return sqlRow{s.q.QueryRowContext(ctx, q, args...)}
}

func (s sqlQuerier) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := s.q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

type sqlRow struct{ r *sql.Row }

func (r sqlRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return errNoRows
	}
	return err
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// sqliteDB is the SQLite database as a database.
type sqliteDB struct {
	sqlQuerier
	db *sql.DB
	// prepared are the statements prepared for batch (see prepare),
	// by their query.
	prepared map[string]*sql.Stmt
}

func newSQLiteDB(db *sql.DB) *sqliteDB {
	return &sqliteDB{sqlQuerier: sqlQuerier{db}, db: db, prepared: make(map[string]*sql.Stmt)}
}

// prepare prepares queries once for every batch that runs them (the
// saves': batch would otherwise prepare them on each transaction). It
// runs before the store is used; close closes them.
func (d *sqliteDB) prepare(ctx context.Context, queries ...string) error {
	for _, q := range queries {
		stmt, err := d.db.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		d.prepared[q] = stmt
	}
	return nil
}

func (d *sqliteDB) close() {
	for _, stmt := range d.prepared {
		stmt.Close()
	}
}

func (d *sqliteDB) batch(ctx context.Context, stmts []statement) ([]outcome, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	onTx := make(map[string]*sql.Stmt, 2) // each query prepared on the transaction once
	done := make([]outcome, len(stmts))
	for i, s := range stmts {
		stmt, ok := onTx[s.query]
		if !ok {
			if p, ok := d.prepared[s.query]; ok {
				stmt = tx.StmtContext(ctx, p)
			} else if stmt, err = tx.PrepareContext(ctx, s.query); err != nil {
				done[i].err = err
				continue
			}
			onTx[s.query] = stmt
		}
		res, err := stmt.ExecContext(ctx, s.args...)
		if err == nil {
			done[i].rows, err = res.RowsAffected()
		}
		done[i].err = err
	}
	if err := tx.Commit(); err != nil {
		return done, fmt.Errorf("commit: %w", err)
	}
	return done, nil
}

func (d *sqliteDB) inTx(ctx context.Context, fn func(q querier) error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(sqlQuerier{tx}); err != nil {
		return err
	}
	return tx.Commit()
}

func (*sqliteDB) forUpdate() string                             { return "" }
func (*sqliteDB) skipLocked() string                            { return "" }
func (*sqliteDB) lock(context.Context, querier, string) error   { return nil }
func (*sqliteDB) notify(context.Context, querier, string) error { return nil }
func (*sqliteDB) placeholder() string                           { return "?" }
func (*sqliteDB) saveStatement(upsert string) string            { return upsert }
func (*sqliteDB) byteOrder() string                             { return "" }

// schemaVersion is SQLite's PRAGMA user_version.
func (*sqliteDB) schemaVersion(ctx context.Context, q querier) (int, error) {
	var version int
	err := q.queryRow(ctx, "PRAGMA user_version").Scan(&version)
	return version, err
}

func (*sqliteDB) setSchemaVersion(ctx context.Context, q querier, version int) error {
	_, err := q.exec(ctx, fmt.Sprintf("PRAGMA user_version = %d", version))
	return err
}

func (*sqliteDB) ddl(sql string) string { return sqliteDDL(sql) }

// pgQuerier runs statements on pgx (PostgreSQL).
type pgQuerier struct {
	q interface {
		Exec(ctx context.Context, q string, args ...any) (pgconn.CommandTag, error)
		QueryRow(ctx context.Context, q string, args ...any) pgx.Row
		Query(ctx context.Context, q string, args ...any) (pgx.Rows, error)
	}
}

func (p pgQuerier) exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := p.q.Exec(ctx, q, args...)
	if err != nil {
		return 0, unreachable(err)
	}
	return tag.RowsAffected(), nil
}

func (p pgQuerier) queryRow(ctx context.Context, q string, args ...any) scanner {
	return pgRow{p.q.QueryRow(ctx, q, args...)}
}

func (p pgQuerier) query(ctx context.Context, q string, args ...any) (rows, error) {
	r, err := p.q.Query(ctx, q, args...)
	if err != nil {
		return nil, unreachable(err)
	}
	return pgRows{r}, nil
}

// pgRows are pgx's rows, whose error is marked as unreachable's are.
type pgRows struct{ pgx.Rows }

func (r pgRows) Err() error { return unreachable(r.Rows.Err()) }

type pgRow struct{ r pgx.Row }

func (r pgRow) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoRows
	}
	return unreachable(err)
}

// pgDB is the PostgreSQL database as a database, on connections of the
// pool (or of game work's share of it: see pgConns).
type pgDB struct {
	pgQuerier
	conns pgConns
}

// newPGDB is the database on conns.
func newPGDB(conns pgConns) pgDB { return pgDB{pgQuerier{conns}, conns} }

func (d pgDB) inTx(ctx context.Context, fn func(q querier) error) error {
	return unreachable(d.conns.beginFunc(ctx, func(tx pgx.Tx) error { return fn(pgQuerier{tx}) }))
}

// batch sends the statements as one pipelined batch: one round trip, one
// implicit transaction, one flush of the write-ahead log.
func (d pgDB) batch(ctx context.Context, stmts []statement) ([]outcome, error) {
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s.query, s.args...)
	}
	res, err := d.conns.sendBatch(ctx, b)
	if err != nil {
		return nil, err
	}
	done := make([]outcome, len(stmts))
	var failed error // the first statement's failure, which fails the batch
	for i := range done {
		tag, err := res.Exec()
		done[i] = outcome{tag.RowsAffected(), err}
		if failed == nil {
			failed = err
		}
	}
	if err := res.Close(); err != nil {
		return done, unreachable(err)
	}
	return done, unreachable(failed)
}

func (pgDB) forUpdate() string   { return " FOR UPDATE" }
func (pgDB) skipLocked() string  { return " FOR UPDATE SKIP LOCKED" }
func (pgDB) placeholder() string { return "$" }
func (pgDB) byteOrder() string   { return ` COLLATE "C"` }

// saveStatement runs the upsert and notifies NotifyChannel of the save, in
// the same statement: "<id>:<revision>".
func (pgDB) saveStatement(upsert string) string {
	return `WITH saved AS (` + upsert + ` RETURNING games.id, games.revision)
	SELECT pg_notify('` + NotifyChannel + `', id || ':' || revision) FROM saved`
}

func (pgDB) lock(ctx context.Context, q querier, key string) error {
	_, err := q.exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, key)
	return err
}

func (pgDB) notify(ctx context.Context, q querier, notice string) error {
	_, err := q.exec(ctx, `SELECT pg_notify('`+LobbyChannel+`', $1)`, notice)
	return err
}

// schemaVersion is the row of the table schema_version, made if need be.
// It first takes a lock, which the transaction holds, so that servers
// starting together migrate one after the other.
func (pgDB) schemaVersion(ctx context.Context, q querier) (int, error) {
	if _, err := q.exec(ctx, `SELECT pg_advisory_xact_lock(7424637243657)`); err != nil {
		return 0, err
	}
	if _, err := q.exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return 0, err
	}
	var version int
	err := q.queryRow(ctx, `SELECT version FROM schema_version`).Scan(&version)
	if errors.Is(err, errNoRows) {
		_, err = q.exec(ctx, `INSERT INTO schema_version (version) VALUES (0)`)
	}
	return version, err
}

func (pgDB) setSchemaVersion(ctx context.Context, q querier, version int) error {
	_, err := q.exec(ctx, `UPDATE schema_version SET version = $1`, version)
	return err
}

func (pgDB) ddl(sql string) string { return postgresDDL(sql) }
