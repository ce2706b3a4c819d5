package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/password"
)

// BenchmarkLobby is the lobby under load: LOAD_LOBBY_PLAYERS players with
// names (default 100), each holding its lobby stream open, join the 5+3
// pool over and over through the API (POST /api/pools/5+3; one who waits
// learns of its pairing from the stream's "paired" event) and play each
// pairing as a short rated game: random legal actions, each player
// following the game's stream for its turn, until LOAD_LOBBY_PLIES plies
// (default 20), when the side to act resigns, and the result is rated in
// the save that records it. One iteration is one game. It reports games,
// plies and pairings a second, the latency of a pairing (from the join to
// the game known) and of a ply, errors, and the CPU per game:
//
//	go test ./loadtest -run '^$' -bench Lobby -benchtime 500x
//
// Passwords are hashed with cheap parameters here, so that setting up the
// players does not dominate: a sign-in is not what is measured.
func BenchmarkLobby(b *testing.B) {
	n := envInt(b, "LOAD_LOBBY_PLAYERS", 100)
	if n < 2 {
		b.Fatal("LOAD_LOBBY_PLAYERS: want at least two players")
	}
	r := lobbyLoad(b, openStore(b, storeKind()), n, envInt(b, "LOAD_LOBBY_PLIES", 20), b.N, b.ResetTimer)
	b.StopTimer()
	r.report(b)
}

// report reports r's figures as b's metrics.
func (r lobbyResult) report(b *testing.B) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	secs := r.elapsed.Seconds()
	b.ReportMetric(float64(r.games)/secs, "games/s")
	b.ReportMetric(float64(r.plies)/secs, "plies/s")
	b.ReportMetric(float64(len(r.pairing))/secs, "pairings/s")
	b.ReportMetric(ms(quantile(r.pairing, 0.5)), "pair-p50-ms")
	b.ReportMetric(ms(quantile(r.pairing, 0.99)), "pair-p99-ms")
	b.ReportMetric(ms(quantile(r.ply, 0.5)), "ply-p50-ms")
	b.ReportMetric(ms(quantile(r.ply, 0.99)), "ply-p99-ms")
	b.ReportMetric(float64(r.errors), "errors")
	if r.cpu > 0 {
		b.ReportMetric(r.cpu.Seconds()/secs, "cores")
		b.ReportMetric(float64(r.cpu.Microseconds())/float64(max(1, r.games)), "cpu-µs/game")
	}
	if r.errors > 0 {
		b.Logf("%d errors; the first: %v", r.errors, r.first)
	}
}

// TestLobbyLoadShort runs the lobby scenario small: six players, twelve
// games of eight plies, with no error, and every game rated once.
func TestLobbyLoadShort(t *testing.T) {
	st := openStore(t, "sqlite")
	r := lobbyLoad(t, st, 6, 8, 12, nil)
	if r.errors > 0 || r.games < 12 || len(r.pairing) < 12 || r.plies < 12*8 {
		t.Fatalf("%d games, %d pairings, %d plies, %d errors; the first: %v", r.games, len(r.pairing), r.plies, r.errors, r.first)
	}
}

// lobbyResult is what a run of the lobby scenario measured.
type lobbyResult struct {
	games, plies, errors int
	pairing, ply         []time.Duration // sorted
	elapsed, cpu         time.Duration
	first                error
}

// quantile returns the duration below which a fraction q of sorted fell.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// lobbyLoad serves st, names n players, opens their lobby streams, and has
// them pair and play games of maxPlies plies until total games have ended.
// start, when not nil, is called just before the clock starts.
func lobbyLoad(tb testing.TB, st testsite.Store, n, maxPlies, total int, start func()) lobbyResult {
	tb.Helper()
	cheap := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)
	svc := testsite.New(st, testsite.Config{Passwords: cheap})
	tb.Cleanup(svc.Close)
	srv := serve(tb, svc, 4*n)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	go svc.Lobby.Run(ctx)
	players := newPlayers(tb, ctx, srv, "load", 3, n, maxPlies)
	return runPlayers(tb, ctx, players, total, start, nil, func(ctx context.Context, p *lobbyPlayer, finish func()) { p.loop(ctx, finish) })
}

