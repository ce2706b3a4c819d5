package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// call sends body (JSON, or nothing) to path by method with token as the
// bearer ("" for none), and returns the status and the body decoded into
// out (when not nil).
func (s *server) call(t *testing.T, method, path, body, token string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
	return res.StatusCode
}

// account names a new player on s and returns their token.
func (s *server) account(t *testing.T, name string) string {
	t.Helper()
	var tok struct{ Token string }
	if code := s.call(t, http.MethodPost, "/api/account", `{"name":"`+name+`","password":"password of `+name+`"}`, "", &tok); code != http.StatusCreated {
		t.Fatalf("account %s: %d", name, code)
	}
	return tok.Token
}

// lobbyPaired opens s's lobby stream for token and returns a channel that
// receives the game of each "paired" event.
func (s *server) lobbyPaired(t *testing.T, token string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url+"/api/lobby/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the lobby stream: %v %v", res, err)
	}
	out := make(chan string, 4)
	opened := make(chan struct{})
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == ": banchess live":
				close(opened)
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "paired":
				var p struct{ Game string }
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &p)
				out <- p.Game
			}
		}
	}()
	<-opened
	return out
}

// TestTwoInstancesLobby: two servers on one PostgreSQL. A seek made
// through the API on one is listed and accepted on the other, and its
// maker's lobby stream on the first hears of the pairing; twenty racers
// accepting one seek through both make one game; the rated game's mating
// ban, raced on both, lands once and moves the ratings once.
func TestTwoInstancesLobby(t *testing.T) {
	_, pair := startPair(t)
	ann, bob := pair[0].account(t, "Ann"), pair[1].account(t, "Bob")
	paired := pair[0].lobbyPaired(t, ann)
	var k struct{ ID string }
	if code := pair[0].call(t, http.MethodPost, "/api/seeks", `{"clock":"5+3","rated":true,"color":"white"}`, ann, &k); code != http.StatusCreated {
		t.Fatalf("the seek: %d", code)
	}
	var list struct{ Seeks []struct{ ID, Name string } }
	pair[1].call(t, http.MethodGet, "/api/seeks", "", "", &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != k.ID || list.Seeks[0].Name != "Ann" {
		t.Fatalf("the other instance lists %+v", list)
	}
	var game struct{ Game string }
	if code := pair[1].call(t, http.MethodPost, "/api/seeks/"+k.ID+"/accept", "", bob, &game); code != http.StatusOK {
		t.Fatalf("accepting on the other instance: %d", code)
	}
	select {
	case g := <-paired:
		if g != game.Game {
			t.Errorf("the maker heard of game %s, not %s", g, game.Game)
		}
	case <-time.After(5 * time.Second):
		t.Error("the maker's lobby stream on the first instance did not hear of the pairing")
	}

	// Twenty racers for one casual seek.
	var casual struct{ ID string }
	pair[1].call(t, http.MethodPost, "/api/seeks", `{"clock":"3+2"}`, bob, &casual)
	var racers []string
	for i := range 20 {
		g, err := pair[i%2].post("/api/games", "{}", "")
		if err != nil {
			t.Fatal(err)
		}
		racers = append(racers, g.Token)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	codes := map[int]int{}
	for i, tok := range racers {
		wg.Go(func() {
			code := pair[i%2].call(t, http.MethodPost, "/api/seeks/"+casual.ID+"/accept", "", tok, nil)
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[http.StatusOK] != 1 || codes[http.StatusNotFound] != 19 {
		t.Errorf("twenty racers: %v, want one 200 and 19 404", codes)
	}

	// The rated game (Ann White), its last ply raced on both instances.
	for i, a := range []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7"} {
		tok := bob
		if i%4 == 1 || i%4 == 2 {
			tok = ann
		}
		if _, err := pair[i%2].post("/api/games/"+game.Game+"/actions", fmt.Sprintf(`{"action":%q}`, a), tok); err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
	}
	landed := 0
	for i := range 20 {
		wg.Go(func() {
			if pair[i%2].call(t, http.MethodPost, "/api/games/"+game.Game+"/actions", `{"action":"b:e8f7","ply":11}`, ann, nil) == http.StatusOK {
				mu.Lock()
				landed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if landed != 1 {
		t.Errorf("the mating ban landed %d times", landed)
	}
	for i, s := range pair {
		for name, won := range map[string]bool{"Ann": true, "Bob": false} {
			var p struct {
				Ratings map[string]map[string]struct{ Rating, Games int }
				Results struct{ Win, Loss int }
			}
			s.call(t, http.MethodGet, "/api/players/"+name, "", "", &p)
			r := p.Ratings["ban"]["blitz"]
			if r.Games != 1 || won != (r.Rating > 1500) || p.Results.Win+p.Results.Loss != 1 {
				t.Errorf("instance %d, %s: %+v", i, name, p)
			}
		}
	}
}
