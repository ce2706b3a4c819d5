// Package match plays games between engine levels, or against Stockfish
// playing Ban Chess by a simple rule, to measure the levels' strength. It
// is a benchmark tool (banchess match), not part of the server.
package match

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// Player chooses the action to play in a game.
type Player interface {
	Name() string
	Act(ctx context.Context, g *rules.Game) (rules.Action, error)
}

// ClockPlayer is a player that can play on a clock: it is told what both
// sides have left and the increment.
type ClockPlayer interface {
	Player
	ActOnClock(ctx context.Context, g *rules.Game, c Clocks) (rules.Action, error)
}

// Clocks are both sides' time left at a ply, and the increment a move
// earns.
type Clocks struct {
	White, Black, Increment time.Duration
}

// Engine is the engine playing at a level, on Threads threads.
type Engine struct {
	Level    int
	PerPly   time.Duration // level 8's time a ply without a clock
	Threads  int
	s        *engine.Searcher
	last     engine.Result // the last search's
	searched bool          // whether last is a search's
}

// NewEngine returns the engine player at level n with its own
// transposition table.
func NewEngine(n int, perPly time.Duration, threads int) (*Engine, error) {
	if _, err := engine.Level(n, perPly); err != nil {
		return nil, err
	}
	return &Engine{Level: n, PerPly: perPly, Threads: threads, s: engine.NewSearcher(32)}, nil
}

// Name implements Player.
func (e *Engine) Name() string {
	if e.Threads > 1 {
		return fmt.Sprintf("level %d (%d threads)", e.Level, e.Threads)
	}
	return fmt.Sprintf("level %d", e.Level)
}

// Act implements Player.
func (e *Engine) Act(ctx context.Context, g *rules.Game) (rules.Action, error) {
	lim, err := engine.Level(e.Level, e.PerPly)
	if err != nil {
		return rules.Action{}, err
	}
	return e.search(ctx, g, lim)
}

// ActOnClock implements ClockPlayer: the engine keeps its time as the
// computer does in a game with a clock (engine.LevelOnClock).
func (e *Engine) ActOnClock(ctx context.Context, g *rules.Game, c Clocks) (rules.Action, error) {
	left := c.White
	if g.Turn().Actor == rules.Black {
		left = c.Black
	}
	lim, err := engine.LevelOnClock(e.Level, engine.Clock{Left: left, Increment: c.Increment, Overhead: 10 * time.Millisecond})
	if err != nil {
		return rules.Action{}, err
	}
	return e.search(ctx, g, lim)
}

func (e *Engine) search(ctx context.Context, g *rules.Game, lim engine.Limits) (rules.Action, error) {
	st, err := engine.FromGame(g)
	if err != nil {
		return rules.Action{}, err
	}
	lim.Threads = e.Threads
	res, err := e.s.Search(ctx, st, lim)
	e.last, e.searched = res, err == nil
	return res.Best, err
}

// Evaluation implements Evaluator.
func (e *Engine) Evaluation() (cp, mate int, ok bool) {
	return e.last.Score, e.last.Mate, e.searched
}

// maxPlies ends a game as a draw when it gets this long.
const maxPlies = 400

// Score is a match's result for player A.
type Score struct {
	Wins, Draws, Losses int
	// Pairs counts the pairs of games played from one opening by A's
	// points in them: 0, ½, 1, 1½ or 2 (the SPRT's pentanomial model).
	Pairs [5]int
}

// pairs returns the number of pairs counted.
func (s Score) pairs() int {
	n := 0
	for _, c := range s.Pairs {
		n += c
	}
	return n
}

// Points returns A's points: a win 1, a draw ½.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Games returns the number of games played.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// add counts a game that ended in o for the player of side.
func (s *Score) add(o rules.Outcome, side rules.Color) {
	switch o.Winner {
	case side:
		s.Wins++
	case 0:
		s.Draws++
	default:
		s.Losses++
	}
}

// String returns "+w =d −l (p%)".
func (s Score) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f%%)", s.Wins, s.Draws, s.Losses, 100*s.Points()/float64(max(s.Games(), 1)))
}

// Match is a match between A and B from varied openings: each opening
// (OpeningPlies random actions from the start, seeded by Seed and the
// pair's number) is played twice, each side taking White once.
type Match struct {
	A, B         Player
	Games        int
	OpeningPlies int
	Seed         uint64
	// Clock, when its Initial is not 0, gives each side a clock that runs
	// during its plies, bans too, with Increment after each move; a side
	// whose time runs out loses. The players must be ClockPlayers.
	Clock struct{ Initial, Increment time.Duration }
	// Log, when set, is told each game.
	Log io.Writer
	// SPRT, when set, stops the match once it accepts either hypothesis
	// (checked after each pair of games); Games is then the most to play.
	SPRT *SPRT
}

// Result is what a match found.
type Result struct {
	Score Score // A's
	// Times are the plies' times on a clock (nil without one).
	Times *Times
	// Verdict is the SPRT's, when the match ran one.
	Verdict Verdict
	// Won counts the games a player's own search judged won (see Won).
	Won Won
}