// newPlayers names n players on srv (name prefix and a number; their
// random actions seeded by stream and the number), each following its
// lobby stream until ctx ends.
func newPlayers(tb testing.TB, ctx context.Context, srv *server, prefix string, stream uint64, n, maxPlies int) []*lobbyPlayer {
	tb.Helper()
	client := &http.Client{Transport: srv.transport}
	players := make([]*lobbyPlayer, n)
	for i := range players {
		p := &lobbyPlayer{name: fmt.Sprintf("%s%d", prefix, i), base: srv.url, client: client, rng: rand.New(rand.NewPCG(uint64(i), stream)),
			maxPlies: maxPlies, paired: make(chan string, 16), known: map[string]bool{}}
		if err := p.register(); err != nil {
			tb.Fatal(err)
		}
		if err := p.follow(ctx); err != nil {
			tb.Fatal(err)
		}
		players[i] = p
	}
	return players
}

// runPlayers has each player play (given a finish to call at the end of
// each game it had White in) until total games have ended, and returns
// what they measured. start, when not nil, is called just before the
// clock starts, and begin, when not nil, just after, with the run's
// context.
func runPlayers(tb testing.TB, ctx context.Context, players []*lobbyPlayer, total int, start func(), begin func(context.Context), play func(ctx context.Context, p *lobbyPlayer, finish func())) lobbyResult {
	tb.Helper()
	var ended atomic.Int64
	done := make(chan struct{})
	var once sync.Once
	finish := func() {
		if ended.Add(1) >= int64(total) {
			once.Do(func() { close(done) })
		}
	}
	runCtx, stop := context.WithCancel(ctx)
	if start != nil {
		start()
	}
	cpu0 := cpuTime()
	t0 := time.Now()
	if begin != nil {
		begin(runCtx)
	}
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Go(func() { play(runCtx, p, finish) })
	}
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
		tb.Errorf("only %d of %d games ended in 10 minutes", ended.Load(), total)
	}
	elapsed := time.Since(t0)
	cpu := cpuTime() - cpu0
	stop()
	wg.Wait()
	var r lobbyResult
	r.elapsed, r.cpu, r.games = elapsed, cpu, int(ended.Load())
	for _, p := range players {
		r.plies += p.plies
		r.errors += p.errors
		r.pairing = append(r.pairing, p.pairing...)
		r.ply = append(r.ply, p.ply...)
		if r.first == nil {
			r.first = p.first
		}
	}
	slices.Sort(r.pairing)
	slices.Sort(r.ply)
	return r
}

// lobbyPlayer is one named player of the lobby scenario, a program on the
// API.
type lobbyPlayer struct {
	name, token, base string
	client            *http.Client
	rng               *rand.Rand
	maxPlies          int
	paired            chan string     // the games the lobby stream said it was paired into
	known             map[string]bool // the games it has played, or is playing

	plies, errors int
	pairing, ply  []time.Duration
	first         error
}

// fail counts a failure, keeping the first.
func (p *lobbyPlayer) fail(err error) {
	p.errors++
	if p.first == nil {
		p.first = err
	}
}

// call sends body (JSON, or nothing) by method to path as the player,
// and decodes the answer into out (when not nil); it returns the status.
func (p *lobbyPlayer) call(ctx context.Context, method, path, body string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	res, err := p.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: %w: %s", method, path, err, data)
		}
	}
	if res.StatusCode >= 400 && res.StatusCode != http.StatusConflict {
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	return res.StatusCode, nil
}

func (p *lobbyPlayer) register() error {
	var tok struct{ Token string }
	_, err := p.call(context.Background(), http.MethodPost, "/api/account", `{"name":"`+p.name+`","password":"load password"}`, &tok)
	p.token = tok.Token
	return err
}

