package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// EN-Chess has no bans: every ply is a move, searched by plain alpha-beta
// (principal variation search with late move reductions, a quiescence
// search of captures, the shared transposition table, Lazy SMP) over the
// EN generator. A game ends, besides mate and stalemate, when the side to
// move has no king left (it has lost), and is drawn when only kings and
// Aurors are left; a partial checkmate is a position whose one move is the
// pass.

// enThread is what one goroutine searching EN-Chess keeps for itself.
type enThread struct {
	history [2][enSquares * enSquares]int32
	killers [maxPly][2]enMove
	moves   [maxPly + 2*qsDepth + 8][]enMove
}

func newENThread() *enThread {
	t := &enThread{}
	for i := range t.moves {
		t.moves[i] = make([]enMove, 0, 128)
	}
	return t
}

// enSearch is one thread's working state in an EN-Chess search.
type enSearch struct {
	*enThread
	tt       table
	shared   *shared
	ctx      context.Context
	pos      *enPos
	lim      Limits
	report   func(Result)
	deadline time.Time
	nodes    int64
	stopped  bool
	keys     []uint64
	root     []enMove // the moves the root may play, in the order last searched
	rootAll  bool     // root holds every legal move (the root's table entry may be kept)
	legal    int      // how many legal moves the root has
	// exact turns off what makes the search inexact (reductions, table
	// cutoffs, quiescence) so tests can compare it with plain minimax.
	exact bool
}

// enPack packs an EN-Chess table entry: the best move, the value, the
// depth and the bound; enUnpack reads one.
func enPack(m enMove, score, depth, flag int) uint64 {
	return uint64(m) | uint64(uint16(int16(score)))<<32 | uint64(uint8(int8(depth)))<<48 | uint64(flag)<<56
}

func enUnpack(d uint64) (m enMove, score, depth, flag int) {
	return enMove(uint32(d)), int(int16(d >> 32)), int(int8(d >> 48)), int(d >> 56)
}

// enKey marks EN-Chess's positions in a table a searcher shares with
// chess's.
const enKey = 0x3C6EF372FE94F82B

func (w *enSearch) probe(key uint64) (enMove, int, int, int, bool) {
	d, ok := w.tt.get(key ^ enKey)
	if !ok {
		return 0, 0, 0, 0, false
	}
	m, score, depth, flag := enUnpack(d)
	return m, score, depth, flag, true
}

func (w *enSearch) store(key uint64, depth, score, flag, ply int, m enMove) {
	if d, ok := w.tt.get(key ^ enKey); ok {
		if _, _, old, _ := enUnpack(d); old > depth && flag != boundExact {
			return
		}
	}
	if score > mateMin {
		score += ply
	} else if score < -mateMin {
		score -= ply
	}
	w.tt.put(key^enKey, enPack(m, score, depth, flag))
}

