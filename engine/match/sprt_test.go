package match

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/banchess/banchess/rules"
)

// TestSPRTLLR checks the ratio against values worked by hand from the
// formula's terms, and the bounds against fishtest's ±2.94 at 5% errors.
func TestSPRTLLR(t *testing.T) {
	for _, tt := range []struct {
		sprt SPRT
		sc   Score
		want float64
	}{
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{Wins: 60, Draws: 20, Losses: 20}, 1.7337},
		{SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, Score{Wins: 30, Draws: 50, Losses: 20}, 0.5874},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{Wins: 20, Draws: 20, Losses: 60}, -1.8629},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{}, 0},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{Wins: 9}, 0}, // all alike: no variance to judge by
		// Pairs: the pentanomial model, whatever the games' counts.
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{Wins: 60, Draws: 20, Losses: 40, Pairs: [5]int{3, 10, 30, 12, 5}}, 0.2763},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Score{Wins: 20, Losses: 20, Pairs: [5]int{0, 0, 20, 0, 0}}, 0}, // every pair split
	} {
		if got := tt.sprt.LLR(tt.sc); math.Abs(got-tt.want) > 0.001 {
			t.Errorf("%v after %v: LLR %.4f, want %.4f", tt.sprt, tt.sc, got, tt.want)
		}
	}
	lower, upper := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}.Bounds()
	if math.Abs(lower+2.944) > 0.001 || math.Abs(upper-2.944) > 0.001 {
		t.Errorf("bounds (%.3f, %.3f), want ±2.944", lower, upper)
	}
}

// TestSPRTErrorRates runs the test on simulated matches of known strength:
// where H0 holds it must seldom accept H1, and the reverse, at about the
// error rates asked for: with fishtest's narrow bounds and many draws, and
// with wide ones and few draws (Ban Chess's games), where the first games
// alone would mislead it (DefaultMinGames).
func TestSPRTErrorRates(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	simulate := func(s SPRT, elo, draws float64) Verdict {
		win := expected(elo) - draws/2 // a game's expected score is expected(elo)
		var sc Score
		for sc.Games() < 100000 {
			pair := 0
			for range 2 {
				switch x := r.Float64(); {
				case x < win:
					sc.Wins++
					pair += 2
				case x < win+draws:
					sc.Draws++
					pair++
				default:
					sc.Losses++
				}
			}
			sc.Pairs[pair]++
			if v := s.Decide(sc); v != Undecided {
				return v
			}
		}
		return Undecided
	}
	const runs = 300
	narrow, wide := SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}, SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	for _, tt := range []struct {
		sprt       SPRT
		elo, draws float64
		wrong      Verdict
	}{
		{narrow, 0, 0.3, AcceptH1}, {narrow, 40, 0.3, AcceptH0}, {narrow, -30, 0.3, AcceptH1}, {narrow, 80, 0.3, AcceptH0},
		{wide, 0, 0.05, AcceptH1}, {wide, 100, 0.05, AcceptH0}, {wide, 0, 0, AcceptH1},
	} {
		n := 0
		for range runs {
			if simulate(tt.sprt, tt.elo, tt.draws) == tt.wrong {
				n++
			}
		}
		rate := float64(n) / runs
		t.Logf("[%g, %g], %.0f%% draws, at a true %+g Elo: %s in %.1f%% of matches", tt.sprt.Elo0, tt.sprt.Elo1, 100*tt.draws, tt.elo, tt.wrong, 100*rate)
		if rate > 0.09 {
			t.Errorf("[%g, %g], %.0f%% draws, at a true %+g Elo: %s in %.0f%% of matches; want about 5%% at most", tt.sprt.Elo0, tt.sprt.Elo1, 100*tt.draws, tt.elo, tt.wrong, 100*rate)
		}
	}
}

// TestSPRTStopsTheMatch: a match whose SPRT is decided early stops after
// a whole pair of games, not before its MinGames, with the verdict; level 2 is surely stronger than
// 200 Elo below level 1, let alone 400.
func TestSPRTStopsTheMatch(t *testing.T) {
	a, err := NewEngine(2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewEngine(1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{A: a, B: b, Games: 20, OpeningPlies: 4, Seed: 7, SPRT: &SPRT{Elo0: -400, Elo1: -200, Alpha: 0.05, Beta: 0.05, MinGames: 6}}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	points := 0.0
	for k, c := range res.Score.Pairs {
		points += float64(k*c) / 2
	}
	if res.Score.pairs() != res.Score.Games()/2 || points != res.Score.Points() {
		t.Errorf("pairs %v (%d) for %v", res.Score.Pairs, res.Score.pairs(), res.Score)
	}
	if n := res.Score.Games(); res.Verdict != AcceptH1 || n < m.SPRT.MinGames || n >= m.Games || n%2 != 0 {
		t.Errorf("%v after %d games (%v), want H1 accepted early after whole pairs", res.Verdict, n, res.Score)
	}
}

// evaluating is a scripted player that reports an evaluation.
type evaluating struct {
	*scripted
	cp, mate int
}

func (e evaluating) Evaluation() (int, int, bool) { return e.cp, e.mate, true }

// TestWonCounted: a game a player's search saw won is counted, with how
// it ended for that player; a player without evaluations is not.
func TestWonCounted(t *testing.T) {
	for _, tt := range []struct {
		name         string
		white, black evaluating
		want         Won
	}{
		{"White saw +6 and won", evaluating{cp: 600}, evaluating{cp: -600}, Won{Games: 1}},
		{"Black saw a mate and lost", evaluating{cp: 100}, evaluating{mate: 3}, Won{Games: 1, Lost: 1}},
		{"nobody saw +5", evaluating{cp: 499}, evaluating{mate: -2}, Won{}},
		{"both did", evaluating{cp: 900}, evaluating{cp: 700}, Won{Games: 2, Lost: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.white.scripted = &scripted{t: t, name: "W", side: rules.White, script: banMate}
			tt.black.scripted = &scripted{t: t, name: "B", side: rules.Black, script: banMate}
			res, err := (&Match{A: tt.white, B: tt.black, Games: 1}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Won != tt.want || res.Score != (Score{Wins: 1}) {
				t.Errorf("%v (%v), want %v", res.Won, res.Score, tt.want)
			}
		})
	}
}