// events reads path's server-sent events, calling fn with each event's
// name and data, until the stream ends; opened is closed once it opens.
func (p *lobbyPlayer) events(ctx context.Context, path string, opened chan<- struct{}, fn func(name, data string) bool) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	res, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d", path, res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ":") && opened != nil:
			close(opened)
			opened = nil
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			if !fn(name, line[len("data: "):]) {
				return nil
			}
		case line == "":
			name = ""
		}
	}
	return nil
}

// follow opens the player's lobby stream for the whole run: its "paired"
// events go to p.paired.
func (p *lobbyPlayer) follow(ctx context.Context) error {
	opened := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- p.events(ctx, "/api/lobby/events", opened, func(name, data string) bool {
			if name == "paired" {
				var ev struct{ Game string }
				json.Unmarshal([]byte(data), &ev)
				p.paired <- ev.Game
			}
			return true
		})
	}()
	select {
	case <-opened:
		return nil
	case err := <-errc:
		return fmt.Errorf("the lobby stream of %s: %v", p.name, err)
	}
}

// loop joins the pool and plays each pairing until ctx ends; finish is
// called at the end of each game the player had White in.
func (p *lobbyPlayer) loop(ctx context.Context, finish func()) {
	for ctx.Err() == nil {
		t0 := time.Now()
		game, err := p.join(ctx)
		if err != nil {
			if ctx.Err() == nil {
				p.fail(err)
			}
			continue
		}
		if game == "" {
			return
		}
		p.pairing = append(p.pairing, time.Since(t0))
		p.known[game] = true
		if err := p.play(ctx, game, finish); err != nil && ctx.Err() == nil {
			p.fail(err)
		}
	}
}

// join joins the 5+3 pool and returns the game it is paired into: at once,
// or when the lobby stream says so. When ctx ends while it waits, it
// leaves the pool and returns "".
func (p *lobbyPlayer) join(ctx context.Context) (string, error) {
	var out struct{ Game, ID string }
	code, err := p.call(ctx, http.MethodPost, "/api/pools/5+3", "", &out)
	if err != nil || code == http.StatusOK {
		return out.Game, err
	}
	for {
		select {
		case game := <-p.paired:
			if !p.known[game] {
				return game, nil
			}
		case <-ctx.Done():
			p.call(context.Background(), http.MethodDelete, "/api/seeks/"+out.ID, "", nil)
			return "", nil
		}
	}
}

// playerGame is what the scenario reads of a game object.
type playerGame struct {
	Ply     int
	Turn    string
	Status  string
	Legal   []string
	Players struct{ White, Black struct{ Name *string } }
}

// play plays the player's side of game: following the game's stream, a
// random legal action at each of its turns, until the game ends or reaches
// maxPlies, when the side to act resigns.
func (p *lobbyPlayer) play(ctx context.Context, game string, finish func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	mine := ""
	var failed error
	last := -1
	err := p.events(ctx, "/api/games/"+game+"/events", nil, func(_, data string) bool {
		var g playerGame
		if err := json.Unmarshal([]byte(data), &g); err != nil {
			failed = err
			return false
		}
		if mine == "" {
			mine = "black"
			if n := g.Players.White.Name; n != nil && *n == p.name {
				mine = "white"
			}
		}
		if g.Status != "ongoing" {
			if mine == "white" {
				finish()
			}
			return false
		}
		if g.Turn != mine || g.Ply == last {
			return true
		}
		last = g.Ply
		body := `{"color":"` + mine + `"}`
		path := "/api/games/" + game + "/resign"
		if g.Ply <= p.maxPlies {
			body = fmt.Sprintf(`{"action":%q,"ply":%d}`, g.Legal[p.rng.IntN(len(g.Legal))], g.Ply)
			path = "/api/games/" + game + "/actions?fields=ply"
		}
		t0 := time.Now()
		if _, err := p.call(ctx, http.MethodPost, path, body, nil); err != nil {
			failed = err
			return false
		}
		p.ply = append(p.ply, time.Since(t0))
		p.plies++
		return true
	})
	if failed != nil {
		return failed
	}
	return err
}
