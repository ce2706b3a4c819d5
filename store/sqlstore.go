package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/banchess/banchess/games"
)

// sqlStore is what SQLite and Postgres share: the games, each a row of the
// games table, those in use cached in memory (gameCache); the players and
// the lobby (sqlPlayers); training (sqlTraining). Its statements are
// written once; the database supplies what the two say differently.
type sqlStore struct {
	gameCache
	sqlPlayers
	sqlTraining

	db       database          // for all but game work
	gdb      database          // for game work: the games' rows (db itself but on PostgreSQL)
	saves    [saveKinds]string // insert a game's row, or update what the kind of save changes
	list     string            // listSQL in the database's words
	each     string            // eachSQL in the database's words
	commits  *committer
	failures writeFailures
	ttl      time.Duration
	timeout  time.Duration // bounds a save; 0: no bound
}

// sqlConfig is how an sqlStore runs.
type sqlConfig struct {
	cacheSize  int
	cacheBytes int64
	ttl        time.Duration
	now        func() time.Time
	groupWait  time.Duration // see committer.wait
	timeout    time.Duration // bounds a save; 0: no bound
	// games is the database game work (reading, saving, listing and
	// sweeping games) runs on, when not db: PostgreSQL's share of the
	// pool for it (see pgConns).
	games database
	// shared says other processes write the rows: a cached game is
	// revalidated (its row's revision read) before each use.
	shared bool
}

// start readies s on db and starts its committer.
func (s *sqlStore) start(db database, c sqlConfig) {
	s.db, s.gdb, s.ttl, s.timeout = db, c.games, c.ttl, c.timeout
	if s.gdb == nil {
		s.gdb = db
	}
	for k, set := range saveSets {
		s.saves[k] = db.saveStatement(fmt.Sprintf(upsertSQL(db.placeholder()), set))
	}
	s.list = fmt.Sprintf(listSQL, db.byteOrder())
	s.each = eachSQL + db.byteOrder()
	s.commits = newCommitter(s.gdb, c.groupWait, c.timeout)
	s.init(c.cacheSize, c.cacheBytes, c.now)
	s.load, s.write, s.finish = s.loadRow, s.saveRow, s.saveFinished
	if c.shared {
		s.revision = s.rowRevision
	}
	s.sqlPlayers = sqlPlayers{db: db}
	s.sqlTraining = sqlTraining{db: db}
}

// The games table's statements but the saves (see upsertSQL), with
// PostgreSQL's placeholders, which SQLite reads too.
const (
	loadSQL     = `SELECT ` + loadColumns + ` FROM games WHERE id = $1`
	revisionSQL = `SELECT revision FROM games WHERE id = $1`
	// listSQL lists holder $1's games, up to $2, the last order by id
	// byte by byte (%s: see database.byteOrder). The terms saying a seat
	// is not free (the partial indexes' conditions) let SQLite use the
	// indexes on the seats: without them it reads every game.
	listSQL = `SELECT ` + summaryColumns + ` FROM games
	WHERE white = $1 AND white <> '' AND NOT white_hidden OR black = $1 AND black <> '' AND NOT black_hidden
	ORDER BY updated_at DESC, created_at DESC, id%s LIMIT $2`
	// touchSQL records that game $2 was used at $1 (unix seconds), unless
	// its row has it used later.
	touchSQL  = `UPDATE games SET touched_at = $1 WHERE id = $2 AND touched_at < $1`
	removeSQL = `DELETE FROM games WHERE touched_at < $1`
	eachSQL   = `SELECT id, variant, start_fen, actions FROM games ORDER BY id`
	countSQL  = `SELECT count(*) FROM games`
)

// saveRow is gameCache.write: it has the committer commit c's game (see
// writeRow), whatever becomes of the request, but not past ctx's deadline.
func (s *sqlStore) saveRow(ctx context.Context, c *cachedGame) (int64, error) {
	deadline, _ := ctx.Deadline()
	return writeRow(c, s.now(), &s.failures, func(kind saveKind, args []any) error {
		return s.commits.write(c.id, s.saves[kind], args, deadline)
	})
}

// loadRow is gameCache.load: it reads a game's record from its row (see
// scanRecord).
func (s *sqlStore) loadRow(ctx context.Context, id string) (rec *games.Record, revision, size int64, err error) {
	return scanRecord(id, s.gdb.queryRow(ctx, loadSQL, id).Scan)
}

// rowRevision is gameCache.revision: it reads the revision of a game's
// row.
func (s *sqlStore) rowRevision(ctx context.Context, id string) (int64, error) {
	var revision int64
	err := s.gdb.queryRow(ctx, revisionSQL, id).Scan(&revision)
	if errors.Is(err, errNoRows) {
		return 0, notFound(id)
	}
	if err != nil {
		return 0, fmt.Errorf("game %q: reading its revision: %w", trimID(id), err)
	}
	return revision, nil
}

