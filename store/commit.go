package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// maxBatch bounds the saves one transaction commits.
const maxBatch = 256

// committer commits the saves of concurrent requests together: each
// request waits for its own, but the saves queued while one transaction
// commits go into the next as a batch (held open a moment for more when
// the server is busy: see groupWait), so a busy server pays for one
// commit (and, with Fsync, one flush to disk) per batch instead of per
// ply.
type committer struct {
	db    *sql.DB
	queue chan save
	done  chan struct{} // closed when the committer has stopped
	wait  time.Duration // groupWait, but for tests

	mu     sync.RWMutex // held to read while queueing, to write while closing
	closed bool
}

// errClosed answers a save after the store was closed.
var errClosed = errors.New("saving the game: the store is closed")

// errStale answers a save that had to change a row and changed none: the
// row was not at the revision the save expected.
var errStale = errors.New("saving the game: the game changed elsewhere since it was read")

// save is one statement to execute, with its arguments, and where to
// report how it went.
type save struct {
	stmt    *sql.Stmt
	args    []any
	checked bool // the save fails with errStale when it affects no row
	result  chan error
}

func newCommitter(db *sql.DB) *committer {
	c := &committer{db: db, queue: make(chan save, maxBatch), done: make(chan struct{}), wait: groupWait}
	go c.run()
	return c
}

// write executes stmt with args, committed, and returns once it is on
// disk (or failed). When checked, a statement that affects no row fails
// with errStale (and, having changed nothing, fails alone).
func (c *committer) write(stmt *sql.Stmt, checked bool, args ...any) error {
	r := save{stmt: stmt, args: args, checked: checked, result: make(chan error, 1)}
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return errClosed
	}
	c.queue <- r
	c.mu.RUnlock()
	return <-r.result
}

// close stops the committer once the saves queued are committed; later
// saves fail with errClosed.
func (c *committer) close() {
	c.mu.Lock()
	c.closed = true
	close(c.queue)
	c.mu.Unlock()
	<-c.done
}

func (c *committer) run() {
	defer close(c.done)
	batch := make([]save, 0, maxBatch)
	busy := false
	for first := range c.queue {
		batch = c.gather(append(batch[:0], first), busy)
		c.commit(batch)
		busy = len(batch) > 1
	}
}

// groupWait is how long a transaction waits for more saves when the one
// before it carried several. Under load a commit costs about as much as
// two saves; waiting a little lets one commit carry several plies (5–6
// instead of 2 in the load test). A lone player's saves, one a
// transaction, never wait.
const groupWait = 100 * time.Microsecond

// gather adds to batch the saves queued behind it and, when busy, those
// that arrive within c.wait, up to maxBatch.
func (c *committer) gather(batch []save, busy bool) []save {
	var expired <-chan time.Time
	if busy {
		timer := time.NewTimer(c.wait)
		defer timer.Stop()
		expired = timer.C
	}
	for len(batch) < maxBatch {
		var s save
		ok := false
		if busy {
			select {
			case s, ok = <-c.queue:
			case <-expired:
				return batch
			}
		} else {
			select {
			case s, ok = <-c.queue:
			default:
				return batch
			}
		}
		if !ok {
			return batch
		}
		batch = append(batch, s)
	}
	return batch
}

// commit writes the batch in one transaction. A save the database refuses
// fails alone (SQLite undoes just that statement); if the commit fails,
// every save in the batch fails.
func (c *committer) commit(batch []save) {
	errs := make([]error, len(batch))
	err := func() error {
		ctx := context.Background()
		tx, err := c.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("saving the game: %w", err)
		}
		defer tx.Rollback()
		stmts := make(map[*sql.Stmt]*sql.Stmt, 2) // each statement prepared on the transaction once
		for i, s := range batch {
			stmt, ok := stmts[s.stmt]
			if !ok {
				stmt = tx.StmtContext(ctx, s.stmt)
				stmts[s.stmt] = stmt
			}
			res, err := stmt.ExecContext(ctx, s.args...)
			if err != nil {
				errs[i] = fmt.Errorf("saving the game: %w", err)
				continue
			}
			if s.checked {
				if n, err := res.RowsAffected(); err != nil {
					errs[i] = fmt.Errorf("saving the game: %w", err)
				} else if n == 0 {
					errs[i] = errStale
				}
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("saving the game: commit: %w", err)
		}
		return nil
	}()
	for i, s := range batch {
		if err != nil {
			errs[i] = err
		}
		s.result <- errs[i]
	}
}
