package main

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/banchess/banchess/games"
)

// TestTwoInstancesLiveness: two servers on one PostgreSQL, their clock
// sweeps and beats made short (issue 45, items 14 and 15). On the first,
// a rated 1+0 game runs White's clock, another waits for its first
// action, a player's custom seek waits with their lobby stream open and
// another waits in a pool. The first server is killed (SIGKILL). The
// games are then aged in the database, their clocks moved back by the
// minute the test does not wait (White's time runs out 2 s after her
// first move; the first action is due a second after the pairing), and
// the other server, never asked for either game, ends both on time: the
// flag falls with the result and ratings recorded once, the other game is
// aborted and rates no one. The dead server's seeks leave the lobby
// within the instance timeout and a few seconds: accepting the seek is
// refused and a player joining the pool waits, paired with no one.
func TestTwoInstancesLiveness(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and server processes")
	}
	const instanceTimeout = 2 * time.Second
	url := pg.Server(t).Schema(t)
	args := []string{"--db", url, "--post-rate", "0", "--games-per-minute", "0", "--signups-per-hour", "0",
		"--clock-sweep", "500ms", "--heartbeat", "500ms", "--instance-timeout", instanceTimeout.String()}
	dying, other := startServer(t, args...), startServer(t, args...)
	tokens := map[string]string{}
	for _, name := range []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"} {
		tokens[name] = dying.account(t, name)
	}
	pairOn := func(s *server, maker, taker string) string {
		t.Helper()
		var k struct{ ID string }
		if code := s.call(t, http.MethodPost, "/api/seeks", `{"clock":"1+0","rated":true,"color":"white"}`, tokens[maker], &k); code != http.StatusCreated {
			t.Fatalf("%s's seek: %d", maker, code)
		}
		var g struct{ Game string }
		if code := s.call(t, http.MethodPost, "/api/seeks/"+k.ID+"/accept", "", tokens[taker], &g); code != http.StatusOK {
			t.Fatalf("%s accepting: %d", taker, code)
		}
		return g.Game
	}
	flagged := pairOn(dying, "Ann", "Bob") // Ann White
	for _, p := range []struct{ who, action string }{{"Bob", "b:e2e4"}, {"Ann", "m:d2d4"}} {
		if _, err := dying.post("/api/games/"+flagged+"/actions", `{"action":"`+p.action+`"}`, tokens[p.who]); err != nil {
			t.Fatalf("%s's first action: %v", p.who, err)
		}
	}
	unstarted := pairOn(dying, "Cat", "Dan")

	// The lobby: Eve's seek, her lobby stream open on the server that
	// dies; Fay waiting in the 5+3 pool there.
	dying.lobbyPaired(t, tokens["Eve"])
	var seek struct{ ID string }
	if code := dying.call(t, http.MethodPost, "/api/seeks", `{"clock":"3+2"}`, tokens["Eve"], &seek); code != http.StatusCreated {
		t.Fatalf("Eve's seek: %d", code)
	}
	if code := dying.call(t, http.MethodPost, "/api/pools/5+3", "", tokens["Fay"], nil); code != http.StatusAccepted {
		t.Fatalf("Fay joining the pool: %d", code)
	}
	type lobbyList struct {
		Seeks []struct{ ID string }
		Pools map[string]int
	}
	listed := func() (seeks, waiting int) {
		var l lobbyList
		if code := other.call(t, http.MethodGet, "/api/seeks", "", "", &l); code != http.StatusOK {
			t.Fatalf("the lobby on the other server: %d", code)
		}
		return len(l.Seeks), l.Pools["5+3"]
	}
	if seeks, waiting := listed(); seeks != 1 || waiting != 1 {
		t.Fatalf("before the kill the other server lists %d seeks and %d waiting in 5+3, want 1 and 1", seeks, waiting)
	}

	if err := dying.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-dying.done
	killed := time.Now()

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	due := map[string]time.Time{}
	for id, by := range map[string]time.Duration{flagged: 58 * time.Second, unstarted: 29 * time.Second} {
		due[id] = age(t, conn, id, by)
	}
	aged := time.Now()

	// The seeks of the dead server go within the timeout and a sweep.
	for {
		seeks, waiting := listed()
		if seeks == 0 && waiting == 0 {
			t.Logf("the dead server's seeks left the other's lobby %v after the kill", time.Since(killed).Round(time.Millisecond))
			break
		}
		if time.Since(killed) > instanceTimeout+3*time.Second {
			t.Fatalf("%v after the kill the other server lists %d seeks and %d waiting in 5+3, want none", time.Since(killed).Round(time.Millisecond), seeks, waiting)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := other.call(t, http.MethodPost, "/api/seeks/"+seek.ID+"/accept", "", tokens["Gus"], nil); code != http.StatusNotFound {
		t.Errorf("accepting the dead server's seek: %d, want 404", code)
	}
	if code := other.call(t, http.MethodPost, "/api/pools/5+3", "", tokens["Hal"], nil); code != http.StatusAccepted {
		t.Errorf("joining the pool the dead server's player waited in: %d, want 202 (waiting, not paired)", code)
	}

	// The games end on time, though no one asks for them.
	for id, want := range map[string]string{flagged: "white-flagged", unstarted: "aborted"} {
		from := due[id]
		if from.Before(aged) {
			from = aged
		}
		for {
			var declared string
			var updated int64
			if err := conn.QueryRow(ctx, `SELECT declared, updated_at FROM games WHERE id = $1`, id).Scan(&declared, &updated); err != nil {
				t.Fatal(err)
			}
			if declared != "" {
				late := time.UnixMilli(updated).Sub(from)
				t.Logf("%s: %s %v after it was due", id[:6], declared, late)
				if declared != want || late > 2*time.Second {
					t.Errorf("game %s ended %s %v after it was due, want %s within 2 s", id[:6], declared, late, want)
				}
				break
			}
			if time.Since(from) > 5*time.Second {
				t.Fatalf("game %s, due %v ago, is still in play", id[:6], time.Since(from).Round(time.Millisecond))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for name, games := range map[string]int{"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0} {
		var p struct {
			Ratings map[string]map[string]struct{ Rating, Games int }
			Results struct{ Win, Loss, Draw int }
		}
		if code := other.call(t, http.MethodGet, "/api/players/"+name, "", "", &p); code != http.StatusOK {
			t.Fatalf("%s: %d", name, code)
		}
		r := p.Ratings["ban"]["bullet"]
		if r.Games != games || p.Results.Win+p.Results.Loss+p.Results.Draw != games || games == 1 && (name == "Bob") != (r.Rating > 1500) {
			t.Errorf("%s: %+v, want %d rated game", name, p, games)
		}
	}
	var played int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM played WHERE game = $1`, flagged).Scan(&played); err != nil || played != 2 {
		t.Errorf("the flagged game's results: %d (%v), want one for each player", played, err)
	}
}

// age moves game id's clock back by by in its row, as if it had been
// played that much earlier, and returns when the game is now due.
func age(t *testing.T, conn *pgx.Conn, id string, by time.Duration) time.Time {
	t.Helper()
	ctx := context.Background()
	var state string
	var due int64
	if err := conn.QueryRow(ctx, `SELECT table_state, due_at FROM games WHERE id = $1`, id).Scan(&state, &due); err != nil {
		t.Fatal(err)
	}
	var tab games.Table
	if err := json.Unmarshal([]byte(state), &tab); err != nil || tab.Clock == nil || due == 0 {
		t.Fatalf("game %s: clock %+v, due %d, %v", id[:6], tab.Clock, due, err)
	}
	c := tab.Clock
	if !c.Since.IsZero() {
		c.Since = c.Since.Add(-by)
	}
	if !c.FirstBy.IsZero() {
		c.FirstBy = c.FirstBy.Add(-by)
	}
	b, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	// A new revision: a server that cached the game reads it afresh.
	if _, err := conn.Exec(ctx, `UPDATE games SET table_state = $2, due_at = $3, revision = revision + 1 WHERE id = $1`,
		id, string(b), due-by.Milliseconds()); err != nil {
		t.Fatal(err)
	}
	return time.UnixMilli(due - by.Milliseconds())
}
