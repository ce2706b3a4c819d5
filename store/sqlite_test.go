package store

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
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

// epoch is when the tests' games are made: a whole second, so that the
// databases' precision (seconds for Created, milliseconds for Updated)
// keeps it exactly.
var epoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// record returns a new record of g, both seats held by holder.
func record(g *rules.Game, holder string) *games.Record {
	return &games.Record{Game: g, White: holder, Black: holder, Mode: games.HotSeat, Created: epoch, Updated: epoch}
}

// create stores a record of g held by holder and returns its id.
func create(t *testing.T, s fullStore, g *rules.Game, holder string) string {
	t.Helper()
	rec := record(g, holder)
	if err := s.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if rec.ID == "" {
		t.Fatal("Create set no id")
	}
	return rec.ID
}

func newGame(t *testing.T, s fullStore) string {
	t.Helper()
	return create(t, s, rules.New(rules.BanChess{}), "")
}

func isNotFound(err error) bool { return err != nil && errs.Of(err).Code == errs.NotFound }

// state is what two copies of a game must share.
func state(g *rules.Game) string {
	return g.FEN() + "\n" + g.Outcome().String() + "\n" + g.Record().PGN()
}

func viewRecord(t *testing.T, s fullStore, id string) games.Record {
	t.Helper()
	var rec games.Record
	if err := s.View(context.Background(), id, func(r *games.Record) error { rec = *r; return nil }); err != nil {
		t.Fatalf("view %s: %v", id, err)
	}
	return rec
}

func viewState(t *testing.T, s fullStore, id string) string {
	t.Helper()
	return state(viewRecord(t, s, id).Game)
}

func play(t *testing.T, s fullStore, id string, actions ...string) {
	t.Helper()
	for _, a := range actions {
		if err := s.Update(context.Background(), id, func(r *games.Record) error { return r.Game.PlayText(a) }); err != nil {
			t.Fatalf("play %s: %v", a, err)
		}
	}
}

// update runs fn on the game of record id.
func update(t *testing.T, s fullStore, id string, fn func(*games.Record) error) {
	t.Helper()
	if err := s.Update(context.Background(), id, fn); err != nil {
		t.Fatalf("update %s: %v", id, err)
	}
}

