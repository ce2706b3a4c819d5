package lobby_test

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
	"github.com/banchess/banchess/store/pgtest"
)

// pg is the PostgreSQL server of this test binary, started by the first
// test that needs it.
var pg pgtest.Lazy

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

// instances are two services (two servers) on one fresh PostgreSQL
// database, each hearing the database's notices as a server does.
func instances(t *testing.T) [2]testsite.Site {
	t.Helper()
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	url := pg.Server(t).Schema(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	var out [2]testsite.Site
	var heard [2]atomic.Bool
	for i := range out {
		p, err := store.OpenPostgres(ctx, url, store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		svc := testsite.New(p, testsite.Config{})
		t.Cleanup(svc.Games.Close)
		notice := func(n string) { svc.Lobby.Notice(n); svc.Players.Notice(n) }
		wg.Go(func() { p.Listen(ctx, func(string, int64) { heard[i].Store(true) }, notice) })
		out[i] = svc
	}
	// A notice sent before an instance listens is not heard by it (as on
	// servers starting): save games until both have heard one, so both
	// listen before the test begins.
	cred, _, err := out[0].Players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); !heard[0].Load() || !heard[1].Load(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the instances did not start listening")
		}
		if _, err := out[0].Games.Create(ctx, cred, rules.New(rules.BanChess{})); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// register names a new player on svc.
func register(t *testing.T, svc testsite.Site, name string) players.Credential {
	t.Helper()
	in, err := svc.Players.Register(context.Background(), players.SignUp{Name: name, Password: "password " + name, Kind: players.Cookie})
	cred := in.Credential
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// woken waits for w to wake, at most d.
func woken(w *lobby.Watch, d time.Duration) bool {
	select {
	case <-w.C():
		return true
	case <-time.After(d):
		return false
	}
}

// TestTwoInstancesLobby: a seek made on one instance is seen on the other
// (its lobby woken by the notice) and accepted there, the maker's lobby
// on the first learning of the pairing; twenty players racing to accept
// one seek through both make one game; the game's end, raced to on both,
// changes the ratings once.
func TestTwoInstancesLobby(t *testing.T) {
	ctx := context.Background()
	inst := instances(t)
	ann := register(t, inst[0], "Ann")
	bob := register(t, inst[1], "Bob")
	watchers := [2]*lobby.Watch{}
	for i, svc := range inst {
		w, err := svc.Lobby.Watch(ctx, map[int]players.Credential{0: ann, 1: bob}[i])
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.Paired()
		watchers[i] = w
	}
	k, err := inst[0].Lobby.AddSeek(ctx, ann, lobby.SeekSettings{Clock: "5+3", Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if !woken(watchers[1], 10*time.Second) {
		t.Fatal("the other instance's lobby was not woken by the new seek")
	}
	v, err := inst[1].Lobby.View(ctx)
	if err != nil || len(v.Custom()) != 1 || v.Custom()[0].ID != k.ID || v.Custom()[0].Name != "Ann" {
		t.Fatalf("the other instance's lobby: %+v, %v", v, err)
	}
	id, err := inst[1].Lobby.AcceptSeek(ctx, bob, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Wakes for the seek's own notice may still come first: wait for the
	// one that says the maker may be paired.
	for deadline := time.Now().Add(5 * time.Second); !watchers[0].Paired(); {
		if !woken(watchers[0], time.Until(deadline)) {
			t.Fatal("the maker's lobby on the first instance did not learn of the pairing")
		}
	}
	if list, err := inst[0].Lobby.Pairings(ctx, ann, time.Time{}); err != nil || len(list) != 1 || list[0].Game != id {
		t.Fatalf("ann's pairings: %+v, %v", list, err)
	}

	// Twenty racers, ten on each instance, for one seek.
	k2, err := inst[0].Lobby.AddSeek(ctx, ann, lobby.SeekSettings{Clock: "3+2"})
	if err != nil {
		t.Fatal(err)
	}
	var racers []players.Credential
	for i := range 20 {
		cred, _, err := inst[i%2].Players.NewPlayer(ctx, players.Cookie)
		if err != nil {
			t.Fatal(err)
		}
		racers = append(racers, cred)
	}
	var mu sync.Mutex
	var won []string
	gone := 0
	var wg sync.WaitGroup
	for i, cred := range racers {
		wg.Go(func() {
			game, err := inst[i%2].Lobby.AcceptSeek(ctx, cred, k2.ID)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won = append(won, game)
			case errs.Of(err).Detail == "seek_gone":
				gone++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(won) != 1 || gone != 19 {
		t.Fatalf("%d games, %d found the seek gone; want 1 and 19", len(won), gone)
	}

	// The rated game's last ply posted to both instances at once, ten
	// times each: one lands, and the ratings change once.
	rec := viewOn(t, inst[0], id)
	creds := map[rules.Color]players.Credential{}
	for _, c := range []players.Credential{ann, bob} {
		p, _ := inst[0].Players.Identify(ctx, c)
		if rec.White == p.ID {
			creds[rules.White] = c
		} else {
			creds[rules.Black] = c
		}
	}
	line := []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7"}
	for i, a := range line {
		g := viewOn(t, inst[i%2], id).Game
		if err := inst[i%2].Games.Play(ctx, id, creds[g.Turn().Actor], games.Input{Text: a}, nil); err != nil {
			t.Fatalf("ply %d (%s): %v", i+1, a, err)
		}
	}
	landed := 0
	for i := range 20 {
		wg.Go(func() {
			if inst[i%2].Games.Play(ctx, id, creds[rules.White], games.Input{Text: "b:e8f7", Ply: 11}, nil) == nil {
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
	for i, svc := range inst {
		g := viewOn(t, svc, id).Game
		if o := g.Outcome(); o.Status != rules.Checkmate || o.Winner != rules.White {
			t.Errorf("instance %d: outcome %v", i, o)
		}
		for _, c := range []players.Credential{ann, bob} {
			p, _ := svc.Players.Identify(ctx, c)
			st, err := svc.Players.Standings(ctx, p.ID)
			if err != nil || len(st) != 1 || st[0].Games != 1 {
				t.Errorf("instance %d, %s: standings %+v, %v", i, p.Name, st, err)
				continue
			}
			won := p.ID == rec.White
			if won != (st[0].Rating.Rating > 1500) || p.Wins+p.Losses != 1 {
				t.Errorf("instance %d, %s (won %v): %+v, %+v", i, p.Name, won, st[0], p)
			}
		}
	}
}

func viewOn(t *testing.T, svc testsite.Site, id string) games.Record {
	t.Helper()
	var rec games.Record
	if err := svc.Games.View(context.Background(), id, "", func(r *games.Record, _ games.Seats) { rec = *r }); err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestTwoInstancesPool: two players joining a pool at once, on two
// instances, are paired; a third waits.
func TestTwoInstancesPool(t *testing.T) {
	ctx := context.Background()
	inst := instances(t)
	creds := []players.Credential{register(t, inst[0], "Ann"), register(t, inst[1], "Bob"), register(t, inst[0], "Cat")}
	games_ := make([]string, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			g, _, err := inst[i].Lobby.JoinPool(ctx, creds[i], "3+2", "")
			if err != nil {
				t.Error(err)
			}
			games_[i] = g
		})
	}
	wg.Wait()
	paired := games_[0] + games_[1]
	if games_[0] != "" && games_[1] != "" || paired == "" {
		t.Fatalf("joined at once: %q; want one game, found by the second", games_)
	}
	list, err := inst[0].Lobby.Pairings(ctx, creds[0], time.Time{})
	if err != nil || len(list) != 1 || list[0].Game != paired {
		t.Errorf("the first's pairings: %+v, %v", list, err)
	}
	if g, k, err := inst[1].Lobby.JoinPool(ctx, creds[2], "3+2", ""); err != nil || g != "" || k.Pool != "3+2" {
		t.Errorf("the third: %q, %+v, %v", g, k, err)
	}
}
