package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// TestUnreachableKinds: PostgreSQL's failures are told apart as the
// database down (errs.ErrUnavailable), busy (errs.ErrBusy: it did not
// answer in time) or neither.
func TestUnreachableKinds(t *testing.T) {
	for _, c := range []struct {
		err        error
		down, busy bool
	}{
		{&pgconn.PgError{Code: "57P01"}, true, false},                      // admin shutdown
		{&pgconn.PgError{Code: "08006"}, true, false},                      // connection failure
		{&pgconn.PgError{Code: "55P03"}, false, true},                      // lock not available (lock_timeout)
		{&pgconn.PgError{Code: "57014"}, false, true},                      // query cancelled (statement_timeout)
		{&pgconn.PgError{Code: "40P01"}, false, true},                      // deadlock
		{&pgconn.PgError{Code: "23505"}, false, false},                     // unique violation: an answer
		{fmt.Errorf("loading: %w", context.DeadlineExceeded), false, true}, // the request's deadline
		{context.Canceled, false, false},                                   // the client gone
		{errors.New("something else"), false, false},
	} {
		err := unreachable(c.err)
		if errors.Is(err, errs.ErrUnavailable) != c.down || errors.Is(err, errs.ErrBusy) != c.busy {
			t.Errorf("%v: %v, want down %v, busy %v", c.err, err, c.down, c.busy)
		}
	}
}

// TestPostgresGameShare: with the games table locked, game work holds at
// most its share of the pool and a statement waits for a connection at
// most ConnWait, then fails busy; other work (a credential's player) finds
// a connection at once.
func TestPostgresGameShare(t *testing.T) {
	url := pg.Server(t).Schema(t)
	const wait = 300 * time.Millisecond
	p := openPostgres(t, PostgresOptions{MaxConns: 2, GameConns: 1, ConnWait: wait}, url)
	first, second := newGame(t, p), newGame(t, p)
	if _, err := OpenPostgres(context.Background(), url, PostgresOptions{MaxConns: 2, GameConns: 2}); !errors.Is(err, errNoShare) {
		t.Errorf("a share as large as the pool: %v", err)
	}

	ctx := context.Background()
	// Both of the pool's connections made now: what is timed below is the
	// wait for a free one, not the making of one (slow on a loaded machine).
	var held2 []*pgxpool.Conn
	for range 2 {
		c, err := p.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held2 = append(held2, c)
	}
	for _, c := range held2 {
		c.Release()
	}
	conn, err := pgx.Connect(ctx, url) // the test's own, outside the pool
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE games IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	// The first read waits on the lock, holding the share's one slot.
	held := make(chan error, 1)
	rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	go func() { held <- p.View(rctx, first, func(*games.Record) error { return nil }) }()
	time.Sleep(200 * time.Millisecond)

	start := time.Now()
	err = p.View(rctx, second, func(*games.Record) error { return nil })
	if took := time.Since(start); !errors.Is(err, errs.ErrBusy) || took < wait || took > wait+time.Second {
		t.Errorf("a second game's read, the share held: %v after %v; want busy after %v", err, took, wait)
	}
	if e := errs.FromStore(err); e.Code != errs.Unavailable || e.Detail != errs.Busy || e.RetryAfter <= 0 {
		t.Errorf("as a refusal: %+v", e)
	}
	// Other work finds the pool's other connection at once.
	start = time.Now()
	if _, err := p.CredentialPlayer(rctx, "nobody's"); err != nil || time.Since(start) > wait {
		t.Errorf("a credential's player beside game work: %v after %v", err, time.Since(start))
	}
	tx.Rollback(ctx)
	if err := <-held; err != nil {
		t.Errorf("the read waiting on the lock, once it is gone: %v", err)
	}
}
