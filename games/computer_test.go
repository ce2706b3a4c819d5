package games_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
)

// fakeEngine hands each search to the test, which answers it (or not).
type fakeEngine struct{ calls chan search }

type search struct {
	g     *rules.Game
	ctx   context.Context
	lim   engine.Limits
	reply chan engine.Result
}

func (f *fakeEngine) Analyse(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	s := search{g: g, ctx: ctx, lim: lim, reply: make(chan engine.Result, 1)}
	f.calls <- s
	select {
	case r := <-s.reply:
		return r, nil
	case <-ctx.Done():
		return engine.Result{}, ctx.Err()
	}
}

// Play is Analyse: the computer's searches come to the test the same way.
func (f *fakeEngine) Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	return f.Analyse(ctx, g, lim)
}

// next waits for the computer's next search.
func (f *fakeEngine) next(t *testing.T) search {
	t.Helper()
	select {
	case s := <-f.calls:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the computer started no search")
		return search{}
	}
}

// answer replies with the position's first legal action.
func (s search) answer() { s.reply <- engine.Result{Best: s.g.Legal()[0]} }

// botEnv is a game against the computer on a fake engine.
type botEnv struct {
	*env
	eng   *fakeEngine
	cred  players.Credential
	id    string
	watch *games.Watch
}

func newBotEnv(t *testing.T, human rules.Color) *botEnv {
	t.Helper()
	eng := &fakeEngine{calls: make(chan search, 4)}
	e := newEnv(t, games.WithComputer(computer.New(eng)))
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	id, side, err := e.svc.CreateBot(e.ctx, cred, rules.New(rules.BanChess{}), games.BotSettings{Color: human, Level: 2})
	if err != nil {
		t.Fatal(err)
	}
	if side != human {
		t.Fatalf("human plays %v, want %v", side, human)
	}
	w, err := e.svc.Watch(e.ctx, id, cred)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return &botEnv{env: e, eng: eng, cred: cred, id: id, watch: w}
}

// waitPly waits until the game is at ply n.
func (b *botEnv) waitPly(n int) {
	b.t.Helper()
	deadline := time.After(5 * time.Second)
	for b.ply() != n {
		select {
		case <-b.watch.C():
		case <-deadline:
			b.t.Fatalf("game at ply %d, want %d", b.ply(), n)
		}
	}
}

func (b *botEnv) ply() int {
	var ply int
	if err := b.svc.View(b.ctx, b.id, b.cred, func(rec *games.Record, _ games.Seats) { ply = rec.Game.Ply() }); err != nil {
		b.t.Fatal(err)
	}
	return ply
}

// play plays the human's first legal action.
func (b *botEnv) play() {
	b.t.Helper()
	var in games.Input
	b.svc.View(b.ctx, b.id, b.cred, func(rec *games.Record, _ games.Seats) {
		in = games.Input{Text: rec.Game.Legal()[0].String(), Ply: rec.Game.Ply()}
	})
	if err := b.svc.Play(b.ctx, b.id, b.cred, in, nil); err != nil {
		b.t.Fatal(err)
	}
}

func TestBotActsFirstAndAnswers(t *testing.T) {
	b := newBotEnv(t, rules.White)
	// Black bans first: the computer searches at once.
	s := b.eng.next(t)
	if s.g.Ply() != 1 {
		t.Fatalf("searched ply %d, want 1", s.g.Ply())
	}
	s.answer()
	b.waitPly(2)
	b.play() // White moves
	b.play() // White bans
	// Black moves, then bans: two searches in a row.
	b.eng.next(t).answer()
	b.waitPly(5)
	b.eng.next(t).answer()
	b.waitPly(6)
	var rec games.Record
	b.svc.View(b.ctx, b.id, b.cred, func(r *games.Record, seats games.Seats) {
		rec = *r
		if !seats.White || seats.Black {
			t.Errorf("human holds %+v, want White only", seats)
		}
	})
	if rec.Mode != games.BotGame || rec.Bot == nil || rec.Bot.Color != rules.Black || rec.Bot.Level != 2 {
		t.Errorf("record mode %q bot %+v", rec.Mode, rec.Bot)
	}
}

// TestBotHumanFirstWaits: when the human acts first, the computer searches
// nothing until the human has, and then only its own plies.
func TestBotHumanFirstWaits(t *testing.T) {
	b := newBotEnv(t, rules.Black)
	if got := b.ply(); got != 1 {
		t.Fatalf("the new game is at ply %d, want 1", got)
	}
	b.play() // Black bans
	// The computer moves, then bans.
	for _, ply := range []int{2, 3} {
		s := b.eng.next(t)
		if s.g.Ply() != ply {
			t.Fatalf("the computer searched ply %d, want %d", s.g.Ply(), ply)
		}
		s.answer()
		b.waitPly(ply + 1)
	}
	// Once every search has ended, none but those two was started: not
	// one at ply 1, before the human's ban, nor one at the human's move.
	b.svc.Close()
	close(b.eng.calls)
	for s := range b.eng.calls {
		t.Errorf("the computer also searched ply %d", s.g.Ply())
	}
}