// TestSQLiteReopen stores games of every kind, closes the store and finds
// them whole in a new one on the same file.
func TestSQLiteReopen(t *testing.T) {
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
	annotated, err := rules.FromPGN("[Site \"Paris\"]\n\n{Before.} 1. e4 {Best.} e5 2. Nf3 {Developing.} *", rules.PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	gs := map[string]*rules.Game{
		"annotated": annotated,
		"new":       rules.New(rules.BanChess{}),
		"classic":   rules.New(rules.Classic{}),
		"from PGN":  fromPGN,
		"custom":    custom,
	}
	ids := map[string]string{}
	for name, g := range gs {
		ids[name] = create(t, s, g, "")
	}
	play(t, s, ids["new"], "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5")
	play(t, s, ids["classic"], "m:e2e4", "m:e7e5")
	play(t, s, ids["custom"], "m:e1d2", "b:e8d7", "m:e8f7", "b:a7a8", "m:d2e3")
	update(t, s, ids["classic"], func(r *games.Record) error { return r.Game.Resign(rules.Black) })
	update(t, s, ids["from PGN"], func(r *games.Record) error { return r.Game.AgreeDraw() })
	// Undone plies stay undone.
	play(t, s, ids["new"], "b:g1f3")
	update(t, s, ids["new"], func(r *games.Record) error { return r.Game.Undo() })
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

// TestSQLiteReopenSeats keeps what a record holds besides its game: the
// seats, whether each holder hid it, its mode and its times, including a
// change to the seats alone.
func TestSQLiteReopenSeats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{})
	recs := []*games.Record{
		{Game: rules.New(rules.BanChess{}), White: "ann", Black: "bob", Mode: games.HotSeat,
			Created: epoch, Updated: epoch.Add(1500 * time.Millisecond)},
		{Game: rules.New(rules.Classic{}), White: "ann", Black: "ann", WhiteHidden: true, Mode: games.HotSeat,
			Created: epoch.Add(time.Hour), Updated: epoch.Add(time.Hour + 7*time.Millisecond)},
		{Game: rules.New(rules.BanChess{}), Mode: games.Mode("other"), Created: epoch, Updated: epoch},
	}
	for _, rec := range recs {
		if err := s.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	// Changes to the seats alone, with no ply, are saved too.
	update(t, s, recs[0].ID, func(r *games.Record) error { r.BlackHidden = true; return nil })
	update(t, s, recs[2].ID, func(r *games.Record) error { r.White, r.Black = "cat", "cat"; return nil })
	// And so is a ply with its update time.
	update(t, s, recs[1].ID, func(r *games.Record) error {
		r.Updated = r.Updated.Add(time.Minute)
		return r.Game.PlayText("m:e2e4")
	})
	want := make([]games.Record, len(recs))
	for i, rec := range recs {
		want[i] = viewRecord(t, s, rec.ID)
	}
	s.Close()

	again := openSQLite(t, path, Options{})
	for i, rec := range recs {
		got := viewRecord(t, again, rec.ID)
		w := want[i]
		if got.ID != w.ID || got.White != w.White || got.Black != w.Black || got.WhiteHidden != w.WhiteHidden ||
			got.BlackHidden != w.BlackHidden || got.Mode != w.Mode || !got.Created.Equal(w.Created) || !got.Updated.Equal(w.Updated) {
			t.Errorf("record %d reopened as\n%+v\nwant\n%+v", i, got, w)
		}
		if state(got.Game) != state(w.Game) {
			t.Errorf("record %d's game reopened as\n%s\nwant\n%s", i, state(got.Game), state(w.Game))
		}
	}
	if w := want[0]; !w.BlackHidden || w.White != "ann" {
		t.Errorf("hiding was not kept: %+v", w)
	}
	if w := want[2]; w.White != "cat" || w.Black != "cat" {
		t.Errorf("claiming was not kept: %+v", w)
	}
}

// TestSQLiteListFromDisk lists games after a reopen, so every summary comes
// from the database's columns, not from a game in memory: they must say
// what the game's latest ply made of it.
func TestSQLiteListFromDisk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := openSQLite(t, path, Options{})
	const ann, bob = "ann", "bob"
	var ids []string
	for i := range 5 {
		rec := record(rules.New(rules.BanChess{}), ann)
		rec.Black = bob
		rec.Created = epoch.Add(time.Duration(i) * time.Second)
		rec.Updated = rec.Created
		if err := s.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	at := func(d time.Duration) func(*games.Record) { return func(r *games.Record) { r.Updated = epoch.Add(d) } }
	step := func(id string, stamp func(*games.Record), fn func(*rules.Game) error) {
		t.Helper()
		update(t, s, id, func(r *games.Record) error {
			if err := fn(r.Game); err != nil {
				return err
			}
			stamp(r)
			return nil
		})
	}
	// ids[0] is played last, ids[1] resigned, ids[2] hidden by ann, ids[3]
	// moved on then taken back; ids[4] untouched.
	step(ids[3], at(time.Minute), func(g *rules.Game) error { return g.PlayText("b:e2e4") })
	step(ids[3], at(time.Minute+time.Millisecond), func(g *rules.Game) error { return g.PlayText("m:d2d4") })
	step(ids[3], at(2*time.Minute), func(g *rules.Game) error { return g.Undo() })
	step(ids[1], at(3*time.Minute), func(g *rules.Game) error { return g.Resign(rules.White) })
	step(ids[2], at(4*time.Minute), func(g *rules.Game) error { return g.PlayText("b:g1f3") })
	update(t, s, ids[2], func(r *games.Record) error { r.WhiteHidden = true; return nil })
	step(ids[0], at(5*time.Minute+333*time.Millisecond), func(g *rules.Game) error {
		for _, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5"} {
			if err := g.PlayText(a); err != nil {
				return err
			}
		}
		return nil
	})
	want := map[string]games.Summary{}
	for _, id := range ids {
		rec := viewRecord(t, s, id)
		want[id] = rec.Summary()
	}
	s.Close()

	again := openSQLite(t, path, Options{})
	check := func(holder string, limit int, order ...int) {
		t.Helper()
		got, err := again.List(ctx, holder, limit)
		if err != nil {
			t.Fatal(err)
		}
		if _, cached, _ := again.Stats(ctx); cached != 0 {
			t.Fatalf("listing loaded %d games", cached)
		}
		if len(got) != len(order) {
			t.Fatalf("List(%s, %d): %d games, want %d: %+v", holder, limit, len(got), len(order), got)
		}
		for i, n := range order {
			if !sameSummary(got[i], want[ids[n]]) {
				t.Errorf("List(%s, %d)[%d] =\n%+v\nwant game %d\n%+v", holder, limit, i, got[i], n, want[ids[n]])
			}
		}
	}
	check(ann, 10, 0, 1, 3, 4)
	check(bob, 10, 0, 2, 1, 3, 4)
	check(bob, 2, 0, 2)
	check("cat", 10)

	// The summaries say what each game is now.
	if s := want[ids[0]]; s.Ply != 4 || s.Actor != "black" || s.Phase != "move" || s.Result != "*" {
		t.Errorf("game 0: %+v", s)
	}
	if s := want[ids[1]]; s.Phase != "over" || s.Actor != "" || s.Result != "0-1" {
		t.Errorf("the resigned game: %+v", s)
	}
	if s, fresh := want[ids[3]], rules.New(rules.BanChess{}); s.Ply != 2 || s.FEN == fresh.FEN() || s.Phase != "move" {
		t.Errorf("the game taken back to ply 2: %+v", s)
	}
}

