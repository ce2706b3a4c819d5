package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/banchess/banchess/rules"
)

// Scores.
const (
	infinity = 32000
	mateVal  = 30000
	mateMin  = mateVal - 1000 // scores beyond ±mateMin are mates
	maxPly   = 128
	qsDepth  = 6 // quiescence plies at most
)

// Limits bound a search; zero fields do not limit.
type Limits struct {
	Depth int           // moves (each with the ban before it) to look ahead
	Nodes int64         // positions to visit, all threads together
	Time  time.Duration // time to think at most
	// Target is the time the search aims at: it starts no depth once half
	// of it has passed (the next would rarely finish). 0 aims at Time.
	Target time.Duration
	// Noise adds up to ±Noise centipawns to every evaluation, the same for
	// a position each time (weaker levels use it).
	Noise int
	// Threads is how many goroutines search at once, sharing the
	// transposition table (Lazy SMP); 0 is one.
	Threads int
	// MultiPV is how many lines to find (the best actions' lines, best
	// first, in Result.Lines); 0 is one.
	MultiPV int
}

// Bounded reports whether the limits end a search by themselves (depth,
// nodes or time); a search without them runs to depth 64 or until
// cancelled.
func (l Limits) Bounded() bool { return l.Depth > 0 || l.Nodes > 0 || l.Time > 0 }

// Request is a search: its limits, and what a GUI may ask besides.
type Request struct {
	Limits
	// SearchMoves, when not empty, are the only actions considered now:
	// bans at a ban ply, moves at a move ply.
	SearchMoves []rules.Action
	// Report, when set, is called with the result so far after each depth
	// completed, on the searching goroutine.
	Report func(Result)
}

// Line is one line a search found: the actions expected from now and their
// value for the side to act.
type Line struct {
	PV    []rules.Action
	Score int // centipawns, when Mate is 0
	Mate  int // plies to mate: positive if the side to act mates, negative if it is mated; 0 for none
}

// Result is what a search found. Scores are for the side to act (the banner
// at a ban ply).
type Result struct {
	Best  rules.Action   // the best action for the side to act
	PV    []rules.Action // the expected line, Best first
	Score int            // centipawns, when Mate is 0
	Mate  int            // plies to mate: positive if the side to act mates, negative if it is mated; 0 for none
	// Lines are the best lines, best first: Lines[0] is PV, and there are
	// up to Limits.MultiPV of them.
	Lines []Line
	Depth int // moves searched to (the last depth completed)
	Nodes int64
	Time  time.Duration
}

// ErrNoAction is returned when the side to act has nothing to play.
var ErrNoAction = errors.New("engine: the side to act has no legal action (the game is over)")

// Searcher searches Ban Chess, Classic and EN-Chess positions. It keeps a transposition table,
// shared by its threads, and each thread's move-ordering statistics
// between searches; it is not safe for concurrent use.
type Searcher struct {
	tt        table
	threads   []*thread
	enThreads []*enThread // EN-Chess's
	// mainNodes is the main thread's share of the last search's nodes:
	// with a core a thread, the time to a depth goes with it.
	mainNodes int64
}

// thread is what one searching goroutine keeps for itself: the history and
// killer moves that order its moves, and its move lists.
type thread struct {
	history [2][4096]int32
	killers [maxPly][2]Move
	moves   [maxPly + 2*qsDepth + 8][]Move
}

func newThread() *thread {
	t := &thread{}
	for i := range t.moves {
		t.moves[i] = make([]Move, 0, 96)
	}
	return t
}

// NewSearcher returns a searcher with a transposition table of about mb MiB
// (at least 1).
func NewSearcher(mb int) *Searcher {
	return &Searcher{tt: newTable(mb)}
}

// Clear forgets what earlier searches learnt (a new game).
func (e *Searcher) Clear() {
	e.tt.clear()
	for i := range e.threads {
		e.threads[i] = newThread()
	}
	for i := range e.enThreads {
		e.enThreads[i] = newENThread()
	}
}

// shared is what the threads of one search share besides the table.
type shared struct {
	stop  atomic.Bool  // the main thread is done: helpers stop
	nodes atomic.Int64 // nodes searched, counted in batches of 1024
}

