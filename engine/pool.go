package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/internal/ratelimit"
	"github.com/banchess/banchess/rules"
)

// ErrBusy matches every refusal of a Pool (errors.Is): each is a
// *BusyError saying why and how long to wait.
var ErrBusy = errors.New("engine: busy")

// ErrPreempted is returned, with the result of the deepest search
// completed, by an analysis cut short so that the computer could play
// (see WithYieldAfter). It matches ErrBusy, so a caller that retries busy
// searches retries it.
var ErrPreempted = fmt.Errorf("%w: the analysis was cut short for the computer's ply", ErrBusy)

// BusyReason says why a Pool refused an analysis.
type BusyReason string

// The reasons.
const (
	// QueueFull: every worker is searching and the queue is full, or the
	// analysis waited as long as it may (WithMaxWait).
	QueueFull BusyReason = "queue_full"
	// ClientBusy: the client has as many analyses running or waiting as
	// it may (WithPerClient).
	ClientBusy BusyReason = "client_busy"
	// ClientRate: the client has spent its share of the engine's time
	// (WithClientRate).
	ClientRate BusyReason = "client_rate"
)

// BusyError is an analysis the Pool refused, and when to try again.
type BusyError struct {
	Reason BusyReason
	Wait   time.Duration
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("engine: busy (%s): try again in %v", e.Reason, e.Wait.Round(time.Millisecond))
}

// Is makes every BusyError match ErrBusy.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

type clientKey struct{}

// WithClient returns ctx saying which client a search is for (an
// address, say): a Pool shares its workers fairly among clients and
// bounds each one's analyses. A search with no client is the server's own
// (a background job), bounded only by the pool.
func WithClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientKey{}, client)
}

// ClientOf returns the client ctx names (see WithClient), or "".
func ClientOf(ctx context.Context) string {
	c, _ := ctx.Value(clientKey{}).(string)
	return c
}

// quickTTMB is the table of the quick plays' searcher, in MiB: they visit
// at most QuickNodes positions.
const quickTTMB = 4

// The defaults of a Pool's options.
const (
	DefaultPerClient  = 1
	DefaultMaxWait    = 10 * time.Second
	DefaultYieldAfter = 500 * time.Millisecond
	// DefaultClientShare and DefaultClientBurst: a client may search 30 s
	// a minute, and a minute at once.
	DefaultClientShare = 0.5
	DefaultClientBurst = time.Minute
)

// PoolOption configures a Pool.
type PoolOption func(*Pool)

// WithPerClient bounds the analyses one client may have running or
// waiting at once (0: no bound); more are refused (ClientBusy).
func WithPerClient(n int) PoolOption { return func(p *Pool) { p.perClient = n } }

// WithMaxWait bounds how long an analysis waits for a worker (0: until its
// context ends); then it is refused (QueueFull), so that a request's wait
// and search fit within the time a server gives its answer.
func WithMaxWait(d time.Duration) PoolOption { return func(p *Pool) { p.maxWait = d } }

// WithYieldAfter makes an analysis that has searched for d give its worker
// to the computer's plies, or another client's analysis, waiting for one:
// it ends with the result of the deepest search completed and
// ErrPreempted. 0 never cuts one short.
func WithYieldAfter(d time.Duration) PoolOption { return func(p *Pool) { p.yieldAfter = d } }

// WithClientRate gives each client a share of the engine's time: share
// seconds of search a second, and burst at once (share 0: no bound). An
// analysis reserves its time limit (a second when it has none) and is
// refused (ClientRate) when the client's share does not hold it; what it
// did not use is given back.
func WithClientRate(share float64, burst time.Duration) PoolOption {
	return func(p *Pool) { p.share = ratelimit.New(share, burst.Seconds(), p.now) }
}

