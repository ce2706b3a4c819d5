package store

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// probeEvery is how often Ping tries a write of its own while saves are
// failing.
const probeEvery = 10 * time.Second

// probeSQL is the write Ping tries: a row of its own.
const probeSQL = `INSERT INTO write_probe (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at`

// writeFailures remembers whether the store's writes are failing: the
// last write's error, if it failed, and since when they fail.
type writeFailures struct {
	mu     sync.Mutex
	last   error     // the last write's error; nil when it succeeded
	since  time.Time // when writes began to fail
	probed time.Time // when the last write was tried
}

// record notes how a write went. A save refused because the game changed
// elsewhere, because the store is closed, or not begun because its
// request's time ran out, says nothing of the disk.
func (w *writeFailures) record(err error, now time.Time) {
	if errors.Is(err, errStale) || errors.Is(err, errClosed) || errors.Is(err, errNotBegun) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.probed = now
	switch {
	case err == nil:
		w.last = nil
	case w.last == nil:
		w.last, w.since = err, now
	default:
		w.last = err
	}
}

// probeDue reports whether writes are failing and none was tried for
// probeEvery.
func (w *writeFailures) probeDue(now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last != nil && now.Sub(w.probed) >= probeEvery
}

// check is the end of a store's Ping, once the database answered: while
// writes are failing it tries probe, a tiny write, at most once every
// probeEvery, and it returns an error while they still fail.
func (w *writeFailures) check(now time.Time, probe func() error) error {
	if w.probeDue(now) {
		w.record(probe(), now)
	}
	return w.err()
}

// err returns an error while writes are failing, else nil.
func (w *writeFailures) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last == nil {
		return nil
	}
	return &WritesFailingError{Since: w.since, Err: w.last}
}

// WritesFailingError is what Ping returns while the store's saves fail.
type WritesFailingError struct {
	Since time.Time // when saves began to fail
	Err   error     // the last failure
}

func (e *WritesFailingError) Error() string {
	return fmt.Sprintf("writes are failing (since %s): %v", e.Since.UTC().Format(time.RFC3339), e.Err)
}

func (e *WritesFailingError) Unwrap() error { return e.Err }

// WritesFailing reports true: a health check asks the error this, without
// knowing the store, to say why it is unhealthy.
func (e *WritesFailingError) WritesFailing() bool { return true }
