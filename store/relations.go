package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/relations"
)

// Every store keeps follows and blocks (through its Relations accessor).
var (
	_ relations.Store = (*memoryRelations)(nil)
	_ relations.Store = sqlRelations{}
)

// Relations returns the store's follows and blocks.
func (m *Memory) Relations() relations.Store { return &m.relations }

// Relations returns the store's follows and blocks.
func (s *sqlStore) Relations() relations.Store { return sqlRelations{db: s.db} }

// edge is one player's relation to another, and since when.
type edge struct {
	from, to string
	at       time.Time
}

// memoryRelations is the Memory store's follows and blocks, under their
// own lock. Its zero value is empty.
type memoryRelations struct {
	mu      sync.Mutex
	follows []edge
	blocks  []edge
}

// add keeps e in list, unless it is there already.
func add(list []edge, e edge) []edge {
	if slices.ContainsFunc(list, func(o edge) bool { return o.from == e.from && o.to == e.to }) {
		return list
	}
	return append(list, e)
}

// drop removes from→to from list.
func drop(list []edge, from, to string) []edge {
	return slices.DeleteFunc(list, func(o edge) bool { return o.from == from && o.to == to })
}

// latest returns up to limit of the players from relates to in list,
// the latest first.
func latest(list []edge, from string, limit int) []string {
	var out []string
	for i := len(list) - 1; i >= 0 && len(out) < limit; i-- {
		if list[i].from == from {
			out = append(out, list[i].to)
		}
	}
	return out
}

func (m *memoryRelations) change(ctx context.Context, fn func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fn()
	return nil
}

// Follow records that follower follows followed.
func (m *memoryRelations) Follow(ctx context.Context, follower, followed string, at time.Time) error {
	return m.change(ctx, func() { m.follows = add(m.follows, edge{follower, followed, at}) })
}

// Unfollow forgets that follower follows followed.
func (m *memoryRelations) Unfollow(ctx context.Context, follower, followed string) error {
	return m.change(ctx, func() { m.follows = drop(m.follows, follower, followed) })
}

// Following returns whom follower follows, the latest first.
func (m *memoryRelations) Following(ctx context.Context, follower string, limit int) ([]string, error) {
	var out []string
	err := m.change(ctx, func() { out = latest(m.follows, follower, limit) })
	return out, err
}

// Block records that blocker blocks blocked and no longer follows them.
func (m *memoryRelations) Block(ctx context.Context, blocker, blocked string, at time.Time) error {
	return m.change(ctx, func() {
		m.blocks = add(m.blocks, edge{blocker, blocked, at})
		m.follows = drop(m.follows, blocker, blocked)
	})
}

// Unblock forgets that blocker blocks blocked.
func (m *memoryRelations) Unblock(ctx context.Context, blocker, blocked string) error {
	return m.change(ctx, func() { m.blocks = drop(m.blocks, blocker, blocked) })
}

// Blocking returns whom blocker blocks, the latest first.
func (m *memoryRelations) Blocking(ctx context.Context, blocker string, limit int) ([]string, error) {
	var out []string
	err := m.change(ctx, func() { out = latest(m.blocks, blocker, limit) })
	return out, err
}

// Shunned returns the players who block player or whom player blocks.
func (m *memoryRelations) Shunned(ctx context.Context, player string) ([]string, error) {
	var out []string
	err := m.change(ctx, func() {
		for _, e := range m.blocks {
			switch player {
			case e.from:
				out = append(out, e.to)
			case e.to:
				out = append(out, e.from)
			}
		}
	})
	return out, err
}

// Relation says whether a follows b and whether a blocks b.
func (m *memoryRelations) Relation(ctx context.Context, a, b string) (follows, blocks bool, err error) {
	err = m.change(ctx, func() {
		is := func(o edge) bool { return o.from == a && o.to == b }
		follows, blocks = slices.ContainsFunc(m.follows, is), slices.ContainsFunc(m.blocks, is)
	})
	return follows, blocks, err
}

