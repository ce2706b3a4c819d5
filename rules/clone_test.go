package rules

import (
	"reflect"
	"slices"
	"sync"
	"testing"
)

// cloneState is what a clone must keep of its game: where it stands, what
// may be played, its record with its notes, and its revision.
func cloneState(t *testing.T, g *Game) []any {
	t.Helper()
	var legal []string
	for _, a := range g.Legal() {
		legal = append(legal, a.String())
	}
	return []any{g.FEN(), legal, g.Outcome(), g.Record().PGN(), g.Revision(), g.Ply(), slices.Clone(g.BCN()), g.Snapshot()}
}

// TestCloneSharesNothing: over reference games, a clone taken at
// each ply stands where its game stood, and stays there while the game
// plays on, is annotated, branches into variations, is taken back and
// resigned.
func TestCloneSharesNothing(t *testing.T) {
	games := loadRefGames(t)
	step := 4 // a quarter of the games: each clone is checked after its game's end, quadratic in its plies
	if testing.Short() || raceEnabled {
		step = 24
	}
	for i := 0; i < len(games); i += step {
		ref := games[i]
		if ref.Start == illegalRefStart {
			continue
		}
		g := mustFEN(t, ref.Start, BanChess{})
		var clones []*Game
		var states [][]any
		for n, p := range ref.Plies {
			if n%7 == 3 {
				// Notes and a variation, which a clone must copy too.
				g.notes.addComment(g.Ply()-g.StartPly(), "a note")
				_, _ = g.Variations().Add(nil, g.Ply()-g.StartPly(), g.Legal()[len(g.Legal())-1:], VariationLimits{}) // refused when it is the game's own next ply
			}
			c := g.Clone()
			clones, states = append(clones, c), append(states, cloneState(t, g))
			mustPlay(t, g, p.Play)
		}
		for g.Ply() > g.StartPly() && g.Undo() == nil {
		}
		_ = g.Resign(White)
		for k, c := range clones {
			if got := cloneState(t, c); !equalStates(got, states[k]) {
				t.Fatalf("game %d, ply %d: the clone changed with its game:\n%v\nwant\n%v", ref.Seed, k, got, states[k])
			}
		}
	}
}

func equalStates(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestCloneReadWhilePlayed: a clone read on one goroutine while its game
// is played and taken back on another (run with -race).
func TestCloneReadWhilePlayed(t *testing.T) {
	g := New(BanChess{})
	for _, a := range []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5"} {
		mustPlay(t, g, a)
	}
	c := g.Clone()
	want := cloneState(t, c)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 50 {
			if err := g.Play(g.Legal()[0]); err != nil {
				t.Error(err)
			}
			if err := g.Undo(); err != nil {
				t.Error(err)
			}
		}
	})
	for range 50 {
		if got := cloneState(t, c); !equalStates(got, want) {
			t.Fatal("the clone changed while its game was played")
		}
	}
	wg.Wait()
}

// BenchmarkClone clones a game of the reference games' longest.
func BenchmarkClone(b *testing.B) {
	refs := loadRefGames(b)
	longest := refs[0]
	for _, r := range refs {
		if len(r.Plies) > len(longest.Plies) && r.Start != illegalRefStart {
			longest = r
		}
	}
	g, err := FromFEN(longest.Start, BanChess{})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range longest.Plies {
		if err := g.PlayText(p.Play); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.Ply()-g.StartPly()), "plies")
	b.ReportAllocs()
	for b.Loop() {
		g.Clone()
	}
}