// search is one thread's working state in a search.
type search struct {
	*thread
	tt       table
	shared   *shared
	ctx      context.Context
	s        *State
	pos      *Position
	lim      Limits
	report   func(Result) // the main thread's Request.Report
	deadline time.Time
	nodes    int64 // this thread's
	stopped  bool
	keys     []uint64 // positions on the board so far, the current one last
	rootBan  int
	root     rootFilter
	rootTop  top2 // the root turn's best two moves, as last searched
	rootFree Move // at a ban root that restricts the bans: the best move whose pair may not be banned
	// exact turns off what makes the search inexact (reductions, table
	// cutoffs, quiescence) so tests can compare it with plain minimax.
	exact bool
}

// rootFilter restricts the actions considered at the root (SearchMoves, and
// the lines already found for MultiPV).
type rootFilter struct {
	on    bool
	moves map[Move]bool // at a move root: the moves that may be played
	bans  map[int]bool  // at a ban root: the pairs that may be banned
}

// Search finds the best action from s within the limits; ctx cancels it at
// once (the result then holds the deepest search completed). With no limit
// at all it searches to depth 64.
func (e *Searcher) Search(ctx context.Context, s *State, lim Limits) (Result, error) {
	return e.Run(ctx, s, Request{Limits: lim})
}