// Won counts, over a match, the games in which a player's search saw
// itself WonAt or more ahead (or mating) at one of its plies, and how
// those games ended for that player: the engine must convert such
// positions, not draw them by repetition or the fifty-move rule. Only
// players that report their evaluation (Evaluator) are counted.
type Won struct {
	Games, Drawn, Lost int
}

// WonAt is the evaluation, in centipawns for the side to act, from which
// a position counts as won.
const WonAt = 500

// String writes "12 games seen won (+5 or a mate): 11 won, 1 drawn, 0 lost".
func (w Won) String() string {
	return fmt.Sprintf("%d games seen won (+%d or a mate) by a player's search: %d won, %d drawn, %d lost",
		w.Games, WonAt/100, w.Games-w.Drawn-w.Lost, w.Drawn, w.Lost)
}

// Evaluator is a player that reports its last search's evaluation, in
// centipawns for the side it acted for, and mate as plies to mate
// (positive when it mates, 0 for none).
type Evaluator interface {
	Evaluation() (cp, mate int, ok bool)
}

// Times are the time each ply took on a clock, and the least time a side
// had left at a game's end, over a match.
type Times struct {
	Plies   Durations
	MinLeft time.Duration
	Flags   int // games lost on time
}

// Run plays the match.
func (m *Match) Run(ctx context.Context) (Result, error) {
	var res Result
	if m.Clock.Initial > 0 {
		res.Times = &Times{MinLeft: m.Clock.Initial}
	}
	pairStart := 0.0 // A's points before the pair under way
	for i := 0; i < m.Games; i++ {
		g, err := opening(m.OpeningPlies, m.Seed+uint64(i/2))
		if err != nil {
			return res, err
		}
		white, black := m.A, m.B
		aColor := rules.White
		if i%2 == 1 {
			white, black, aColor = m.B, m.A, rules.Black
		}
		var c *onClock
		if res.Times != nil {
			c = &onClock{Clocks: Clocks{White: m.Clock.Initial, Black: m.Clock.Initial, Increment: m.Clock.Increment}, times: res.Times}
		}
		var seen [3]bool // by colour: a player's search saw its side won
		o, err := play(ctx, g, white, black, c, func(side rules.Color, p Player) {
			if e, ok := p.(Evaluator); ok {
				if cp, mate, ok := e.Evaluation(); ok && (mate > 0 || mate == 0 && cp >= WonAt) {
					seen[side] = true
				}
			}
		})
		if err != nil {
			return res, fmt.Errorf("game %d: %w", i+1, err)
		}
		before := res.Score.Points()
		res.Score.add(o, aColor)
		if i%2 == 1 { // a pair's second game: A's points in the two
			res.Score.Pairs[int(2*(res.Score.Points()-pairStart))]++
		} else {
			pairStart = before
		}
		for _, side := range []rules.Color{rules.White, rules.Black} {
			if !seen[side] {
				continue
			}
			res.Won.Games++
			switch o.Winner {
			case 0:
				res.Won.Drawn++
			case side.Other():
				res.Won.Lost++
			}
		}
		if m.Log != nil {
			clocks, sprt := "", ""
			if c != nil {
				clocks = fmt.Sprintf(" (clocks %v, %v)", c.White.Round(time.Millisecond), c.Black.Round(time.Millisecond))
			}
			if m.SPRT != nil {
				sprt = "; " + m.SPRT.Status(res.Score)
			}
			fmt.Fprintf(m.Log, "game %d: %s (white) – %s (black): %s %s after %d plies%s; %s %s%s\n",
				i+1, white.Name(), black.Name(), o.Result(), o, g.Ply()-1, clocks, m.A.Name(), res.Score, sprt)
		}
		if m.SPRT != nil && i%2 == 1 {
			if res.Verdict = m.SPRT.Decide(res.Score); res.Verdict != Undecided {
				break
			}
		}
	}
	return res, nil
}

// opening plays n random legal actions from the start.
func opening(n int, seed uint64) (*rules.Game, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	for {
		g := rules.New(rules.BanChess{})
		for range n {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
				return nil, err
			}
		}
		if !g.Outcome().Over() {
			return g, nil
		}
	}
}

// Play plays g to its end (or maxPlies, a draw) and returns the outcome.
func Play(ctx context.Context, g *rules.Game, white, black Player) (rules.Outcome, error) {
	return play(ctx, g, white, black, nil, nil)
}

// onClock is a game's clocks, and the match's record of the time its
// plies took.
type onClock struct {
	Clocks
	times *Times
}

