package main

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/vectors"
	"github.com/banchess/banchess/store/pgtest"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it.
var pg pgtest.Lazy

// startPair starts two servers on one fresh PostgreSQL database, without
// rate limits (the tests' clients post as fast as they can).
func startPair(t testing.TB) (url string, pair [2]*server) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts PostgreSQL and server processes")
	}
	url = pg.Server(t).Schema(t)
	for i := range pair {
		pair[i] = startServer(t, "--db", url, "--post-rate", "0", "--games-per-minute", "0")
	}
	return url, pair
}

// postStatus posts body to path with token and returns the status, and
// the game when it was played.
func (s *server) postStatus(path, body, token string) (int, *apiGame, error) {
	req, err := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	code := res.StatusCode
	g, err := readGame(res)
	if code != http.StatusOK {
		return code, nil, nil
	}
	return code, g, err
}

// refGame is the part of a reference game these tests use.
type refGame struct {
	Start string `json:"start"`
	Plies []struct {
		Legal []string `json:"legal"`
		Play  string   `json:"play"`
		FEN   string   `json:"fen"`
	} `json:"plies"`
}

// TestTwoInstancesReferenceGame plays reference games with each ply posted
// to the two instances in turn, and checks the other instance's answer,
// position and legal actions, at every ply: three games, one under the
// race detector, its first 100 plies (CI plays the three whole without
// it).
func TestTwoInstancesReferenceGame(t *testing.T) {
	_, pair := startPair(t)
	games, plies := 3, 1<<30
	if race.Enabled { // a sample: CI plays them whole without the detector
		games, plies = 1, 100
	}
	for n, ref := range vectors.Load[refGame](t, vectors.File)[:games] {
		g, err := pair[n%2].post("/api/games", fmt.Sprintf(`{"fen":%q}`, ref.Start), "")
		if err != nil {
			t.Fatal(err)
		}
		token, first := g.Token, g.Ply
		for i, p := range ref.Plies[:min(plies, len(ref.Plies))] {
			at, other := pair[i%2], pair[(i+1)%2]
			seen, err := other.get("/api/games/" + g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seen.Legal, p.Legal) {
				t.Fatalf("game %d ply %d: the other instance offers\n%v\nwant\n%v", n, i+1, seen.Legal, p.Legal)
			}
			played, err := at.post("/api/games/"+g.ID+"/actions", fmt.Sprintf(`{"action":%q,"ply":%d}`, p.Play, first+i), token)
			if err != nil {
				t.Fatalf("game %d ply %d (%s): %v", n, i+1, p.Play, err)
			}
			if played.FEN != p.FEN {
				t.Fatalf("game %d ply %d: %s\nwant %s", n, i+1, played.FEN, p.FEN)
			}
		}
		t.Logf("game %d: %d plies on alternating instances", n, min(plies, len(ref.Plies)))
	}
}

// TestTwoInstancesRacers: at every ply 20 racers, half on each instance,
// post different actions for the same ply; exactly one wins, the others
// get 409, and the game equals a serial replay of the winners.
func TestTwoInstancesRacers(t *testing.T) {
	_, pair := startPair(t)
	g, err := pair[0].post("/api/games", "{}", "")
	if err != nil {
		t.Fatal(err)
	}
	token := g.Token
	var winners []string
	for ply := 1; ply <= 30 && len(g.Legal) > 0; ply++ {
		var mu sync.WaitGroup
		var lock sync.Mutex
		var won []*apiGame
		var wonBy []string
		codes := map[int]int{}
		for r := range 20 {
			action := g.Legal[(r*7)%len(g.Legal)]
			mu.Go(func() {
				code, next, err := pair[r%2].postStatus("/api/games/"+g.ID+"/actions", fmt.Sprintf(`{"action":%q,"ply":%d}`, action, ply), token)
				lock.Lock()
				defer lock.Unlock()
				if err != nil {
					t.Errorf("ply %d: %v", ply, err)
					return
				}
				codes[code]++
				if code == http.StatusOK {
					won, wonBy = append(won, next), append(wonBy, action)
				}
			})
		}
		mu.Wait()
		if len(won) != 1 || codes[http.StatusConflict] != 19 {
			t.Fatalf("ply %d: answers %v, want one 200 and 19 409", ply, codes)
		}
		g = won[0]
		winners = append(winners, wonBy[0])
	}
	replay, err := pair[1].post("/api/games", "{}", "")
	if err != nil {
		t.Fatal(err)
	}
	replayToken := replay.Token
	for i, a := range winners {
		if replay, err = pair[1].post("/api/games/"+replay.ID+"/actions", fmt.Sprintf(`{"action":%q,"ply":%d}`, a, i+1), replayToken); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range pair {
		got, err := s.get("/api/games/" + g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.FEN != replay.FEN || !slices.Equal(got.Log, replay.Log) {
			t.Errorf("instance %d has\n%s %v\nthe serial replay\n%s %v", i, got.FEN, got.Log, replay.FEN, replay.Log)
		}
	}
}

// TestTwoInstancesKill: clients play on both instances in turn; one
// instance is killed (SIGKILL) in the middle of plies; the other, and the
// killed one restarted, have every acknowledged ply.
func TestTwoInstancesKill(t *testing.T) {
	url, pair := startPair(t)
	acked, wait := playUntilGone(t, 4, func(i, k int) *server { return pair[(i+k)%2] })
	if err := pair[1].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wait()
	<-pair[1].done
	checkAcked(t, pair[0], acked)
	checkAcked(t, startServer(t, "--db", url), acked)
}