// sqlRelations keeps follows and blocks in a database, for SQLite and
// PostgreSQL alike (the relations migration's tables). Times are unix
// milliseconds.
type sqlRelations struct {
	db database
}

// Follow records that follower follows followed.
func (s sqlRelations) Follow(ctx context.Context, follower, followed string, at time.Time) error {
	_, err := s.db.exec(ctx, `INSERT INTO follows (follower, followed, at) VALUES ($1, $2, $3) ON CONFLICT (follower, followed) DO NOTHING`,
		follower, followed, ms(at))
	return wrapStore(err, "keeping a follow")
}

// Unfollow forgets that follower follows followed.
func (s sqlRelations) Unfollow(ctx context.Context, follower, followed string) error {
	_, err := s.db.exec(ctx, `DELETE FROM follows WHERE follower = $1 AND followed = $2`, follower, followed)
	return wrapStore(err, "forgetting a follow")
}

// Following returns whom follower follows, the latest first.
func (s sqlRelations) Following(ctx context.Context, follower string, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT followed FROM follows WHERE follower = $1 ORDER BY at DESC, followed LIMIT $2`, follower, limit)
}

// Block records that blocker blocks blocked and no longer follows them,
// in one transaction.
func (s sqlRelations) Block(ctx context.Context, blocker, blocked string, at time.Time) error {
	err := s.db.inTx(ctx, func(q querier) error {
		if _, err := q.exec(ctx, `INSERT INTO blocks (blocker, blocked, at) VALUES ($1, $2, $3) ON CONFLICT (blocker, blocked) DO NOTHING`,
			blocker, blocked, ms(at)); err != nil {
			return err
		}
		_, err := q.exec(ctx, `DELETE FROM follows WHERE follower = $1 AND followed = $2`, blocker, blocked)
		return err
	})
	return wrapStore(err, "keeping a block")
}

// Unblock forgets that blocker blocks blocked.
func (s sqlRelations) Unblock(ctx context.Context, blocker, blocked string) error {
	_, err := s.db.exec(ctx, `DELETE FROM blocks WHERE blocker = $1 AND blocked = $2`, blocker, blocked)
	return wrapStore(err, "forgetting a block")
}

// Blocking returns whom blocker blocks, the latest first.
func (s sqlRelations) Blocking(ctx context.Context, blocker string, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT blocked FROM blocks WHERE blocker = $1 ORDER BY at DESC, blocked LIMIT $2`, blocker, limit)
}

// Shunned returns the players who block player or whom player blocks.
func (s sqlRelations) Shunned(ctx context.Context, player string) ([]string, error) {
	return s.ids(ctx, `SELECT blocked FROM blocks WHERE blocker = $1 UNION SELECT blocker FROM blocks WHERE blocked = $1`, player)
}

// ids runs a query of one column of ids.
func (s sqlRelations) ids(ctx context.Context, query string, args ...any) ([]string, error) {
	r, err := s.db.query(ctx, query, args...)
	if err != nil {
		return nil, wrapStore(err, "reading relations")
	}
	defer r.Close()
	var out []string
	for r.Next() {
		var id string
		if err := r.Scan(&id); err != nil {
			return nil, wrapStore(err, "reading relations")
		}
		out = append(out, id)
	}
	return out, wrapStore(r.Err(), "reading relations")
}

// Relation says whether a follows b and whether a blocks b.
func (s sqlRelations) Relation(ctx context.Context, a, b string) (follows, blocks bool, err error) {
	err = s.db.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM follows WHERE follower = $1 AND followed = $2),
		EXISTS (SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2)`, a, b).Scan(&follows, &blocks)
	if errors.Is(err, errNoRows) {
		return false, false, nil
	}
	return follows, blocks, wrapStore(err, "reading a relation")
}
