package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/analysis"

	"github.com/jackc/pgx/v5"

	"github.com/banchess/banchess/review"
)

// Every store keeps reviews.
var (
	_ analysis.ReviewStore = memoryReviews{}
	_ analysis.ReviewStore = (*SQLite)(nil)
	_ analysis.ReviewStore = (*Postgres)(nil)
)

// The reviews table's queries, in SQLite's placeholders (dollars makes
// PostgreSQL's of them). A review is claimed when none is stored for its
// game, when the one stored is of another state of the game, or when it
// is not done and either its owner's own or its lease has run out (a
// lease up to now has; see games.ReviewStore).
const (
	reviewColumns   = `game_key, status, owner, lease_until, place, total, positions`
	loadReviewQuery = `SELECT ` + reviewColumns + ` FROM reviews WHERE game_id = ?`
	claimReviewSQL  = `INSERT INTO reviews (game_id, ` + reviewColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (game_id) DO UPDATE SET game_key = excluded.game_key, status = excluded.status, owner = excluded.owner,
		lease_until = excluded.lease_until, place = excluded.place, total = excluded.total, positions = excluded.positions
	WHERE reviews.game_key <> excluded.game_key
		OR reviews.status <> 'done' AND (reviews.owner = excluded.owner OR reviews.lease_until <= ?)`
	saveReviewSQL = `UPDATE reviews SET status = ?, lease_until = ?, place = ?, positions = ?
	WHERE game_id = ? AND owner = ? AND game_key = ?`
	// sweepReviewsSQL removes the reviews of games no longer stored.
	sweepReviewsSQL = `DELETE FROM reviews WHERE NOT EXISTS (SELECT 1 FROM games WHERE games.id = reviews.game_id)`
	// sweepChatSQL removes the chat of the games removed: it is kept
	// with its game.
	sweepChatSQL = `DELETE FROM chat_lines WHERE NOT EXISTS (SELECT 1 FROM games WHERE games.id = chat_lines.game)`
)

// dollars numbers a query's placeholders as PostgreSQL does: $1, $2, …
func dollars(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// reviewRow is a review as its row stores it.
type reviewRow struct {
	key, status, owner string
	lease              int64 // unix milliseconds
	place, total       int
	positions          string // JSON
}

func encodeReview(rev analysis.StoredReview) (reviewRow, error) {
	positions := rev.Positions
	if positions == nil {
		positions = []review.Position{}
	}
	b, err := json.Marshal(positions)
	if err != nil {
		return reviewRow{}, fmt.Errorf("encoding the review of game %q: %w", trimID(rev.GameID), err)
	}
	return reviewRow{key: rev.Key, status: string(rev.Status), owner: rev.Owner, lease: rev.Lease.UnixMilli(),
		place: rev.Place, total: rev.Total, positions: string(b)}, nil
}

func (r *reviewRow) scanArgs() []any {
	return []any{&r.key, &r.status, &r.owner, &r.lease, &r.place, &r.total, &r.positions}
}

func (r reviewRow) decode(id string) (analysis.StoredReview, error) {
	rev := analysis.StoredReview{GameID: id, Key: r.key, Status: analysis.ReviewStatus(r.status), Owner: r.owner,
		Lease: time.UnixMilli(r.lease), Place: r.place, Total: r.total}
	if err := json.Unmarshal([]byte(r.positions), &rev.Positions); err != nil {
		return analysis.StoredReview{}, fmt.Errorf("decoding the review of game %q: %w", trimID(id), err)
	}
	if len(rev.Positions) == 0 {
		rev.Positions = nil // as stored
	}
	return rev, nil
}

// claimArgs are claimReviewSQL's arguments; saveArgs saveReviewSQL's.
func (r reviewRow) claimArgs(id string, now time.Time) []any {
	return []any{id, r.key, r.status, r.owner, r.lease, r.place, r.total, r.positions, now.UnixMilli()}
}

func (r reviewRow) saveArgs(id string) []any {
	return []any{r.status, r.lease, r.place, r.positions, id, r.owner, r.key}
}

// memoryReviews are the reviews a Memory keeps (Memory.Reviews).
type memoryReviews struct{ m *Memory }

// Reviews are the games' reviews the memory keeps.
func (m *Memory) Reviews() analysis.ReviewStore { return memoryReviews{m} }

// Reviews are the games' reviews the database keeps.
func (s *SQLite) Reviews() analysis.ReviewStore { return s }

// Reviews are the games' reviews the database keeps.
func (p *Postgres) Reviews() analysis.ReviewStore { return p }

// LoadReview returns game id's review, if one is stored.
func (r memoryReviews) LoadReview(ctx context.Context, id string) (analysis.StoredReview, bool, error) {
	m := r.m
	if err := ctx.Err(); err != nil {
		return analysis.StoredReview{}, false, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	rev, ok := m.reviews[id]
	rev.Positions = slices.Clone(rev.Positions)
	return rev, ok, nil
}

// ClaimReview stores rev unless the review stored for its game is of the
// same game and done, or held by another owner whose lease runs past now.
func (r memoryReviews) ClaimReview(ctx context.Context, rev analysis.StoredReview, now time.Time) (bool, error) {
	m := r.m
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.reviews[rev.GameID]; ok && old.Key == rev.Key &&
		(old.Status == analysis.ReviewDone || old.Owner != rev.Owner && old.Lease.UnixMilli() > now.UnixMilli()) {
		return false, nil
	}
	rev.Positions = slices.Clone(rev.Positions)
	m.reviews[rev.GameID] = rev
	return true, nil
}

// SaveReview rewrites rev if the review stored for its game is still
// rev.Owner's and of rev.Key.
func (r memoryReviews) SaveReview(ctx context.Context, rev analysis.StoredReview) (bool, error) {
	m := r.m
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.reviews[rev.GameID]
	if !ok || old.Owner != rev.Owner || old.Key != rev.Key {
		return false, nil
	}
	old.Status, old.Lease, old.Place, old.Positions = rev.Status, rev.Lease, rev.Place, slices.Clone(rev.Positions)
	m.reviews[rev.GameID] = old
	return true, nil
}

// LoadReview returns game id's review, if one is stored.
func (s *SQLite) LoadReview(ctx context.Context, id string) (analysis.StoredReview, bool, error) {
	var r reviewRow
	err := s.db.QueryRowContext(ctx, loadReviewQuery, id).Scan(r.scanArgs()...)
	if errors.Is(err, sql.ErrNoRows) {
		return analysis.StoredReview{}, false, nil
	}
	if err != nil {
		return analysis.StoredReview{}, false, fmt.Errorf("loading the review of game %q: %w", trimID(id), err)
	}
	rev, err := r.decode(id)
	return rev, err == nil, err
}

// ClaimReview stores rev unless the review stored for its game is of the
// same game and done, or held by another owner whose lease runs past now.
func (s *SQLite) ClaimReview(ctx context.Context, rev analysis.StoredReview, now time.Time) (bool, error) {
	r, err := encodeReview(rev)
	if err != nil {
		return false, err
	}
	return sqliteAffected(s.db.ExecContext(ctx, claimReviewSQL, r.claimArgs(rev.GameID, now)...))
}

// SaveReview rewrites rev if the review stored for its game is still
// rev.Owner's and of rev.Key.
func (s *SQLite) SaveReview(ctx context.Context, rev analysis.StoredReview) (bool, error) {
	r, err := encodeReview(rev)
	if err != nil {
		return false, err
	}
	return sqliteAffected(s.db.ExecContext(ctx, saveReviewSQL, r.saveArgs(rev.GameID)...))
}

// sqliteAffected reports whether a statement changed a row.
func sqliteAffected(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("saving a review: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("saving a review: %w", err)
	}
	return n > 0, nil
}

// LoadReview returns game id's review, if one is stored.
func (p *Postgres) LoadReview(ctx context.Context, id string) (analysis.StoredReview, bool, error) {
	if !validText(id) {
		return analysis.StoredReview{}, false, nil
	}
	var r reviewRow
	err := p.conns.QueryRow(ctx, dollars(loadReviewQuery), id).Scan(r.scanArgs()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return analysis.StoredReview{}, false, nil
	}
	if err != nil {
		return analysis.StoredReview{}, false, fmt.Errorf("loading the review of game %q: %w", trimID(id), err)
	}
	rev, err := r.decode(id)
	return rev, err == nil, err
}

// ClaimReview stores rev unless the review stored for its game is of the
// same game and done, or held by another owner whose lease runs past now.
func (p *Postgres) ClaimReview(ctx context.Context, rev analysis.StoredReview, now time.Time) (bool, error) {
	r, err := encodeReview(rev)
	if err != nil {
		return false, err
	}
	tag, err := p.conns.Exec(ctx, dollars(claimReviewSQL), r.claimArgs(rev.GameID, now)...)
	if err != nil {
		return false, fmt.Errorf("claiming the review of game %q: %w", trimID(rev.GameID), err)
	}
	return tag.RowsAffected() > 0, nil
}

// SaveReview rewrites rev if the review stored for its game is still
// rev.Owner's and of rev.Key.
func (p *Postgres) SaveReview(ctx context.Context, rev analysis.StoredReview) (bool, error) {
	r, err := encodeReview(rev)
	if err != nil {
		return false, err
	}
	tag, err := p.conns.Exec(ctx, dollars(saveReviewSQL), r.saveArgs(rev.GameID)...)
	if err != nil {
		return false, fmt.Errorf("saving the review of game %q: %w", trimID(rev.GameID), err)
	}
	return tag.RowsAffected() > 0, nil
}
