package generate

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/puzzles"
	"github.com/banchess/banchess/rules"
)

// cheap are limits that make a run quick, for tests.
var cheap = Limits{
	Screen:      engine.Limits{Depth: 2, Nodes: 3_000},
	Deep:        engine.Limits{Depth: 3, Nodes: 8_000},
	ProofBudget: 300_000,
	RateNodes:   5_000,
}

func runBytes(t *testing.T, opt Options) ([]byte, Stats) {
	t.Helper()
	ps, stats, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := puzzles.Write(&b, ps); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), stats
}

// TestRunDeterministic checks that a run's puzzles depend on its options
// only: the same seed gives the same bytes, however many workers examine
// the games, and another seed other puzzles; fewer puzzles asked for are
// the first of them, and Found receives them in order as they are kept.
// Every puzzle passes Verify.
func TestRunDeterministic(t *testing.T) {
	opt := Options{Count: 3, Seed: 7, Workers: 1, Limits: cheap, MaxLevel: 2}
	one, stats := runBytes(t, opt)
	var found bytes.Buffer
	opt.Workers = 3
	opt.Found = func(p puzzles.Puzzle) error { return puzzles.Write(&found, []puzzles.Puzzle{p}) }
	three, _ := runBytes(t, opt)
	if !bytes.Equal(one, three) || !bytes.Equal(one, found.Bytes()) {
		t.Fatalf("1 worker:\n%s3 workers:\n%sfound one by one:\n%s", one, three, found.Bytes())
	}
	opt.Count, opt.Found = 2, nil
	if two, _ := runBytes(t, opt); !bytes.HasPrefix(one, two) || bytes.Equal(one, two) {
		t.Errorf("2 puzzles:\n%sare not the first of 3:\n%s", two, one)
	}
	opt.Seed, opt.Count = 8, 1
	other, _ := runBytes(t, opt)
	if bytes.HasPrefix(one, other) {
		t.Error("seeds 7 and 8 made the same first puzzle")
	}
	ps, err := puzzles.Read(bytes.NewReader(one))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := puzzles.Verify(p); err != nil {
			t.Error(err)
		}
	}
	if len(ps) != 3 || stats.Games == 0 || stats.Positions == 0 {
		t.Errorf("%d puzzles from %d games, %d positions", len(ps), stats.Games, stats.Positions)
	}
}

// TestPlayedFirst checks that given games are examined before self-play
// ones, and that a puzzle's position is kept once.
func TestPlayedFirst(t *testing.T) {
	// Black's ban leaves White its mate by Nxb6+ and the ban of Ka7.
	played := Played{Name: "mate", Start: "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 1", Actions: []string{"b:h2h3"}}
	opt := Options{Count: 2, Played: []Played{played, played}, MaxGames: 2, Limits: cheap}
	ps, stats, err := Run(context.Background(), opt)
	if err == nil || len(ps) != 1 || stats.Games != 2 || stats.Duplicates != 1 {
		t.Fatalf("%v: %d puzzles from %d games, %d duplicates; want an error, 1 puzzle and 1 duplicate", err, len(ps), stats.Games, stats.Duplicates)
	}
	if want := "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2:h2h3"; ps[0].FEN != want {
		t.Errorf("the puzzle is at %s, want %s", ps[0].FEN, want)
	}
}

