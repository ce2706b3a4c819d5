package games

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/rules"
)

// Bot is the computer's seat at a game against it.
type Bot struct {
	// Color is the side the computer plays.
	Color rules.Color `json:"color"`
	// Level is its strength, 1 (weakest) to engine.Levels.
	Level int `json:"level"`
}

// botHolder is the holder of the computer's seat: no player has its id (a
// player's id is base64 without a colon).
func botHolder(level int) string { return "engine:" + strconv.Itoa(level) }

// BotSettings are what a game against the computer is created with.
type BotSettings struct {
	// Color is the human's side; no Color picks one at random.
	Color rules.Color
	// Level is the computer's strength, 1 to engine.Levels.
	Level int
	// Clock is the time control; nil for a game without a clock. Both
	// seats are taken at once, so it starts running at once.
	Clock *TimeControl
}

// CreateBot stores g as a new game between cred and the computer, which
// holds the other seat and plays its plies by itself (at once when it acts
// first). It returns the game's id and the human's side.
func (s *Service) CreateBot(ctx context.Context, cred Credential, g *rules.Game, settings BotSettings) (id string, side rules.Color, err error) {
	holder, err := s.creator(ctx, cred)
	switch {
	case err != nil:
		return "", 0, err
	case settings.Level < 1 || settings.Level > engine.Levels:
		return "", 0, errs.Errorf(errs.Invalid, "The level must be from 1 to %d.", engine.Levels).WithDetail(errs.BadLevel)
	case s.analyser == nil:
		return "", 0, errs.Internalf(errors.New("no engine"), "creating a game against the computer")
	}
	if !engine.Supports(g.Variant()) {
		return "", 0, s.unsupported("The computer plays %s only", g.Variant())
	}
	side = settings.Color
	if side != rules.White && side != rules.Black {
		side = randomColor()
	}
	now := s.now()
	rec := &Record{Game: g, Mode: BotGame, Created: now, Updated: now, Revision: 1}
	rec.Bot = &Bot{Color: side.Other(), Level: settings.Level}
	if side == rules.White {
		rec.White, rec.Black = holder, botHolder(settings.Level)
	} else {
		rec.White, rec.Black = botHolder(settings.Level), holder
	}
	if settings.Clock != nil {
		rec.Clock = NewClock(*settings.Clock)
		if !g.Outcome().Over() {
			rec.Clock.run(g.Turn().Actor, now)
		}
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return "", 0, errs.Of(err)
	}
	s.timers.set(rec.ID, flagTimerOf(rec, now), s.checkClock)
	s.bots.schedule(s, rec.ID, botJobOf(rec, now, engine.ClientOf(ctx)))
	return rec.ID, side, nil
}

// botJob is a search the computer owes a game: its copy of the game, taken
// under the lock, the ply it was taken at, in a game with a clock the
// computer's clock then, and the client whose request made it due (the
// engine shares its workers fairly among clients).
type botJob struct {
	game   *rules.Game
	ply    int
	level  int
	clock  *engine.Clock
	at     time.Time // when the clock was read, on the machine's clock
	client string
}

// botOverhead is the time a ply of the computer's loses outside its
// search (starting it, replaying the game, saving the ply).
const botOverhead = 50 * time.Millisecond

// botJobOf returns the search rec needs at now, for client (see
// engine.WithClient), or nil when the computer plays no part in it or is
// not to act.
func botJobOf(rec *Record, now time.Time, client string) *botJob {
	g := rec.Game
	if rec.Bot == nil || g.Outcome().Over() || g.Turn().Actor != rec.Bot.Color {
		return nil
	}
	cp, err := rules.Replay(g.Variant(), g.StartFEN(), g.BCN())
	if err != nil {
		return nil // the game replays from its own record; never seen
	}
	job := &botJob{game: cp, ply: g.Ply(), level: rec.Bot.Level, at: time.Now(), client: client}
	if c := rec.Clock; c != nil && c.Running == rec.Bot.Color {
		job.clock = &engine.Clock{Left: c.Left(rec.Bot.Color, now), Increment: c.Control.Increment, Overhead: botOverhead}
	}
	return job
}

