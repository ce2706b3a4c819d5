package store

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// TestSQLiteCacheEstimate calibrates gameBytes: games of 0 to 2,000 plies
// (one of them half in variations) are read back from their rows into the
// cache, and the heap they take (runtime.MemStats.HeapAlloc after a
// collection, less before) is compared with what the cache counts. The
// estimate must stay within 20% below and 80% above what is measured (it
// overestimates a game at its start, whose position has fewer moves than
// a middlegame's).
func TestSQLiteCacheEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds long games")
	}
	if race.Enabled {
		t.Skip("a calibration of memory, one goroutine's: CI runs it without the race detector")
	}
	for _, c := range []struct{ plies, variations int }{{0, 0}, {25, 0}, {100, 0}, {500, 0}, {2000, 0}, {1000, 100}} {
		plies := c.plies
		path := filepath.Join(t.TempDir(), "games.db")
		src := openSQLite(t, path, Options{})
		n := 100
		switch {
		case plies >= 2000:
			n = 15
		case plies >= 500:
			n = 30
		}
		g := rules.New(rules.BanChess{})
		if plies > 0 {
			g = longGame(t, plies, uint64(plies))
		}
		addVariations(t, g, c.variations, 10)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = create(t, src, g, "ann")
		}
		src.Close()
		// A fresh store reads every game back from its row.
		s := openSQLite(t, path, Options{CacheSize: n})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, id := range ids {
			viewState(t, s, id)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		s.mu.Lock()
		counted, cached := s.bytes, len(s.games)
		s.mu.Unlock()
		if cached != n {
			t.Fatalf("%d games cached, want %d", cached, n)
		}
		measured := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		estimate := float64(counted) / float64(n)
		t.Logf("%4d plies, %3d variations: measured %7.0f B a game, estimated %7.0f (%.2f)", plies, c.variations, measured, estimate, estimate/measured)
		if estimate < 0.8*measured || estimate > 1.8*measured {
			t.Errorf("%d plies: the estimate %.0f B is too far from the %.0f B measured", plies, estimate, measured)
		}
		runtime.KeepAlive(s)
	}
}

