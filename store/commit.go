package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/errs"
)

// maxBatch bounds the saves one transaction commits.
const maxBatch = 256

// committer commits the saves of concurrent requests together: each
// request waits for its own, but the saves queued while one transaction
// commits go into the next as a batch (in SQLite, held open a moment for
// more when the server is busy: see groupWait), so a busy server pays for
// one commit (and one flush to disk) per batch instead of per ply.
type committer struct {
	db      database
	queue   chan save
	done    chan struct{} // closed when the committer has stopped
	wait    time.Duration // how long a batch after a busy one waits for more; 0: never
	timeout time.Duration // bounds a batch's transaction; 0: no bound

	mu     sync.RWMutex // held to read while queueing, to write while closing
	closed bool
}

// errClosed answers a save after the store was closed.
var errClosed = errors.New("saving the game: the store is closed")

// errStale answers a save that had to change a row and changed none: the
// row was not at the revision the save expected.
var errStale = errors.New("saving the game: the game changed elsewhere since it was read")

// errNotBegun answers a save whose request's deadline passed before its
// transaction began: nothing was written, and it says nothing of the disk.
var errNotBegun = fmt.Errorf("saving the game: %w: the request's time ran out while the save waited its turn", errs.ErrBusy)

// save is one game's save, queued, and where to report how it went.
type save struct {
	id       string // the game's
	stmt     statement
	deadline time.Time // the request's, past which it must not run; zero: none
	result   chan error
}

func newCommitter(db database, wait, timeout time.Duration) *committer {
	c := &committer{db: db, queue: make(chan save, maxBatch), done: make(chan struct{}), wait: wait, timeout: timeout}
	go c.run()
	return c
}

// write commits game id's save, query with args, and returns once it is
// committed (nil), refused as stale (errStale: it affected no row) or
// failed. A save is not begun past deadline (unless it is zero), and the
// transaction that carries it is given up at the earliest deadline of its
// saves: a request waits for its save no longer than it waits to read.
func (c *committer) write(id, query string, args []any, deadline time.Time) error {
	s := save{id: id, stmt: statement{query, args}, deadline: deadline, result: make(chan error, 1)}
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return errClosed
	}
	c.queue <- s
	c.mu.RUnlock()
	return <-s.result
}

// close stops the committer once the saves queued are committed; later
// saves fail with errClosed. Closing again does nothing.
func (c *committer) close() {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		close(c.queue)
	}
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
		busy = c.wait > 0 && len(batch) > 1
	}
}

// groupWait is how long an SQLite transaction waits for more saves when
// the one before it carried several. Under load a commit costs about as
// much as two saves; waiting a little lets one commit carry several plies
// (5–6 instead of 2 in the load test). A lone player's saves, one a
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

// commit writes the batch in one transaction, whatever becomes of the
// requests (up to c.timeout), its saves in the order of their games' ids,
// so that two processes' batches lock rows in one order and never
// deadlock. A save that affects no row fails alone with errStale; one the
// database refuses fails; when the transaction fails, every save in it
// fails but the stale ones.
func (c *committer) commit(batch []save) {
	// Saves whose requests' deadlines passed while they were queued are
	// not begun: they fail busy, and their games are unchanged.
	now := time.Now()
	batch = slices.DeleteFunc(batch, func(s save) bool {
		if !s.deadline.IsZero() && !now.Before(s.deadline) {
			s.result <- errNotBegun
			return true
		}
		return false
	})
	if len(batch) == 0 {
		return
	}
	slices.SortFunc(batch, func(a, b save) int { return strings.Compare(a.id, b.id) })
	var earliest time.Time
	for _, s := range batch {
		if !s.deadline.IsZero() && (earliest.IsZero() || s.deadline.Before(earliest)) {
			earliest = s.deadline
		}
	}
	ctx, cancel := writeContext(c.timeout, earliest)
	defer cancel()
	stmts := make([]statement, len(batch))
	for i, s := range batch {
		stmts[i] = s.stmt
	}
	done, err := c.db.batch(ctx, stmts)
	for i, s := range batch {
		var e error
		switch {
		case done == nil:
		case done[i].err != nil:
			e = fmt.Errorf("saving the game: %w", done[i].err)
		case done[i].rows == 0:
			e = errStale
		}
		if err != nil && e != errStale {
			e = fmt.Errorf("saving the game: %w", err)
		}
		s.result <- timedOut(ctx, e)
	}
}

// timedOut marks err, a write's failure on ctx, as the store too busy
// (errs.ErrBusy) when ctx's deadline passed: whatever the database said of
// the statement it gave up (SQLite's "interrupted"), it did not answer in
// time.
func timedOut(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, errStale) || ctx.Err() == nil || errors.Is(err, errs.ErrBusy) {
		return err
	}
	return fmt.Errorf("%w: %w", errs.ErrBusy, err)
}

// writeContext is the context of a write, which runs to its end whatever
// becomes of the request (its client going away does not cancel it), or
// until timeout if it is not 0, or until deadline, the request's, if it
// is not zero and comes first.
func writeContext(timeout time.Duration, deadline time.Time) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		if d := time.Now().Add(timeout); deadline.IsZero() || d.Before(deadline) {
			deadline = d
		}
	}
	if deadline.IsZero() {
		return context.Background(), func() {}
	}
	return context.WithDeadline(context.Background(), deadline)
}
