package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// BenchmarkSQLiteSavePly measures one ply saved to a file database with
// the default options: a ban and its move, then both taken back, so the
// game stays near its start; each op is one committed save.
func BenchmarkSQLiteSavePly(b *testing.B) {
	s, err := OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	holder := players.NewCredential().Hash()
	now := time.Now()
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: holder, Black: holder, Mode: games.HotSeat, Created: now, Updated: now}
	if err := s.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	steps := []func(g *rules.Game) error{
		func(g *rules.Game) error { return g.PlayText("b:e2e4") },
		func(g *rules.Game) error { return g.PlayText("m:d2d4") },
		(*rules.Game).Undo,
		(*rules.Game).Undo,
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := s.Update(ctx, rec.ID, func(r *games.Record) error { return steps[i%len(steps)](r.Game) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSQLiteSaveClockedPly is BenchmarkSQLiteSavePly on a game
// whose clock runs: each save moves the time the clock ends the game (the
// row's due_at, and its index entry).
func BenchmarkSQLiteSaveClockedPly(b *testing.B) {
	s, err := OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	white, black := players.NewCredential().Hash(), players.NewCredential().Hash()
	now := time.Now()
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: white, Black: black, Mode: games.Invite, Created: now, Updated: now}
	rec.Clock = games.NewClock(games.TimeControl{Initial: 5 * time.Minute})
	rec.Clock.Running, rec.Clock.Since = rules.White, now
	if err := s.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	steps := []func(g *rules.Game) error{
		func(g *rules.Game) error { return g.PlayText("b:e2e4") },
		func(g *rules.Game) error { return g.PlayText("m:d2d4") },
		(*rules.Game).Undo,
		(*rules.Game).Undo,
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := s.Update(ctx, rec.ID, func(r *games.Record) error {
			r.Clock.Since = r.Clock.Since.Add(time.Millisecond)
			return steps[i%len(steps)](r.Game)
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSQLiteLoad2000 measures reading a 2,000-ply imported game back
// from its row: the query, and replaying every ply (what a request for a
// game not in the cache costs).
func BenchmarkSQLiteLoad2000(b *testing.B) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rec := &games.Record{Game: longGame(b, 2000, 1), Mode: games.HotSeat, Created: time.Now(), Updated: time.Now()}
	if err := s.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		got, _, _, err := s.load(ctx, rec.ID)
		if err != nil {
			b.Fatal(err)
		}
		if got.Game.Ply() != 2001 {
			b.Fatalf("loaded at ply %d", got.Game.Ply())
		}
	}
}

// BenchmarkPostgresView measures a request's read of a cached 100-ply
// game (revalidated: its row's revision read) against reading it afresh
// (the row read and replayed), which is what a cache without revalidation
// would have to do on every request to be safe with several instances.
func BenchmarkPostgresView(b *testing.B) {
	ctx := context.Background()
	p := openPostgres(b, PostgresOptions{})
	rec := &games.Record{Game: longGame(b, 100, 1), Mode: games.HotSeat, Created: time.Now(), Updated: time.Now()}
	if err := p.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	b.Run("revalidated", func(b *testing.B) {
		for b.Loop() {
			if err := p.View(ctx, rec.ID, func(*games.Record) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reloaded", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := p.loadRow(ctx, rec.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}
