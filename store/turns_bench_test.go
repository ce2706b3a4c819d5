package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// BenchmarkSQLiteAwaiting measures what every page's header adds for a
// signed-in player: counting the games awaiting them (one read of the
// index on to_act), in a database of 5,000 games between 500 players, of
// which the player has 20; and listing those games for /games.
func BenchmarkSQLiteAwaiting(b *testing.B) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	for i := range 5000 {
		rec := &games.Record{Game: rules.New(rules.BanChess{}), Mode: games.Invite, Created: now, Updated: now, Revision: 1,
			White: fmt.Sprintf("p%03d", i%500), Black: fmt.Sprintf("p%03d", (i+1)%500)}
		if err := s.Create(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("count", func(b *testing.B) {
		for b.Loop() {
			if n, err := s.Awaiting(ctx, "p007"); err != nil || n != 10 {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			if l, err := s.Ongoing(ctx, "p007", 100); err != nil || len(l) != 20 {
				b.Fatal(len(l), err)
			}
		}
	})
}