// runEN is Run for an EN-Chess state.
func (e *Searcher) runEN(ctx context.Context, s *State, req Request) (Result, error) {
	start := time.Now()
	lim := req.Limits
	legal, _ := s.en.legal(nil)
	if s.en.kingless() || len(legal) == 0 {
		return Result{}, ErrNoAction
	}
	root := legal
	if len(req.SearchMoves) > 0 {
		root = root[:0:0]
		for _, m := range legal {
			for _, a := range req.SearchMoves {
				if enMatches(m, a) {
					root = append(root, m)
					break
				}
			}
		}
		if len(root) == 0 {
			return Result{}, fmt.Errorf("engine: none of the actions to search (%v) is legal now", req.SearchMoves)
		}
	}
	n := max(lim.Threads, 1)
	for len(e.enThreads) < n {
		e.enThreads = append(e.enThreads, newENThread())
	}
	sh := &shared{}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	workers := make([]*enSearch, n)
	for i := range workers {
		t := e.enThreads[i]
		t.killers = [maxPly][2]enMove{}
		for c := range t.history {
			for j := range t.history[c] {
				t.history[c][j] /= 8
			}
		}
		w := &enSearch{enThread: t, tt: e.tt, shared: sh, ctx: ctx, pos: s.en.copy(), lim: lim, report: req.Report, deadline: deadline, root: slices.Clone(root), legal: len(legal)}
		w.rootAll = len(root) == len(legal)
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
	if len(root) == 1 && lim.Target > 0 {
		maxDepth = 1 // on a clock, a forced move is played at once
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

// deepen is the main thread's iterative deepening: at each depth it finds
// MultiPV lines one after another, each among the root moves the lines
// before left.
func (w *enSearch) deepen(start time.Time, maxDepth int) Result {
	target := w.lim.Target
	if target <= 0 {
		target = w.lim.Time
	}
	want := min(max(w.lim.MultiPV, 1), len(w.root))
	all := w.root
	var res Result
	var last time.Duration
	for d := 1; d <= maxDepth; d++ {
		var lines []Line
		var found []enMove
		for k := 0; k < want; k++ {
			w.root = w.root[:0:0]
			for _, m := range all {
				if !slices.Contains(found, m) {
					w.root = append(w.root, m)
				}
			}
			w.rootAll = len(w.root) == w.legal
			v, best := w.rootSearch(d)
			if w.stopped && (d > 1 || k > 0) {
				break
			}
			lines = append(lines, w.line(v, d, best))
			found = append(found, best)
			if w.stopped {
				break
			}
		}
		// The next depth searches the lines' moves first, best first.
		next := slices.Clone(found)
		for _, m := range all {
			if !slices.Contains(found, m) {
				next = append(next, m)
			}
		}
		all = next
		w.root, w.rootAll = all, len(all) == w.legal
		if w.stopped && d > 1 {
			break
		}
		res = Result{Best: lines[0].PV[0], PV: lines[0].PV, Score: lines[0].Score, Mate: lines[0].Mate, Lines: lines, Depth: d}
		if w.report != nil {
			rep := res
			rep.Nodes, rep.Time = w.shared.nodes.Load()+w.nodes&1023, time.Since(start)
			w.report(rep)
		}
		if w.stopped || (res.Mate != 0 && abs(res.Mate) <= d && want == 1) {
			break
		}
		elapsed := time.Since(start)
		if target > 0 && elapsed > target/2 {
			break
		}
		if w.lim.Target > 0 && d >= 2 && elapsed*time.Duration(growth(elapsed, last)) > w.lim.Time {
			break
		}
		last = elapsed
	}
	return res
}

// help is a helper thread's iterative deepening (Lazy SMP).
func (w *enSearch) help(id, maxDepth int) {
	for d := 1 + id%2; d <= maxDepth && !w.stopped; d++ {
		w.rootSearch(d)
	}
	w.shared.nodes.Add(w.nodes & 1023)
	w.nodes &^= 1023
}

// rootSearch searches the root moves to depth and returns the best value
// and move; the table's move for the root, if among them, goes first.
func (w *enSearch) rootSearch(depth int) (int, enMove) {
	p := w.pos
	if h, _, _, _, ok := w.probe(p.hash); ok {
		if i := slices.Index(w.root, h); i > 0 {
			copy(w.root[1:i+1], w.root[:i])
			w.root[0] = h
		}
	}
	alpha, beta := -infinity, infinity
	best, bestV := w.root[0], -infinity
	for i, m := range w.root {
		p.make(m)
		w.keys = append(w.keys, p.hash)
		var v int
		if i == 0 {
			v = -w.negamax(depth-1, 1, -beta, -alpha)
		} else {
			v = -w.negamax(depth-1, 1, -alpha-1, -alpha)
			if v > alpha && v < beta {
				v = -w.negamax(depth-1, 1, -beta, -alpha)
			}
		}
		w.keys = w.keys[:len(w.keys)-1]
		p.unmake()
		if w.stopped {
			break
		}
		if v > bestV {
			best, bestV = m, v
		}
		alpha = max(alpha, v)
	}
	if !w.stopped && w.rootAll {
		w.store(p.hash, depth, bestV, boundExact, 0, best)
	}
	return bestV, best
}

// line turns the root's value and best move into a Line: the move, then
// the table's moves while they are legal and the game goes on (no king
// taken, no draw by material or the fifty-move rule, no position seen
// before, which may be a repetition's).
func (w *enSearch) line(v, depth int, best enMove) Line {
	var l Line
	switch {
	case v > mateMin:
		l.Mate = mateVal - v
	case v < -mateMin:
		l.Mate = -(mateVal + v)
	default:
		l.Score = v
	}
	p := w.pos
	seen := map[uint64]bool{}
	for _, k := range w.keys {
		seen[k] = true
	}
	l.PV = append(l.PV, enAction(best))
	p.make(best)
	made := 1
	for ; made < depth+2; made++ {
		if p.kingless() || p.insufficient() || p.half >= 100 || seen[p.hash] {
			break
		}
		seen[p.hash] = true
		m, _, _, _, ok := w.probe(p.hash)
		if !ok {
			break
		}
		moves, _ := p.legal(nil)
		if !slices.Contains(moves, m) {
			break
		}
		l.PV = append(l.PV, enAction(m))
		p.make(m)
	}
	for ; made > 0; made-- {
		p.unmake()
	}
	return l
}

func (w *enSearch) checkStop() bool {
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

// drawn reports a draw by the fifty-move rule, by material (kings and
// Aurors only) or by repetition (a position seen before on the board or in
// the line).
func (w *enSearch) drawn() bool {
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

func (w *enSearch) eval() int {
	v := w.pos.evaluate()
	if w.lim.Noise > 0 {
		r := splitmix(w.pos.hash)
		v += int(r.next()%uint64(2*w.lim.Noise+1)) - w.lim.Noise
	}
	return v
}

// negamax returns the value of the position for the side to move.
func (w *enSearch) negamax(depth, ply, alpha, beta int) int {
	if w.checkStop() {
		return 0
	}
	p := w.pos
	if p.kingless() {
		return -(mateVal - ply)
	}
	if w.drawn() {
		return 0
	}
	if (depth <= 0 || ply >= maxPly) && !w.exact {
		return w.quiesce(ply, alpha, beta, 0)
	}
	moves, checked := p.legal(w.moves[ply][:0])
	w.moves[ply] = moves
	if len(moves) == 0 {
		if checked > 0 {
			return -(mateVal - ply)
		}
		return 0
	}
	if depth <= 0 || ply >= maxPly {
		return w.eval()
	}
	var h enMove
	if m, score, d, flag, ok := w.probe(p.hash); ok {
		h = m
		if d >= depth && !w.exact {
			v := score
			if v > mateMin {
				v -= ply
			} else if v < -mateMin {
				v += ply
			}
			switch {
			case flag == boundExact, flag == boundLower && v >= beta, flag == boundUpper && v <= alpha:
				return v
			}
		}
	}
	w.order(moves, ply, h)
	origAlpha := alpha
	best, bestV := enMove(0), -infinity
	for i, m := range moves {
		quiet := !w.capture(m) && m.promo() == 0
		p.make(m)
		w.keys = append(w.keys, p.hash)
		var v int
		if i == 0 {
			v = -w.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			r := 0
			if depth >= 3 && i >= 4 && !w.exact && checked == 0 && quiet {
				r = 1
			}
			v = -w.negamax(depth-1-r, ply+1, -alpha-1, -alpha)
			if v > alpha && (v < beta || r > 0) {
				v = -w.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		w.keys = w.keys[:len(w.keys)-1]
		p.unmake()
		if w.stopped {
			return 0
		}
		if v > bestV {
			best, bestV = m, v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if quiet {
				w.remember(m, ply, depth)
			}
			w.store(p.hash, depth, bestV, boundLower, ply, best)
			return bestV
		}
	}
	flag := boundExact
	if bestV <= origAlpha {
		flag = boundUpper
	}
	w.store(p.hash, depth, bestV, flag, ply, best)
	return bestV
}

// quiesce searches captures and queen promotions (every move when in
// check) until the position is quiet.
func (w *enSearch) quiesce(ply, alpha, beta, qply int) int {
	p := w.pos
	if qply > 0 {
		if w.checkStop() {
			return 0
		}
		if p.kingless() {
			return -(mateVal - ply)
		}
		if w.drawn() {
			return 0
		}
	}
	var moves []enMove
	checked, _ := p.kingsInCheck(p.side)
	inCheck := checked > 0
	if inCheck {
		moves, _ = p.legal(w.moves[ply][:0])
		if len(moves) == 0 {
			return -(mateVal - ply)
		}
	} else {
		moves = p.legalCaptures(w.moves[ply][:0]) // a stalemate goes unseen here, as in most engines
	}
	w.moves[ply] = moves
	stand := -infinity
	if !inCheck || qply >= qsDepth {
		stand = w.eval()
		if stand >= beta || qply >= qsDepth || ply >= maxPly {
			return stand
		}
		alpha = max(alpha, stand)
	}
	w.order(moves, ply, 0)
	best := stand
	for _, m := range moves {
		if !inCheck && !w.capture(m) && m.promo() != Queen+1 {
			continue
		}
		p.make(m)
		w.keys = append(w.keys, p.hash)
		v := -w.quiesce(ply+1, -beta, -alpha, qply+1)
		w.keys = w.keys[:len(w.keys)-1]
		p.unmake()
		if w.stopped {
			return 0
		}
		best = max(best, v)
		if v > alpha {
			alpha = v
			if alpha >= beta {
				return best
			}
		}
	}
	return best
}

// capture reports whether m takes a piece.
func (w *enSearch) capture(m enMove) bool { return w.pos.captures(m) }

// remember records a quiet move that cut off, for ordering.
func (w *enSearch) remember(m enMove, ply, depth int) {
	if ply < maxPly && w.killers[ply][0] != m {
		w.killers[ply][1], w.killers[ply][0] = w.killers[ply][0], m
	}
	w.history[w.pos.side][m.from()*enSquares+m.to()] += int32(depth * depth)
}

// enValue is a kind's worth for ordering captures.
var enValue = [enKinds]int32{1, 3, 3, 5, 9, 20, 2}

// order sorts moves best first: the table's move, captures by victim and
// attacker, promotions, killers, then by history.
func (w *enSearch) order(moves []enMove, ply int, h enMove) {
	var keys [256]int32
	p := w.pos
	for i, m := range moves {
		var k int32
		switch {
		case m == h:
			k = 1 << 30
		case w.capture(m):
			var victim int32
			if pc := p.board[m.to()]; pc != 0 {
				victim = enValue[enKind(pc)]
			}
			if o := m.over(); o != enNoOver {
				victim += enValue[enKind(p.board[o])]
			}
			if m.kind() == enEP {
				victim = 1
			}
			k = 1<<28 + victim*16 - enValue[enKind(p.board[m.from()])]
		case m.promo() != 0:
			k = 1<<27 + int32(m.promo())
		case ply < maxPly && m == w.killers[ply][0]:
			k = 1<<26 + 1
		case ply < maxPly && m == w.killers[ply][1]:
			k = 1 << 26
		case m.kind() == enPass:
		default:
			k = w.history[p.side][m.from()*enSquares+m.to()]
		}
		if i < len(keys) {
			keys[i] = k
		}
	}
	n := min(len(moves), len(keys))
	for i := 1; i < n; i++ {
		m, k := moves[i], keys[i]
		j := i - 1
		for ; j >= 0 && keys[j] < k; j-- {
			moves[j+1], keys[j+1] = moves[j], keys[j]
		}
		moves[j+1], keys[j+1] = m, k
	}
}
