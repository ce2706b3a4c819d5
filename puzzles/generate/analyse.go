package generate

import (
	"context"
	"errors"
	"fmt"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// value is what a search found for one side: a mate in plies (positive:
// that side mates; negative: it is mated) or else centipawns.
type value struct {
	mate, cp int
}

// noValue stands for the alternatives of a side with one action only.
var noValue = value{mate: -1}

const mateRank = 1_000_000

// rank orders values: any mate above any score, a quicker mate above a
// slower one, and being mated below everything, the later the better.
func (v value) rank() int {
	switch {
	case v.mate > 0:
		return mateRank - v.mate
	case v.mate < 0:
		return -mateRank - v.mate
	}
	return v.cp
}

// mates reports whether the side mates within plies.
func (v value) mates(plies int) bool { return v.mate > 0 && v.mate <= plies }

// mated reports whether the side is mated within plies.
func (v value) mated(plies int) bool { return v.mate < 0 && -v.mate <= plies }

// other returns the value for the other side.
func (v value) other() value { return value{-v.mate, -v.cp} }

// later returns the value one ply earlier, seen by the same side: a mate
// is one ply further away.
func (v value) later() value {
	switch {
	case v.mate > 0:
		v.mate++
	case v.mate < 0:
		v.mate--
	}
	return v
}

func (v value) String() string {
	switch {
	case v.mate > 0:
		return fmt.Sprintf("mate in %d", v.mate)
	case v.mate < 0:
		return fmt.Sprintf("mated in %d", -v.mate)
	}
	return fmt.Sprintf("%+d cp", v.cp)
}

func valueOf(r engine.Result) value { return value{mate: r.Mate, cp: r.Score} }

// errUnstable says searches of one position disagree about its best
// action: no puzzle can claim it.
var errUnstable = errors.New("the searches disagree about the best action")

// analyst runs the engine's searches for one piece of work: a game's
// screen, or one candidate's checks. Its table starts empty for each, so
// what it finds depends on that work alone, not on what a worker
// searched before.
type analyst struct {
	ctx   context.Context
	s     *engine.Searcher
	lim   engine.Limits
	nodes int64
}

func newAnalyst(ctx context.Context, lim engine.Limits) *analyst {
	return &analyst{ctx: ctx, s: engine.NewSearcher(ttMB), lim: lim}
}

// ttMB is the size of each analyst's transposition table.
const ttMB = 4

// search searches g's current moment within the analyst's limits.
func (a *analyst) search(g *rules.Game) (engine.Result, error) {
	return a.searchWith(g, a.lim)
}

func (a *analyst) searchWith(g *rules.Game, lim engine.Limits) (engine.Result, error) {
	st, err := engine.FromGame(g)
	if err != nil {
		return engine.Result{}, err
	}
	r, err := a.s.Search(a.ctx, st, lim)
	a.nodes += r.Nodes
	if err != nil {
		return engine.Result{}, err
	}
	return r, nil
}

// best2 returns the best action of the side to act in g, its value, and
// the value of the best of all its other actions (noValue when it has no
// other), found so:
//   - At a ban, every ban but the best leaves the mover its best move: the
//     second-best ban is worth what the mover's best move is, which a
//     search of the move ply with another pair banned finds.
//   - At a move, one search finds two lines (MultiPV), the second the
//     best of every move but the first — another promotion of its pair
//     included — with twice the nodes of a search of one line.
//
// g is left as it was.
func (a *analyst) best2(g *rules.Game) (top rules.Action, best, second value, err error) {
	if g.Turn().Phase == rules.PhaseBan {
		r, err := a.search(g)
		if err != nil {
			return rules.Action{}, value{}, value{}, err
		}
		second, err = a.secondBan(g, r)
		return r.Best, valueOf(r), second, err
	}
	lim := a.lim
	lim.MultiPV = 2
	lim.Nodes *= 2
	r, err := a.searchWith(g, lim)
	if err != nil {
		return rules.Action{}, value{}, value{}, err
	}
	switch {
	case len(r.Lines) > 1:
		second = value{mate: r.Lines[1].Mate, cp: r.Lines[1].Score}
	case len(g.Legal()) > 1:
		return rules.Action{}, value{}, value{}, errUnstable // the second line was not finished
	default:
		second = noValue
	}
	return r.Best, valueOf(r), second, nil
}

// secondBan returns the value of the banner's second-best ban: what is
// left to it when the mover keeps its best move.
func (a *analyst) secondBan(g *rules.Game, r engine.Result) (value, error) {
	bans := g.Legal()
	if len(bans) < 2 {
		return noValue, nil
	}
	// Ban the mover's reply in the line (its second-best pair), else any
	// other pair.
	other := bans[0]
	if other.Pair() == r.Best.Pair() {
		other = bans[1]
	}
	if len(r.PV) > 1 && r.PV[1].Phase == rules.PhaseMove && r.PV[1].Pair() != r.Best.Pair() {
		other = rules.BanAction(r.PV[1].From, r.PV[1].To)
	}
	second := noValue
	tried := map[rules.Pair]bool{}
	for range 3 {
		tried[other.Pair()] = true
		v, reply, err := a.valueAfter(g, other)
		if err != nil {
			return value{}, err
		}
		if second == noValue || v.rank() > second.rank() {
			second = v
		}
		// With this pair banned, the mover's best should be of the pair
		// the best ban takes; else that pair is not the mover's best, and
		// banning the one it plays may be as good.
		if reply.Pair() == r.Best.Pair() {
			return second, nil
		}
		other = rules.BanAction(reply.From, reply.To)
		if tried[other.Pair()] {
			break
		}
	}
	return value{}, errUnstable
}

// valueAfter returns the value of action x in g for the side playing it,
// and the reply the search found (none when x ends the game). g is left
// as it was.
func (a *analyst) valueAfter(g *rules.Game, x rules.Action) (value, rules.Action, error) {
	actor := g.Turn().Actor
	if err := g.Play(x); err != nil {
		return value{}, rules.Action{}, err
	}
	defer g.Undo()
	if o := g.Outcome(); o.Over() {
		switch {
		case o.Status == rules.Checkmate && o.Winner == actor:
			return value{mate: 1}, rules.Action{}, nil
		case o.Status == rules.Checkmate:
			return value{mate: -1}, rules.Action{}, nil
		}
		return value{}, rules.Action{}, nil
	}
	r, err := a.search(g)
	if err != nil {
		return value{}, rules.Action{}, err
	}
	v := valueOf(r)
	if g.Turn().Actor != actor {
		v = v.other()
	}
	return v.later(), r.Best, nil
}
