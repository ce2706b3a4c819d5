// Package generate makes Ban Chess puzzles: it runs the engine over games —
// games it plays itself at mixed levels from varied openings, and games
// from a store — finds positions where the side to act has one clearly
// winning action, verifies each with deeper searches and exhaustive proofs
// over explicit bans, and builds its solution line, themes and starting
// rating. It is "banchess puzzles generate"; docs/puzzles.md explains it.
package generate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// Played is a game to examine: its start and its plies in BCN.
type Played struct {
	Name    string // where it came from, for messages
	Start   string // extended FEN; "" for the initial position
	Actions []string
	// Sharp says the game starts from a made position whose first two
	// moments may need a defence: they are screened for one as if the
	// game had gone on to mate the side to act.
	Sharp bool
}

// Options configure a run.
type Options struct {
	Count   int    // puzzles to make
	Seed    uint64 // seed of the self-play games
	Workers int    // games examined at once (at least 1)
	Limits  Limits
	// MaxLevel is the strongest engine level of the self-play games, 1 to
	// 7 (0: DefaultMaxLevel).
	MaxLevel int
	// Source is where the self-play games start: SourceSelfPlay (also
	// "") or SourceEndgames.
	Source string
	// Min are minimums by theme: the run goes on past Count until each is
	// met, and once Count is met keeps only puzzles of a theme whose
	// minimum is not.
	Min map[puzzles.Theme]int
	// Played are games to examine before the self-play games, in order
	// (games from a store).
	Played []Played
	// MaxGames bounds the games examined (0: 200 a puzzle asked for),
	// in case the puzzles asked for cannot be found.
	MaxGames int
	// Found, when set, receives each puzzle kept, in the output's order,
	// as soon as it is kept; an error ends the run.
	Found func(puzzles.Puzzle) error
	// Progress, when set, receives a line now and then.
	Progress io.Writer
	// Trace, when set, receives a line for every candidate: its position,
	// kind and fate, and what checking it cost.
	Trace io.Writer
}

// Stats describe a run: what was examined and why candidates failed.
type Stats struct {
	Games      int            // games examined
	Positions  int            // positions screened
	Candidates map[string]int // positions the screen proposed, by kind
	Rejected   map[string]int // candidates that failed, by the stage and reason
	Duplicates int            // puzzles found again at a position already taken
	Unwanted   int            // puzzles passed over once Count was met: no unmet minimum wanted them
	Puzzles    map[string]int // puzzles kept, by kind
	Nodes      int64          // engine positions searched to find and check puzzles
	PlayNodes  int64          // engine positions searched to play the self-play games
	ProofNodes int64          // positions visited by proofs over explicit bans
	Elapsed    time.Duration
}

func newStats() Stats {
	return Stats{Candidates: map[string]int{}, Rejected: map[string]int{}, Puzzles: map[string]int{}}
}

func (s *Stats) add(o Stats) {
	s.Games += o.Games
	s.Positions += o.Positions
	s.Duplicates += o.Duplicates
	s.Unwanted += o.Unwanted
	s.Nodes += o.Nodes
	s.PlayNodes += o.PlayNodes
	s.ProofNodes += o.ProofNodes
	for _, m := range []struct{ to, from map[string]int }{{s.Candidates, o.Candidates}, {s.Rejected, o.Rejected}, {s.Puzzles, o.Puzzles}} {
		for k, v := range m.from {
			m.to[k] += v
		}
	}
}

// Report writes the figures: games, positions, candidates and rejections
// by reason, puzzles by kind, and the speed.
func (s Stats) Report(w io.Writer, kept int) {
	cand := 0
	for _, v := range s.Candidates {
		cand += v
	}
	rej := 0
	for _, v := range s.Rejected {
		rej += v
	}
	fmt.Fprintf(w, "%d puzzles from %d games: %d positions screened, %d candidates, %d rejected (%.0f%%), %d duplicates\n",
		kept, s.Games, s.Positions, cand, rej, 100*float64(rej)/float64(max(cand, 1)), s.Duplicates)
	if s.Unwanted > 0 {
		fmt.Fprintf(w, "  %d puzzles passed over once the count was met (no unmet minimum)\n", s.Unwanted)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Candidates)) {
		fmt.Fprintf(w, "  candidates %-10s %6d   kept %6d\n", k, s.Candidates[k], s.Puzzles[k])
	}
	reasons := slices.SortedFunc(maps.Keys(s.Rejected), func(a, b string) int {
		return cmp.Or(s.Rejected[b]-s.Rejected[a], strings.Compare(a, b))
	})
	for _, k := range reasons {
		fmt.Fprintf(w, "  rejected %6d  %s\n", s.Rejected[k], k)
	}
	minutes := max(s.Elapsed.Minutes(), 1e-9)
	fmt.Fprintf(w, "engine nodes: %d to find and check puzzles, %d to play games; %d proof nodes\n", s.Nodes, s.PlayNodes, s.ProofNodes)
	fmt.Fprintf(w, "%v: %.1f puzzles/minute, %.0f positions/minute\n",
		s.Elapsed.Round(time.Second), float64(kept)/minutes, float64(s.Positions)/minutes)
}

// result is what one game gave.
type result struct {
	index   int
	puzzles []puzzles.Puzzle
	stats   Stats
	err     error
}

