package store

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/games"
)

// commitFinished commits a save that finishes a game between two players:
// query with args (see writeRow), and rec's result (see recordResult), in
// one transaction on db. A save that affects no row (the row is not at
// the revision it expects) writes nothing and fails with errStale. It
// runs outside the committer's batches, alone: games end far less often
// than plies are played.
func commitFinished(ctx context.Context, db database, query string, args []any, rec *games.Record) error {
	return db.inTx(ctx, func(q querier) error {
		n, err := q.exec(ctx, query, args...)
		switch {
		case err != nil:
			return fmt.Errorf("saving the game: %w", err)
		case n == 0:
			return errStale
		}
		if err := recordResult(ctx, db, q, rec); err != nil {
			return fmt.Errorf("recording the game's result: %w", err)
		}
		return nil
	})
}

// saveFinished is gameCache.finish: saveRow, with the game's result.
func (s *sqlStore) saveFinished(ctx context.Context, c *cachedGame) (int64, error) {
	deadline, _ := ctx.Deadline()
	return writeRow(c, s.now(), &s.failures, func(kind saveKind, args []any) error {
		// Once begun, a save runs to its end whatever becomes of the
		// request (up to the timeout, or the request's deadline).
		ctx, cancel := writeContext(s.timeout, deadline)
		defer cancel()
		return timedOut(ctx, commitFinished(ctx, s.gdb, s.saves[kind], args, c.rec))
	})
}