// addVariations adds n variations of up to plies plies each to g's main
// line, spread along it: each the first legal actions where it branches.
func addVariations(t *testing.T, g *rules.Game, n, plies int) {
	t.Helper()
	for i := range n {
		after := i * (g.Ply() - g.StartPly()) / n
		at, err := g.Variations().GameAt(nil, after)
		if err != nil {
			t.Fatal(err)
		}
		var acts []rules.Action
		for range plies {
			legal := at.Legal()
			if len(legal) == 0 {
				break
			}
			a := legal[len(legal)/2]
			if err := at.Play(a); err != nil {
				t.Fatal(err)
			}
			acts = append(acts, a)
		}
		if _, err := g.Variations().Add(nil, after, acts, rules.VariationLimits{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSQLiteCacheBytes bounds the cache by memory: long games fill it by
// their size long before they reach the bound on their number, the least
// recently used leave, and each is read back whole when asked for.
func TestSQLiteCacheBytes(t *testing.T) {
	ctx := context.Background()
	const plies = 2000
	limit := 3*gameBytes(plies, 200) + gameBytes(0, 0)
	s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{CacheSize: 100, CacheBytes: limit})
	var ids []string
	want := map[string]string{}
	for i := range 5 {
		g := longGame(t, plies, uint64(i))
		id := create(t, s, g, "ann")
		ids = append(ids, id)
		want[id] = state(g)
	}
	check := func(most int) {
		t.Helper()
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.games) > most || s.bytes > limit {
			t.Errorf("%d games, %d bytes cached; the bound is %d bytes", len(s.games), s.bytes, limit)
		}
		var sum int64
		for _, c := range s.games {
			sum += c.size
		}
		if sum != s.bytes {
			t.Errorf("the cache counts %d bytes, its games %d", s.bytes, sum)
		}
	}
	check(3)
	for _, id := range ids {
		if got := viewState(t, s, id); got != want[id] {
			t.Errorf("%s read back as\n%s", id, got)
		}
		check(3)
	}
	// Small games fill it by their number.
	for range 120 {
		newGame(t, s)
	}
	if _, cached, _ := s.Stats(ctx); cached != 100 {
		t.Errorf("%d small games cached, want 100", cached)
	}
	check(100)
	// A ply grows a cached game's size.
	id := newGame(t, s)
	s.mu.Lock()
	before := s.games[id].size
	s.mu.Unlock()
	play(t, s, id, "b:e2e4", "m:d2d4")
	s.mu.Lock()
	after := s.games[id].size
	s.mu.Unlock()
	if after != before+2*plyBytes {
		t.Errorf("two plies took the game from %d to %d bytes", before, after)
	}
}

// twoStores opens two stores on one file, as two processes would if
// nothing kept the second out.
func twoStores(t *testing.T) (a, b *SQLite) {
	path := filepath.Join(t.TempDir(), "games.db")
	return openSQLite(t, path, Options{shareFile: true}), openSQLite(t, path, Options{shareFile: true})
}

func isConflict(err error) bool {
	e := errs.Of(err)
	return err != nil && e.Code == errs.Conflict && strings.Contains(e.Msg, "changed elsewhere")
}

// TestSQLiteStaleWriter has two stores write one game, each from its
// cached copy: the stale one's save is refused as a Conflict, overwrites
// nothing, and its next request reads the game as it stands.
func TestSQLiteStaleWriter(t *testing.T) {
	ctx := context.Background()
	a, b := twoStores(t)
	id := create(t, a, rules.New(rules.BanChess{}), "ann")
	play(t, a, id, "b:e2e4")
	viewState(t, b, id) // b caches the game after b:e2e4
	play(t, a, id, "m:d2d4")
	want := viewState(t, a, id)

	err := b.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("m:g1f3") })
	if !isConflict(err) {
		t.Fatalf("a save from a stale copy: %v, want a Conflict", err)
	}
	// Nothing was overwritten, and b reads the game as a left it.
	if got := storedActions(t, a, id); got != "b:e2e4 m:d2d4" {
		t.Errorf("the row holds %q", got)
	}
	if got := viewState(t, b, id); got != want {
		t.Errorf("after the conflict b has\n%s\nwant\n%s", got, want)
	}
	// b plays on from there; now a's copy is stale, and a seat change
	// (which writes the seat columns too) is refused the same way.
	play(t, b, id, "b:e7e5")
	err = a.Update(ctx, id, func(r *games.Record) error { r.WhiteHidden = true; return nil })
	if !isConflict(err) {
		t.Fatalf("a seat change from a stale copy: %v, want a Conflict", err)
	}
	update(t, a, id, func(r *games.Record) error { r.WhiteHidden = true; return nil })
	play(t, a, id, "m:d7d5")
	if err := b.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("m:e7e6") }); !isConflict(err) {
		t.Fatalf("b's stale save: %v", err)
	}
	wantRec := viewRecord(t, a, id)
	gotRec := viewRecord(t, b, id)
	if state(gotRec.Game) != state(wantRec.Game) || !gotRec.WhiteHidden {
		t.Errorf("b reads\n%s (hidden %v)\nwant\n%s", state(gotRec.Game), gotRec.WhiteHidden, state(wantRec.Game))
	}
	if got := storedActions(t, b, id); got != "b:e2e4 m:d2d4 b:e7e5 m:d7d5" {
		t.Errorf("the row holds %q", got)
	}
	// A conflict is no sign of a failing disk.
	if err := b.Ping(ctx); err != nil {
		t.Errorf("Ping after conflicts: %v", err)
	}
}

// storedActions reads the plies of game id from its row.
func storedActions(t *testing.T, s *SQLite, id string) string {
	t.Helper()
	var actions string
	if err := s.db.QueryRow("SELECT actions FROM games WHERE id = ?", id).Scan(&actions); err != nil {
		t.Fatal(err)
	}
	return actions
}

// TestSQLiteStaleSavesFailAlone saves from many goroutines at once, so the
// saves share transactions, while half of them come from stale copies:
// exactly those fail, as Conflicts, and every other is kept.
func TestSQLiteStaleSavesFailAlone(t *testing.T) {
	ctx := context.Background()
	a, b := twoStores(t)
	const n = 64
	ids := make([]string, n)
	for i := range ids {
		ids[i] = create(t, a, rules.New(rules.BanChess{}), "ann")
		play(t, a, ids[i], "b:e2e4")
		viewState(t, b, ids[i])
		if i%2 == 1 {
			play(t, a, ids[i], "m:d2d4") // b's copy is now stale
		}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = b.Update(ctx, ids[i], func(r *games.Record) error { return r.Game.PlayText("m:g1f3") })
		})
	}
	close(start)
	wg.Wait()
	for i, id := range ids {
		want := "b:e2e4 m:g1f3"
		if i%2 == 1 {
			want = "b:e2e4 m:d2d4"
			if !isConflict(errs[i]) {
				t.Errorf("stale save %d: %v, want a Conflict", i, errs[i])
			}
		} else if errs[i] != nil {
			t.Errorf("save %d: %v", i, errs[i])
		}
		if got := storedActions(t, a, id); got != want {
			t.Errorf("game %d holds %q, want %q", i, got, want)
		}
	}
}

