package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// clock is a settable time for tests.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func openSQLite(t *testing.T, path string, opts Options) *SQLite {
	t.Helper()
	s, err := OpenSQLite(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// state is what two copies of a game must share.
func state(g *rules.Game) string {
	return g.FEN() + "\n" + g.Outcome().String() + "\n" + g.PGN()
}

func viewState(t *testing.T, s *SQLite, id string) string {
	t.Helper()
	var st string
	if err := s.View(context.Background(), id, func(g *rules.Game) error { st = state(g); return nil }); err != nil {
		t.Fatalf("view %s: %v", id, err)
	}
	return st
}

func play(t *testing.T, s *SQLite, id string, actions ...string) {
	t.Helper()
	for _, a := range actions {
		if err := s.Update(context.Background(), id, func(g *rules.Game) error { return g.PlayText(a) }); err != nil {
			t.Fatalf("play %s: %v", a, err)
		}
	}
}

// TestSQLiteReopen stores games of every kind, closes the store and finds
// them whole in a new one on the same file.
func TestSQLiteReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{})

	fromPGN, err := rules.FromPGN("[Event \"Club\"]\n[White \"Ann\"]\n\n1. e4 e5 2. Nf3 *", rules.PGNOptions{})
	if err != nil {
		t.Fatal(err)
	}
	custom, err := rules.FromFEN("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 2:a7a8", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]*rules.Game{
		"new":      rules.New(rules.BanChess{}),
		"classic":  rules.New(rules.Classic{}),
		"from PGN": fromPGN,
		"custom":   custom,
	}
	ids := map[string]string{}
	for name, g := range games {
		if ids[name], err = s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	play(t, s, ids["new"], "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5")
	play(t, s, ids["classic"], "m:e2e4", "m:e7e5")
	play(t, s, ids["custom"], "m:e1d2", "b:e8d7", "m:e8f7", "b:a7a8", "m:d2e3")
	if err := s.Update(ctx, ids["classic"], func(g *rules.Game) error { return g.Resign(rules.Black) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, ids["from PGN"], func(g *rules.Game) error { return g.AgreeDraw() }); err != nil {
		t.Fatal(err)
	}
	// Undone plies stay undone.
	play(t, s, ids["new"], "b:g1f3")
	if err := s.Update(ctx, ids["new"], func(g *rules.Game) error { return g.Undo() }); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for name, id := range ids {
		want[name] = viewState(t, s, id)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	again := openSQLite(t, path, Options{})
	for name, id := range ids {
		if got := viewState(t, again, id); got != want[name] {
			t.Errorf("%s: reopened as\n%s\nwant\n%s", name, got, want[name])
		}
	}
	var version int
	if err := again.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("schema version %d (%v), want %d", version, err, SchemaVersion)
	}
}

func TestSQLiteRefusals(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, ":memory:", Options{})
	if err := s.View(ctx, "nope", func(*rules.Game) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
	if err := s.Update(ctx, "nope", func(*rules.Game) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}
	id, err := s.Create(ctx, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	before := viewState(t, s, id)
	refused := errors.New("refused")
	if err := s.Update(ctx, id, func(g *rules.Game) error { return refused }); err != refused {
		t.Errorf("fn's error: got %v", err)
	}
	if err := s.Update(ctx, id, func(g *rules.Game) error { return g.PlayText("m:e2e4") }); err == nil {
		t.Error("an illegal action was accepted")
	}
	if got := viewState(t, s, id); got != before {
		t.Errorf("a refusal changed the game:\n%s", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Update(cancelled, id, func(g *rules.Game) error { return g.PlayText("b:e2e4") }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestSQLiteNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{})
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenSQLite(context.Background(), path, Options{}); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Errorf("opening a newer schema: %v", err)
	}
}

// refuseD2D4 makes the database refuse, as "disk full", every save of a
// game in which d2d4 was played.
func refuseD2D4(t *testing.T, s *SQLite) {
	t.Helper()
	if _, err := s.db.Exec(`CREATE TRIGGER full BEFORE UPDATE ON games WHEN new.actions LIKE '%d2d4%'
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
}

// TestSQLiteFailedWrite makes the database refuse a write: the change is
// not kept, in memory or on disk.
func TestSQLiteFailedWrite(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, ":memory:", Options{})
	id, err := s.Create(ctx, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, id, "b:e2e4")
	before := viewState(t, s, id)
	refuseD2D4(t, s)
	err = s.Update(ctx, id, func(g *rules.Game) error { return g.PlayText("m:d2d4") })
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("failed write: %v", err)
	}
	if got := viewState(t, s, id); got != before {
		t.Errorf("an unsaved ply was kept:\n%s", got)
	}
	play(t, s, id, "m:g1f3")
}

// TestSQLiteCacheBound keeps two games in memory while playing ten, so
// most requests read their game back from the database.
func TestSQLiteCacheBound(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{CacheSize: 2})
	var ids []string
	for range 10 {
		id, err := s.Create(ctx, rules.New(rules.BanChess{}))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5"} {
		for _, id := range ids {
			play(t, s, id, a)
		}
	}
	stored, cached, err := s.Stats(ctx)
	if err != nil || stored != 10 || cached != 2 {
		t.Errorf("stats: %d stored, %d cached (%v); want 10 and 2", stored, cached, err)
	}
	want := state(mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5"))
	for _, id := range ids {
		if got := viewState(t, s, id); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", id, got, want)
		}
	}
}

func mustReplay(t *testing.T, actions ...string) *rules.Game {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, "", actions)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSQLiteConcurrent plays random games on a few games from many
// goroutines through a cache smaller than the games, so loads, evictions
// and writes race; each game's plies must come out in one consistent order.
func TestSQLiteConcurrent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{CacheSize: 2})
	ids := make([]string, 5)
	for i := range ids {
		var err error
		if ids[i], err = s.Create(ctx, rules.New(rules.BanChess{})); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range 40 {
				id := ids[rng.IntN(len(ids))]
				err := s.Update(ctx, id, func(g *rules.Game) error {
					if g.Outcome().Over() {
						return g.Undo()
					}
					legal := g.Legal()
					return g.Play(legal[rng.IntN(len(legal))])
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	plies := 0
	want := map[string]string{}
	for _, id := range ids {
		if err := s.View(ctx, id, func(g *rules.Game) error {
			plies += g.Ply() - 1
			want[id] = state(g)
			back, err := rules.Restore(g.Snapshot())
			if err != nil {
				return err
			}
			if state(back) != want[id] {
				t.Errorf("%s does not replay to itself", id)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if plies == 0 {
		t.Fatal("no plies played")
	}
	s.Close()
	again := openSQLite(t, path, Options{})
	for _, id := range ids {
		if got := viewState(t, again, id); got != want[id] {
			t.Errorf("%s reopened as\n%s\nwant\n%s", id, got, want[id])
		}
	}
}

// TestSQLiteSweep expires games idle longer than the TTL, whether they are
// cached, evicted or never loaded, and keeps those in use.
func TestSQLiteSweep(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	s := openSQLite(t, ":memory:", Options{CacheSize: 2, TTL: time.Hour, Now: clk.Now})
	create := func() string {
		id, err := s.Create(ctx, rules.New(rules.BanChess{}))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	idle, viewed, evicted, played := create(), create(), create(), create()
	clk.advance(40 * time.Minute)
	viewState(t, s, viewed)  // used, not written
	viewState(t, s, evicted) // used, then evicted by the two below
	play(t, s, played, "b:e2e4")
	viewState(t, s, played)
	viewState(t, s, viewed)
	clk.advance(40 * time.Minute)
	n, err := s.Sweep(ctx)
	if err != nil || n != 1 {
		t.Fatalf("sweep removed %d (%v), want 1", n, err)
	}
	if err := s.View(ctx, idle, func(*rules.Game) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("the idle game: %v, want ErrNotFound", err)
	}
	for _, id := range []string{viewed, evicted, played} {
		viewState(t, s, id)
	}
	// Untouched for two hours, all go.
	clk.advance(2 * time.Hour)
	if n, err := s.Sweep(ctx); err != nil || n != 3 {
		t.Fatalf("second sweep removed %d (%v), want 3", n, err)
	}
	if stored, cached, _ := s.Stats(ctx); stored != 0 || cached != 0 {
		t.Errorf("after sweeping all: %d stored, %d cached", stored, cached)
	}
	// A game swept while in use is written back whole by its next ply.
	id := create()
	play(t, s, id, "b:e2e4")
	clk.advance(2 * time.Hour)
	err = s.Update(ctx, id, func(g *rules.Game) error {
		if _, err := s.db.ExecContext(ctx, "DELETE FROM games"); err != nil {
			return err
		}
		return g.PlayText("m:d2d4")
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored, _, _ := s.Stats(ctx); stored != 1 {
		t.Errorf("the game in use was not written back: %d stored", stored)
	}
}

// TestSQLiteBatchedSaves saves from many goroutines at once, so saves share
// transactions, while the database refuses some of them: exactly those
// fail, and every other is kept.
func TestSQLiteBatchedSaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{})
	refuseD2D4(t, s)
	const n = 64
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id, err := s.Create(ctx, rules.New(rules.BanChess{}))
			if err != nil {
				errs[i] = err
				return
			}
			ids[i] = id
			move := "m:d2d4" // refused by the trigger
			if i%2 == 0 {
				move = "m:g1f3"
			}
			for _, a := range []string{"b:e2e4", move} {
				if errs[i] = s.Update(ctx, id, func(g *rules.Game) error { return g.PlayText(a) }); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	s.Close()
	again := openSQLite(t, path, Options{})
	for i, id := range ids {
		want := []string{"b:e2e4", "m:g1f3"}
		if i%2 == 1 {
			if errs[i] == nil || !strings.Contains(errs[i].Error(), "disk full") {
				t.Errorf("save %d: %v, want it refused", i, errs[i])
			}
			want = want[:1]
		} else if errs[i] != nil {
			t.Errorf("save %d: %v", i, errs[i])
		}
		if got := viewState(t, again, id); got != state(mustReplay(t, want...)) {
			t.Errorf("game %d reopened as\n%s", i, got)
		}
	}
}

// TestSQLiteClosed refuses changes once the store is closed, without
// panicking.
func TestSQLiteClosed(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, ":memory:", Options{})
	id, err := s.Create(ctx, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Update(ctx, id, func(g *rules.Game) error { return g.PlayText("b:e2e4") }); err == nil {
		t.Error("a ply was accepted by a closed store")
	}
	if _, err := s.Create(ctx, rules.New(rules.BanChess{})); err == nil {
		t.Error("a game was created in a closed store")
	}
}