func TestBotUndoTakesBackBoth(t *testing.T) {
	b := newBotEnv(t, rules.Black)
	b.play()
	b.eng.next(t).answer()
	b.waitPly(3)
	b.eng.next(t).answer()
	b.waitPly(4)
	b.play() // Black moves
	b.play() // Black bans
	b.eng.next(t).answer()
	b.waitPly(7)
	b.eng.next(t).answer()
	b.waitPly(8)
	// Undo takes back Black's ban (ply 5) and White's move and ban since.
	undone, err := b.svc.Undo(b.ctx, b.id, b.cred, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.ply(); got != 5 {
		t.Errorf("after undo at ply %d, want 5", got)
	}
	if undone.Ply.Actor != rules.Black {
		t.Errorf("undid %+v, want Black's ply", undone.Ply)
	}
	// The watcher, not the computer, may not undo.
	if _, err := b.svc.Undo(b.ctx, b.id, issue(t, b.svc), nil); err == nil {
		t.Error("a stranger took back a ply")
	}
}

func TestBotStaleSearchRefused(t *testing.T) {
	b := newBotEnv(t, rules.Black)
	b.play()
	b.eng.next(t).answer()
	b.waitPly(3)
	// White bans after its move: hold the search while Black undoes.
	s := b.eng.next(t)
	if _, err := b.svc.Undo(b.ctx, b.id, b.cred, nil); err != nil {
		t.Fatal(err)
	}
	// The change cancelled the pending search.
	select {
	case <-s.ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the change did not cancel the search")
	}
	if got := b.ply(); got != 1 {
		t.Fatalf("after undo at ply %d, want 1", got)
	}
	s.answer() // too late: nothing is played
	b.play()
	// The new search is for the new ply.
	if s := b.eng.next(t); s.g.Ply() != 2 {
		t.Errorf("new search at ply %d, want 2", s.g.Ply())
	}
}

func TestCreateBotRefuses(t *testing.T) {
	e := newEnv(t, games.WithComputer(computer.New(&fakeEngine{calls: make(chan search, 4)})))
	defer e.svc.Close()
	cred := e.cred()
	for _, tc := range []struct {
		name  string
		g     *rules.Game
		level int
	}{
		{"level 0", rules.New(rules.BanChess{}), 0},
		{"level 9", rules.New(rules.BanChess{}), 9},
		{"a variant the engine does not play", rules.New(rulestest.NoFifty{}), 3},
	} {
		if _, _, err := e.svc.CreateBot(e.ctx, cred, tc.g, games.BotSettings{Level: tc.level}); !errors.As(err, new(*errs.Error)) || errs.Of(err).Code != errs.Invalid {
			t.Errorf("%s: %v, want Invalid", tc.name, err)
		}
	}
}

// A game against the real engine at level 1 plays itself on.
func TestBotWithEngine(t *testing.T) {
	e := newEnv(t, games.WithComputer(computer.New(engine.NewPool(1, 2, 1))))
	defer e.svc.Close()
	e.botGame(e.ctx, rules.New(rules.Classic{}), rules.Black, 1).waitPly(2)
}

// botGame starts g against the computer at level on e's engine, for
// ctx's client, the human playing side.
func (e *env) botGame(ctx context.Context, g *rules.Game, side rules.Color, level int) *botEnv {
	e.t.Helper()
	cred := e.cred()
	id, _, err := e.svc.CreateBot(ctx, cred, g, games.BotSettings{Color: side, Level: level})
	if err != nil {
		e.t.Fatal(err)
	}
	w, _ := e.svc.Watch(e.ctx, id, cred)
	e.t.Cleanup(w.Close)
	return &botEnv{env: e, cred: cred, id: id, watch: w}
}

// A server that starts again finds the computer to act and resumes it at
// the first look at the game.
func TestBotResumesAfterRestart(t *testing.T) {
	b := newBotEnv(t, rules.White)
	b.eng.next(t) // the search the restart loses
	b.svc.Close()
	eng := &fakeEngine{calls: make(chan search, 4)}
	again := newService(b.store, games.WithComputer(computer.New(eng)))
	defer again.Close()
	w, err := again.Watch(b.ctx, b.id, b.cred)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	b2 := &botEnv{env: &env{t: t, ctx: b.ctx, svc: again, store: b.store}, eng: eng, cred: b.cred, id: b.id, watch: w}
	if got := b2.ply(); got != 1 {
		t.Fatalf("at ply %d, want 1", got)
	}
	b2.eng.next(t).answer()
	b2.waitPly(2)
}

// newClockBot starts a game against the computer (Black, level 8) with a
// clock.
func newClockBot(t *testing.T, tc games.TimeControl) *botEnv {
	t.Helper()
	eng := &fakeEngine{calls: make(chan search, 4)}
	e := newEnv(t, games.WithComputer(computer.New(eng)))
	t.Cleanup(e.svc.Close)
	cred := e.cred()
	id, _, err := e.svc.CreateBot(e.ctx, cred, rules.New(rules.BanChess{}), games.BotSettings{Color: rules.White, Level: 8, Clock: &tc})
	if err != nil {
		t.Fatal(err)
	}
	w, err := e.svc.Watch(e.ctx, id, cred)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return &botEnv{env: e, eng: eng, cred: cred, id: id, watch: w}
}

// TestBotOnClock: in a game with a clock the computer thinks by its clock
// (not its level's time a ply), within a deadline, and its clock runs from
// the start.
func TestBotOnClock(t *testing.T) {
	b := newClockBot(t, games.TimeControl{Initial: 3 * time.Minute, Increment: 2 * time.Second})
	s := b.eng.next(t)
	most, target := engine.Clock{Left: 3 * time.Minute, Increment: 2 * time.Second, Overhead: 50 * time.Millisecond}.Budget()
	if s.lim.Time != most || s.lim.Target != target {
		t.Errorf("limits %+v, want the clock's budget %v, aiming at %v", s.lim, most, target)
	}
	if d, ok := s.ctx.Deadline(); !ok || time.Until(d) > most {
		t.Errorf("the search's deadline is %v away (set: %v), want at most %v", time.Until(d), ok, most)
	}
	var running rules.Color
	b.svc.View(b.ctx, b.id, b.cred, func(rec *games.Record, _ games.Seats) { running = rec.Clock.Running })
	if running != rules.Black {
		t.Errorf("the clock runs for %v, want Black (the computer bans first)", running)
	}
	s.answer()
	b.waitPly(2)
}

// TestBotOutOfTime: a computer whose time ran out before its search
// answered plays a quick search of its own at once rather than lose on
// time waiting.
func TestBotOutOfTime(t *testing.T) {
	b := newClockBot(t, games.TimeControl{Initial: 10 * time.Second}) // the test's clock takes a second a look
	s := b.eng.next(t)                                                // never answered
	<-s.ctx.Done()
	b.waitPly(2)
}

// TestBotFairAmongClients: one client's many games against the computer
// at level 8 do not hold up another client's level-6 game (a search of
// the workers', as level 8's; levels 1 to 5 have a searcher of their own)
// — the engine serves the client it served least recently, so the
// other's ply goes after at most the search running and one more, not
// after all of the first client's.
func TestBotFairAmongClients(t *testing.T) {
	pool := &countingPool{Pool: engine.NewPool(1, 0, 1)}
	e := newEnv(t, games.WithComputer(computer.New(pool, computer.WithTimePerPly(100*time.Millisecond))))
	defer e.svc.Close()
	flood := engine.WithClient(e.ctx, "198.51.100.7")
	var theirs []string
	for range 8 { // the computer, Black, bans first in each
		id, _, err := e.svc.CreateBot(flood, e.cred(), rules.New(rules.BanChess{}), games.BotSettings{Color: rules.White, Level: 8})
		if err != nil {
			t.Fatal(err)
		}
		theirs = append(theirs, id)
	}
	for deadline := time.Now().Add(5 * time.Second); pool.plays.Load() < 8; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of the 8 searches asked for", pool.plays.Load())
		}
	}
	e.botGame(engine.WithClient(e.ctx, "203.0.113.9"), rules.New(rules.BanChess{}), rules.White, 6).waitPly(2)
	played := 0
	for _, other := range theirs {
		e.svc.View(e.ctx, other, "", func(rec *games.Record, _ games.Seats) {
			if rec.Game.Ply() > 1 {
				played++
			}
		})
	}
	if played > 2 {
		t.Errorf("the level-6 game's ply came after %d of the other client's 8 level-8 plies, want at most 2", played)
	}
}

// countingPool counts the computer's searches asked of a pool.
type countingPool struct {
	*engine.Pool
	plays atomic.Int32
}

func (p *countingPool) Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error) {
	p.plays.Add(1)
	return p.Pool.Play(ctx, g, lim)
}
