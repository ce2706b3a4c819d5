package store

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
)

// gameCache keeps the games in use in memory, up to a bound on their number
// and on their estimated size (least recently used leave first), for a
// store that keeps every game in a database row: SQLite and Postgres. It
// is their Create, Update and View: it runs Update and View on a game
// under its lock, loading it from its row when it is not cached, and
// writing it back through the store.
type gameCache struct {
	maxGames int
	maxBytes int64
	now      func() time.Time
	// load reads a game from its row, with the row's revision and the
	// game's estimated size.
	load func(ctx context.Context, id string) (rec *games.Record, revision, size int64, err error)
	// write commits c's game if its row is still at revision c.row (else
	// it fails with errStale) and returns the game's estimated size; it
	// sets c's revisions. It runs to its end whatever becomes of the
	// request, but not past ctx's deadline (see committer.write).
	write func(ctx context.Context, c *cachedGame) (int64, error)
	// finish is write for a save that finishes a game between two
	// players: it records the game's result in the same transaction.
	finish func(ctx context.Context, c *cachedGame) (int64, error)
	// revision, when set, reads a game's row revision: a cached game whose
	// row has moved on (another process saved it) is read afresh before
	// it is used. Nil when no other process writes the rows.
	revision func(ctx context.Context, id string) (int64, error)

	mu      sync.Mutex // guards the fields below and the entries' refs, used and size
	games   map[string]*cachedGame
	bytes   int64     // the estimated size of the games cached
	lru     list.List // of *cachedGame, most recently used at the front
	flushed time.Time // when Sweep last recorded the games' use
	// evicted holds when games evicted since then were last used, for
	// Sweep to record.
	evicted map[string]time.Time
}

// cachedGame is a game in memory. Its lock is the game's lock; refs counts
// the requests holding or waiting for it, and an entry with refs is never
// evicted, so there is at most one copy of a game in memory.
type cachedGame struct {
	id     string
	lock   gameLock
	rec    *games.Record // nil when loading failed (err says why)
	err    error
	rev    uint64    // the game's revision last written
	row    int64     // the row's revision last written or read (0: no row yet)
	over   bool      // the game was over when last written or read
	stored bool      // the game has a row (it was written or read)
	seats  seatState // the seats last written
	// touched is when (unix seconds) this store last wrote the row's
	// touched_at; 0 when it has not.
	touched int64

	refs int
	used time.Time
	size int64 // the game's estimated size, counted in gameCache.bytes
	elem *list.Element
}

// init sets the cache's bounds (0: the defaults) and empties it.
func (gc *gameCache) init(maxGames int, maxBytes int64, now func() time.Time) {
	if maxGames <= 0 {
		maxGames = DefaultCacheSize
	}
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	if now == nil {
		now = time.Now
	}
	gc.maxGames, gc.maxBytes, gc.now = maxGames, maxBytes, now
	gc.games, gc.evicted, gc.flushed = make(map[string]*cachedGame), make(map[string]time.Time), now()
}

// Create stores rec under a new id, which it sets, committed before it
// returns, and caches it.
func (gc *gameCache) Create(ctx context.Context, rec *games.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rec.ID = NewID()
	c := &cachedGame{id: rec.ID, lock: newGameLock(), rec: rec}
	size, err := gc.write(ctx, c)
	if err != nil {
		return fmt.Errorf("create game: %w", err)
	}
	gc.mu.Lock()
	c.used = gc.now()
	gc.games[c.id] = c
	c.elem = gc.lru.PushFront(c)
	gc.resize(c, size)
	gc.evict()
	gc.mu.Unlock()
	return nil
}

// Update runs fn on the record under its lock and commits what fn changed
// before returning; no two calls for one game interleave. fn must leave the
// record unchanged when it returns an error. When the commit fails the
// change is dropped (the game is read back from the database when next
// asked for) and the error returned. When the row changed since the game
// was read (another process saved it), nothing is written and the error
// is a *errs.Error with Code errs.Conflict.
func (gc *gameCache) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	if !validText(id) {
		return notFound(id)
	}
	c, err := gc.acquire(ctx, id)
	if err != nil {
		return err
	}
	defer gc.release(c)
	if err := fn(c.rec); err != nil {
		return err
	}
	if c.rec.Revision == c.row && c.rec.Game.Revision() == c.rev && seatStateOf(c.rec) == c.seats {
		return nil
	}
	write := gc.write
	if _, records := games.ResultOf(c.rec); records && !c.over {
		write = gc.finish
	}
	size, err := write(ctx, c)
	if err != nil {
		if errors.Is(err, errStale) {
			err = changedElsewhere(id)
			gc.forget(c, err)
			return err
		}
		gc.forget(c, errUnsaved)
		return fmt.Errorf("game %q: %w", id, err)
	}
	gc.mu.Lock()
	gc.resize(c, size)
	gc.mu.Unlock()
	return nil
}

