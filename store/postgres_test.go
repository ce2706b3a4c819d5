package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store/pgtest"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it.
var pg pgtest.Lazy

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// openPostgres opens a store on a fresh schema of the test server, closed
// when the test ends; url, if given, is a schema to share instead.
func openPostgres(t testing.TB, opts PostgresOptions, url ...string) *Postgres {
	t.Helper()
	u := ""
	if len(url) > 0 {
		u = url[0]
	} else {
		u = pg.Server(t).Schema(t)
	}
	p, err := OpenPostgres(context.Background(), u, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestPostgresSchema: a fresh database gets this binary's schema version,
// a second store on it migrates nothing, and a newer one is refused.
func TestPostgresSchema(t *testing.T) {
	url := pg.Server(t).Schema(t)
	p := openPostgres(t, PostgresOptions{MaxConns: 3}, url)
	if got := p.pool.Config().MaxConns; got != 3 {
		t.Errorf("the pool has %d connections at most, want 3", got)
	}
	id := newGame(t, p)
	openPostgres(t, PostgresOptions{}, url) // nothing to migrate
	viewState(t, p, id)
	ctx := context.Background()
	var version int
	if err := p.pool.QueryRow(ctx, "SELECT version FROM schema_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Fatalf("schema version %d, %v; want %d", version, err, SchemaVersion)
	}
	if _, err := p.pool.Exec(ctx, "UPDATE schema_version SET version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err := OpenPostgres(ctx, url, PostgresOptions{})
	if err == nil || !strings.Contains(err.Error(), "newer than this binary's") {
		t.Errorf("opening a newer schema: %v", err)
	}
	if _, err := OpenPostgres(ctx, "postgres://u:secret@127.0.0.1:1/x?pool_max_conns=nope", PostgresOptions{}); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("a malformed URL: %v (must not show its password)", err)
	}
}

// TestPostgresTwoStores: two stores on one database (two instances) see
// each other's plies, and a save from a copy of the game the other has
// since changed writes nothing and is refused as a Conflict.
func TestPostgresTwoStores(t *testing.T) {
	url := pg.Server(t).Schema(t)
	a, b := openPostgres(t, PostgresOptions{}, url), openPostgres(t, PostgresOptions{}, url)
	id := newGame(t, a)
	play(t, a, id, "b:e2e4")
	play(t, b, id, "m:d2d4")
	play(t, a, id, "b:e7e5") // a revalidates: its copy was one ply behind
	want := state(mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5"))
	for name, s := range map[string]*Postgres{"a": a, "b": b} {
		if got := viewState(t, s, id); got != want {
			t.Errorf("%s sees\n%s\nwant\n%s", name, got, want)
		}
	}
	// b plays while a holds the game, a copy b's ply makes stale.
	err := a.Update(context.Background(), id, func(r *games.Record) error {
		play(t, b, id, "m:d7d6")
		return r.Game.PlayText("m:d7d5")
	})
	if e := errs.Of(err); e.Code != errs.Conflict || !strings.Contains(e.Msg, "changed elsewhere") {
		t.Fatalf("the stale save: %v, want a conflict", err)
	}
	want = state(mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d6"))
	for name, s := range map[string]*Postgres{"a": a, "b": b} {
		if got := viewState(t, s, id); got != want {
			t.Errorf("after the conflict %s sees\n%s\nwant\n%s", name, got, want)
		}
	}
	// A game removed by the other instance is gone here too.
	if _, err := b.pool.Exec(context.Background(), "DELETE FROM games"); err != nil {
		t.Fatal(err)
	}
	if err := a.View(context.Background(), id, func(*games.Record) error { return nil }); !isNotFound(err) {
		t.Errorf("a removed game: %v", err)
	}
}

// TestPostgresRacers: goroutines on two stores race to play each ply of
// a game; exactly one wins each, the losers get a Conflict (or see the
// game moved on), and the game is the winners' plies.
func TestPostgresRacers(t *testing.T) {
	url := pg.Server(t).Schema(t)
	stores := []*Postgres{openPostgres(t, PostgresOptions{}, url), openPostgres(t, PostgresOptions{}, url)}
	id := newGame(t, stores[0])
	line := mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:b1c3").Record().History()
	errMoved := errors.New("the game moved on")
	for ply, h := range line {
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, conflicts := 0, 0
		for i := range 10 {
			wg.Go(func() {
				err := stores[i%2].Update(context.Background(), id, func(r *games.Record) error {
					if r.Game.Ply() != ply+1 {
						return errMoved
					}
					return r.Game.Play(h.Action)
				})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
				case errs.Of(err).Code == errs.Conflict:
					conflicts++
				case !errors.Is(err, errMoved):
					t.Errorf("ply %d: %v", ply+1, err)
				}
			})
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("ply %d: %d won (%d conflicts), want exactly one", ply+1, wins, conflicts)
		}
	}
	want := state(mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:b1c3"))
	for i, s := range stores {
		if got := viewState(t, s, id); got != want {
			t.Errorf("store %d sees\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestPostgresListen: a listener hears every save, made by its own store or
// another on the database, with the row's revision; after its connection
// is cut it says so (id "") and goes on hearing; it ends with its context.
func TestPostgresListen(t *testing.T) {
	url := pg.Server(t).Schema(t)
	// Its subject is the listening, not a busy pool: opening may wait for a
	// connection as long as a loaded machine needs (CI's race run, beside
	// the browser tests, took over the default second once).
	opts := PostgresOptions{ConnWait: 10 * time.Second}
	a, b := openPostgres(t, opts, url), openPostgres(t, opts, url)
	type note struct {
		id  string
		rev int64
	}
	notes := make(chan note, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Listen(ctx, func(id string, rev int64) { notes <- note{id, rev} }, nil) }()
	expect := func(want note) {
		t.Helper()
		select {
		case got := <-notes:
			if got != want {
				t.Errorf("heard %+v, want %+v", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("heard nothing, want %+v", want)
		}
	}
	// The listener is listening once a save of its own is heard.
	var id string
	deadline := time.Now().Add(10 * time.Second)
	for id == "" && time.Now().Before(deadline) {
		first := newGame(t, a)
		select {
		case n := <-notes:
			if n.id == first {
				id = first
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
	if id == "" {
		t.Fatal("the listener never heard a save")
	}
	play(t, b, id, "b:e2e4")
	expect(note{id, 2})
	play(t, a, id, "m:d2d4")
	expect(note{id, 3})
	if rev := viewRecord(t, b, id).Revision; rev != 3 {
		t.Errorf("the record's revision is %d, the notification's 3", rev)
	}
	other := newGame(t, b)
	expect(note{other, 1})
	// A refused or empty update notifies nothing.
	update(t, b, id, func(*games.Record) error { return nil })

	// Cut the listener's connection.
	if _, err := b.pool.Exec(context.Background(),
		`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN `+NotifyChannel+`'`); err != nil {
		t.Fatal(err)
	}
	expect(note{"", 0})
	play(t, b, id, "b:e7e5")
	expect(note{id, 4})

	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Listen returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Listen did not return after its context ended")
	}
	select {
	case n := <-notes:
		t.Errorf("heard %+v more", n)
	default:
	}
}

// TestPostgresSweep removes games untouched for longer than the TTL, and
// keeps those in use.
func TestPostgresSweep(t *testing.T) {
	clk := &clock{now: epoch}
	p := openPostgres(t, PostgresOptions{TTL: time.Hour, Now: clk.Now})
	old, used := newGame(t, p), newGame(t, p)
	clk.advance(50 * time.Minute)
	viewState(t, p, used)
	clk.advance(20 * time.Minute)
	n, err := p.Sweep(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("swept %d, %v; want 1", n, err)
	}
	if err := p.View(context.Background(), old, func(*games.Record) error { return nil }); !isNotFound(err) {
		t.Errorf("the old game: %v", err)
	}
	viewState(t, p, used)
	stored, _, err := p.Stats(context.Background())
	if err != nil || stored != 1 {
		t.Errorf("stats: %d stored, %v", stored, err)
	}
	if err := p.Ping(context.Background()); err != nil {
		t.Errorf("ping: %v", err)
	}
}

// TestPostgresOddInput: ids and holders PostgreSQL cannot take as text
// are unknown, not errors.
func TestPostgresOddInput(t *testing.T) {
	p := openPostgres(t, PostgresOptions{})
	for _, s := range []string{"\xff\xfe", "a\x00b"} {
		if err := p.View(context.Background(), s, func(*games.Record) error { return nil }); !isNotFound(err) {
			t.Errorf("View(%q): %v", s, err)
		}
		if err := p.Update(context.Background(), s, func(*games.Record) error { return nil }); !isNotFound(err) {
			t.Errorf("Update(%q): %v", s, err)
		}
		if l, err := p.List(context.Background(), s, 10); err != nil || len(l) != 0 {
			t.Errorf("List(%q): %v, %v", s, l, err)
		}
		if pl, err := p.CredentialPlayer(context.Background(), s); err != nil || pl != "" {
			t.Errorf("CredentialPlayer(%q): %v, %v", s, pl, err)
		}
		if _, err := p.PlayerNamed(context.Background(), s); errs.Of(err).Code != errs.NotFound {
			t.Errorf("PlayerNamed(%q): %v", s, err)
		}
	}
}

// refuseD2D4Postgres makes the database refuse, as "disk full", every
// save of a game in which d2d4 was played.
func refuseD2D4Postgres(t *testing.T, p *Postgres) {
	t.Helper()
	if _, err := p.pool.Exec(context.Background(), `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
		CREATE TRIGGER refuse BEFORE UPDATE ON games FOR EACH ROW WHEN (new.actions LIKE '%d2d4%') EXECUTE FUNCTION refuse()`); err != nil {
		t.Fatal(err)
	}
}

// TestPostgresBatchedSaves: many games saved at once, batched, all
// committed; closing waits for the saves queued.
func TestPostgresBatchedSaves(t *testing.T) {
	url := pg.Server(t).Schema(t)
	p := openPostgres(t, PostgresOptions{}, url)
	ids := make([]string, 50)
	for i := range ids {
		ids[i] = newGame(t, p)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { play(t, p, id, "b:e2e4", "m:d2d4") })
	}
	wg.Wait()
	p.Close()
	if err := p.Update(context.Background(), ids[0], func(r *games.Record) error { return r.Game.PlayText("b:e7e5") }); err == nil {
		t.Errorf("a save after Close: %v", err)
	}
	again := openPostgres(t, PostgresOptions{}, url)
	want := state(mustReplay(t, "b:e2e4", "m:d2d4"))
	for _, id := range ids {
		if got := viewState(t, again, id); got != want {
			t.Fatalf("game %s:\n%s\nwant\n%s", id, got, want)
		}
	}
}

// TestPostgresDownIsUnavailable stops the server under a store: every
// read and write fails as the database not answering (errs.ErrUnavailable,
// a 503 the client may retry), not as the server's failure.
func TestPostgresDownIsUnavailable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server of its own")
	}
	pg.Server(t) // skips where there is no PostgreSQL
	srv, err := pgtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := OpenPostgres(context.Background(), srv.URL(), PostgresOptions{})
	if err != nil {
		srv.Stop()
		t.Fatal(err)
	}
	defer p.Close()
	const holder = "ann"
	id := create(t, p, rules.New(rules.BanChess{}), holder)
	srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for name, err := range map[string]error{
		"view":       p.View(ctx, id, func(*games.Record) error { return nil }),
		"update":     p.Update(ctx, id, func(rec *games.Record) error { rec.Revision++; return nil }),
		"create":     p.Create(ctx, &games.Record{Game: rules.New(rules.BanChess{}), Mode: games.HotSeat, Revision: 1}),
		"list":       func() error { _, err := p.List(ctx, holder, 10); return err }(),
		"credential": func() error { _, err := p.CredentialPlayer(ctx, "abc"); return err }(),
	} {
		if e := errs.Of(err); !errors.Is(err, errs.ErrUnavailable) || e.Code != errs.Unavailable || e.RetryAfter <= 0 {
			t.Errorf("%s with the server down: %v, want the store unavailable", name, err)
		}
	}
}