// List returns up to limit of holder's games that it has not hidden, the
// most recently updated first. No one ("") holds a game.
func (s *sqlStore) List(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if holder == "" || limit <= 0 || !validText(holder) {
		return nil, ctx.Err()
	}
	r, err := s.gdb.query(ctx, s.list, holder, limit)
	if err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	out, err := collect(r, func(sc scanner) (games.Summary, error) { return scanSummary(sc.Scan) })
	if err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	return out, nil
}

// Sweep removes the games untouched for longer than the TTL and reports how
// many it removed. It first records when the games cached here were last
// used, so a game in play is never swept (with PostgreSQL, a game only
// read, and only on another instance, since that instance's last sweep,
// with no save for the whole TTL, may be). Then it removes the anonymous
// players made before the TTL who hold no seat any more (see
// sweepPlayers).
func (s *sqlStore) Sweep(ctx context.Context) (int, error) {
	n, err := s.sweep(ctx, s.ttl, s.touch, s.removeUntouched)
	if err == nil && s.ttl > 0 {
		err = s.sweepPlayers(ctx, s.now().Add(-s.ttl))
	}
	return n, err
}

// touch records when the games were last used, in one transaction, in the
// order of their ids (as the committer's batches lock rows).
func (s *sqlStore) touch(ctx context.Context, used map[string]time.Time) error {
	stmts := make([]statement, 0, len(used))
	for _, id := range slices.Sorted(maps.Keys(used)) {
		stmts = append(stmts, statement{touchSQL, []any{used[id].Unix(), id}})
	}
	done, err := s.gdb.batch(ctx, stmts)
	for _, d := range done {
		if err == nil {
			err = d.err
		}
	}
	return err
}

// removeUntouched deletes the rows untouched since cutoff (unix seconds),
// and the reviews of the games removed, and counts the games.
func (s *sqlStore) removeUntouched(ctx context.Context, cutoff int64) (int64, error) {
	n, err := s.gdb.exec(ctx, removeSQL, cutoff)
	if err != nil {
		return 0, err
	}
	if _, err := s.gdb.exec(ctx, sweepReviewsSQL); err != nil {
		return 0, fmt.Errorf("the reviews of removed games: %w", err)
	}
	if _, err := s.gdb.exec(ctx, sweepChatSQL); err != nil {
		return 0, fmt.Errorf("the chat of removed games: %w", err)
	}
	return n, nil
}

// Ping checks the database answers, and that writes work: while saves
// are failing (a full disk, a read-only file) it returns an error that
// says so (WritesFailing reports true), until a save succeeds again. So
// that a server no longer sent requests learns when writes work again, it
// then tries a tiny write itself, at most once every probeEvery.
func (s *sqlStore) Ping(ctx context.Context) error {
	var one int
	if err := s.db.queryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	now := s.now()
	return s.failures.check(now, func() error {
		_, err := s.db.exec(ctx, probeSQL, now.Unix())
		return err
	})
}

// Stats counts the games stored and those cached in memory.
func (s *sqlStore) Stats(ctx context.Context) (stored, cached int, err error) {
	if err := s.gdb.queryRow(ctx, countSQL).Scan(&stored); err != nil {
		return 0, 0, fmt.Errorf("counting games: %w", err)
	}
	return stored, s.cached(), nil
}

// The statements of games.TurnStore. The terms saying a seat or to_act
// is not empty (the partial indexes' conditions) let SQLite use the
// indexes.
const (
	// ongoingSQL lists holder $1's games in play against someone, up to
	// $2, those awaiting it first (%s: see database.byteOrder).
	ongoingSQL = `SELECT ` + summaryColumns + ` FROM games
	WHERE (white = $1 AND white <> '' AND NOT white_hidden OR black = $1 AND black <> '' AND NOT black_hidden)
		AND phase <> 'over' AND mode <> 'hotseat'
	ORDER BY CASE WHEN to_act = $1 THEN 0 ELSE 1 END, updated_at DESC, id%s LIMIT $2`
	awaitingSQL = `SELECT count(*) FROM games WHERE to_act = $1 AND to_act <> ''`
)

// Ongoing returns up to limit of holder's games in play against someone,
// those awaiting it first (see games.TurnStore).
func (s *sqlStore) Ongoing(ctx context.Context, holder string, limit int) ([]games.Summary, error) {
	if holder == "" || limit <= 0 || !validText(holder) {
		return nil, ctx.Err()
	}
	r, err := s.gdb.query(ctx, fmt.Sprintf(ongoingSQL, s.gdb.byteOrder()), holder, limit)
	if err != nil {
		return nil, fmt.Errorf("listing games in play: %w", err)
	}
	out, err := collect(r, func(sc scanner) (games.Summary, error) { return scanSummary(sc.Scan) })
	if err != nil {
		return nil, fmt.Errorf("listing games in play: %w", err)
	}
	return out, nil
}

// Awaiting counts the games awaiting holder (games.Record.ToAct).
func (s *sqlStore) Awaiting(ctx context.Context, holder string) (int, error) {
	if holder == "" || !validText(holder) {
		return 0, ctx.Err()
	}
	var n int
	if err := s.gdb.queryRow(ctx, awaitingSQL, holder).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the games awaiting a player: %w", err)
	}
	return n, nil
}
