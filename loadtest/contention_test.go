package loadtest

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// racers is how many goroutines post at once to the one game.
const racers = 100

// TestContention has 100 goroutines post conflicting plies to one game on
// the real server (SQLite store, loopback TCP), ply after ply: each round
// they wait at a barrier, then each posts one of the legal actions (several
// post the same). Exactly one must win each round; the game must end as a
// serial replay of the winners, as the API and the store both tell it.
// Through the API the losers are told 422 (their action is not legal at the
// next ply: bans and moves alternate) or 409 (the winner ended the game);
// through the pages, whose forms carry the ply they were made at, 409.
func TestContention(t *testing.T) {
	for _, front := range []string{"api", "html"} {
		t.Run(front, func(t *testing.T) {
			st := openSQLite(t, filepath.Join(t.TempDir(), "contention.db"), store.Options{})
			srv := startServer(t, st, racers)
			c := &contender{t: t, client: &http.Client{Transport: srv.transport}, base: srv.url}
			id := c.newGame(front)
			// A refused page post renders the whole page fragment, so
			// the pages get fewer rounds to stay quick under -race.
			rounds := map[string]int{"api": 40, "html": 6}[front]
			if testing.Short() {
				rounds = 3
			}
			rng := rand.New(rand.NewPCG(6, 6))
			mirror := rules.New(rules.BanChess{})
			var winners []string
			codes := map[int]int{}
			for round := 0; round < rounds && !mirror.Outcome().Over(); round++ {
				legal := mirror.Legal()
				acts := make([]rules.Action, racers)
				for i := range acts {
					// At most 10 distinct actions, so that several racers post each.
					acts[i] = legal[rng.IntN(min(len(legal), 10))]
				}
				statuses := c.race(front, id, mirror.Ply(), acts)
				won := -1
				for i, code := range statuses {
					codes[code]++
					switch {
					case code == http.StatusOK && won < 0:
						won = i
					case code == http.StatusOK:
						t.Fatalf("round %d: racers %d (%s) and %d (%s) both won", round, won, acts[won], i, acts[i])
					case code != c.lost(front):
						if code != http.StatusConflict || front != "api" {
							t.Fatalf("round %d: racer %d (%s) got %d", round, i, acts[i], code)
						}
					}
				}
				if won < 0 {
					t.Fatalf("round %d: no racer won: %v", round, statuses)
				}
				if err := mirror.Play(acts[won]); err != nil {
					t.Fatal(err)
				}
				winners = append(winners, acts[won].String())
			}
			if len(winners) < min(rounds, 6) {
				t.Fatalf("only %d rounds", len(winners))
			}

			t.Logf("%d rounds of %d posts: statuses %v", len(winners), racers, codes)
			want, err := rules.Replay(rules.BanChess{}, "", winners)
			if err != nil {
				t.Fatalf("the winners do not replay: %v", err)
			}
			got := c.get(id)
			if got.FEN != want.FEN() || !slices.Equal(got.Log, want.Record().Log()) || got.Status != want.Outcome().Status.String() {
				t.Errorf("the API has %s %v %s; a serial replay of the winners %s %v %s",
					got.FEN, got.Log, got.Status, want.FEN(), want.Record().Log(), want.Outcome().Status)
			}
			if err := st.View(context.Background(), id, func(rec *games.Record) error {
				g := rec.Game
				if g.FEN() != want.FEN() || !slices.Equal(g.BCN(), winners) || g.Outcome() != want.Outcome() {
					t.Errorf("the store has %s %v %v; a serial replay of the winners %s %v %v",
						g.FEN(), g.BCN(), g.Outcome(), want.FEN(), winners, want.Outcome())
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// contender sends the racing requests.
type contender struct {
	t      *testing.T
	client *http.Client
	base   string
	cookie string // html: the browser's credential
	token  string // api: the bearer token holding the game's seats
}

// lost is the status a racer that lost a round gets.
func (c *contender) lost(front string) int {
	if front == "html" {
		return http.StatusConflict // the form's ply is out of date
	}
	return http.StatusUnprocessableEntity // not legal at the next ply
}

// newGame starts the game the racers share and returns its id.
func (c *contender) newGame(front string) string {
	c.t.Helper()
	if front == "html" {
		req := c.request("/new", formType, "variant=ban")
		req.Header.Set("HX-Request", "true")
		resp := c.send(req)
		for _, ck := range resp.Cookies() {
			if ck.Name == "banchess_player" {
				c.cookie = ck.Name + "=" + ck.Value
			}
		}
		id, ok := strings.CutPrefix(resp.Header.Get("HX-Push-Url"), "/g/")
		if c.cookie == "" || !ok || id == "" {
			c.t.Fatal("POST /new set no player cookie or gave no game address")
		}
		return id
	}
	resp := c.send(c.request("/api/games", "application/json", "{}"))
	var g struct{ ID, Token string }
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil || g.ID == "" || g.Token == "" {
		c.t.Fatalf("POST /api/games: %v", err)
	}
	c.token = g.Token
	return g.ID
}

// request builds a POST of body to path.
func (c *contender) request(path, ct, body string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if c.cookie != "" {
		req.Header.Set("Cookie", c.cookie)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req
}

// send sends req and checks it succeeded; the body is left to read.
func (c *contender) send(req *http.Request) *http.Response {
	c.t.Helper()
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode/100 != 2 {
		c.t.Fatalf("%s %s: status %d", req.Method, req.URL.Path, resp.StatusCode)
	}
	return resp
}

// race posts acts[i] from goroutine i, all released at once, to the game
// at ply, and returns the statuses.
func (c *contender) race(front, id string, ply int, acts []rules.Action) []int {
	reqs := make([]*http.Request, len(acts))
	for i, a := range acts {
		if front == "html" {
			body := "from=" + a.From.String() + "&to=" + a.To.String() + "&ply=" + strconv.Itoa(ply)
			if a.Promotion != 0 {
				body += "&promotion=" + string(a.Promotion.Letter()|0x20)
			}
			reqs[i] = c.request("/g/"+id+"/ply", formType, body)
			reqs[i].Header.Set("HX-Request", "true")
		} else {
			reqs[i] = c.request("/api/games/"+id+"/actions", "application/json", `{"action":"`+a.String()+`"}`)
		}
	}
	statuses := make([]int, len(acts))
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	for i, req := range reqs {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-gate
			resp, err := c.client.Do(req)
			if err != nil {
				c.t.Errorf("racer %d: %v", i, err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		}()
	}
	ready.Wait()
	close(gate)
	done.Wait()
	if c.t.Failed() {
		c.t.FailNow()
	}
	return statuses
}

// apiGame is the part of the API's game object the test compares.
type apiGame struct {
	FEN    string   `json:"fen"`
	Log    []string `json:"log"`
	Status string   `json:"status"`
}

// get reads the game through the API.
func (c *contender) get(id string) apiGame {
	c.t.Helper()
	resp, err := c.client.Get(c.base + "/api/games/" + id)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var g apiGame
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil || resp.StatusCode != http.StatusOK {
		c.t.Fatalf("GET /api/games/%s: status %d, %v", id, resp.StatusCode, err)
	}
	return g
}
