package generate

import (
	"context"
	"errors"
	"fmt"
	"strings"

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

// analyst runs the engine's searches for one position's work. Its table
// starts empty for each position, so what it finds depends on the
// position alone, not on what a worker searched before.
type analyst struct {
	ctx   context.Context
	s     *engine.Searcher
	lim   engine.Limits
	alt   engine.Limits // limits the searches of single alternatives (see secondMove)
	nodes int64
}

func newAnalyst(ctx context.Context, lim, alt engine.Limits) *analyst {
	return &analyst{ctx: ctx, s: engine.NewSearcher(ttMB), lim: lim, alt: alt}
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
// other) — or, where finding it costs more, a value that tells the same
// of whether apart holds: apart(best, second) says the others fall short
// of the best as much as needed. The engine's search returns the best
// action only, so the others are searched as positions of their own:
//   - At a ban, every ban but the best leaves the mover its best move: the
//     second-best ban is worth what the mover's best move is, which a
//     search of the move ply with another pair banned finds.
//   - At a move, the same position with the best move's pair banned
//     instead of the ban in force gives the best move of another pair.
//     When that is the pair banned in fact, it is worth at least as much
//     as the true second best: if apart holds for it, it holds for the
//     second; else the moves are searched one by one (within the
//     analyst's limits for single alternatives), until one breaks apart.
//     The other promotions of the best move's pair are always searched
//     one by one.
//
// g is left as it was.
func (a *analyst) best2(g *rules.Game, apart func(best, second value) bool) (top rules.Action, best, second value, err error) {
	r, err := a.search(g)
	if err != nil {
		return rules.Action{}, value{}, value{}, err
	}
	top, best = r.Best, valueOf(r)
	if g.Turn().Phase == rules.PhaseBan {
		second, err = a.secondBan(g, r)
	} else {
		second, err = a.secondMove(g, top, func(v value) bool { return apart(best, v) })
	}
	return top, best, second, err
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

// secondMove returns the value of the mover's best move other than top,
// or one that decides apart as it would (see best2).
func (a *analyst) secondMove(g *rules.Game, top rules.Action, apart func(value) bool) (second value, err error) {
	second = noValue
	consider := func(v value) {
		if second == noValue || v.rank() > second.rank() {
			second = v
		}
	}
	ban, banned := g.Ban()
	otherPairs := false
	for _, m := range g.Legal() {
		if m.Pair() != top.Pair() {
			otherPairs = true
			continue
		}
		if m != top { // another promotion of top's pair
			v, _, err := a.alternative(g, m)
			if err != nil {
				return value{}, err
			}
			consider(v)
		}
	}
	if !otherPairs {
		return second, nil
	}
	swapped, err := withBan(g, top.Pair())
	if err != nil {
		return value{}, err
	}
	r, err := a.search(swapped)
	if err != nil {
		return value{}, err
	}
	bound := valueOf(r)
	if !banned || r.Best.Pair() != ban || apart(bound) || !apart(second) {
		consider(bound)
		return second, nil
	}
	// The best other pair is the one banned in fact, and nearly as good
	// as top: search the moves one by one, until one is as good.
	for _, m := range g.Legal() {
		if m.Pair() == top.Pair() || m.Pair() == ban {
			continue
		}
		v, _, err := a.alternative(g, m)
		if err != nil {
			return value{}, err
		}
		consider(v)
		if !apart(second) {
			break
		}
	}
	return second, nil
}

// alternative is valueAfter within the analyst's limits for single
// alternatives.
func (a *analyst) alternative(g *rules.Game, x rules.Action) (value, rules.Action, error) {
	lim := a.lim
	a.lim = a.alt
	defer func() { a.lim = lim }()
	return a.valueAfter(g, x)
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

// withBan returns a game at g's position, a move ply, with pair banned
// instead of the ban in force.
func withBan(g *rules.Game, pair rules.Pair) (*rules.Game, error) {
	f := strings.Fields(g.FEN())
	if len(f) != 7 {
		return nil, fmt.Errorf("the FEN %q has no Ban Chess ply", g.FEN())
	}
	ply, _, _ := strings.Cut(strings.TrimRight(f[6], "+#="), ":")
	f[6] = ply + ":" + pair.String()
	return rules.FromFEN(strings.Join(f, " "), rules.BanChess{})
}
