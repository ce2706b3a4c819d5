package main

// The server's store: what it needs of one, opening it from --db, the
// notices other servers send through it, and the sweep of old games.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/tournament"
	"github.com/banchess/banchess/training"
)

// gameStore is what the server needs of a store: the games, a health
// check, sweeps of expired games and closing.
type gameStore interface {
	games.Store
	games.DueGames
	players.Store
	lobby.Store
	training.Store
	Chat() chat.Store
	Relations() relations.Store
	Safety() players.SafetyStore
	Moderation() moderation.Store
	Tournaments() tournament.Store
	Challenges() challenges.Store
	Reviews() analysis.ReviewStore
	handlers.Pinger
	Sweep(ctx context.Context) (int, error)
	Close() error
}

// changeListener is a store that other servers share, which reports every
// game saved by any of them, and their notices (the lobby's changes,
// revoked credentials; see store.Postgres.Listen).
type changeListener interface {
	Listen(ctx context.Context, fn func(id string, revision int64), notice func(string)) error
}

// listen tells the watchers of every game another server changed of its
// revision (the notice carries it; those this one changed it has told
// already, and the feed wakes no one twice), and passes the servers'
// notices to each of noticed; after a lost connection, when changes may
// have been missed, it wakes every watcher to read its game once (and the
// services forget what notices change).
func listen(ctx context.Context, l changeListener, feed *games.Feed, logger *slog.Logger, noticed ...func(string)) {
	err := l.Listen(ctx, func(id string, rev int64) {
		if id == "" {
			feed.PublishAll()
			return
		}
		feed.Publish(id, rev)
	}, func(n string) {
		for _, fn := range noticed {
			fn(n)
		}
	})
	if err != nil && ctx.Err() == nil {
		logger.Error("listening for changes from other servers", "err", err)
	}
}

// openStore opens the store dsn names: a PostgreSQL database for a
// postgres:// or postgresql:// URL (with pg's pool settings), else an
// SQLite file.
func openStore(ctx context.Context, dsn string, opts store.Options, pg store.PostgresOptions) (gameStore, error) {
	if store.IsPostgresURL(dsn) {
		if opts.Fsync {
			return nil, errors.New("--fsync is for SQLite: PostgreSQL waits for the disk on every commit unless its synchronous_commit setting says otherwise")
		}
		pg.CacheSize, pg.CacheBytes, pg.TTL = opts.CacheSize, opts.CacheBytes, opts.TTL
		return store.OpenPostgres(ctx, dsn, pg)
	}
	if strings.Contains(dsn, "://") {
		return nil, fmt.Errorf("--db: %q is a URL but not a PostgreSQL one (postgres://…); an SQLite database is a file path", redact(dsn))
	}
	return store.OpenSQLite(ctx, dsn, opts)
}

// redact hides what a URL says between its scheme and its host (a user and
// password), for error messages.
func redact(url string) string {
	scheme, rest, _ := strings.Cut(url, "://")
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = "…@" + rest[at+1:]
	}
	return scheme + "://" + rest
}

// sweep removes expired games now and then until ctx ends.
func sweep(ctx context.Context, games gameStore, ttl time.Duration, logger *slog.Logger) {
	if ttl <= 0 {
		return
	}
	every := min(ttl/10, time.Hour)
	for {
		n, err := games.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Error("sweeping expired games", "err", err)
		case n > 0:
			logger.Info("swept expired games", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