// TestSQLiteSecondStoreRefused opens a second store on a file a first one
// has open, by its name, a symbolic link and a hard link: it is refused,
// saying why, until the first is closed.
func TestSQLiteSecondStoreRefused(t *testing.T) {
	if lock, _ := lockFile(filepath.Join(t.TempDir(), "x")); lock == nil {
		t.Skip("no file locks on this system")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "games.db")
	first := openSQLite(t, path, Options{})
	id := newGame(t, first)
	// By its name, and by other names of the same file.
	link, hard := filepath.Join(dir, "link.db"), filepath.Join(dir, "hard.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link, hard} {
		s, err := OpenSQLite(context.Background(), p, Options{})
		if err == nil {
			s.Close()
			t.Fatalf("a second store opened %s", p)
		}
		if msg := err.Error(); !strings.Contains(msg, "another banchess process is serving it") || !strings.Contains(msg, p) {
			t.Errorf("the refusal says %q", msg)
		}
	}
	first.Close()
	again := openSQLite(t, path, Options{})
	viewState(t, again, id)
}

// TestSQLiteLockReleasedOnKill opens a store in another process, finds the
// file refused while it runs (by its name and by a hard link), kills it
// with SIGKILL and opens the file.
func TestSQLiteLockReleasedOnKill(t *testing.T) {
	if path := os.Getenv("BANCHESS_TEST_HOLD_DB"); path != "" {
		// The child: hold the store open until killed.
		s, err := OpenSQLite(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		newGame(t, s)
		os.Stdout.WriteString("holding\n")
		time.Sleep(time.Minute)
		return
	}
	if lock, _ := lockFile(filepath.Join(t.TempDir(), "x")); lock == nil {
		t.Skip("no file locks on this system")
	}
	path := filepath.Join(t.TempDir(), "games.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSQLiteLockReleasedOnKill$", "-test.v")
	cmd.Env = append(os.Environ(), "BANCHESS_TEST_HOLD_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "holding" {
	}
	// By its name, and by a hard link made while it serves: within one
	// process SQLite itself notices the file twice, across two it did not.
	hard := filepath.Join(filepath.Dir(path), "hard.db")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, hard} {
		if s, err := OpenSQLite(context.Background(), p, Options{}); err == nil || !strings.Contains(err.Error(), "another banchess process") {
			if err == nil {
				s.Close()
			}
			t.Fatalf("opening %s, which another process serves: %v", p, err)
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred Close runs
		t.Fatal(err)
	}
	cmd.Wait()
	s := openSQLite(t, path, Options{})
	if stored, _, err := s.Stats(context.Background()); err != nil || stored != 1 {
		t.Errorf("after the kill: %d games (%v), want the child's 1", stored, err)
	}
}

// TestSQLiteUnhealthyWhileWritesFail makes saves fail: Ping says so until
// a save succeeds again or, with no save tried, its own write probe does.
func TestSQLiteUnhealthyWhileWritesFail(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: epoch}
	s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{Now: clk.Now})
	id := create(t, s, rules.New(rules.BanChess{}), "ann")
	play(t, s, id, "b:e2e4")
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	failing := func(when string) {
		t.Helper()
		err := s.Ping(ctx)
		var wf *WritesFailingError
		if !errors.As(err, &wf) || !wf.WritesFailing() || !strings.Contains(err.Error(), "writes are failing") || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("Ping %s: %v, want writes failing", when, err)
		}
	}
	healthy := func(when string) {
		t.Helper()
		if err := s.Ping(ctx); err != nil {
			t.Errorf("Ping %s: %v", when, err)
		}
	}
	refuseD2D4(t, s)
	refuseProbe := func() {
		if _, err := s.db.Exec(`CREATE TRIGGER probe_full BEFORE UPDATE ON write_probe BEGIN SELECT RAISE(ABORT, 'disk full'); END;
			CREATE TRIGGER probe_full_insert BEFORE INSERT ON write_probe BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
			t.Fatal(err)
		}
	}
	allow := func() {
		if _, err := s.db.Exec(`DROP TRIGGER IF EXISTS full; DROP TRIGGER IF EXISTS probe_full; DROP TRIGGER IF EXISTS probe_full_insert`); err != nil {
			t.Fatal(err)
		}
	}
	refuseProbe()
	if err := s.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("m:d2d4") }); err == nil {
		t.Fatal("the refused save succeeded")
	}
	failing("after a failed save")
	clk.advance(time.Minute)
	failing("after a failed probe")
	// Writes work again: the probe just tried does not run again at once,
	// but a save that succeeds makes the store healthy.
	allow()
	failing("before the next probe is due")
	play(t, s, id, "m:g1f3")
	healthy("after a save succeeded")

	// Failing again, with no save after: the probe finds writes work.
	if _, err := s.db.Exec(`CREATE TRIGGER full BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, id, func(r *games.Record) error { return r.Game.PlayText("b:e7e5") }); err == nil {
		t.Fatal("the refused save succeeded")
	}
	failing("after a second failed save")
	allow()
	clk.advance(probeEvery - time.Second)
	failing("before the probe is due")
	clk.advance(time.Second)
	healthy("after a probe succeeded")
	healthy("again")
}