// play is Play, on clock c when it is not nil, telling acted (when not
// nil) each player that acted and its side.
func play(ctx context.Context, g *rules.Game, white, black Player, c *onClock, acted func(rules.Color, Player)) (rules.Outcome, error) {
	for !g.Outcome().Over() {
		if err := ctx.Err(); err != nil {
			return rules.Outcome{}, err
		}
		if g.Ply() > maxPlies {
			return rules.Outcome{Status: rules.Draw}, nil
		}
		p, side := white, rules.White
		if g.Turn().Actor == rules.Black {
			p, side = black, rules.Black
		}
		var a rules.Action
		var err error
		if c == nil {
			a, err = p.Act(ctx, g)
		} else {
			a, err = c.act(ctx, g, p, side)
		}
		if err != nil {
			return rules.Outcome{}, fmt.Errorf("%s at ply %d (%s): %w", p.Name(), g.Ply(), g.FEN(), err)
		}
		if acted != nil {
			acted(side, p)
		}
		if g.Outcome().Over() { // flagged
			break
		}
		if err := g.Play(a); err != nil {
			return rules.Outcome{}, fmt.Errorf("%s at ply %d (%s) played %s: %w", p.Name(), g.Ply(), g.FEN(), a, err)
		}
	}
	if c != nil {
		c.times.MinLeft = min(c.times.MinLeft, c.White, c.Black)
	}
	return g.Outcome(), nil
}

// act asks p for its action on the clock and charges it the time it took;
// a player out of time loses the game (g then ends).
func (c *onClock) act(ctx context.Context, g *rules.Game, p Player, side rules.Color) (rules.Action, error) {
	cp, ok := p.(ClockPlayer)
	if !ok {
		return rules.Action{}, fmt.Errorf("%s cannot play on a clock", p.Name())
	}
	left := &c.White
	if side == rules.Black {
		left = &c.Black
	}
	start := time.Now()
	a, err := cp.ActOnClock(ctx, g, c.Clocks)
	took := time.Since(start)
	c.times.Plies = append(c.times.Plies, took)
	*left -= took
	if err != nil {
		return a, err
	}
	if *left < 0 {
		c.times.Flags++
		*left = 0
		return a, g.FlagFall(side)
	}
	if a.Phase == rules.PhaseMove {
		*left += c.Increment
	}
	return a, nil
}

// Durations are times, one a ply.
type Durations []time.Duration

// Percentiles returns the time at each of ps (0 to 100).
func (d Durations) Percentiles(ps ...float64) []time.Duration {
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	out := make([]time.Duration, len(ps))
	for i, p := range ps {
		if len(sorted) > 0 {
			out[i] = sorted[min(int(p/100*float64(len(sorted))), len(sorted)-1)]
		}
	}
	return out
}

// String summarises the times: how many, and percentiles.
func (d Durations) String() string {
	q := d.Percentiles(10, 50, 90, 99, 100)
	return fmt.Sprintf("%d plies: 10%% %v, median %v, 90%% %v, 99%% %v, longest %v",
		len(d), q[0].Round(time.Millisecond), q[1].Round(time.Millisecond), q[2].Round(time.Millisecond), q[3].Round(time.Millisecond), q[4].Round(time.Millisecond))
}

// String summarises the times: a ply's time, the least time left and the
// flags.
func (t *Times) String() string {
	return fmt.Sprintf("time a ply on the clock, %v; least time left at a game's end %v; %d lost on time", t.Plies, t.MinLeft.Round(time.Millisecond), t.Flags)
}

// Elo is the rating difference a score implies, with its 95% confidence
// interval. A score of all wins (or all losses) implies no finite
// difference: Diff is then ±Inf and the interval's one finite end is the
// one where such a sweep would happen 2.5% of the time.
type Elo struct {
	Diff, Low, High float64
}

// Elo returns the difference between A and B the score implies: the
// logistic Elo of A's share p, and the interval p ± 1.96 standard errors of
// the mean points a game (wins, draws and losses weighed as they fell).
func (s Score) Elo() Elo {
	n := float64(s.Games())
	if n == 0 {
		return Elo{}
	}
	p := s.Points() / n
	switch {
	case s.Wins == s.Games():
		return Elo{Diff: math.Inf(1), Low: eloOf(math.Pow(0.025, 1/n)), High: math.Inf(1)}
	case s.Losses == s.Games():
		return Elo{Diff: math.Inf(-1), Low: math.Inf(-1), High: eloOf(1 - math.Pow(0.025, 1/n))}
	}
	dev := (float64(s.Wins)*(1-p)*(1-p) + float64(s.Draws)*(0.5-p)*(0.5-p) + float64(s.Losses)*p*p) / n
	se := math.Sqrt(dev / n)
	return Elo{Diff: eloOf(p), Low: eloOf(p - 1.96*se), High: eloOf(p + 1.96*se)}
}

// eloOf is the Elo difference at which the stronger side scores p.
func eloOf(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(p/(1-p))
}

// String writes "+191 (+137, +263)", or "≥ +608" for a sweep.
func (e Elo) String() string {
	switch {
	case math.IsInf(e.Diff, 1):
		return fmt.Sprintf("≥ %+.0f (95%%)", e.Low)
	case math.IsInf(e.Diff, -1):
		return fmt.Sprintf("≤ %+.0f (95%%)", e.High)
	}
	return fmt.Sprintf("%+.0f (95%%: %+.0f to %+.0f)", e.Diff, e.Low, e.High)
}

// Opening returns a game of n random legal actions from the start, seeded
// by seed, as a match's openings are made (the tuner's self-play uses it).
func Opening(n int, seed uint64) (*rules.Game, error) { return opening(n, seed) }
