package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
)

// PostgresOptions configure a PostgreSQL store. The database URL may set
// the pool and connection too, as pgxpool reads it (pool_max_conns,
// connect_timeout, …); a field set here wins.
type PostgresOptions struct {
	// MaxConns bounds the connections the pool opens; 0 keeps the URL's
	// pool_max_conns, or pgxpool's default (4, or the number of CPUs if
	// more).
	MaxConns int32
	// GameConns bounds the pool's connections game work (reading, saving,
	// listing and sweeping games) holds at once, so that the others are
	// always there for the rest (players, the lobby, sign-ins, training)
	// however many requests wait on a busy games table; 0: all but a
	// quarter of the pool (at least one). It must be fewer than the pool's.
	GameConns int32
	// ConnWait bounds how long a statement waits for a free connection
	// (game work: for one of its share); past it the statement fails busy
	// (errs.ErrBusy: 503 with Retry-After). 0 means DefaultConnWait.
	ConnWait time.Duration
	// ConnectTimeout bounds opening a connection; 0 keeps the URL's
	// connect_timeout, or DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// WriteTimeout bounds a save, which runs to its end (or this timeout)
	// whatever becomes of the request; 0 means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// CacheSize, CacheBytes, TTL and Now are as in Options.
	CacheSize  int
	CacheBytes int64
	TTL        time.Duration
	Now        func() time.Time
}

// DefaultConnectTimeout and DefaultWriteTimeout are a PostgreSQL store's
// timeouts unless told otherwise.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultWriteTimeout   = 10 * time.Second
)

// cancelGrace is how long a statement given up waits for the server to
// confirm its cancel before its connection is closed.
const cancelGrace = time.Second

// NotifyChannel is the channel every committed save notifies, with the
// payload "<id>:<revision>".
const NotifyChannel = "banchess_games"

// LobbyChannel is the channel the lobby's changes and revoked credentials
// are notified on, in their transactions, with a games notice (see
// games.Service.Notice) as payload.
const LobbyChannel = "banchess_lobby"

// Postgres keeps games in a PostgreSQL database that any number of
// processes share, one row per game, and the games in use in memory, up to
// a bound. Every change is committed before Update returns; every save is
// checked against the row's revision, so a process whose copy of a game is
// stale overwrites nothing, and a cached game is revalidated (its row's
// revision read) before each use. It is safe for concurrent use.
type Postgres struct {
	sqlStore
	pool  *pgxpool.Pool
	conns pgConns // the pool's connections for all but game work
}

// IsPostgresURL reports whether dsn names a PostgreSQL database
// (postgres:// or postgresql://) rather than an SQLite file.
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// OpenPostgres connects to the database at url (postgres://…), creating or
// migrating the schema as needed.
func OpenPostgres(ctx context.Context, url string, opts PostgresOptions) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's error may quote the URL, password and all.
		return nil, errors.New("open database: the PostgreSQL URL is malformed")
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.ConnectTimeout > 0 {
		cfg.ConnConfig.ConnectTimeout = opts.ConnectTimeout
	} else if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	// A statement given up (the request's deadline, a save's) is
	// cancelled on the server, not only left by this end: closing the
	// connection could leave a save waiting on a lock there, to commit
	// once the lock is released, after its request was told nothing
	// changed. The connection is closed if the server does not answer the
	// cancel within cancelGrace.
	cfg.ConnConfig.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: cancelGrace}
	}
	if opts.GameConns <= 0 {
		opts.GameConns = gameShare(cfg.MaxConns)
	} else if opts.GameConns >= cfg.MaxConns && cfg.MaxConns > 1 {
		return nil, fmt.Errorf("open database: %d connections for games of a pool of %d: %w", opts.GameConns, cfg.MaxConns, errNoShare)
	}
	if opts.ConnWait <= 0 {
		opts.ConnWait = DefaultConnWait
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", where, err)
	}
	conns := pgConns{pool: pool, wait: opts.ConnWait}
	gameConns := conns
	if opts.GameConns < cfg.MaxConns {
		gameConns.share = make(chan struct{}, opts.GameConns)
	}
	d := newPGDB(conns)
	if err := migrate(ctx, d); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", where, err)
	}
	p := &Postgres{pool: pool, conns: conns}
	// Its batches take the saves queued but wait for no more (groupWait
	// was measured on SQLite).
	p.start(d, sqlConfig{cacheSize: opts.CacheSize, cacheBytes: opts.CacheBytes, ttl: opts.TTL, now: opts.Now,
		timeout: opts.WriteTimeout, shared: true, games: newPGDB(gameConns)})
	return p, nil
}

