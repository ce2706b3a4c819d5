package store

import (
	"context"
	"fmt"
	"strings"
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
func (s *sqlStore) EachGame(ctx context.Context, fn func(id, variant, startFEN string, actions []string) error) error {
	r, err := s.gdb.query(ctx, s.each)
	if err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	all, err := collect(r, func(sc scanner) (storedGame, error) {
		var g storedGame
		err := sc.Scan(&g.id, &g.variant, &g.startFEN, &g.actions)
		return g, err
	})
	if err != nil {
		return fmt.Errorf("reading the games: %w", err)
	}
	for _, g := range all {
		if err := fn(g.id, g.variant, g.startFEN, strings.Fields(g.actions)); err != nil {
			return err
		}
	}
	return nil
}