// Pool runs searches on a fixed number of workers, each with its own
// transposition table, so that searches cannot take more of the machine
// than the workers (and one quick ply of the computer's, see Play). The
// computer's plies (Play) are never refused; analyses beyond the workers
// wait in a short queue, for a bounded time, and are refused beyond that
// (*BusyError).
//
// Workers are shared fairly among clients (WithClient): the next search
// is the waiting client's that was served least recently (one that was
// not served since it came first), its plies before its analysis, so one
// client's many games or analyses make another's wait at most one search
// each. An analysis running while plies, or another client's analysis,
// wait yields its worker after a short time (WithYieldAfter) with what it
// found so far; after one yields for plies, they go first. Each client
// may have one analysis at a time and a share of the engine's time
// (WithPerClient, WithClientRate).
type Pool struct {
	room       int // how many analyses may wait
	perClient  int
	maxWait    time.Duration
	yieldAfter time.Duration
	share      *ratelimit.Limiter // engine seconds per client; nil: no bound
	now        func() time.Time

	quick chan *Searcher // the searcher of quick plays (see Quick), when free

	mu       sync.Mutex
	idle     []*Searcher // workers free now
	clients  map[string]*line
	analyses int // analyses waiting
	plays    int // plays waiting
	running  map[*job]bool
	turns    uint64 // searches started
	arrivals uint64 // lines opened
}

// line is one client's searches: waiting, and running.
type line struct {
	plays    []*job // waiting plays, oldest first
	analyses []*job // analyses, running or waiting, oldest first
	running  int    // searches running
	served   uint64 // the turn its last search started; 0: none since it came
	arrived  uint64 // when it came, among lines
}

// job is one search, waiting for a worker or running.
type job struct {
	client  string
	play    bool
	lim     Limits
	cost    float64        // seconds reserved from the client's share
	worker  chan *Searcher // the worker handed over (buffered: release never blocks)
	stop    func(error)    // ends the search, with a cause
	started time.Time      // zero while it waits
	yield   *time.Timer    // set while an analysis runs and plies wait
	yielded bool           // cut short for plies
}

// NewPool returns a pool of workers (at least 1) with queue places for
// analyses, each worker with a table of ttMB MiB. Without options, an
// analysis waits at most DefaultMaxWait, yields to plies after
// DefaultYieldAfter, and each client has DefaultPerClient analysis at a
// time and a share of DefaultClientShare (bursts of DefaultClientBurst).
func NewPool(workers, queue, ttMB int, opts ...PoolOption) *Pool {
	p := &Pool{
		room: max(queue, 0), perClient: DefaultPerClient, maxWait: DefaultMaxWait, yieldAfter: DefaultYieldAfter,
		now: time.Now, clients: map[string]*line{}, running: map[*job]bool{},
	}
	p.share = ratelimit.New(DefaultClientShare, DefaultClientBurst.Seconds(), p.now)
	for _, o := range opts {
		o(p)
	}
	for range max(workers, 1) {
		p.idle = append(p.idle, NewSearcher(ttMB))
	}
	p.quick = make(chan *Searcher, 1)
	p.quick <- NewSearcher(quickTTMB)
	return p
}

// Analyse searches g's current moment within lim on a free worker,
// waiting for one in the queue; ctx ends the wait and the search at once.
// A refusal is a *BusyError; an analysis cut short for the computer's
// plies returns its result with ErrPreempted.
func (p *Pool) Analyse(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	return p.search(ctx, g, lim, false)
}

// Play is Analyse for the computer's ply in a game: it is never refused,
// and goes before the analyses of its client and of any client served as
// recently. A quick ply (see Quick: the lower levels') does not wait for
// the workers: it has a searcher of its own, so that it never waits behind
// the long searches of others.
func (p *Pool) Play(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	if Quick(lim) {
		return p.quickSearch(ctx, g, lim)
	}
	return p.search(ctx, g, lim, true)
}

// QuickNodes bounds the searches Quick calls quick.
const QuickNodes = 60_000

// Quick reports whether a search within lim is bounded to a few tens of
// milliseconds whatever the position: by depth 2 at most, or by QuickNodes
// positions, and by no time (levels 1 to 5 are).
func Quick(lim Limits) bool {
	return lim.Time == 0 && (lim.Depth > 0 && lim.Depth <= 2 || lim.Nodes > 0 && lim.Nodes <= QuickNodes)
}

