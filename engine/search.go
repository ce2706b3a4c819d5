package engine

import (
	"context"
	"errors"
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
	Nodes int64         // positions to visit
	Time  time.Duration // time to think
	// Noise adds up to ±Noise centipawns to every evaluation, the same for
	// a position each time (weaker levels use it).
	Noise int
}

// Result is what a search found. Scores are for the side to act (the banner
// at a ban ply).
type Result struct {
	Best  rules.Action   // the best action for the side to act
	PV    []rules.Action // the expected line, Best first
	Score int            // centipawns, when Mate is 0
	Mate  int            // plies to mate: positive if the side to act mates, negative if it is mated; 0 for none
	Depth int            // moves searched to (the last depth completed)
	Nodes int64
	Time  time.Duration
}

// ErrNoAction is returned when the side to act has nothing to play.
var ErrNoAction = errors.New("engine: the side to act has no legal action (the game is over)")

// Searcher searches Ban Chess positions. It keeps a transposition table
// between searches; it is not safe for concurrent use.
type Searcher struct {
	tt      []ttEntry
	history [2][4096]int32
	killers [maxPly][2]Move
}

// NewSearcher returns a searcher with a transposition table of about mb MiB
// (at least 1).
func NewSearcher(mb int) *Searcher {
	n := 1
	for n*2*16 <= max(mb, 1)<<20 {
		n *= 2
	}
	return &Searcher{tt: make([]ttEntry, n)}
}

// ttEntry is one transposition table slot: for a turn, the best and the
// second best moves of distinct pairs (the banner bans the first's pair).
type ttEntry struct {
	key    uint64
	m1, m2 Move
	score  int16
	depth  int8
	flag   uint8
}

const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

// search is one search's working state.
type search struct {
	*Searcher
	ctx      context.Context
	s        *State
	pos      *Position
	lim      Limits
	deadline time.Time
	nodes    int64
	stopped  bool
	keys     []uint64 // positions on the board so far, the current one last
	moves    [maxPly + 2*qsDepth + 8][]Move
	rootBan  int
	// exact turns off what makes the search inexact (reductions, table
	// cutoffs, quiescence) so tests can compare it with plain minimax.
	exact bool
}

// Search finds the best action from s within the limits; ctx cancels it at
// once (the result then holds the deepest search completed). With no limit
// at all it searches to depth 64.
func (e *Searcher) Search(ctx context.Context, s *State, lim Limits) (Result, error) {
	start := time.Now()
	w := &search{Searcher: e, ctx: ctx, s: s, pos: s.pos.Copy(), lim: lim, rootBan: s.ban}
	w.keys = append(make([]uint64, 0, len(s.history)+maxPly), s.history...)
	for i := range w.moves {
		w.moves[i] = make([]Move, 0, 96)
	}
	if lim.Time > 0 {
		w.deadline = start.Add(lim.Time)
	}
	if len(s.Legal()) == 0 {
		return Result{}, ErrNoAction
	}
	e.killers = [maxPly][2]Move{}
	for c := range e.history {
		for i := range e.history[c] {
			e.history[c][i] /= 8
		}
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > 64 {
		maxDepth = 64
	}
	var res Result
	for d := 1; d <= maxDepth; d++ {
		v := w.turn(d, 0, -infinity, infinity, w.rootBan)
		if w.stopped && d > 1 {
			break
		}
		res = w.result(v, d)
		if w.stopped || (res.Mate != 0 && abs(res.Mate) <= 2*d) {
			break
		}
		// The next depth costs a few times this one: past half the time,
		// it would be cut off before it finished, and its work lost.
		if lim.Time > 0 && time.Since(start) > lim.Time/2 {
			break
		}
	}
	res.Nodes, res.Time = w.nodes, time.Since(start)
	return res, ctx.Err()
}

// result turns the root value and the table's line into a Result.
func (w *search) result(v, depth int) Result {
	res := Result{Depth: depth}
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
	if len(res.PV) > 0 {
		res.Best = res.PV[0]
	} else {
		res.Best = w.s.Legal()[0]
		res.PV = []rules.Action{res.Best}
	}
	return res
}

// line follows the transposition table from the root: at a ban turn the
// banner bans the best move's pair and the mover plays the second best.
func (w *search) line(banTurn bool, depth int) []rules.Action {
	p := w.pos
	var out []rules.Action
	made := 0
	ban := w.rootBan
	for i := 0; i < 2*depth+2; i++ {
		e := w.probe(p.hash ^ banKey(ban, w.s.bans))
		if e == nil {
			if moves := p.Legal(nil); banTurn && len(moves) > 0 && pairs(moves) == 1 {
				out = append(out, banAction(moves[0].Pair())) // the forced ban
			}
			break
		}
		m := e.m1
		if banTurn {
			if e.m2 == 0 || !p.isLegal(e.m1) || !p.isLegal(e.m2) {
				break
			}
			out = append(out, banAction(e.m1.Pair()))
			m = e.m2
		} else if m == 0 || !p.isLegal(m) || m.Pair() == ban {
			break
		}
		out = append(out, m.Action())
		p.Make(m)
		made++
		ban, banTurn = noBan, w.s.bans
	}
	for ; made > 0; made-- {
		p.Unmake()
	}
	return out
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

func (e *Searcher) probe(key uint64) *ttEntry {
	t := &e.tt[key&uint64(len(e.tt)-1)]
	if t.key != key {
		return nil
	}
	return t
}

func (e *Searcher) store(key uint64, depth, score, flag, ply int, m1, m2 Move) {
	t := &e.tt[key&uint64(len(e.tt)-1)]
	if t.key == key && int(t.depth) > depth && flag != boundExact {
		return
	}
	if score > mateMin {
		score += ply
	} else if score < -mateMin {
		score -= ply
	}
	*t = ttEntry{key: key, m1: m1, m2: m2, score: int16(score), depth: int8(depth), flag: uint8(flag)}
}

// checkStop polls the limits and the context now and then.
func (w *search) checkStop() bool {
	if w.stopped {
		return true
	}
	w.nodes++
	if w.nodes&1023 == 0 {
		select {
		case <-w.ctx.Done():
			w.stopped = true
		default:
		}
		if (!w.deadline.IsZero() && time.Now().After(w.deadline)) || (w.lim.Nodes > 0 && w.nodes >= w.lim.Nodes) {
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
