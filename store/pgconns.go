package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/banchess/banchess/errs"
)

// DefaultConnWait is how long a statement waits for a free connection of
// the pool (and game work for one of its share) unless told otherwise.
const DefaultConnWait = time.Second

// pgConns runs statements on connections of the pool, each taken for one
// statement (or transaction, or batch) and given back after it. Waiting
// for a connection is bounded by wait, whatever the request's own
// deadline: a pool whose connections are all held answers busy
// (errs.ErrBusy) soon, rather than keep the request until its deadline.
// When share is not nil, its conns are game work's: at most cap(share)
// statements of it hold connections at once, so that the rest of the pool
// is always there for other work (players, the lobby, sign-ins).
type pgConns struct {
	pool  *pgxpool.Pool
	wait  time.Duration
	share chan struct{} // a slot held per connection in use; nil: unshared
}

// acquire takes a connection, waiting at most c.wait for it (and for a
// slot of the share); release gives both back.
func (c pgConns) acquire(ctx context.Context) (conn *pgxpool.Conn, release func(), err error) {
	wctx, cancel := context.WithTimeout(ctx, c.wait)
	defer cancel()
	if c.share != nil {
		select {
		case c.share <- struct{}{}:
		case <-wctx.Done():
			return nil, nil, c.waited(ctx, fmt.Errorf("all %d connections for games in use", cap(c.share)))
		}
	}
	conn, err = c.pool.Acquire(wctx)
	if err != nil {
		c.free()
		if ctx.Err() == nil && wctx.Err() != nil {
			return nil, nil, c.waited(ctx, err)
		}
		return nil, nil, unreachable(err)
	}
	var once sync.Once
	return conn, func() { once.Do(func() { conn.Release(); c.free() }) }, nil
}

// free gives back a slot of the share.
func (c pgConns) free() {
	if c.share != nil {
		<-c.share
	}
}

// waited is the failure of a wait for a connection that did not end in
// time: busy, or the request's own end.
func (c pgConns) waited(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w: no connection to the database free within %v: %w", errs.ErrBusy, c.wait, err)
}

func (c pgConns) Exec(ctx context.Context, q string, args ...any) (pgconn.CommandTag, error) {
	conn, release, err := c.acquire(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	defer release()
	return conn.Exec(ctx, q, args...)
}

func (c pgConns) QueryRow(ctx context.Context, q string, args ...any) pgx.Row {
	conn, release, err := c.acquire(ctx)
	if err != nil {
		return errRow{err}
	}
	return releasingRow{conn.QueryRow(ctx, q, args...), release}
}

func (c pgConns) Query(ctx context.Context, q string, args ...any) (pgx.Rows, error) {
	conn, release, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	r, err := conn.Query(ctx, q, args...)
	if err != nil {
		release()
		return nil, err
	}
	return &releasingRows{Rows: r, release: release}, nil
}

// beginFunc runs fn in a transaction on a connection of its own.
func (c pgConns) beginFunc(ctx context.Context, fn func(pgx.Tx) error) error {
	conn, release, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	return pgx.BeginFunc(ctx, conn, fn)
}

// sendBatch sends b on a connection of its own, given back when the
// results are closed.
func (c pgConns) sendBatch(ctx context.Context, b *pgx.Batch) (pgx.BatchResults, error) {
	conn, release, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return releasingBatch{conn.SendBatch(ctx, b), release}, nil
}

// errRow is a row whose statement could not run.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// releasingRow gives its connection back once scanned.
type releasingRow struct {
	row     pgx.Row
	release func()
}

func (r releasingRow) Scan(dest ...any) error {
	defer r.release()
	return r.row.Scan(dest...)
}

// releasingRows give their connection back once closed or read to their
// end.
type releasingRows struct {
	pgx.Rows
	release func()
}

func (r *releasingRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *releasingRows) Close() {
	r.Rows.Close()
	r.release()
}

// releasingBatch gives its connection back once closed.
type releasingBatch struct {
	pgx.BatchResults
	release func()
}

func (b releasingBatch) Close() error {
	defer b.release()
	return b.BatchResults.Close()
}

// gameShare is how many of a pool of n connections game work may hold at
// once, when not told: all but a quarter (at least one) kept for other
// work; a pool of one is not shared.
func gameShare(n int32) int32 {
	if n <= 1 {
		return n
	}
	return n - max(1, n/4)
}

// errNoShare is refused options: a share of game work no smaller than
// the pool leaves other work nothing.
var errNoShare = errors.New("the connections for games must be fewer than the pool's, so that other work always has one")
