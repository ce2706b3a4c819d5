package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Both stores implement fullStore.
var (
	_ fullStore = (*Memory)(nil)
	_ fullStore = (*SQLite)(nil)
	_ fullStore = (*Postgres)(nil)
)

// stores are the stores every behaviour of fullStore is tested on: in
// memory, in SQLite, and in SQLite caching one game, so that most
// requests read their game back from the database.
var stores = []struct {
	name string
	open func(t *testing.T) fullStore
}{
	{"memory", func(*testing.T) fullStore { return NewMemory() }},
	{"sqlite", func(t *testing.T) fullStore { return openSQLite(t, ":memory:", Options{}) }},
	{"sqlite cache 1", func(t *testing.T) fullStore {
		return openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{CacheSize: 1})
	}},
	{"postgres", func(t *testing.T) fullStore { return openPostgres(t, PostgresOptions{}) }},
	{"postgres cache 1", func(t *testing.T) fullStore { return openPostgres(t, PostgresOptions{CacheSize: 1}) }},
}

// storeBehaviours are what a fullStore does, whichever it is.
var storeBehaviours = []struct {
	name string
	test func(t *testing.T, s fullStore)
}{
	{"unknown id is NotFound", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		newGame(t, s)
		called := false
		fn := func(*games.Record) error { called = true; return nil }
		for _, id := range []string{"nope", "", strings.Repeat("x", 1000)} {
			err := s.View(ctx, id, fn)
			if e := errs.Of(err); e.Code != errs.NotFound || strings.Contains(e.Msg, "xxxxxxxxxx") {
				t.Errorf("View(%.10q): %#v", id, err)
			}
			if err := s.Update(ctx, id, fn); !isNotFound(err) {
				t.Errorf("Update(%.10q): %v", id, err)
			}
		}
		if called {
			t.Error("fn was called for an unknown id")
		}
	}},
	{"create sets a fresh id and keeps the record", func(t *testing.T, s fullStore) {
		seen := map[string]bool{}
		for range 20 {
			id := create(t, s, rules.New(rules.BanChess{}), "ann")
			if seen[id] || len(id) < 20 {
				t.Fatalf("id %q: repeated or short", id)
			}
			seen[id] = true
		}
		rec := &games.Record{Game: rules.New(rules.Classic{}), White: "ann", Black: "bob", BlackHidden: true,
			Mode: games.HotSeat, Created: epoch, Updated: epoch.Add(time.Millisecond)}
		if err := s.Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		got := viewRecord(t, s, rec.ID)
		if got.ID != rec.ID || got.White != "ann" || got.Black != "bob" || got.WhiteHidden || !got.BlackHidden ||
			got.Mode != games.HotSeat || !got.Created.Equal(rec.Created) || !got.Updated.Equal(rec.Updated) ||
			got.Game.Variant().ID() != "classic" {
			t.Errorf("stored %+v, got %+v", rec, got)
		}
	}},
	{"the table and the revision are kept", func(t *testing.T, s fullStore) {
		rec := record(rules.New(rules.BanChess{}), "ann")
		rec.Mode, rec.Black, rec.Revision = games.Invite, "", 1
		rec.Table = games.Table{InviteCode: "secret", Offers: games.Offers{Draw: rules.White}}
		if err := s.Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		update(t, s, rec.ID, func(r *games.Record) error {
			r.Black, r.InviteCode, r.Offers.Draw = "bob", "", 0
			r.Revision++
			return r.Game.PlayText("b:e2e4")
		})
		got := viewRecord(t, s, rec.ID)
		if got.Revision != 2 || got.Black != "bob" || got.Mode != games.Invite || got.Table != (games.Table{}) {
			t.Errorf("after one change: revision %d, black %q, mode %s, table %+v", got.Revision, got.Black, got.Mode, got.Table)
		}
		update(t, s, rec.ID, func(r *games.Record) error {
			r.Offers.Takeback, r.Rematch = rules.Black, "next"
			r.Revision++
			return nil
		})
		if got := viewRecord(t, s, rec.ID); got.Revision != 3 || got.Offers.Takeback != rules.Black || got.Rematch != "next" {
			t.Errorf("after a change to the table alone: revision %d, table %+v", got.Revision, got.Table)
		}
	}},
	{"a game against the computer keeps the computer's seat", func(t *testing.T, s fullStore) {
		rec := record(rules.New(rules.BanChess{}), "ann")
		rec.Mode, rec.Black, rec.Revision = games.BotGame, "engine:5", 1
		rec.Bot = &games.Bot{Color: rules.Black, Level: 5}
		if err := s.Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		got := viewRecord(t, s, rec.ID)
		if got.Mode != games.BotGame || got.Bot == nil || *got.Bot != (games.Bot{Color: rules.Black, Level: 5}) || got.Black != "engine:5" {
			t.Errorf("stored mode %s, black %q, bot %+v", got.Mode, got.Black, got.Bot)
		}
	}},
	{"update commits and passes on fn's error", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		id := newGame(t, s)
		play(t, s, id, "b:e2e4", "m:d2d4")
		refused := errors.New("refused")
		if err := s.Update(ctx, id, func(*games.Record) error { return refused }); !errors.Is(err, refused) {
			t.Errorf("fn's error came back as %v", err)
		}
		if got, want := viewState(t, s, id), state(mustReplay(t, "b:e2e4", "m:d2d4")); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := s.Update(cancelled, id, func(*games.Record) error { t.Error("fn ran"); return nil }); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled update: %v", err)
		}
		if err := s.View(cancelled, id, func(*games.Record) error { t.Error("fn ran"); return nil }); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled view: %v", err)
		}
	}},
	{"list: newest updated first, not hidden, up to limit", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		const ann = "ann"
		ids := make([]string, 4)
		for i := range ids {
			rec := record(rules.New(rules.BanChess{}), ann)
			rec.Updated = epoch.Add(time.Duration(i) * time.Millisecond)
			if err := s.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			ids[i] = rec.ID
		}
		newGame(t, s)                                      // nobody's
		create(t, s, rules.New(rules.BanChess{}), "bob")   // another's
		update(t, s, ids[0], func(r *games.Record) error { // played: now the newest
			r.Updated = epoch.Add(time.Second)
			return r.Game.PlayText("b:e2e4")
		})
		update(t, s, ids[2], func(r *games.Record) error { r.WhiteHidden, r.BlackHidden = true, true; return nil })
		listIs(t, s, ann, 10, ids[0], ids[3], ids[1])
		listIs(t, s, ann, 2, ids[0], ids[3])
		listIs(t, s, ann, 1, ids[0])
		listIs(t, s, ann, 0)
		listIs(t, s, ann, -1)
		listIs(t, s, "cat", 10)
	}},
	{"list: each seat's own list", func(t *testing.T, s fullStore) {
		rec := record(rules.New(rules.BanChess{}), "ann")
		rec.Black = "bob"
		if err := s.Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		listIs(t, s, "ann", 10, rec.ID)
		listIs(t, s, "bob", 10, rec.ID)
		update(t, s, rec.ID, func(r *games.Record) error { r.WhiteHidden = true; return nil })
		listIs(t, s, "ann", 10)
		listIs(t, s, "bob", 10, rec.ID)
		// A hot-seat holder who hides one seat still has the game by the
		// other; hiding hides both.
		hot := create(t, s, rules.New(rules.BanChess{}), "cat")
		update(t, s, hot, func(r *games.Record) error { r.BlackHidden = true; return nil })
		listIs(t, s, "cat", 10, hot)
		update(t, s, hot, func(r *games.Record) error { r.WhiteHidden = true; return nil })
		listIs(t, s, "cat", 10)
	}},
	{"list: summaries follow the latest ply", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		id := create(t, s, rules.New(rules.BanChess{}), "ann")
		check := func(ply int, actor, phase, result string) {
			t.Helper()
			list, err := s.List(ctx, "ann", 10)
			if err != nil || len(list) != 1 {
				t.Fatalf("list: %+v, %v", list, err)
			}
			rec := viewRecord(t, s, id)
			want := rec.Summary()
			if got := list[0]; !sameSummary(got, want) || got.Ply != ply || got.Actor != actor || got.Phase != phase || got.Result != result {
				t.Errorf("listed\n%+v\nwant\n%+v (ply %d, %s %s, %s)", got, want, ply, actor, phase, result)
			}
		}
		check(1, "black", "ban", "*")
		play(t, s, id, "b:e2e4", "m:d2d4", "b:e7e5")
		check(4, "black", "move", "*")
		update(t, s, id, func(r *games.Record) error { r.Updated = epoch.Add(time.Minute); return r.Game.Undo() })
		check(3, "white", "ban", "*")
		update(t, s, id, func(r *games.Record) error { return r.Game.Resign(rules.Black) })
		check(3, "", "over", "1-0")
		update(t, s, id, func(r *games.Record) error { return r.Game.Undo() })
		update(t, s, id, func(r *games.Record) error { return r.Game.AgreeDraw() })
		check(3, "", "over", "1/2-1/2")
	}},
	{"annotations are kept, edited and taken back", func(t *testing.T, s fullStore) {
		// Variations (nested, with bans, NAGs and comments in them), NAGs
		// and comments survive a save and a load; so do an edit and an
		// undo that takes a ply's annotations with it. A second game
		// pushes the first out of a cache of one, so it is read back.
		for _, c := range []struct {
			file    string
			promote rules.Path
		}{{"ban-club-game.pgn", rules.Path{{After: 4, Index: 0}}}, {"evergreen.pgn", rules.Path{{After: 13, Index: 0}}}} {
			b, err := os.ReadFile(filepath.Join("..", "rules", "testdata", "annotated", c.file))
			if err != nil {
				t.Fatal(err)
			}
			want, err := rules.FromPGN(string(b), rules.PGNOptions{ChessAsClassic: true})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := rules.FromPGN(string(b), rules.PGNOptions{ChessAsClassic: true})
			id := create(t, s, g, "ann")
			newGame(t, s)
			if got := viewState(t, s, id); got != state(want) {
				t.Fatalf("%s read back as\n%s\nwant\n%s", c.file, got, state(want))
			}
			edit := func(g *rules.Game) error {
				if err := g.Undo(); err != nil {
					return err
				}
				if _, err := g.Variations().Add(nil, 0, g.Actions()[:1], rules.VariationLimits{}); err != nil {
					return err
				}
				return g.Variations().Promote(c.promote, rules.VariationLimits{})
			}
			if err := edit(want); err != nil {
				t.Fatal(err)
			}
			update(t, s, id, func(r *games.Record) error { return edit(r.Game) })
			newGame(t, s)
			if got := viewState(t, s, id); got != state(want) {
				t.Errorf("%s edited, read back as\n%s\nwant\n%s", c.file, got, state(want))
			}
		}
	}},
	{"nobody holds the free seats", func(t *testing.T, s fullStore) {
		newGame(t, s)
		id := create(t, s, rules.New(rules.BanChess{}), "ann")
		update(t, s, id, func(r *games.Record) error { r.Black = ""; return nil })
		listIs(t, s, "", 10)
		listIs(t, s, "ann", 10, id)
	}},
}

