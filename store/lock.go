package store

import "context"

// gameLock is a game's lock: one request at a time may hold it, and one
// waiting for it gives up when its context ends, so a read stuck behind a
// slow save can answer in time instead of waiting it out.
type gameLock chan struct{}

func newGameLock() gameLock { return make(gameLock, 1) }

// lock takes the lock, or returns ctx's error if ctx has ended or ends
// first.
func (l gameLock) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case l <- struct{}{}:
		return nil
	default:
	}
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unlock releases the lock.
func (l gameLock) unlock() { <-l }