// Close stops the committer and closes the pool. Every acknowledged change
// is already committed; call it once no request is in flight. Closing
// again does nothing.
func (p *Postgres) Close() error {
	p.commits.close()
	p.pool.Close()
	return nil
}

// Listen calls fn for every save committed to the database, by any
// process sharing it (this one included), with the game's id and its row's
// new revision, and notice (if not nil) with every notice on LobbyChannel,
// until ctx ends; it then returns ctx's error. It holds a connection of
// its own, and when that is lost it connects again (waiting longer after
// each failure, up to 5 s) and then calls fn once with id "" and revision
// 0: what was committed while it was away was not reported, so whoever
// shows games should refresh them. Notice hears players.NoticeDeaf when
// Listen begins and at once when its connection is lost, and "" each time
// it listens (again): between the two, notices go unheard, so whoever
// keeps what notices change (a cache of credentials) should keep nothing
// from NoticeDeaf until "", and refresh it then. Notifications come in
// commit order; fn and notice run on Listen's goroutine and should not
// block for long.
func (p *Postgres) Listen(ctx context.Context, fn func(id string, revision int64), notice func(string)) error {
	wait := 100 * time.Millisecond
	if notice != nil {
		notice(players.NoticeDeaf) // not listening yet
	}
	for lost := false; ; {
		err := p.listen(ctx, fn, notice, lost)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, errListened) {
			lost, wait = true, 100*time.Millisecond
			if notice != nil {
				notice(players.NoticeDeaf)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// errListened wraps the error that ended a connection that had been
// listening (rather than one that failed to connect).
var errListened = errors.New("the connection listening for saves was lost")

// listen listens on one connection until it fails or ctx ends; again says
// it follows a lost one.
func (p *Postgres) listen(ctx context.Context, fn func(string, int64), notice func(string), again bool) error {
	conn, err := pgx.ConnectConfig(ctx, p.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+NotifyChannel); err != nil {
		return err
	}
	if notice != nil {
		if _, err := conn.Exec(ctx, "LISTEN "+LobbyChannel); err != nil {
			return err
		}
	}
	if again {
		fn("", 0)
	}
	if notice != nil {
		notice("") // listening (again)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("%w: %w", errListened, err)
		}
		if n.Channel == LobbyChannel {
			notice(n.Payload)
			continue
		}
		i := strings.LastIndexByte(n.Payload, ':')
		if i < 0 {
			continue
		}
		rev, err := strconv.ParseInt(n.Payload[i+1:], 10, 64)
		if err != nil {
			continue
		}
		fn(n.Payload[:i], rev)
	}
}

// unreachable marks err, from a statement, as the database not answering
// (errs.ErrUnavailable) when it is a failure to reach it rather than its
// answer: a connection refused, reset or closed, or the server shutting
// down, starting or out of connections (SQLSTATE class 08, 57P01–57P03,
// 53300); and as the database too busy (errs.ErrBusy) when it did not
// answer in time: a lock or statement timeout or a cancelled statement
// (55P03, 57014), a deadlock or serialization failure (40P01, 40001), a
// server short of resources (53000, 53200), or the request's deadline
// passed while the statement waited. Any other error, nil and a request
// cancelled by its client included, is returned as it is.
func unreachable(err error) error {
	switch {
	case err == nil, errors.Is(err, errs.ErrUnavailable), errors.Is(err, errs.ErrBusy):
		return err
	case errors.Is(err, context.Canceled) && !pgconn.Timeout(err):
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch c := pgErr.Code; {
		case strings.HasPrefix(c, "08"), c == "57P01", c == "57P02", c == "57P03", c == "53300":
			return fmt.Errorf("%w: %w", errs.ErrUnavailable, err)
		case c == "55P03", c == "57014", c == "40P01", c == "40001", c == "53000", c == "53200":
			return fmt.Errorf("%w: %w", errs.ErrBusy, err)
		}
		return err
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return fmt.Errorf("%w: %w", errs.ErrUnavailable, err) // timed out connecting too: the server does not answer
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return fmt.Errorf("%w: %w", errs.ErrBusy, err)
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err) {
		return fmt.Errorf("%w: %w", errs.ErrUnavailable, err)
	}
	return err
}
