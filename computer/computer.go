// Package computer plays the computer's seat at games against it: the
// games service tells it of each turn it owes a game (games.ComputerTurn),
// and it searches the position with the engine and plays what it found,
// one search at most pending per game.
package computer

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rules"
)

// Engine is the engine as the computer needs it; engine.Pool implements
// it. Play, the computer's ply in a game, waits for a worker ahead of
// analyses. It may keep g only for the call.
type Engine interface {
	Play(ctx context.Context, g *rules.Game, lim engine.Limits) (engine.Result, error)
}

// Player plays the computer's turns: at most one search pending per game,
// which a change to the game cancels. It implements games.Computer.
type Player struct {
	engine Engine
	perPly time.Duration // level 8's time; 0 is the engine's default

	mu      sync.Mutex
	pending map[string]*run
	closed  bool
	wg      sync.WaitGroup
}

type run struct{ cancel context.CancelFunc }

// Option configures a Player.
type Option func(*Player)

// WithTimePerPly sets the time level 8 thinks per ply in games without a
// clock (default engine.DefaultPerPly; levels 1–7 are bound by depth and
// nodes).
func WithTimePerPly(d time.Duration) Option { return func(p *Player) { p.perPly = d } }

// New returns a Player searching with e.
func New(e Engine, opts ...Option) *Player {
	p := &Player{engine: e, pending: map[string]*run{}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Turn cancels game id's pending search and, for a turn, starts one.
func (p *Player) Turn(id string, t *games.ComputerTurn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.pending[id]; r != nil {
		r.cancel()
		delete(p.pending, id)
	}
	if t == nil || p.closed {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel}
	p.pending[id] = r
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer cancel()
		p.play(ctx, t)
		p.mu.Lock()
		if p.pending[id] == r {
			delete(p.pending, id)
		}
		p.mu.Unlock()
	}()
}

// Idle reports whether game id has no search pending.
func (p *Player) Idle(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pending[id] == nil && !p.closed
}

// Close cancels every search and waits for them to end.
func (p *Player) Close() {
	p.mu.Lock()
	p.closed = true
	for id, r := range p.pending {
		r.cancel()
		delete(p.pending, id)
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// play searches t's position and plays the result at the ply it was
// searched at: a game that moved on meanwhile refuses it, harmlessly. On a
// clock the computer keeps its time (engine.LevelOnClock) from when its
// clock started, waiting for a worker included: out of time before a
// worker was free, it plays the best action one move deep at once.
func (p *Player) play(ctx context.Context, t *games.ComputerTurn) {
	lim, err := engine.Level(t.Level, p.perPly)
	if t.Clock != nil {
		lim, err = engine.LevelOnClock(t.Level, *t.Clock)
	}
	if err != nil {
		return
	}
	search := ctx
	if t.Clock != nil {
		var cancel context.CancelFunc
		search, cancel = context.WithDeadline(ctx, t.At.Add(lim.Time))
		defer cancel()
	}
	res, err := p.engine.Play(engine.WithClient(search, t.Client), t.Game, lim)
	if ctx.Err() != nil {
		return
	}
	if err != nil && res.Best == (rules.Action{}) && errors.Is(err, context.DeadlineExceeded) {
		res, err = quickSearch(t.Game)
	}
	if err != nil && (res.Best == (rules.Action{}) || !errors.Is(err, context.DeadlineExceeded)) {
		return
	}
	_ = t.Play(ctx, res.Best)
}

// quickSearch searches g one move deep, outside the pool: a millisecond
// or so, for a computer out of time.
func quickSearch(g *rules.Game) (engine.Result, error) {
	st, err := engine.FromGame(g)
	if err != nil {
		return engine.Result{}, err
	}
	return engine.NewSearcher(1).Search(context.Background(), st, engine.Limits{Depth: 1})
}
