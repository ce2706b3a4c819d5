package uci

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// goParams are the parameters of "go".
type goParams struct {
	wtime, btime, winc, binc time.Duration
	clock                    bool // wtime or btime was given
	movesToGo                int
	movetime                 time.Duration
	depth                    int
	nodes                    int64
	infinite                 bool
	searchMoves              []string
}

// goWords are the words "go" takes; searchmoves' list ends at the next.
var goWords = map[string]bool{
	"searchmoves": true, "ponder": true, "wtime": true, "btime": true, "winc": true, "binc": true,
	"movestogo": true, "depth": true, "nodes": true, "mate": true, "movetime": true, "infinite": true,
}

// parseGo reads go's parameters; it skips what it cannot read, saying why
// in problems, so that a search always answers.
func parseGo(args []string) (p goParams, problems []string) {
	for i := 0; i < len(args); i++ {
		word := args[i]
		switch word {
		case "infinite":
			p.infinite = true
			continue
		case "ponder":
			problems = append(problems, "ponder is not supported: searching as asked otherwise")
			continue
		case "searchmoves":
			for i+1 < len(args) && !goWords[args[i+1]] {
				i++
				p.searchMoves = append(p.searchMoves, args[i])
			}
			continue
		}
		if !goWords[word] {
			problems = append(problems, fmt.Sprintf("go: %q is not a parameter of go", rules.Clip(word)))
			continue
		}
		if i+1 >= len(args) {
			problems = append(problems, fmt.Sprintf("go: %s needs a number", word))
			break
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			problems = append(problems, fmt.Sprintf("go: %s %q is not a number", word, rules.Clip(args[i])))
			continue
		}
		ms := time.Duration(max(n, 0)) * time.Millisecond // a flagged GUI clock may read below zero
		switch word {
		case "wtime":
			p.wtime, p.clock = ms, true
		case "btime":
			p.btime, p.clock = ms, true
		case "winc":
			p.winc = ms
		case "binc":
			p.binc = ms
		case "movestogo":
			p.movesToGo = int(max(n, 0))
		case "movetime":
			p.movetime = ms
		case "depth":
			p.depth = int(min(max(n, 1), 64))
		case "nodes":
			p.nodes = max(n, 1)
		case "mate":
			problems = append(problems, "go: mate is not supported: searching without it")
		}
	}
	return p, problems
}

// limits returns the search limits of go's parameters for g at the
// session's options: Skill Level's bounds, then the time — movetime, or
// the clock of the side to act (the banner's at a ban) — depth and nodes.
func (s *session) limits(g *rules.Game, p goParams) (engine.Limits, error) {
	var lim engine.Limits
	var err error
	switch {
	case p.movetime > 0:
		lim, err = engine.Level(s.level, p.movetime)
		lim.Time = p.movetime
	case p.clock && !p.infinite:
		c := engine.Clock{Left: p.wtime, Increment: p.winc, MovesToGo: p.movesToGo, Overhead: s.overhead}
		if g.Turn().Actor == rules.Black {
			c.Left, c.Increment = p.btime, p.binc
		}
		lim, err = engine.LevelOnClock(s.level, c)
	default:
		lim, err = engine.Level(s.level, 0)
		if s.level == engine.Levels {
			lim.Time = 0 // level 8 thinks until go's limits, or stop, say
		}
	}
	if err != nil {
		return lim, err
	}
	if p.depth > 0 && (lim.Depth == 0 || p.depth < lim.Depth) {
		lim.Depth = p.depth
	}
	if p.nodes > 0 && (lim.Nodes == 0 || p.nodes < lim.Nodes) {
		lim.Nodes = p.nodes
	}
	lim.Threads, lim.MultiPV = s.threads, s.multiPV
	return lim, nil
}