// View runs fn on the record under its lock; fn must not change it.
func (gc *gameCache) View(ctx context.Context, id string, fn func(*games.Record) error) error {
	if !validText(id) {
		return notFound(id)
	}
	c, err := gc.acquire(ctx, id)
	if err != nil {
		return err
	}
	defer gc.release(c)
	return fn(c.rec)
}

// validText reports whether s can be a TEXT parameter: PostgreSQL refuses
// invalid UTF-8 and NUL bytes, which no id or holder has.
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// changedElsewhere is the refusal of a save made from a stale copy of the
// game: another process saved the game since this one read it.
func changedElsewhere(id string) error {
	return &errs.Error{Code: errs.Conflict, Msg: "The game changed elsewhere, so nothing was done; here it is as it stands.",
		Err: fmt.Errorf("game %q: %w", trimID(id), errStale)}
}

// errUnsaved answers the requests that waited for a game whose change
// could not be saved (after they tried to read it afresh: see acquire): the
// store was too busy for it, whatever the save's own failure, and the game
// is as its row has it.
var errUnsaved = fmt.Errorf("%w: the game's last change could not be saved; try again", errs.ErrBusy)

// acquireTries bounds how often acquire reads a game afresh because the
// request it waited behind failed for reasons of its own.
const acquireTries = 3

// acquire returns the game's entry, loaded (or revalidated) and locked. A
// request that waited for the game behind one whose save failed, or whose
// read of the game ended with its own context (its client gone, its
// deadline passed), reads the game afresh itself rather than take that
// failure for its own, a few times at most.
func (gc *gameCache) acquire(ctx context.Context, id string) (*cachedGame, error) {
	for try := 1; ; try++ {
		c, err := gc.acquireOnce(ctx, id)
		if err == nil || try == acquireTries || ctx.Err() != nil || !othersFailure(err) {
			return c, err
		}
	}
}

