package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// storedGame is what a game is made of, as EachGame reads it.
type storedGame struct {
	id, variant, startFEN, actions string
}

// EachGame calls fn for every stored game, in the order of their ids
// (byte by byte), with its variant's ID, its start (extended FEN) and
// its plies in BCN: what a game is made of, without its seats, tags or a
// declared outcome. It reads what is committed, all of it before the
// first call, so fn may take its time. An error from fn stops the walk
// and is returned.
func (s *SQLite) EachGame(ctx context.Context, fn func(id, variant, startFEN string, actions []string) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, variant, start_fen, actions FROM games ORDER BY id`)
	if err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	defer rows.Close()
	var all []storedGame
	for rows.Next() {
		var g storedGame
		if err := rows.Scan(&g.id, &g.variant, &g.startFEN, &g.actions); err != nil {
			return fmt.Errorf("reading the games: %w", err)
		}
		all = append(all, g)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	rows.Close()
	return eachGame(all, fn)
}

// EachGame is SQLite.EachGame for PostgreSQL.
func (p *Postgres) EachGame(ctx context.Context, fn func(id, variant, startFEN string, actions []string) error) error {
	rows, err := p.pool.Query(ctx, `SELECT id, variant, start_fen, actions FROM games ORDER BY id COLLATE "C"`)
	if err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedGame, error) {
		var g storedGame
		err := r.Scan(&g.id, &g.variant, &g.startFEN, &g.actions)
		return g, err
	})
	if err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	return eachGame(all, fn)
}

func eachGame(all []storedGame, fn func(id, variant, startFEN string, actions []string) error) error {
	for _, g := range all {
		if err := fn(g.id, g.variant, g.startFEN, strings.Fields(g.actions)); err != nil {
			return err
		}
	}
	return nil
}