// sameSummary compares summaries, times by the instant.
func sameSummary(a, b games.Summary) bool {
	times := a.Created.Equal(b.Created) && a.Updated.Equal(b.Updated)
	a.Created, a.Updated, b.Created, b.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return times && a == b
}

// TestSQLiteMigrateV1 opens a database of schema version 1, made by hand:
// its game has no holders, can be played, and is claimed by the first
// browser that asks, after which it is listed as that browser's.
func TestSQLiteMigrateV1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	created, touched := epoch.Add(-48*time.Hour), epoch.Add(-time.Hour)
	start := rules.New(rules.BanChess{}).StartFEN()
	for _, q := range []string{oldSQLiteMigrations[0], "PRAGMA user_version = 1"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO games (id, variant, start_fen, actions, declared, tags, from_chess, created_at, touched_at)
		VALUES ('old', 'ban', ?, 'b:e2e4 m:d2d4 b:e7e5', '', '[]', 0, ?, ?)`, start, created.Unix(), touched.Unix()); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := openSQLite(t, path, Options{})
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("schema version %d (%v), want %d", version, err, SchemaVersion)
	}
	rec := viewRecord(t, s, "old")
	if rec.White != "" || rec.Black != "" || rec.WhiteHidden || rec.BlackHidden || rec.Mode != games.HotSeat {
		t.Errorf("the old game has seats: %+v", rec)
	}
	if !rec.Created.Equal(created) || !rec.Updated.Equal(touched) {
		t.Errorf("the old game was created %v, updated %v; want %v and %v", rec.Created, rec.Updated, created, touched)
	}
	if want := state(mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5")); state(rec.Game) != want {
		t.Errorf("the old game reads as\n%s\nwant\n%s", state(rec.Game), want)
	}
	play(t, s, "old", "m:d7d5")

	svc := newServices(s)
	cred, me, err := svc.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	stranger, _, err := svc.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := s.List(ctx, me.ID, 10); err != nil || len(list) != 0 {
		t.Errorf("listed before the claim: %+v, %v", list, err)
	}
	if held, err := svc.Claim(ctx, "old", cred); err != nil || !held {
		t.Fatalf("claim: %v, %v", held, err)
	}
	if held, err := svc.Claim(ctx, "old", stranger); err != nil || held {
		t.Errorf("a second claim: %v, %v", held, err)
	}
	if err := svc.Play(ctx, "old", cred, games.Input{Text: "Nf3", Ply: 5}, nil); err != nil {
		t.Errorf("playing the claimed game: %v", err)
	}
	if err := svc.Play(ctx, "old", stranger, games.Input{Text: "e5"}, nil); errs.Of(err).Code != errs.Forbidden {
		t.Errorf("a stranger playing the claimed game: %v", err)
	}
	s.Close()

	again := openSQLite(t, path, Options{})
	list, err := again.List(ctx, me.ID, 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("listed after the claim: %+v, %v", list, err)
	}
	want := mustReplay(t, "b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3")
	if got := list[0]; got.ID != "old" || got.Ply != 6 || got.FEN != want.FEN() || got.Actor != "white" || got.Phase != "move" ||
		got.Result != "*" || got.Variant != "ban" || !got.Created.Equal(created) {
		t.Errorf("the claimed game is listed as %+v", got)
	}
	if rec := viewRecord(t, again, "old"); rec.White != me.ID || rec.Black != me.ID {
		t.Errorf("the claim was not kept: %+v", rec)
	}
}

func TestSQLiteRefusals(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, ":memory:", Options{})
	if err := s.View(ctx, "nope", func(*games.Record) error { return nil }); !isNotFound(err) {
		t.Errorf("unknown id: %v, want NotFound", err)
	}
	if err := s.Update(ctx, "nope", func(*games.Record) error { return nil }); !isNotFound(err) {
		t.Errorf("unknown id: %v, want NotFound", err)
	}
	id := newGame(t, s)
	before := viewState(t, s, id)
	refused := errors.New("refused")
	if err := s.Update(ctx, id, func(*games.Record) error { return refused }); err != refused {
		t.Errorf("fn's error: got %v", err)
	}
	if err := s.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("m:e2e4") }); err == nil {
		t.Error("an illegal action was accepted")
	}
	if got := viewState(t, s, id); got != before {
		t.Errorf("a refusal changed the game:\n%s", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Update(cancelled, id, func(r *games.Record) error { return r.Game.PlayText("b:e2e4") }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := s.Create(cancelled, record(rules.New(rules.BanChess{}), "")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled create: %v", err)
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

// TestFailedWrite makes the database refuse a write: the change is not
// kept, in memory or in the row; Ping says saves fail until one works.
func TestFailedWrite(t *testing.T) {
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			var s interface {
				fullStore
				Ping(context.Context) error
			}
			var refuse func()
			if name == "sqlite" {
				st := openSQLite(t, ":memory:", Options{})
				s, refuse = st, func() { refuseD2D4(t, st) }
			} else {
				st := openPostgres(t, PostgresOptions{})
				s, refuse = st, func() { refuseD2D4Postgres(t, st) }
			}
			ctx := context.Background()
			id := create(t, s, rules.New(rules.BanChess{}), "ann")
			play(t, s, id, "b:e2e4")
			before := viewState(t, s, id)
			refuse()
			err := s.Update(ctx, id, func(r *games.Record) error {
				r.WhiteHidden = true
				return r.Game.PlayText("m:d2d4")
			})
			if err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Fatalf("failed write: %v", err)
			}
			if e := errs.Of(err); e.Code != errs.Internal || strings.Contains(e.Msg, "disk full") {
				t.Errorf("the failure as a refusal: %+v", e)
			}
			var failing interface{ WritesFailing() bool }
			if err := s.Ping(ctx); !errors.As(err, &failing) {
				t.Errorf("ping while saves fail: %v", err)
			}
			if got := viewState(t, s, id); got != before {
				t.Errorf("an unsaved ply was kept:\n%s", got)
			}
			if rec := viewRecord(t, s, id); rec.WhiteHidden {
				t.Error("an unsaved change to the seats was kept")
			}
			play(t, s, id, "m:g1f3")
			if err := s.Ping(ctx); err != nil {
				t.Errorf("ping once a save worked: %v", err)
			}
		})
	}
}

// TestSQLiteCacheBound keeps two games in memory while playing ten, so
// most requests read their game back from the database.
func TestSQLiteCacheBound(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{CacheSize: 2})
	var ids []string
	for range 10 {
		ids = append(ids, newGame(t, s))
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
		ids[i] = create(t, s, rules.New(rules.BanChess{}), "ann")
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range 40 {
				id := ids[rng.IntN(len(ids))]
				var err error
				switch rng.IntN(8) {
				case 0:
					_, err = s.List(ctx, "ann", 3)
				case 1:
					_, err = s.CredentialPlayer(ctx, "ann")
				default:
					err = s.Update(ctx, id, func(r *games.Record) error {
						g := r.Game
						r.Updated = r.Updated.Add(time.Millisecond)
						if g.Outcome().Over() {
							return g.Undo()
						}
						legal := g.Legal()
						return g.Play(legal[rng.IntN(len(legal))])
					})
				}
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
	summaries := map[string]games.Summary{}
	for _, id := range ids {
		if err := s.View(ctx, id, func(r *games.Record) error {
			g := r.Game
			plies += g.Ply() - 1
			want[id] = state(g)
			summaries[id] = r.Summary()
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
	list, err := again.List(ctx, "ann", len(ids))
	if err != nil || len(list) != len(ids) {
		t.Fatalf("list: %d games (%v)", len(list), err)
	}
	for _, got := range list {
		if !sameSummary(got, summaries[got.ID]) {
			t.Errorf("%s listed as\n%+v\nwant\n%+v", got.ID, got, summaries[got.ID])
		}
	}
}

// TestSQLiteSweep expires games idle longer than the TTL, whether they are
// cached, evicted or never loaded, and keeps those in use.
func TestSQLiteSweep(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: epoch}
	s := openSQLite(t, ":memory:", Options{CacheSize: 2, TTL: time.Hour, Now: clk.Now})
	create := func() string { return newGame(t, s) }
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
	if err := s.View(ctx, idle, func(*games.Record) error { return nil }); !isNotFound(err) {
		t.Errorf("the idle game: %v, want NotFound", err)
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
	err = s.Update(ctx, id, func(r *games.Record) error {
		if _, err := s.db.ExecContext(ctx, "DELETE FROM games"); err != nil {
			return err
		}
		return r.Game.PlayText("m:d2d4")
	})
	if err != nil {
		t.Fatal(err)
	}
	if stored, _, _ := s.Stats(ctx); stored != 1 {
		t.Errorf("the game in use was not written back: %d stored", stored)
	}
}

// TestSQLiteTouchedGrain: plies rewrite a row's touched_at (indexed for
// sweeps) only once it is touchGrain old, and it never falls further
// behind the game's last ply than that.
func TestSQLiteTouchedGrain(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: epoch}
	s := openSQLite(t, ":memory:", Options{Now: clk.Now})
	id := newGame(t, s)
	touched := func() int64 {
		t.Helper()
		var at int64
		if err := s.db.QueryRowContext(ctx, `SELECT touched_at FROM games WHERE id = ?`, id).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	last, writes := touched(), 0
	for _, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3", "m:c2c4", "b:b8c6", "m:g8f6", "b:b1c3"} {
		clk.advance(25 * time.Second)
		play(t, s, id, a)
		now, at := clk.Now().Unix(), touched()
		switch {
		case at != last && now-last < touchGrain:
			t.Errorf("after %s at %d s: touched_at rewritten %d s after the last time", a, now-epoch.Unix(), now-last)
		case now-at >= touchGrain:
			t.Errorf("after %s at %d s: touched_at is %d s old", a, now-epoch.Unix(), now-at)
		case at != last:
			writes++
		}
		last = at
	}
	if writes != 3 { // at 75, 150 and 225 s
		t.Errorf("touched_at rewritten %d times in 225 s, want 3", writes)
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
			rec := record(rules.New(rules.BanChess{}), "")
			if errs[i] = s.Create(ctx, rec); errs[i] != nil {
				return
			}
			ids[i] = rec.ID
			move := "m:d2d4" // refused by the trigger
			if i%2 == 0 {
				move = "m:g1f3"
			}
			for _, a := range []string{"b:e2e4", move} {
				if errs[i] = s.Update(ctx, rec.ID, func(r *games.Record) error { return r.Game.PlayText(a) }); errs[i] != nil {
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
		if id == "" {
			t.Errorf("game %d was not created", i)
			continue
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
	id := newGame(t, s)
	s.Close()
	if err := s.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("b:e2e4") }); err == nil {
		t.Error("a ply was accepted by a closed store")
	}
	if err := s.Create(ctx, record(rules.New(rules.BanChess{}), "")); err == nil {
		t.Error("a game was created in a closed store")
	}
	if _, err := s.List(ctx, "ann", 10); err == nil {
		t.Error("a closed store listed games")
	}
	if err := s.Close(); err != nil {
		t.Errorf("closing again: %v", err)
	}
}
