package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/handlers/kit"
	"github.com/banchess/banchess/handlers/stream"

	"github.com/labstack/echo/v4"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/handlers"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/rules"
)

// fairClient is a client at its own loopback address (the server tells
// clients apart by address).
type fairClient struct {
	url    string
	client *http.Client
	codes  sync.Map // status → *atomic.Int64
}

func newFairClient(url, addr string, timeout time.Duration) *fairClient {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	tr := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 64, DisableCompression: true}
	return &fairClient{url: url, client: &http.Client{Transport: tr, Timeout: timeout}}
}

// do sends a request and returns its status and body (0 when it failed).
func (f *fairClient) do(method, path, body, token string) (int, []byte) {
	req, err := http.NewRequest(method, f.url+path, strings.NewReader(body))
	if err != nil {
		return 0, nil
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := f.client.Do(req)
	code := 0
	var data []byte
	if err == nil {
		data, _ = io.ReadAll(res.Body)
		res.Body.Close()
		code = res.StatusCode
	}
	n, _ := f.codes.LoadOrStore(code, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	return code, data
}

// counts says how many answers of each status the client got.
func (f *fairClient) counts() string {
	var parts []string
	f.codes.Range(func(k, v any) bool {
		parts = append(parts, fmt.Sprintf("%d×%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// fairGame is a game against the computer as a client plays it.
type fairGame struct {
	ID    string   `json:"id"`
	Token string   `json:"token"`
	Ply   int      `json:"ply"`
	Turn  string   `json:"turn"`
	Legal []string `json:"legal"`
	State string   `json:"status"`
	Bot   *struct {
		Color string `json:"color"`
	} `json:"bot"`
}

// newBotGame creates a game against the computer at level, the computer
// playing Black (it bans first).
func (f *fairClient) newBotGame(level int) (*fairGame, error) {
	code, data := f.do(http.MethodPost, "/api/games", fmt.Sprintf(`{"bot":{"color":"black","level":%d}}`, level), "")
	if code != http.StatusCreated {
		return nil, fmt.Errorf("creating a game: %d %s", code, data)
	}
	var g fairGame
	return &g, json.Unmarshal(data, &g)
}

// awaitTurn polls g until the human is to act (the computer has played),
// the game is over, or deadline.
func (f *fairClient) awaitTurn(g *fairGame, deadline time.Time) error {
	for time.Now().Before(deadline) {
		code, data := f.do(http.MethodGet, "/api/games/"+g.ID+"?fields=ply,turn,legal,status", "", "")
		if code == http.StatusOK {
			var now fairGame
			json.Unmarshal(data, &now)
			now.ID, now.Token, now.Bot = g.ID, g.Token, g.Bot
			*g = now
			if g.Turn == "white" || g.State != "ongoing" {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("the computer did not play within the deadline")
}

// play plays the human's ply (a random legal one) and waits until the
// human acts again (after the computer's plies, if it was their turn):
// the time it took.
func (f *fairClient) play(g *fairGame, rng *rand.Rand) (time.Duration, error) {
	if len(g.Legal) == 0 || g.State != "ongoing" {
		return 0, fmt.Errorf("the game is over")
	}
	act := g.Legal[rng.IntN(len(g.Legal))]
	start := time.Now()
	code, data := f.do(http.MethodPost, "/api/games/"+g.ID+"/actions?fields=ply", fmt.Sprintf(`{"action":%q,"ply":%d}`, act, g.Ply), g.Token)
	if code != http.StatusOK {
		return 0, fmt.Errorf("%s: %d %s", act, code, data)
	}
	if err := f.awaitTurn(g, start.Add(time.Minute)); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// victimRun is what the second client measured.
type victimRun struct {
	analyses, replies, images []time.Duration
	failures                  []string
}

// measureVictim has v ask for analyses (1 s each), play games against
// the computer at level (8 plies, new games as they end) and ask for
// position images, one after another, timing each.
func measureVictim(v *fairClient, seed uint64, level int) victimRun {
	var r victimRun
	rng := rand.New(rand.NewPCG(seed, 1))
	fail := func(what string, err error) { r.failures = append(r.failures, what+": "+err.Error()) }
	for range 3 {
		start := time.Now()
		code, data := v.do(http.MethodGet, "/api/analysis?ms=1000&fen="+url.QueryEscape(rules.StartFEN), "", "")
		if code != http.StatusOK {
			fail("analysis", fmt.Errorf("%d %s", code, data))
			continue
		}
		r.analyses = append(r.analyses, time.Since(start))
	}
	var g *fairGame
	var err error
	for i := 0; err == nil && i < 8; i++ {
		if g == nil || g.State != "ongoing" {
			if g, err = v.newBotGame(level); err == nil {
				err = v.awaitTurn(g, time.Now().Add(time.Minute))
			}
			continue
		}
		// The human moves, then bans: after the ban the computer moves
		// and bans, and the time is its two plies'.
		var d time.Duration
		if d, err = v.play(g, rng); err == nil && g.Ply%4 == 2 {
			r.replies = append(r.replies, d)
		}
	}
	if err != nil {
		fail("game", err)
	}
	for i := range 10 { // distinct images: none from the cache
		start := time.Now()
		code, data := v.do(http.MethodGet, fmt.Sprintf("/img/%s.png?size=%d", url.PathEscape(rules.StartFEN), 900+int(seed)*10+i), "", "")
		if code != http.StatusOK {
			fail("image", fmt.Errorf("%d %.100s", code, data))
			continue
		}
		r.images = append(r.images, time.Since(start))
	}
	return r
}

// flood has a the attacker, until ctx ends: 40 analyses of 10 s at once
// over and over, 25 games against the computer at level 8 each answered at
// once, and distinct position images, 40 at a time, each given up after
// 100 ms.
func flood(ctx context.Context, a, impatient *fairClient) {
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			for ctx.Err() == nil {
				if code, _ := a.do(http.MethodGet, "/api/analysis?ms=10000&fen="+url.QueryEscape(rules.StartFEN), "", ""); code != http.StatusOK {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	for i := range 25 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			for ctx.Err() == nil {
				g, err := a.newBotGame(8)
				if err != nil { // over the games a minute: wait
					time.Sleep(time.Second)
					continue
				}
				for ctx.Err() == nil && a.awaitTurn(g, time.Now().Add(time.Minute)) == nil && g.State == "ongoing" {
					if _, err := a.play(g, rng); err != nil {
						break
					}
				}
			}
		})
	}
	var n atomic.Int64
	for range 40 {
		wg.Go(func() {
			for ctx.Err() == nil {
				k := n.Add(1)
				path := fmt.Sprintf("/img/%s.png?size=%d&flip=%d", url.PathEscape(rules.StartFEN), 200+k%800, k/800%2)
				impatient.do(http.MethodGet, path, "", "")
			}
		})
	}
	wg.Wait()
}

// TestFairShares runs main's server (its limits, one engine worker with a
// queue of 4, the computer at level 8 thinking 1 s a ply) in this process
// and measures a second client's analyses (1 s each), its level-1 game's
// computer replies and its position images, first alone, then while a
// first client (another loopback address) floods analyses, games against
// the computer and images (see flood). It reports each phase's
// median and slowest and the flooding client's answers:
//
//	LOAD_FAIR=1 go test ./loadtest -run TestFairShares -v -timeout 20m
func TestFairShares(t *testing.T) {
	if os.Getenv("LOAD_FAIR") == "" {
		t.Skip("set LOAD_FAIR=1 to flood the server from one client and time another's requests")
	}
	pool := engine.NewPool(1, 4, 32)
	svc := testsite.New(openStore(t, storeKind()), testsite.Config{Engine: pool})
	t.Cleanup(svc.Close)
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	handlers.New(services(svc), nil, handlers.WithLimits(kit.DefaultLimits()), handlers.WithStreamLimits(stream.DefaultLimits())).Register(e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	victim := newFairClient(base, "127.0.0.3", 30*time.Second)

	quiet := measureVictim(victim, 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	attacker := newFairClient(base, "127.0.0.2", 30*time.Second)
	impatient := newFairClient(base, "127.0.0.2", 100*time.Millisecond)
	done := make(chan struct{})
	go func() {
		flood(ctx, attacker, impatient)
		close(done)
	}()
	time.Sleep(5 * time.Second) // the flood under way
	busy := measureVictim(victim, 2, 1)
	cancel()
	<-done

	stats := func(ds []time.Duration) string {
		if len(ds) == 0 {
			return "none"
		}
		slices.Sort(ds)
		return fmt.Sprintf("median %v, slowest %v (%d)", ds[len(ds)/2].Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond), len(ds))
	}
	for _, ph := range []struct {
		name string
		r    victimRun
	}{{"alone", quiet}, {"flooded", busy}} {
		t.Logf("the second client %s: analyses (1 s) %s; the computer's replies (level 1, a move and a ban) %s; images %s; failures %q",
			ph.name, stats(ph.r.analyses), stats(ph.r.replies), stats(ph.r.images), ph.r.failures)
	}
	t.Logf("the flooding client's answers: %s; its impatient image requests: %s", attacker.counts(), impatient.counts())
	if len(busy.failures) > 0 {
		t.Errorf("the second client was refused during the flood: %q", busy.failures)
	}
}