// quickSearch runs a quick play on the pool's quick searcher, waiting for
// it (a few milliseconds) as long as ctx lasts.
func (p *Pool) quickSearch(ctx context.Context, g *rules.Game, lim Limits) (Result, error) {
	st, err := FromGame(g)
	if err != nil {
		return Result{}, err
	}
	select {
	case s := <-p.quick:
		defer func() { p.quick <- s }()
		return s.Search(ctx, st, lim)
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

func (p *Pool) search(ctx context.Context, g *rules.Game, lim Limits, play bool) (Result, error) {
	st, err := FromGame(g)
	if err != nil {
		return Result{}, err
	}
	sctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	j := &job{client: ClientOf(ctx), play: play, lim: lim, worker: make(chan *Searcher, 1), stop: stop}
	s, err := p.acquire(ctx, j)
	if err != nil {
		return Result{}, err
	}
	res, err := s.Search(sctx, st, lim)
	p.release(s, j)
	if err != nil && ctx.Err() == nil && context.Cause(sctx) == ErrPreempted {
		return res, ErrPreempted
	}
	return res, err
}

// acquire takes a free worker for j, or waits for one in its client's line.
func (p *Pool) acquire(ctx context.Context, j *job) (*Searcher, error) {
	p.mu.Lock()
	l := p.line(j.client)
	if !j.play {
		if err := p.admit(l, j); err != nil {
			p.drop(j.client, l)
			p.mu.Unlock()
			return nil, err
		}
	}
	if n := len(p.idle); n > 0 { // no one waits while a worker is free
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		if !j.play {
			l.analyses = append(l.analyses, j)
		}
		p.start(l, j)
		p.mu.Unlock()
		return s, nil
	}
	if j.play {
		l.plays = append(l.plays, j)
		p.plays++
	} else {
		if p.analyses >= p.room {
			p.share.Refund(j.client, j.cost)
			p.drop(j.client, l)
			wait := p.soonest()
			p.mu.Unlock()
			return nil, &BusyError{Reason: QueueFull, Wait: wait}
		}
		l.analyses = append(l.analyses, j)
		p.analyses++
	}
	for r := range p.running {
		p.armYield(r)
	}
	p.mu.Unlock()

	var timeout <-chan time.Time
	if !j.play && p.maxWait > 0 {
		t := time.NewTimer(p.maxWait)
		defer t.Stop()
		timeout = t.C
	}
	var err error
	select {
	case s := <-j.worker:
		return s, nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-timeout:
		err = &BusyError{Reason: QueueFull, Wait: p.soonestWait()}
	}
	p.mu.Lock()
	waiting := p.leave(j)
	p.mu.Unlock()
	if !waiting { // handed a worker as it gave up: hand it on
		p.release(<-j.worker, j)
	}
	return nil, err
}

// admit checks an analysis against its client's bounds and reserves its
// time from the client's share; p.mu is held.
func (p *Pool) admit(l *line, j *job) error {
	if j.client == "" {
		return nil // the server's own
	}
	if p.perClient > 0 && len(l.analyses) >= p.perClient {
		wait := time.Second
		if a := l.analyses[0]; !a.started.IsZero() && a.lim.Time > 0 {
			wait = max(wait, a.lim.Time-p.now().Sub(a.started))
		}
		return &BusyError{Reason: ClientBusy, Wait: wait}
	}
	j.cost = 1
	if j.lim.Time > 0 {
		j.cost = j.lim.Time.Seconds()
	}
	if wait := p.share.Take(j.client, j.cost); wait > 0 {
		j.cost = 0
		return &BusyError{Reason: ClientRate, Wait: wait}
	}
	return nil
}

// line returns client's line, opening it; p.mu is held.
func (p *Pool) line(client string) *line {
	l := p.clients[client]
	if l == nil {
		p.arrivals++
		l = &line{arrived: p.arrivals}
		p.clients[client] = l
	}
	return l
}

// drop closes client's line if nothing is left in it; p.mu is held.
func (p *Pool) drop(client string, l *line) {
	if len(l.plays) == 0 && len(l.analyses) == 0 && l.running == 0 {
		delete(p.clients, client)
	}
}

// start marks j, of line l, as running; p.mu is held.
func (p *Pool) start(l *line, j *job) {
	p.turns++
	l.served = p.turns
	l.running++
	j.started = p.now()
	p.running[j] = true
	p.armYield(j)
}

// armYield sets running analysis j to yield its worker once it has run
// for the pool's yieldAfter, if others wait for one (see awaited); p.mu
// is held.
func (p *Pool) armYield(j *job) {
	if j.play || j.yield != nil || p.yieldAfter <= 0 || !p.awaited(j) {
		return
	}
	j.yield = time.AfterFunc(max(0, p.yieldAfter-p.now().Sub(j.started)), func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch {
		case !p.running[j]:
		case p.awaited(j):
			j.yielded = true
			j.stop(ErrPreempted)
		default: // served meanwhile: arm again for the next
			j.yield = nil
		}
	})
}

// awaited reports whether running analysis j keeps others waiting: the
// computer's plies (anyone's), or another client's analysis (not the
// server's own, such as a review's, which waits its turn); p.mu is held.
func (p *Pool) awaited(j *job) bool {
	if p.plays > 0 {
		return true
	}
	for client, l := range p.clients {
		if client != j.client && client != "" && l.waitingAnalysis() != nil {
			return true
		}
	}
	return false
}

// leave takes waiting job j out of its line, and reports whether it was
// still waiting (not handed a worker); p.mu is held.
func (p *Pool) leave(j *job) bool {
	l := p.clients[j.client]
	if l == nil {
		return false
	}
	queue, count := &l.analyses, &p.analyses
	if j.play {
		queue, count = &l.plays, &p.plays
	}
	i := slices.Index(*queue, j)
	if i < 0 || !j.started.IsZero() {
		return false
	}
	*queue = slices.Delete(*queue, i, i+1)
	*count--
	p.share.Refund(j.client, j.cost)
	p.drop(j.client, l)
	return true
}

// release ends j's search on worker s and hands s to the next search
// waiting, or keeps it free.
func (p *Pool) release(s *Searcher, j *job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running[j] {
		delete(p.running, j)
		if j.yield != nil {
			j.yield.Stop()
		}
		l := p.clients[j.client]
		l.running--
		if !j.play {
			l.analyses = slices.DeleteFunc(l.analyses, func(a *job) bool { return a == j })
			p.share.Refund(j.client, j.cost-p.now().Sub(j.started).Seconds())
		}
		p.drop(j.client, l)
	}
	next, l := p.next(j.yielded)
	if next == nil {
		p.idle = append(p.idle, s)
		return
	}
	if next.play {
		l.plays = l.plays[1:]
		p.plays--
	} else {
		p.analyses--
	}
	p.start(l, next)
	next.worker <- s
}

// next returns the search to run next and its line, or nil: of the
// clients waiting, the one served least recently (the one that came
// first, between those not served since they came), its oldest play
// before its analysis. After an analysis yielded, only plays are
// considered, while any wait. p.mu is held.
func (p *Pool) next(playsFirst bool) (*job, *line) {
	var best *line
	for _, l := range p.clients {
		if len(l.plays) == 0 && (playsFirst && p.plays > 0 || l.waitingAnalysis() == nil) {
			continue
		}
		if best == nil || l.served < best.served || l.served == best.served && l.arrived < best.arrived {
			best = l
		}
	}
	switch {
	case best == nil:
		return nil, nil
	case len(best.plays) > 0:
		return best.plays[0], best
	}
	return best.waitingAnalysis(), best
}

// waitingAnalysis returns l's oldest analysis waiting, or nil.
func (l *line) waitingAnalysis() *job {
	for _, a := range l.analyses {
		if a.started.IsZero() {
			return a
		}
	}
	return nil
}

// soonest guesses when a worker may be free: when the first running
// search with a time limit reaches it (at least a second, at most
// DefaultMaxWait); p.mu is held.
func (p *Pool) soonest() time.Duration {
	wait := DefaultMaxWait
	for j := range p.running {
		if j.lim.Time > 0 {
			wait = min(wait, j.lim.Time-p.now().Sub(j.started))
		}
	}
	return max(wait, time.Second)
}

// soonestWait is soonest, taking p.mu.
func (p *Pool) soonestWait() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.soonest()
}
