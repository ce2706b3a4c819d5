package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// finisher is a reference position where the side to act ends the game.
type finisher struct {
	name  string
	g     *rules.Game
	plies int // plies to mate
}

// finishers returns, for every reference game ended by checkmate, the
// position before its last ply (a mating ban or a mating move) and, when
// the mate came by a ban, the position before the move that forced it (a
// move after which the ban that mates is the only one).
func finishers(t testing.TB) []finisher {
	t.Helper()
	var out []finisher
	for _, m := range mated(t) {
		back := []int{1}
		if m.end.Reason == rules.ByBan {
			back = append(back, 2)
		}
		for _, k := range back {
			out = append(out, finisher{fmt.Sprintf("game%d-%dplies", m.index, k), m.before(t, k), k})
		}
	}
	return out
}

// matedGame is a reference game that ended in checkmate.
type matedGame struct {
	index int
	start string
	acts  []string
	end   rules.Outcome
}

// before returns the game k plies before its end.
func (m matedGame) before(t testing.TB, k int) *rules.Game {
	t.Helper()
	g, err := rules.Replay(rules.BanChess{}, m.start, m.acts[:len(m.acts)-k])
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// mated returns the reference games that ended in checkmate.
func mated(t testing.TB) []matedGame {
	t.Helper()
	var out []matedGame
	for gi, ref := range loadRefGames(t) {
		if _, err := rules.FromFEN(ref.Start, rules.BanChess{}); err != nil {
			continue
		}
		var acts []string
		for _, p := range ref.Plies {
			acts = append(acts, p.Play)
		}
		end, err := rules.Replay(rules.BanChess{}, ref.Start, acts)
		if err != nil {
			t.Fatal(err)
		}
		if end.Outcome().Status == rules.Checkmate {
			out = append(out, matedGame{gi, ref.Start, acts, end.Outcome()})
		}
	}
	return out
}

// TestLevelsFinish checks that every level from 2 finds the mate in
// reference positions where the side to act mates at once (or by the
// forced ban after its move), and that its line plays it. Level 8 is given
// 10 s, which it never needs: a search stops at a mate within its depth
// (BenchmarkFinish measures the time, well under 100 ms).
func TestLevelsFinish(t *testing.T) {
	fs := finishers(t)
	if len(fs) < 20 {
		t.Fatalf("found %d finishing positions, want 20 or more", len(fs))
	}
	for _, level := range testedLevels(2) {
		lim, err := Level(level, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		e := NewSearcher(4)
		for _, f := range fs {
			s, err := FromGame(f.g)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Search(context.Background(), s, lim)
			if err != nil {
				t.Fatal(err)
			}
			if res.Mate <= 0 || res.Mate > f.plies {
				t.Errorf("level %d %s (%s): mate %d, want in %d plies; best %s score %d", level, f.name, f.g.FEN(), res.Mate, f.plies, res.Best, res.Score)
				continue
			}
			if len(res.PV) < res.Mate {
				t.Errorf("level %d %s: line %v is shorter than the mate in %d", level, f.name, res.PV, res.Mate)
				continue
			}
			actor := f.g.Turn().Actor
			g, err := rules.Replay(rules.BanChess{}, f.g.StartFEN(), f.g.BCN())
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.PV[:res.Mate] {
				if err := g.Play(a); err != nil {
					t.Fatalf("level %d %s: line %v: %v", level, f.name, res.PV, err)
				}
			}
			if o := g.Outcome(); o.Status != rules.Checkmate || o.Winner != actor {
				t.Errorf("level %d %s: line %v ends in %s, want %s to mate", level, f.name, res.PV, o, actor.Name())
			}
		}
	}
}

// TestForcedMates checks the levels from 4 on positions of the reference
// games 3 to 6 plies before a checkmate where plain minimax over explicit
// bans (naive, two moves deep) proves that the side to act mates: they
// must find a mate as short.
func TestForcedMates(t *testing.T) {
	if testing.Short() {
		t.Skip("minimax over explicit bans is slow")
	}
	type mate struct {
		name  string
		g     *rules.Game
		plies int
	}
	var mates []mate
	for _, mg := range mated(t) {
		for k := 3; k <= 6 && k <= len(mg.acts); k++ {
			g := mg.before(t, k)
			s, err := FromGame(g)
			if err != nil {
				t.Fatal(err)
			}
			w := exactSearch(s)
			v := naiveBan(w, 2, 0, s.ban)
			if s.banPhase {
				v = -v
			}
			if v > mateMin && mateVal-v > 2 {
				mates = append(mates, mate{fmt.Sprintf("game%d-%dplies", mg.index, k), g, mateVal - v})
			}
		}
	}
	if len(mates) < 5 {
		t.Fatalf("found %d forced mates, want 5 or more", len(mates))
	}
	t.Logf("%d forced mates", len(mates))
	for _, level := range testedLevels(4) {
		lim, err := Level(level, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mates {
			s, err := FromGame(m.g)
			if err != nil {
				t.Fatal(err)
			}
			res, err := NewSearcher(4).Search(context.Background(), s, lim)
			if err != nil {
				t.Fatal(err)
			}
			if res.Mate != m.plies {
				t.Errorf("level %d %s (%s): mate %d (score %d, line %v), want mate in %d plies", level, m.name, m.g.FEN(), res.Mate, res.Score, res.PV, m.plies)
			}
		}
	}
}

// testedLevels are the levels from from to Levels a test searches at:
// under the race detector only the first and the last (ten times slower
// there, the levels between add nothing for it to find; CI tests them
// all without it, see .ci/run).
func testedLevels(from int) []int {
	var out []int
	for level := from; level <= Levels; level++ {
		if !race.Enabled || level == from || level == Levels {
			out = append(out, level)
		}
	}
	return out
}

// BenchmarkFinish reports the time each level takes to find the mate in
// the positions of TestLevelsFinish, in ms a position.
func BenchmarkFinish(b *testing.B) {
	fs := finishers(b)
	for level := 2; level <= Levels; level++ {
		lim, err := Level(level, 10*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("level%d", level), func(b *testing.B) {
			e := NewSearcher(4)
			var worst time.Duration
			for b.Loop() {
				for _, f := range fs {
					s, err := FromGame(f.g)
					if err != nil {
						b.Fatal(err)
					}
					res, err := e.Search(context.Background(), s, lim)
					if err != nil {
						b.Fatal(err)
					}
					worst = max(worst, res.Time)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(fs)), "ms/position")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
		})
	}
}
