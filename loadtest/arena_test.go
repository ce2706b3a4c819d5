package loadtest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/tournament"
)

// BenchmarkArena is an arena under load: LOAD_ARENA_PLAYERS bots with
// names (default 200) join one arena through the API (POST
// /api/tournaments, POST /api/tournaments/{id}/join), learn of each
// pairing on their lobby stream ("paired" {"game","tournament"}), and play
// each game as a short one: random legal actions, each bot following the
// game's stream for its turn, until LOAD_ARENA_PLIES plies (default 20),
// when the side to act resigns. The server runs the tournament as main
// does (tournament.Service.Run, a tick a second). One iteration is one
// game. It reports games, plies and pairings a second, the latency of a
// ply, the pairing delay (from a bot seeing its game end to its lobby
// stream telling it of the next), errors and the CPU per game:
//
//	go test ./loadtest -run '^$' -bench Arena -benchtime 2000x
func BenchmarkArena(b *testing.B) {
	n := envInt(b, "LOAD_ARENA_PLAYERS", 200)
	if n < 2 {
		b.Fatal("LOAD_ARENA_PLAYERS: want at least two players")
	}
	r := arenaLoad(b, openStore(b, storeKind()), n, envInt(b, "LOAD_ARENA_PLIES", 20), b.N, nil, b.ResetTimer)
	b.StopTimer()
	r.report(b)
}

// TestArenaLoadShort runs the arena scenario small, with a fast tick:
// eight bots, sixteen games of eight plies, with no error, each game
// learnt of on the lobby stream and counted in the standings.
func TestArenaLoadShort(t *testing.T) {
	st := openStore(t, "sqlite")
	r := arenaLoad(t, st, 8, 8, 16, []tournament.Option{tournament.WithTick(100*time.Millisecond, 10*time.Second)}, nil)
	if r.errors > 0 || r.games < 16 || len(r.pairing) < 16 || r.plies < 16*8 {
		t.Fatalf("%d games, %d pairings, %d plies, %d errors; the first: %v", r.games, len(r.pairing), r.plies, r.errors, r.first)
	}
	if r.scored < r.games {
		t.Errorf("the standings count %d games, %d were played", r.scored, r.games)
	}
}

// arenaResult is what a run of the arena scenario measured.
type arenaResult struct {
	lobbyResult
	scored int // games the standings count at the end
}

// arenaLoad serves st, names n bots, has them join one arena and play
// games of maxPlies plies until total games have ended. opts configure
// the tournaments; start, when not nil, is called just before the clock
// starts.
func arenaLoad(tb testing.TB, st testsite.Store, n, maxPlies, total int, opts []tournament.Option, start func()) arenaResult {
	tb.Helper()
	cheap := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)
	svc := testsite.New(st, testsite.Config{Passwords: cheap, Tournament: opts})
	tb.Cleanup(svc.Close)
	srv := serve(tb, svc, 4*n)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	bots := newPlayers(tb, ctx, srv, "arena", 5, n, maxPlies)
	var arena struct{ ID string }
	if _, err := bots[0].call(ctx, http.MethodPost, "/api/tournaments", `{"name":"Load arena","clock":"5+3","minutes":180}`, &arena); err != nil {
		tb.Fatal(err)
	}
	r := arenaResult{lobbyResult: runPlayers(tb, ctx, bots, total, start, func(ctx context.Context) { go svc.Tournaments.Run(ctx, nil) },
		func(ctx context.Context, p *lobbyPlayer, finish func()) { p.arenaLoop(ctx, arena.ID, finish) })}
	// The games that ended are recorded at the next tick.
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err := svc.Tournaments.Tick(ctx); err != nil {
			tb.Error(err)
		}
		t, err := svc.Tournaments.Tournament(ctx, arena.ID)
		if err != nil {
			tb.Fatal(err)
		}
		r.scored = 0
		for _, pr := range t.Pairings {
			if pr.Done {
				r.scored++
			}
		}
		if r.scored >= r.games || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return r
}

// arenaLoop joins the arena and plays each game it is paired into until
// ctx ends; finish is called at the end of each game the bot had White
// in. The pairing delay runs from joining, or from the end of its last
// game, to its lobby stream telling it of the next.
func (p *lobbyPlayer) arenaLoop(ctx context.Context, arena string, finish func()) {
	if _, err := p.call(ctx, http.MethodPost, "/api/tournaments/"+arena+"/join", "", nil); err != nil {
		p.fail(err)
		return
	}
	free := time.Now()
	for {
		var game string
		select {
		case <-ctx.Done():
			return
		case game = <-p.paired:
		}
		if p.known[game] {
			continue
		}
		p.known[game] = true
		p.pairing = append(p.pairing, time.Since(free))
		if err := p.play(ctx, game, finish); err != nil && ctx.Err() == nil {
			p.fail(err)
		}
		free = time.Now()
	}
}
