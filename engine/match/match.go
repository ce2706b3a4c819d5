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
	Level   int
	PerPly  time.Duration // level 8's time a ply without a clock
	Threads int
	s       *engine.Searcher
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
	return res.Best, err
}

// maxPlies ends a game as a draw when it gets this long.
const maxPlies = 400

// Score is a match's result for player A.
type Score struct {
	Wins, Draws, Losses int
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
}

// Times are the time each ply took on a clock, and the least time a side
// had left at a game's end, over a match.
type Times struct {
	Plies   Durations
	MinLeft time.Duration
	Flags   int // games lost on time
}

// Run plays the match and returns A's score, and on a clock the times.
func (m *Match) Run(ctx context.Context) (Score, *Times, error) {
	var sc Score
	var times *Times
	if m.Clock.Initial > 0 {
		times = &Times{MinLeft: m.Clock.Initial}
	}
	for i := 0; i < m.Games; i++ {
		g, err := opening(m.OpeningPlies, m.Seed+uint64(i/2))
		if err != nil {
			return sc, times, err
		}
		white, black := m.A, m.B
		if i%2 == 1 {
			white, black = m.B, m.A
		}
		var c *onClock
		if times != nil {
			c = &onClock{Clocks: Clocks{White: m.Clock.Initial, Black: m.Clock.Initial, Increment: m.Clock.Increment}, times: times}
		}
		o, err := play(ctx, g, white, black, c)
		if err != nil {
			return sc, times, fmt.Errorf("game %d: %w", i+1, err)
		}
		aColor := rules.White
		if i%2 == 1 {
			aColor = rules.Black
		}
		sc.add(o, aColor)
		if m.Log != nil {
			clocks := ""
			if c != nil {
				clocks = fmt.Sprintf(" (clocks %v, %v)", c.White.Round(time.Millisecond), c.Black.Round(time.Millisecond))
			}
			fmt.Fprintf(m.Log, "game %d: %s (white) – %s (black): %s %s after %d plies%s; %s %s\n",
				i+1, white.Name(), black.Name(), o.Result(), o, g.Ply()-1, clocks, m.A.Name(), sc)
		}
	}
	return sc, times, nil
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
	return play(ctx, g, white, black, nil)
}

// onClock is a game's clocks, and the match's record of the time its
// plies took.
type onClock struct {
	Clocks
	times *Times
}

// play is Play, on clock c when it is not nil.
func play(ctx context.Context, g *rules.Game, white, black Player, c *onClock) (rules.Outcome, error) {
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