// Run is Search for a request: its root actions and reports too.
func (e *Searcher) Run(ctx context.Context, s *State, req Request) (Result, error) {
	if s.en != nil {
		return e.runEN(ctx, s, req)
	}
	start := time.Now()
	lim := req.Limits
	legal := len(s.Legal())
	if legal == 0 {
		return Result{}, ErrNoAction
	}
	base, err := s.rootFilter(req.SearchMoves)
	if err != nil {
		return Result{}, err
	}
	n := max(lim.Threads, 1)
	for len(e.threads) < n {
		e.threads = append(e.threads, newThread())
	}
	sh := &shared{}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	workers := make([]*search, n)
	for i := range workers {
		t := e.threads[i]
		t.killers = [maxPly][2]Move{}
		for c := range t.history {
			for j := range t.history[c] {
				t.history[c][j] /= 8
			}
		}
		w := &search{thread: t, tt: e.tt, shared: sh, ctx: ctx, s: s, pos: s.pos.Copy(), lim: lim, report: req.Report, deadline: deadline, rootBan: s.ban, root: base}
		w.keys = append(make([]uint64, 0, len(s.history)+maxPly), s.history...)
		workers[i] = w
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > 64 {
		maxDepth = 64
	}
	var wg sync.WaitGroup
	for i, w := range workers[1:] {
		wg.Go(func() { w.help(i+1, maxDepth) })
	}
	if legal == 1 && lim.Target > 0 {
		maxDepth = 1 // on a clock, a forced action is played at once
	}
	res := workers[0].deepen(start, maxDepth)
	sh.stop.Store(true)
	wg.Wait()
	res.Nodes = sh.nodes.Load()
	for _, w := range workers {
		res.Nodes += w.nodes & 1023
	}
	res.Time = time.Since(start)
	e.mainNodes = workers[0].nodes
	return res, ctx.Err()
}

// deepen is the main thread's iterative deepening: each depth finds the
// lines one after another, each searching the root actions the lines
// before left.
func (w *search) deepen(start time.Time, maxDepth int) Result {
	target := w.lim.Target
	if target <= 0 {
		target = w.lim.Time
	}
	want := max(w.lim.MultiPV, 1)
	var res Result
	var last time.Duration // when the depth before finished
	for d := 1; d <= maxDepth; d++ {
		var lines []Line
		base := w.root
		for k := 0; k < want && w.root.any(w.s); k++ {
			v := w.turn(d, 0, -infinity, infinity, w.rootBan)
			if w.stopped && (d > 1 || k > 0) {
				break
			}
			lines = append(lines, w.result(v, d))
			w.root = w.s.exclude(base, lines)
			if w.stopped {
				break
			}
		}
		w.root = base
		if w.stopped && d > 1 {
			break
		}
		res = Result{Best: lines[0].PV[0], PV: lines[0].PV, Score: lines[0].Score, Mate: lines[0].Mate, Lines: lines, Depth: d}
		if w.report != nil {
			rep := res
			rep.Nodes, rep.Time = w.shared.nodes.Load()+w.nodes&1023, time.Since(start)
			w.report(rep)
		}
		if w.stopped || (res.Mate != 0 && abs(res.Mate) <= 2*d && want == 1) {
			break
		}
		// The next depth costs a few times this one: past half the time
		// aimed at, it would rarely finish, and its work be lost.
		elapsed := time.Since(start)
		if target > 0 && elapsed > target/2 {
			break
		}
		// On a clock, neither start one that the last depths' growth says
		// would not finish in time.
		if w.lim.Target > 0 && d >= 2 && elapsed*time.Duration(growth(elapsed, last)) > w.lim.Time {
			break
		}
		last = elapsed
	}
	return res
}

// growth is how many times the time so far the next depth is likely to
// take, from how the last depth grew on the one before (2 to 10 times).
func growth(now, before time.Duration) int64 {
	if before <= 0 {
		return 10
	}
	return int64(min(max(now/before, 2), 10))
}

// help is a helper thread's iterative deepening (Lazy SMP): it searches the
// same root, every other helper a depth ahead of the main thread, and what
// it learns reaches the main thread through the shared table.
func (w *search) help(id, maxDepth int) {
	for d := 1 + id%2; d <= maxDepth && !w.stopped; d++ {
		w.turn(d, 0, -infinity, infinity, w.rootBan)
	}
	w.shared.nodes.Add(w.nodes & 1023)
	w.nodes &^= 1023
}

// rootFilter is the root filter of SearchMoves: nothing for none, else
// the bans (at a ban ply) or moves (at a move ply) among them that are
// legal now; an error when none is.
func (s *State) rootFilter(only []rules.Action) (rootFilter, error) {
	if len(only) == 0 {
		return rootFilter{}, nil
	}
	f := rootFilter{on: true, moves: map[Move]bool{}, bans: map[int]bool{}}
	legal := s.pos.Legal(make([]Move, 0, 64))
	for _, a := range only {
		for _, m := range legal {
			switch {
			case m.Pair() == s.ban:
			case s.bans && s.banPhase && a.Phase == rules.PhaseBan && m.Pair() == pairOf(a.Pair()):
				f.bans[m.Pair()] = true
			case !(s.bans && s.banPhase) && a.Phase == rules.PhaseMove && m.From() == int(a.From) && m.To() == int(a.To) && promoKind(m) == a.Promotion:
				f.moves[m] = true
			}
		}
	}
	if !f.any(s) {
		return f, fmt.Errorf("engine: none of the actions to search (%v) is legal now", only)
	}
	return f, nil
}

// any reports whether the filter leaves the root an action.
func (f rootFilter) any(s *State) bool {
	if !f.on {
		return true
	}
	return len(f.moves) > 0 || len(f.bans) > 0
}

// exclude returns base without the first actions of lines (the lines
// MultiPV found already). An empty base is every legal action.
func (s *State) exclude(base rootFilter, lines []Line) rootFilter {
	if len(lines) == 0 {
		return base
	}
	f := rootFilter{on: true, moves: map[Move]bool{}, bans: map[int]bool{}}
	for _, m := range s.pos.Legal(make([]Move, 0, 64)) {
		switch {
		case m.Pair() == s.ban:
		case s.bans && s.banPhase:
			if !base.on || base.bans[m.Pair()] {
				f.bans[m.Pair()] = true
			}
		case !base.on || base.moves[m]:
			f.moves[m] = true
		}
	}
	for _, l := range lines {
		a := l.PV[0]
		if a.Phase == rules.PhaseBan {
			delete(f.bans, pairOf(a.Pair()))
			continue
		}
		if m, ok := s.pos.find(a); ok {
			delete(f.moves, m)
		}
	}
	return f
}

// result turns the root value and the line that follows the root's best
// moves into a Line.
func (w *search) result(v, depth int) Line {
	var res Line
	banRoot := w.s.bans && w.s.banPhase
	if banRoot {
		v = -v // the banner's view
	}
	switch {
	case v > mateMin:
		res.Mate = mateVal - v
	case v < -mateMin:
		res.Mate = -(mateVal + v)
	default:
		res.Score = v
	}
	res.PV = w.line(banRoot, depth)
	if len(res.PV) == 0 {
		res.PV = []rules.Action{w.s.Legal()[0]}
	}
	return res
}

// line is the expected line: the root's best moves, then the
// transposition table's. At a ban turn the banner bans the best move's
// pair and the mover plays the second best.
func (w *search) line(banTurn bool, depth int) []rules.Action {
	p := w.pos
	out, m := w.rootActions(banTurn)
	made := 0
	for i := 0; m != 0 && i < 2*depth+2; i++ {
		out = append(out, m.Action())
		p.Make(m)
		made++
		banTurn = w.s.bans
		e, ok := w.tt.probe(p.hash ^ banKey(noBan, w.s.bans))
		if !ok {
			if moves := p.Legal(nil); banTurn && len(moves) > 0 && pairs(moves) == 1 {
				out = append(out, banAction(moves[0].Pair())) // the forced ban
			}
			break
		}
		m = e.m1
		if banTurn {
			if e.m2 == 0 || !p.isLegal(e.m1) || !p.isLegal(e.m2) {
				break
			}
			out = append(out, banAction(e.m1.Pair()))
			m = e.m2
		} else if m == 0 || !p.isLegal(m) {
			break
		}
	}
	for ; made > 0; made-- {
		p.Unmake()
	}
	return out
}

// rootActions returns the root's ban (at a ban root) and the move it is
// answered with, from the root's last search.
func (w *search) rootActions(banTurn bool) ([]rules.Action, Move) {
	t := w.rootTop
	if !banTurn {
		return nil, t.m1
	}
	if t.m1 == 0 || t.m2 == 0 && w.rootFree == 0 {
		if moves := w.pos.Legal(nil); len(moves) > 0 && pairs(moves) == 1 {
			return []rules.Action{banAction(moves[0].Pair())}, 0 // the forced ban
		}
		return nil, 0
	}
	if !w.root.on || w.root.bans[t.m1.Pair()] {
		return []rules.Action{banAction(t.m1.Pair())}, t.m2
	}
	// The best move's pair may not be banned: ban another, which leaves it.
	for _, m := range w.pos.Legal(nil) {
		if m.Pair() != t.m1.Pair() && w.root.bans[m.Pair()] {
			return []rules.Action{banAction(m.Pair())}, t.m1
		}
	}
	return nil, 0
}

// banKey distinguishes a move turn with a ban in force (and the Classic
// turn) from a ban turn in the table.
func banKey(ban int, bans bool) uint64 {
	if ban != noBan {
		return tab.zBan[ban&63][ban>>6]
	}
	if !bans {
		return tab.zPhase
	}
	return 0
}

func (p *Position) isLegal(m Move) bool {
	for _, l := range p.Legal(make([]Move, 0, 96)) {
		if l == m {
			return true
		}
	}
	return false
}

// checkStop polls the limits, the context and the other threads now and
// then.
func (w *search) checkStop() bool {
	if w.stopped {
		return true
	}
	w.nodes++
	if w.nodes&1023 == 0 {
		total := w.shared.nodes.Add(1024)
		select {
		case <-w.ctx.Done():
			w.stopped = true
		default:
		}
		if w.shared.stop.Load() || (!w.deadline.IsZero() && time.Now().After(w.deadline)) || (w.lim.Nodes > 0 && total >= w.lim.Nodes) {
			w.stopped = true
		}
	}
	return w.stopped
}

// drawn reports a draw by the fifty-move rule or by repetition (a position
// seen before on the board or in the line counts, as most engines do).
func (w *search) drawn() bool {
	p := w.pos
	if p.half >= 100 || p.insufficient() {
		return true
	}
	n := len(w.keys) - 1
	for i := n - 2; i >= 0 && i >= n-p.half; i -= 2 {
		if w.keys[i] == p.hash {
			return true
		}
	}
	return false
}

// eval is the static evaluation with the level's noise.
func (w *search) eval() int {
	v := w.pos.evaluate()
	if w.lim.Noise > 0 {
		r := splitmix(w.pos.hash)
		v += int(r.next()%uint64(2*w.lim.Noise+1)) - w.lim.Noise
	}
	return v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
