package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/banchess/banchess/games"
)

// Every store finds the games whose clocks are due.
var (
	_ games.DueGames = (*Memory)(nil)
	_ games.DueGames = (*SQLite)(nil)
	_ games.DueGames = (*Postgres)(nil)
)

// claimDueSQL claims up to $3 games due at $1 (unix milliseconds) until
// $2, the soonest due first, and returns their ids; %s locks the rows the
// first SELECT reads, passing over those another transaction holds
// (database.skipLocked). On PostgreSQL a game being saved, or claimed by
// another server, is so left to the next sweep: the claim waits for no
// row, so it cannot deadlock with a batch of saves, which locks rows in
// the order of their ids. The games are chosen once (MATERIALIZED: a
// subquery of the UPDATE could be run again and, skipping the rows it
// locked, claim more than $3), and the UPDATE repeats the condition, so a
// row is claimed only while it is due. The partial index games_due_at
// holds only the games a clock may end.
const claimDueSQL = `WITH due AS MATERIALIZED (
		SELECT id FROM games WHERE due_at > 0 AND due_at <= $1 ORDER BY due_at LIMIT $3%s)
	UPDATE games SET due_at = $2 FROM due
	WHERE games.id = due.id AND games.due_at > 0 AND games.due_at <= $1
	RETURNING games.id`

// ClaimDue returns up to limit games whose clock was due at now, and
// claims them until until: they are due again then, unless a save of
// theirs writes their time afresh (see games.DueGames).
func (s *sqlStore) ClaimDue(ctx context.Context, now, until time.Time, limit int) ([]string, error) {
	if limit <= 0 {
		return nil, ctx.Err()
	}
	// Game work: on PostgreSQL it holds a connection of the games' share, so
	// a claim stuck behind a locked games table leaves the rest of the pool
	// to players and the lobby.
	r, err := s.gdb.query(ctx, fmt.Sprintf(claimDueSQL, s.gdb.skipLocked()), now.UnixMilli(), until.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("claiming the games due: %w", err)
	}
	ids, err := collect(r, func(sc scanner) (string, error) {
		var id string
		return id, sc.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("claiming the games due: %w", err)
	}
	return ids, nil
}

// ClaimDue returns up to limit games whose clock was due at now and that
// no claim holds past now, the soonest due first, and claims them until
// until. A game's claim holds until it is claimed again or its record's
// time changes (a save would write it afresh).
func (m *Memory) ClaimDue(ctx context.Context, now, until time.Time, limit int) ([]string, error) {
	type due struct {
		id string
		at time.Time
	}
	var found []due
	m.mu.RLock()
	entries := make(map[string]*entry, len(m.games))
	for id, e := range m.games {
		entries[id] = e
	}
	m.mu.RUnlock()
	for id, e := range entries {
		if err := e.lock.lock(ctx); err != nil {
			return nil, err
		}
		at := e.rec.Due()
		e.lock.unlock()
		if at.IsZero() || at.After(now) {
			continue
		}
		found = append(found, due{id, at})
	}
	slices.SortFunc(found, func(a, b due) int { return a.at.Compare(b.at) })
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for _, d := range found {
		if len(ids) == limit {
			break
		}
		c, claimed := m.claims[d.id]
		if claimed && c.due.Equal(d.at) && c.until.After(now) {
			continue
		}
		m.claims[d.id] = dueClaim{due: d.at, until: until}
		ids = append(ids, d.id)
	}
	for id := range m.claims {
		if m.games[id] == nil {
			delete(m.claims, id)
		}
	}
	return ids, nil
}

// dueClaim is a claim on a game due (Memory.ClaimDue): of its clock's time
// due, held until until.
type dueClaim struct {
	due, until time.Time
}