// searchMoves returns the legal actions among go's searchmoves, and what
// is wrong with the others.
func searchMoves(g *rules.Game, toks []string) (only []rules.Action, problems []string) {
	legal := g.Legal()
	for _, tok := range toks {
		a, err := actionOf(g, tok)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("searchmoves %s: %v", rules.Clip(tok), err))
		case !slices.Contains(legal, a):
			problems = append(problems, fmt.Sprintf("searchmoves %s: not a legal %s now", rules.Clip(tok), g.Turn().Phase))
		default:
			only = append(only, a)
		}
	}
	if len(toks) > 0 && len(only) == 0 {
		problems = append(problems, "searchmoves: none is legal, so every action is searched")
	}
	return only, problems
}

// start runs "go": it searches in the background, writing an info line a
// depth (one a line with MultiPV) and then bestmove; "go infinite" writes
// bestmove only once stopped. Its time counts from "from", when the
// position (or go) was read: reading the game takes some.
func (s *session) start(ctx context.Context, args []string, from time.Time) {
	p, problems := parseGo(args)
	for _, pr := range problems {
		s.info("%s", pr)
	}
	g := s.game
	if o := g.Outcome(); o.Over() {
		s.info("the game is over: %s", o)
		s.out.line("bestmove (none)")
		return
	}
	lim, err := s.limits(g, p)
	if err != nil {
		s.info("go: %v", err)
		s.out.line("bestmove (none)")
		return
	}
	only, problems := searchMoves(g, p.searchMoves)
	for _, pr := range problems {
		s.info("go: %s", pr)
	}
	st, err := engine.FromGame(g)
	if err != nil {
		s.info("go: %v", err)
		s.out.line("bestmove (none)")
		return
	}
	if spent := time.Since(from); lim.Time > 0 {
		lim.Time = max(lim.Time-spent, time.Millisecond)
		if lim.Target > 0 {
			lim.Target = max(lim.Target-spent, time.Millisecond)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	run := &running{cancel: cancel, done: make(chan struct{}), bounded: !p.infinite && lim.Bounded()}
	s.running = run
	go func() {
		defer close(run.done)
		defer cancel()
		res, err := s.searcher.Run(ctx, st, engine.Request{Limits: lim, SearchMoves: only, Report: s.report})
		if err != nil && !errors.Is(err, context.Canceled) {
			s.info("go: %v", err)
			s.out.line("bestmove (none)")
			return
		}
		if p.infinite {
			<-ctx.Done() // bestmove only once stopped
		}
		s.out.line("info nodes %d nps %d time %d", res.Nodes, nps(res), res.Time.Milliseconds())
		s.out.line("bestmove %s", res.Best.Coords())
	}()
}

// stop ends the search under way, if any, once its bestmove is written.
func (s *session) stop() {
	if s.running == nil {
		return
	}
	s.running.cancel()
	s.finish()
}

// finish waits for the search under way, if any, to end by its limits and
// write its bestmove; a search without limits is stopped.
func (s *session) finish() {
	if s.running == nil {
		return
	}
	if !s.running.bounded {
		s.running.cancel()
	}
	<-s.running.done
	s.running = nil
}

// report writes a depth's info lines.
func (s *session) report(res engine.Result) {
	for i, l := range res.Lines {
		var b strings.Builder
		fmt.Fprintf(&b, "info depth %d", res.Depth)
		if len(res.Lines) > 1 {
			fmt.Fprintf(&b, " multipv %d", i+1)
		}
		fmt.Fprintf(&b, " score %s nodes %d nps %d time %d pv", score(l), res.Nodes, nps(res), res.Time.Milliseconds())
		for _, a := range l.PV {
			b.WriteString(" " + a.Coords())
		}
		s.out.line("%s", b.String())
	}
}

// nps is a search's speed in nodes a second.
func nps(res engine.Result) int64 {
	if res.Time <= 0 {
		return 0
	}
	return res.Nodes * int64(time.Second) / int64(res.Time)
}

// score writes a line's value as UCI does: "cp N", or "mate N" where N
// counts plies halved, rounded up, as chess's moves do (negative when the
// side to act is mated).
func score(l engine.Line) string {
	switch {
	case l.Mate > 0:
		return "mate " + strconv.Itoa((l.Mate+1)/2)
	case l.Mate < 0:
		return "mate " + strconv.Itoa(-((-l.Mate + 1) / 2))
	}
	return "cp " + strconv.Itoa(l.Score)
}