// TestExamine checks the finder on positions whose puzzle is known.
func TestExamine(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		h        hints
		solution []string // nil: no puzzle
		themes   []puzzles.Theme
	}{
		{"mate by ban", "k7/2K5/1p6/3N4/8/8/7P/8 w - - 0 1 2:h2h4", hints{}, []string{"m:d5b6", "b:a8a7"},
			[]puzzles.Theme{puzzles.MateIn2, puzzles.MateByBan, puzzles.StalemateTrap}},
		// Black's queen on d5 is White's for the taking.
		{"a queen", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 2:e1e2", hints{}, []string{"m:d2d5"}, []puzzles.Theme{puzzles.Material}},
		// Taking back what was just taken is no puzzle.
		{"a recapture", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 2:e1e2", hints{before: position(t, "4k3/8/8/3q4/8/8/3Q4/3QK3 b - - 0 1 4")}, nil, nil},
		// Black bans White's Qh1, the only mate; anything else lets it.
		{"the ban of the mate", "7k/5K2/8/8/8/p7/P7/1Q6 w - - 0 1 1", hints{matedSoon: true}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stats := newStats()
			f := &finder{ctx: context.Background(), lim: cheap, stats: &stats}
			g, err := rules.FromFEN(tt.fen, rules.BanChess{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.examine(g, tt.h)
			if err != nil {
				t.Fatal(err)
			}
			if tt.solution == nil {
				if p != nil {
					t.Fatalf("found %+v", *p)
				}
				return
			}
			if p == nil {
				t.Fatalf("no puzzle; %+v", stats)
			}
			if !slices.Equal(p.Solution, tt.solution) || !slices.Equal(p.Themes, tt.themes) {
				t.Errorf("%v %v, want %v %v", p.Solution, p.Themes, tt.solution, tt.themes)
			}
			if err := puzzles.Verify(*p); err != nil {
				t.Error(err)
			}
		})
	}
}

func position(t *testing.T, fen string) *rules.Position {
	t.Helper()
	g, err := rules.FromFEN(fen, rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	return &p
}

func TestValueRank(t *testing.T) {
	order := []value{{mate: -1}, {mate: -5}, {cp: -300}, {cp: 0}, {cp: 250}, {mate: 7}, {mate: 1}}
	for i := 1; i < len(order); i++ {
		if order[i-1].rank() >= order[i].rank() {
			t.Errorf("%v ranks %d, not below %v's %d", order[i-1], order[i-1].rank(), order[i], order[i].rank())
		}
	}
	if v := (value{mate: 3}).later(); v.mate != 4 {
		t.Errorf("a mate in 3 a ply earlier is %v", v)
	}
	if v := (value{mate: 2}).other(); !v.mated(2) {
		t.Errorf("the other side of a mate in 2 is %v", v)
	}
}

func TestLog2x16(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want int
	}{{1, 0}, {2, 16}, {3, 24}, {1024, 160}, {1536, 168}, {1 << 20, 320}} {
		if got := log2x16(tt.n); got != tt.want {
			t.Errorf("log2x16(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

func TestCommandFlags(t *testing.T) {
	for _, args := range [][]string{{"--count", "0"}, {"--workers", "0"}, {"extra"}, {"--db", "x.db"}, {"--source", "x"}, {"--min", "nope=1"}, {"--min", "mateIn1"}, {"--min", "mateIn1=-1"}, {"--min", "long=1"}, {"--min", "mateIn4=1"}} {
		var out bytes.Buffer
		if err := Command(context.Background(), args, &out, &out, nil); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	var out bytes.Buffer
	if err := Command(context.Background(), []string{"-h"}, &out, &out, nil); err != nil || !strings.Contains(out.String(), "-seed") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
}

// BenchmarkGenerate makes b.N puzzles with the default limits (seed 1,
// as shipped: the first b.N of the shipped file) and reports the speed,
// the positions examined and the engine's nodes a puzzle, and the share
// of candidates rejected. Give the count: -benchtime 50x.
func BenchmarkGenerate(b *testing.B) {
	_, stats, err := Run(context.Background(), Options{Count: b.N, Seed: 1, Workers: 2, Limits: DefaultLimits})
	if err != nil {
		b.Fatal(err)
	}
	candidates, rejected := 0, 0
	for _, n := range stats.Candidates {
		candidates += n
	}
	for _, n := range stats.Rejected {
		rejected += n
	}
	b.ReportMetric(float64(b.N)/stats.Elapsed.Minutes(), "puzzles/min")
	b.ReportMetric(float64(stats.Positions)/float64(b.N), "positions/puzzle")
	b.ReportMetric(100*float64(rejected)/float64(max(candidates, 1)), "%rejected")
	b.ReportMetric(float64(stats.Nodes+stats.PlayNodes)/float64(b.N), "nodes/puzzle")
}

// TestRunEndgamesWithMinimums checks the endgame source and the minimums:
// a run goes on past its count until each minimum is met, keeping only
// puzzles a minimum wants once the count is met; its output is the same
// on 1 and on 2 workers; every puzzle passes Verify.
func TestRunEndgamesWithMinimums(t *testing.T) {
	opt := Options{Count: 2, Seed: 3, Workers: 1, Limits: cheap, MaxLevel: 2, Source: SourceEndgames,
		Min: map[puzzles.Theme]int{puzzles.MateIn1: 2, puzzles.Promotion: 1}}
	one, stats := runBytes(t, opt)
	opt.Workers = 2
	if two, _ := runBytes(t, opt); !bytes.Equal(one, two) {
		t.Fatalf("1 worker:\n%s2 workers:\n%s", one, two)
	}
	ps, err := puzzles.Read(bytes.NewReader(one))
	if err != nil {
		t.Fatal(err)
	}
	count := map[puzzles.Theme]int{}
	for i, p := range ps {
		if err := puzzles.Verify(p); err != nil {
			t.Error(err)
		}
		if i >= opt.Count && !slices.Contains(p.Themes, puzzles.MateIn1) && !slices.Contains(p.Themes, puzzles.Promotion) {
			t.Errorf("puzzle %d, %v, is past the count and serves no minimum", i+1, p.Themes)
		}
		for _, th := range p.Themes {
			count[th]++
		}
	}
	if len(ps) < opt.Count || count[puzzles.MateIn1] < 2 || count[puzzles.Promotion] < 1 {
		t.Errorf("%d puzzles, by theme %v: the count or a minimum is not met", len(ps), count)
	}
	if !strings.Contains(ps[0].FEN, " - - ") || stats.Games == 0 {
		t.Errorf("first puzzle %s; %d games", ps[0].FEN, stats.Games)
	}
}

// TestRunLong checks a run that seeks long puzzles (--long): its mates
// may take four solver actions, its minimum of long puzzles is met, its
// output is the same on 1 and on 2 workers, and every puzzle passes
// Verify, a long one having LongActions solver actions or more.
func TestRunLong(t *testing.T) {
	lim := cheap
	lim.Screen = engine.Limits{Depth: 4, Nodes: 8_000}
	lim.MateHorizon, lim.SolverActions, lim.ProofTotal = puzzles.MaxPlies, puzzles.LongActions, 2_000_000
	opt := Options{Count: 1, Seed: 2, Workers: 1, Limits: lim, MaxLevel: 2, Source: SourceEndgames,
		Min: map[puzzles.Theme]int{puzzles.Long: 2}}
	one, _ := runBytes(t, opt)
	opt.Workers = 2
	if two, _ := runBytes(t, opt); !bytes.Equal(one, two) {
		t.Fatalf("1 worker:\n%s2 workers:\n%s", one, two)
	}
	ps, err := puzzles.Read(bytes.NewReader(one))
	if err != nil {
		t.Fatal(err)
	}
	long := 0
	for i, p := range ps {
		if err := puzzles.Verify(p); err != nil {
			t.Error(err)
		}
		mine, ok := solverActions(p)
		switch {
		case !ok:
			t.Errorf("puzzle %s: no start", p.ID)
		case slices.Contains(p.Themes, puzzles.Long) != (mine >= puzzles.LongActions):
			t.Errorf("puzzle %s: %d solver actions, themes %v", p.ID, mine, p.Themes)
		case slices.Contains(p.Themes, puzzles.Long):
			long++
		case i >= opt.Count:
			t.Errorf("puzzle %d, %v, is past the count and not long", i+1, p.Themes)
		}
	}
	if long < 2 {
		t.Errorf("%d long puzzles of %d", long, len(ps))
	}
}

// solverActions counts the solver's actions in p's solution.
func solverActions(p puzzles.Puzzle) (int, bool) {
	g, err := p.Start()
	if err != nil {
		return 0, false
	}
	line, err := p.Line()
	if err != nil {
		return 0, false
	}
	solver, n := g.Turn().Actor, 0
	for _, a := range line {
		if g.Turn().Actor == solver {
			n++
		}
		if err := g.Play(a); err != nil {
			return 0, false
		}
	}
	return n, true
}

// TestEndgamePositions checks that every kind of made position is legal
// (the side not to move not in check, the game not over, two actions or
// more) and a function of the random stream, and that the kinds aimed at
// a mate in one, a defence or an underpromotion have what they aim at.
func TestEndgamePositions(t *testing.T) {
	for _, kind := range endgameKinds {
		t.Run(kind, func(t *testing.T) {
			made := func() []string {
				r := rand.New(rand.NewPCG(5, 6))
				var fens []string
				for tries := 0; len(fens) < 5 && tries < 20000; tries++ {
					if g := endgamePosition(r, kind); g != nil {
						fens = append(fens, g.FEN())
					}
				}
				return fens
			}
			fens := made()
			if len(fens) < 5 || !slices.Equal(fens, made()) {
				t.Fatalf("%d positions, or not the same twice: %v", len(fens), fens)
			}
			for _, fen := range fens {
				g, err := rules.FromFEN(fen, puzzles.Variant())
				if err != nil || g.Outcome().Over() || len(g.Legal()) < 2 {
					t.Errorf("%s: %v, %s, %d actions", fen, err, g.Outcome(), len(g.Legal()))
					continue
				}
				mates := 0
				for _, a := range g.Legal() {
					g.Play(a)
					if g.Outcome().Status == rules.Checkmate {
						mates++
					}
					g.Undo()
				}
				switch kind {
				case "mateMove":
					if g.Turn().Phase != rules.PhaseMove || mates != 1 {
						t.Errorf("%s: %d mates at once, want 1 at a move ply", fen, mates)
					}
				case "backRank", "edgeMate", "stalemate", "promotion", "remnant":
					if g.Turn().Phase != rules.PhaseBan {
						t.Errorf("%s: not at a ban ply", fen)
					}
				case "underPromo":
					if g.Turn().Phase != rules.PhaseMove {
						t.Errorf("%s: not at a move ply", fen)
					}
				}
			}
		})
	}
}
