package store

import (
	"context"
	"slices"

	"github.com/banchess/banchess/games"
)

// Every store finds a player's games by whose turn it is.
var (
	_ games.TurnStore = (*Memory)(nil)
	_ games.TurnStore = (*SQLite)(nil)
	_ games.TurnStore = (*Postgres)(nil)
)

// Ongoing returns up to limit of holder's games in play against someone,
// those awaiting it first (see games.TurnStore).
func (m *Memory) Ongoing(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	var awaiting, others []games.Summary
	err := eachGame(ctx, m, func(rec *games.Record) {
		if holder == "" || !listed(rec, holder) || rec.Mode == games.HotSeat || rec.Game.Outcome().Over() {
			return
		}
		if rec.ToAct() == holder {
			awaiting = append(awaiting, rec.Summary())
		} else {
			others = append(others, rec.Summary())
		}
	})
	if err != nil || limit <= 0 {
		return nil, err
	}
	slices.SortFunc(awaiting, newestFirst)
	slices.SortFunc(others, newestFirst)
	out := append(awaiting, others...)
	return out[:min(len(out), limit)], nil
}

// Awaiting counts the games awaiting holder (games.Record.ToAct).
func (m *Memory) Awaiting(ctx context.Context, holder string) (int, error) {
	n := 0
	err := eachGame(ctx, m, func(rec *games.Record) {
		if holder != "" && rec.ToAct() == holder {
			n++
		}
	})
	return n, err
}

// eachGame runs fn on every game, each under its lock.
func eachGame(ctx context.Context, m *Memory, fn func(*games.Record)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.RLock()
	entries := make([]*entry, 0, len(m.games))
	for _, e := range m.games {
		entries = append(entries, e)
	}
	m.mu.RUnlock()
	for _, e := range entries {
		if err := e.lock.lock(ctx); err != nil {
			return err
		}
		fn(e.rec)
		e.lock.unlock()
	}
	return nil
}
