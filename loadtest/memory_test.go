package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// TestMemory reports the memory the server holds with LOAD_MEMORY_GAMES
// games stored (default 100,000, each of 10 to 40 random plies) in an
// SQLite file and LOAD_MEMORY_CACHED of them (default 10,000, the default
// cache size) in memory. It only runs when LOAD_MEMORY is set:
//
//	LOAD_MEMORY=1 go test ./loadtest -run TestMemory -v -timeout 30m
//
// The process is the server: the store is all it holds besides the test's
// own few ids, so its resident set is the server's.
func TestMemory(t *testing.T) {
	if os.Getenv("LOAD_MEMORY") == "" {
		t.Skip("set LOAD_MEMORY=1 to fill a store with 100,000 games and report its memory")
	}
	stored := envInt(t, "LOAD_MEMORY_GAMES", 100_000)
	cached := envInt(t, "LOAD_MEMORY_CACHED", store.DefaultCacheSize)
	if cached > stored {
		t.Fatalf("LOAD_MEMORY_CACHED=%d is more than the %d games stored", cached, stored)
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	st := openSQLite(t, path, store.Options{CacheSize: cached})
	base := memoryNow(t)
	holder := players.NewCredential().Hash()

	// Fill: every core builds random games and stores them. The first
	// `cached` ids are kept to touch afterwards.
	start := time.Now()
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		next  int
		keep  = make([]string, 0, cached)
		plies int
	)
	for w := range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 10))
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= stored {
					return
				}
				g, n := randomGame(rng, 10+rng.IntN(31))
				now := time.Now()
				rec := &games.Record{Game: g, White: holder, Black: holder, Mode: games.HotSeat, Created: now, Updated: now}
				err := st.Create(ctx, rec)
				id := rec.ID
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				plies += n
				if len(keep) < cached {
					keep = append(keep, id)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	fill := time.Since(start)
	afterFill := memoryNow(t)

	// Touch the kept games: the cache now holds those, each rebuilt from its
	// row.
	start = time.Now()
	for _, id := range keep {
		if err := st.View(ctx, id, func(*games.Record) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	touch := time.Since(start)
	n, inCache, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != stored || inCache != cached {
		t.Fatalf("the store has %d games, %d cached; want %d, %d", n, inCache, stored, cached)
	}
	final := memoryNow(t)
	var files int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			files += fi.Size()
		}
	}

	t.Logf("stored %d games (%d plies, %.1f a game) in %v (%.0f games/s); rebuilt %d into the cache in %v (%.0f µs a game)",
		stored, plies, float64(plies)/float64(stored), fill.Round(time.Millisecond), float64(stored)/fill.Seconds(),
		cached, touch.Round(time.Millisecond), float64(touch.Microseconds())/float64(cached))
	t.Logf("database: %.1f MB on disk (%.0f bytes a game), with its WAL", mb(files), float64(files)/float64(stored))
	t.Logf("%-34s %10s %10s %10s", "", "VmRSS", "Go heap", "other RSS")
	for _, m := range []struct {
		when string
		m    memory
	}{{"empty store", base}, {"after storing, last games cached", afterFill}, {"first games touched (final)", final}} {
		t.Logf("%-34s %7.1f MB %7.1f MB %7.1f MB", m.when, mb(m.m.rss), mb(m.m.heap), mb(m.m.rss-m.m.heap))
	}
	t.Logf("peak VmHWM %.1f MB; Go heap per cached game %.1f KB (final less empty, over %d)",
		mb(final.hwm), float64(final.heap-base.heap)/float64(cached)/1024, cached)
}

// randomGame plays up to n random legal plies from the start and returns
// the game and the plies played (fewer when it ends first).
func randomGame(rng *rand.Rand, n int) (*rules.Game, int) {
	g := rules.New(rules.BanChess{})
	for i := range n {
		legal := g.Legal()
		if len(legal) == 0 {
			return g, i
		}
		if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			panic(err) // a legal action
		}
	}
	return g, n
}

// memory is the process's memory at one moment.
type memory struct {
	rss, hwm int64 // resident set, and its peak (VmRSS, VmHWM)
	heap     int64 // Go heap in use (HeapInuse) after a collection
	stack    int64 // goroutine stacks (StackInuse)
}

// memoryNow collects garbage, returns freed memory to the system and reads
// the process's memory.
func memoryNow(t *testing.T) memory {
	t.Helper()
	m, err := readMemory()
	if err != nil {
		t.Skipf("reading the process's memory: %v", err)
	}
	return m
}

// readMemory is memoryNow's work: collect, free, read /proc/self/status.
func readMemory() (memory, error) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := memory{heap: int64(ms.HeapInuse), stack: int64(ms.StackInuse)}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return m, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != "VmRSS" && name != "VmHWM" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return m, fmt.Errorf("%s: %w", sc.Text(), err)
		}
		if name == "VmRSS" {
			m.rss = kb << 10
		} else {
			m.hwm = kb << 10
		}
	}
	return m, sc.Err()
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