// listIs checks holder's list of games, up to limit, is the games ids.
func listIs(t *testing.T, s fullStore, holder string, limit int, ids ...string) {
	t.Helper()
	list, err := s.List(context.Background(), holder, limit)
	if err != nil {
		t.Fatalf("List(%q, %d): %v", holder, limit, err)
	}
	var got []string
	for _, sum := range list {
		got = append(got, sum.ID)
	}
	if strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Errorf("List(%q, %d) = %q, want %q", holder, limit, got, ids)
	}
}

func TestStores(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			for _, b := range storeBehaviours {
				t.Run(b.name, func(t *testing.T) {
					b.test(t, st.open(t))
				})
			}
		})
	}
}

// TestSQLiteSeatIndexes checks that listing and looking up a holder use
// the indexes on the seats rather than reading every game.
func TestSQLiteSeatIndexes(t *testing.T) {
	s := openSQLite(t, ":memory:", Options{})
	plan := sqlitePlan(t, s, s.list, "ann", 10)
	if strings.Contains(plan, "SCAN games") || !strings.Contains(plan, "games_white") || !strings.Contains(plan, "games_black") {
		t.Errorf("%s\nis planned as\n%s", s.list, plan)
	}
}

// sqlitePlan is how SQLite plans q with args: the details of its
// EXPLAIN QUERY PLAN, a line each.
func sqlitePlan(t *testing.T, s *SQLite, q string, args ...any) string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		if err := rows.Scan(&id, &parent, &notUsed, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "\n")
}

// TestWaitingForAGameFollowsTheContext: a request waiting for a game that
// another holds (a slow save) gives up when its context ends, in both
// stores, and the game is usable again once released.
func TestWaitingForAGameFollowsTheContext(t *testing.T) {
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			var st fullStore
			switch name {
			case "memory":
				st = NewMemory()
			case "sqlite":
				st = openSQLite(t, ":memory:", Options{})
			default:
				st = openPostgres(t, PostgresOptions{})
			}
			ctx := context.Background()
			rec := &games.Record{Game: rules.New(rules.BanChess{})}
			if err := st.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			held, release := make(chan struct{}), make(chan struct{})
			go st.Update(ctx, rec.ID, func(*games.Record) error {
				close(held)
				<-release
				return errors.New("nothing changed")
			})
			<-held
			short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			err := st.View(short, rec.ID, func(*games.Record) error { t.Error("ran while the game was held"); return nil })
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("waiting past the deadline: %v, want the context's deadline", err)
			}
			close(release)
			if err := st.View(ctx, rec.ID, func(*games.Record) error { return nil }); err != nil {
				t.Errorf("after the release: %v", err)
			}
		})
	}
}