// Run makes opt.Count puzzles. Games are numbered: opt.Played first, then
// self-play games, each a function of the seed and its number; workers
// examine them in parallel, and the puzzles are kept in the games' order
// (the first of a position only), so a run's output depends on its
// options alone, not on the workers or the machine. Cancelled, it
// returns the puzzles kept so far with the error.
func Run(ctx context.Context, opt Options) ([]puzzles.Puzzle, Stats, error) {
	start := time.Now()
	stats := newStats()
	if opt.Count <= 0 {
		return nil, stats, errors.New("generate: ask for at least one puzzle")
	}
	maxGames := opt.MaxGames
	if maxGames <= 0 {
		maxGames = 200 * opt.Count
		for _, n := range opt.Min {
			maxGames += 200 * n
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for range max(opt.Workers, 1) {
		wg.Go(func() {
			for i := range jobs {
				r := examineGame(ctx, opt, i)
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := 0; i < maxGames; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer wg.Wait()
	defer cancel()

	var out []puzzles.Puzzle
	seen := map[string]bool{}
	pending := map[int]result{}
	have := map[puzzles.Theme]int{}
	wanted := func(p puzzles.Puzzle) bool {
		for _, t := range p.Themes {
			if have[t] < opt.Min[t] {
				return true
			}
		}
		return false
	}
	done := func() bool {
		if len(out) < opt.Count {
			return false
		}
		for t, n := range opt.Min {
			if have[t] < n {
				return false
			}
		}
		return true
	}
	for next := 0; !done() && next < maxGames; {
		var r result
		select {
		case r = <-results:
		case <-ctx.Done():
			stats.Elapsed = time.Since(start)
			return out, stats, ctx.Err()
		}
		pending[r.index] = r
		for ; !done(); next++ {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if r.err != nil {
				return nil, stats, r.err
			}
			stats.add(r.stats)
			for _, p := range r.puzzles {
				if done() {
					break
				}
				if len(out) >= opt.Count && !wanted(p) {
					stats.Unwanted++
					continue
				}
				if seen[p.ID] {
					stats.Duplicates++
					continue
				}
				seen[p.ID] = true
				out = append(out, p)
				for _, t := range p.Themes {
					have[t]++
				}
				stats.Puzzles[kindName(p.Kind())]++
				if opt.Found != nil {
					if err := opt.Found(p); err != nil {
						return out, stats, err
					}
				}
			}
			if opt.Progress != nil && len(r.puzzles) > 0 {
				fmt.Fprintf(opt.Progress, "%d/%d puzzles, %d games, %d positions, %v\n", len(out), opt.Count, stats.Games, stats.Positions, time.Since(start).Round(time.Second))
			}
		}
	}
	stats.Elapsed = time.Since(start)
	if !done() {
		return out, stats, fmt.Errorf("generate: found %d puzzles in %d games (by theme %v), not %d with the minimums %v", len(out), maxGames, have, opt.Count, opt.Min)
	}
	return out, stats, nil
}

// kindName groups the three mates as "mate", as the screen does.
func kindName(t puzzles.Theme) string {
	switch t {
	case puzzles.MateIn1, puzzles.MateIn2, puzzles.MateIn3, puzzles.MateIn4:
		return "mate"
	}
	return string(t)
}

// examineGame plays or reads game i and examines its positions.
func examineGame(ctx context.Context, opt Options, i int) result {
	res := result{index: i, stats: newStats()}
	var played Played
	from := 0
	if i < len(opt.Played) {
		played = opt.Played[i]
	} else if opt.Source == SourceEndgames {
		var err error
		if played, err = endgamePlay(ctx, opt.Seed, i-len(opt.Played), opt.MaxLevel, &res.stats.PlayNodes); err != nil {
			res.err = err
			return res
		}
	} else {
		var err error
		if played, from, err = selfPlay(ctx, opt.Seed, i-len(opt.Played), opt.MaxLevel, &res.stats.PlayNodes); err != nil {
			res.err = err
			return res
		}
	}
	f := &finder{ctx: ctx, lim: opt.Limits, stats: &res.stats, trace: opt.Trace}
	res.puzzles, res.err = f.game(played, from)
	res.stats.Games = 1
	return res
}

// game looks for puzzles at each position of a game from ply from on, to
// its last.
// After a puzzle it skips the positions its solution spans.
func (f *finder) game(played Played, from int) ([]puzzles.Puzzle, error) {
	g, err := rules.Replay(puzzles.Variant(), played.Start, played.Actions)
	if err != nil {
		return nil, fmt.Errorf("generate: game %s: %w", played.Name, err)
	}
	end := g.Outcome()
	at := func(k int) (*rules.Game, error) {
		fen, _ := g.Record().FENAfter(k)
		at, err := rules.FromFEN(fen, puzzles.Variant())
		if err != nil {
			return nil, fmt.Errorf("generate: game %s, ply %d: %w", played.Name, k, err)
		}
		return at, nil
	}
	actions := g.Actions()
	f.screen = newAnalyst(f.ctx, f.lim.Screen)
	var out []puzzles.Puzzle
	for k := from; k <= len(actions); k++ {
		now, err := at(k)
		if err != nil {
			return nil, err
		}
		h := hints{matedSoon: end.Status == rules.Checkmate && end.Winner != now.Turn().Actor && len(actions)-k <= matedSoonPlies ||
			played.Sharp && k < from+2}
		for j := k - 1; j >= 0; j-- {
			if actions[j].Phase == rules.PhaseMove {
				before, err := at(j)
				if err != nil {
					return nil, err
				}
				pos := before.Position()
				h.before = &pos
				break
			}
		}
		p, err := f.examine(now, h)
		if err != nil {
			return nil, fmt.Errorf("generate: game %s, ply %d (%s): %w", played.Name, k, now.FEN(), err)
		}
		if p != nil {
			out = append(out, *p)
			k += len(p.Solution) - 1
		}
	}
	return out, nil
}

// matedSoonPlies: a game that mated the side to act within this many
// plies hints that a defence may have been needed.
const matedSoonPlies = 8