// bots runs the computer's searches: at most one pending per game, which
// a change to the game cancels.
type bots struct {
	mu      sync.Mutex
	pending map[string]*botRun
	closed  bool
	wg      sync.WaitGroup
	perPly  time.Duration // level 8's time; 0 is the engine's default
}

type botRun struct{ cancel context.CancelFunc }

// schedule cancels game id's pending search and, for a job, starts one.
func (b *bots) schedule(s *Service, id string, job *botJob) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if run := b.pending[id]; run != nil {
		run.cancel()
		delete(b.pending, id)
	}
	if job == nil || b.closed {
		return
	}
	if b.pending == nil {
		b.pending = map[string]*botRun{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &botRun{cancel: cancel}
	b.pending[id] = run
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer cancel()
		s.botPlay(ctx, id, job, b.perPly)
		b.mu.Lock()
		if b.pending[id] == run {
			delete(b.pending, id)
		}
		b.mu.Unlock()
	}()
}

// idle reports whether game id has no search pending.
func (b *bots) idle(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pending[id] == nil && !b.closed
}

// resume starts game id's search, for client, when the computer is to act
// and none is pending: after a restart, or a change another server made.
func (s *Service) resume(id string, rec *Record, client string) *botJob {
	if rec.Bot == nil || !s.bots.idle(id) {
		return nil
	}
	return botJobOf(rec, s.now(), client)
}

// stop cancels every search and waits for them to end.
func (b *bots) stop() {
	b.mu.Lock()
	b.closed = true
	for id, run := range b.pending {
		run.cancel()
		delete(b.pending, id)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// botPlay searches job's position and plays the result at the ply it was
// searched at: a game that moved on meanwhile refuses it, harmlessly. On a
// clock the computer keeps its time (engine.LevelOnClock) from when its
// clock started, waiting for a worker included: out of time before a
// worker was free, it plays the best action one move deep at once.
func (s *Service) botPlay(ctx context.Context, id string, job *botJob, perPly time.Duration) {
	lim, err := engine.Level(job.level, perPly)
	if job.clock != nil {
		lim, err = engine.LevelOnClock(job.level, *job.clock)
	}
	if err != nil {
		return
	}
	search := ctx
	if job.clock != nil {
		var cancel context.CancelFunc
		search, cancel = context.WithDeadline(ctx, job.at.Add(lim.Time))
		defer cancel()
	}
	res, err := s.analyser.Play(engine.WithClient(search, job.client), job.game, lim)
	if ctx.Err() != nil {
		return
	}
	if err != nil && res.Best == (rules.Action{}) && errors.Is(err, context.DeadlineExceeded) {
		res, err = quickSearch(job.game)
	}
	if err != nil && (res.Best == (rules.Action{}) || !errors.Is(err, context.DeadlineExceeded)) {
		return
	}
	_ = s.update(ctx, id, "", nil, func(rec *Record, _ Seats) error {
		g := rec.Game
		if rec.Bot == nil || g.Outcome().Over() || g.Turn().Actor != rec.Bot.Color {
			return errs.Errorf(errs.Conflict, "The computer is not to act.")
		}
		if err := checkPly(g, job.ply); err != nil {
			return err
		}
		return g.Play(res.Best)
	})
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

// WithBotTime sets the time level 8 thinks per ply in games against the
// computer (default engine.DefaultPerPly).
func WithBotTime(perPly time.Duration) Option { return func(s *Service) { s.bots.perPly = perPly } }

// undoBot takes back, at a game against the computer, its player's last
// ply and the computer's since (mayUndo allowed it), and returns the
// player's ply.
func undoBot(rec *Record) (rules.PlyInfo, error) {
	g := rec.Game
	keep := lastPlyBy(g, rec.Bot.Color.Other())
	undone := g.Record().HistorySince(keep)[0]
	for g.Ply()-g.StartPly() > keep {
		if err := g.Undo(); err != nil {
			return undone, err
		}
	}
	return undone, nil
}