// othersFailure reports whether err, which a request got from the game's
// entry while its own context is alive, is another request's failure: a
// save that failed, or a context that ended.
func othersFailure(err error) bool {
	if errors.Is(err, errs.ErrUnavailable) {
		return false // the database does not answer: reading again will not help
	}
	return errors.Is(err, errUnsaved) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// acquireOnce is one try of acquire.
func (gc *gameCache) acquireOnce(ctx context.Context, id string) (*cachedGame, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gc.mu.Lock()
	c, ok := gc.games[id]
	if ok {
		c.refs++
		c.used = gc.now()
		gc.lru.MoveToFront(c.elem)
		gc.mu.Unlock()
		if err := c.lock.lock(ctx); err != nil {
			gc.mu.Lock()
			c.refs--
			gc.evict()
			gc.mu.Unlock()
			return nil, err
		}
		if c.err == nil && gc.revision != nil {
			gc.revalidate(ctx, c)
		}
	} else {
		c = &cachedGame{id: id, lock: newGameLock(), refs: 1, used: gc.now()}
		c.lock <- struct{}{} // held while loading: others asking for id wait for it
		gc.games[id] = c
		c.elem = gc.lru.PushFront(c)
		gc.mu.Unlock()
		var size int64
		c.rec, c.row, size, c.err = gc.load(ctx, id)
		gc.mu.Lock()
		if c.err != nil {
			gc.remove(c)
		} else {
			games.CountReplay(ctx, c.rec.Game.Ply()-c.rec.Game.StartPly())
			c.rev, c.seats, c.stored, c.over = c.rec.Game.Revision(), seatStateOf(c.rec), true, c.rec.Game.Outcome().Over()
			gc.resize(c, size)
		}
		gc.mu.Unlock()
	}
	if c.err != nil {
		err := c.err
		gc.release(c)
		return nil, err
	}
	return c, nil
}

// revalidate reads c's game afresh when its row has moved on since c read
// or wrote it; on failure c is forgotten with the error. The caller holds
// c.
func (gc *gameCache) revalidate(ctx context.Context, c *cachedGame) {
	row, err := gc.revision(ctx, c.id)
	if err == nil && row == c.row {
		return
	}
	var rec *games.Record
	var size int64
	if err == nil {
		rec, row, size, err = gc.load(ctx, c.id)
	}
	if err != nil {
		gc.forget(c, err)
		return
	}
	games.CountReplay(ctx, rec.Game.Ply()-rec.Game.StartPly())
	c.rec, c.row, c.rev, c.seats, c.stored, c.over = rec, row, rec.Game.Revision(), seatStateOf(rec), true, rec.Game.Outcome().Over()
	gc.mu.Lock()
	gc.resize(c, size)
	gc.mu.Unlock()
}

// release unlocks c and lets it be evicted once nobody holds it.
func (gc *gameCache) release(c *cachedGame) {
	c.lock.unlock()
	gc.mu.Lock()
	c.refs--
	gc.evict()
	gc.mu.Unlock()
}

// forget drops c's game from memory, so the next request reads it from the
// database; the requests waiting for c get err. The caller holds c.
func (gc *gameCache) forget(c *cachedGame, err error) {
	c.rec, c.err = nil, err
	gc.mu.Lock()
	gc.remove(c)
	gc.mu.Unlock()
}

// remove takes c out of the cache; gc.mu is held.
func (gc *gameCache) remove(c *cachedGame) {
	if gc.games[c.id] == c {
		delete(gc.games, c.id)
		gc.lru.Remove(c.elem)
		gc.bytes -= c.size
	}
}

// resize records c's estimated size; gc.mu is held.
func (gc *gameCache) resize(c *cachedGame, size int64) {
	if gc.games[c.id] == c {
		gc.bytes += size - c.size
	}
	c.size = size
}

// evict drops the least recently used games nobody holds until the cache
// is within its bounds, of games and of bytes; gc.mu is held.
func (gc *gameCache) evict() {
	for e := gc.lru.Back(); e != nil && (len(gc.games) > gc.maxGames || gc.bytes > gc.maxBytes); {
		c := e.Value.(*cachedGame)
		e = e.Prev()
		if c.refs == 0 {
			gc.remove(c)
			if !c.used.Before(gc.flushed) {
				gc.evicted[c.id] = c.used
			}
		}
	}
}

// usedSinceFlush returns when the games used since the last sweep were
// last used, for a sweep to record in their rows.
func (gc *gameCache) usedSinceFlush() map[string]time.Time {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	used := gc.evicted
	gc.evicted = make(map[string]time.Time)
	for _, c := range gc.games {
		if !c.used.Before(gc.flushed) {
			used[c.id] = c.used
		}
	}
	return used
}

// swept notes a sweep at now that removed the rows untouched since
// cutoff, and drops those games from memory.
func (gc *gameCache) swept(now, cutoff time.Time) {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	gc.flushed = now
	for _, c := range gc.games {
		if c.refs == 0 && c.used.Before(cutoff) {
			gc.remove(c)
		}
	}
}

// sweep is a store's Sweep: it removes the rows untouched for longer than
// ttl (none when ttl is 0) and the games cached from them, and counts the
// rows removed. First touch records in their rows when the games used
// since the last sweep were last used; then remove deletes the rows
// untouched since cutoff (unix seconds) and counts them.
func (gc *gameCache) sweep(ctx context.Context, ttl time.Duration,
	touch func(ctx context.Context, used map[string]time.Time) error,
	remove func(ctx context.Context, cutoff int64) (int64, error),
) (int, error) {
	if ttl <= 0 {
		return 0, nil
	}
	now := gc.now()
	if used := gc.usedSinceFlush(); len(used) > 0 {
		if err := touch(ctx, used); err != nil {
			return 0, fmt.Errorf("sweep: %w", err)
		}
	}
	cutoff := now.Add(-ttl)
	n, err := remove(ctx, cutoff.Unix())
	if err != nil {
		return 0, fmt.Errorf("sweep: %w", err)
	}
	gc.swept(now, cutoff)
	return int(n), nil
}

// cached counts the games in memory.
func (gc *gameCache) cached() int {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	return len(gc.games)
}
