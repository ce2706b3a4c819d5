package main

import (
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// arenaJSON is the part of a tournament object these tests read.
type arenaJSON struct {
	ID        string
	Status    string
	Standings []struct {
		Name  string
		Score int
		Sheet []int
		Game  *string
	}
}

// TestTwoInstancesArena: an arena on two server processes sharing
// PostgreSQL. The first runs it and pairs its four players; the second
// starts, and the first is killed (SIGKILL) while both games are on.
// The games end through the second, which takes the arena over once the
// dead server's claim lapses: each game is counted once, and the players
// are paired again, each into one game, told on their lobby streams.
func TestTwoInstancesArena(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and server processes")
	}
	url := pg.Server(t).Schema(t)
	args := []string{"--db", url, "--post-rate", "0", "--games-per-minute", "0", "--arena-schedule", "0", "--tournament-lease", "2s"}
	one := startServer(t, args...)
	names := []string{"Ann", "Bob", "Cat", "Dan"}
	tokens := map[string]string{}
	for _, n := range names {
		tokens[n] = one.account(t, n)
	}
	var tr arenaJSON
	if code := one.call(t, http.MethodPost, "/api/tournaments", `{"name":"Shared","clock":"5+3","minutes":20}`, tokens["Ann"], &tr); code != http.StatusCreated {
		t.Fatalf("creating the arena: %d", code)
	}
	games := map[string]bool{}
	var streams []<-chan string
	for _, n := range names {
		streams = append(streams, one.lobbyPaired(t, tokens[n]))
	}
	for _, n := range names {
		if code := one.call(t, http.MethodPost, "/api/tournaments/"+tr.ID+"/join", "", tokens[n], nil); code != http.StatusOK {
			t.Fatalf("%s joining: %d", n, code)
		}
	}
	for i, c := range streams {
		select {
		case g := <-c:
			games[g] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not paired by the first server", names[i])
		}
	}
	if len(games) != 2 {
		t.Fatalf("four players in %d games, want 2", len(games))
	}

	two := startServer(t, args...)
	if err := one.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-one.done
	streams = streams[:0]
	for _, n := range names {
		streams = append(streams, two.lobbyPaired(t, tokens[n]))
	}
	losers := map[string]bool{}
	for g := range games {
		var game struct {
			Ply     int
			Turn    string
			Legal   []string
			Players struct{ White, Black struct{ Name string } }
		}
		// Both sides act (Black's ban, White's move), then White resigns.
		for range 2 {
			if code := two.call(t, http.MethodGet, "/api/games/"+g, "", "", &game); code != http.StatusOK {
				t.Fatalf("game %s on the second server: %d", g, code)
			}
			who := game.Players.Black.Name
			if game.Turn == "white" {
				who = game.Players.White.Name
			}
			body := fmt.Sprintf(`{"action":%q,"ply":%d}`, game.Legal[0], game.Ply)
			if code := two.call(t, http.MethodPost, "/api/games/"+g+"/actions", body, tokens[who], nil); code != http.StatusOK {
				t.Fatalf("%s playing %s in %s: %d", who, game.Legal[0], g, code)
			}
		}
		white := game.Players.White.Name
		if code := two.call(t, http.MethodPost, "/api/games/"+g+"/resign", `{"color":"white"}`, tokens[white], nil); code != http.StatusOK {
			t.Fatalf("%s resigning %s: %d", white, g, code)
		}
		losers[white] = true
	}
	again := map[string]bool{}
	for i, c := range streams {
		select {
		case g := <-c:
			if games[g] {
				t.Errorf("%s told again of an ended game", names[i])
			}
			again[g] = true
		case <-time.After(20 * time.Second):
			t.Fatalf("%s was not paired again by the second server", names[i])
		}
	}
	if len(again) != 2 {
		t.Errorf("four players paired again into %d games, want 2", len(again))
	}
	var now arenaJSON
	if code := two.call(t, http.MethodGet, "/api/tournaments/"+tr.ID, "", "", &now); code != http.StatusOK {
		t.Fatalf("the arena: %d", code)
	}
	for _, s := range now.Standings {
		want := 2
		if losers[s.Name] {
			want = 0
		}
		if s.Score != want || len(s.Sheet) != 1 || s.Game == nil || !again[*s.Game] {
			t.Errorf("%s: score %d, sheet %v, game %v; want %d from one game, and a new game", s.Name, s.Score, s.Sheet, s.Game, want)
		}
	}
	if len(now.Standings) != len(names) {
		t.Errorf("%d players in the standings: %s", len(now.Standings), fmt.Sprint(now.Standings))
	}
}
