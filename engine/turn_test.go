package engine

import (
	"context"
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/rules"
)

// naive is plain minimax over explicit ban and move plies: the banner tries
// every ban, the mover every move the ban leaves. It returns the value of
// the turn for the side to move.
func naive(w *search, depth, ply int) int { return naiveBan(w, depth, ply, noBan) }

// naiveBan is naive with a ban already in force (noBan: a ban turn).
func naiveBan(w *search, depth, ply, inForce int) int {
	p := w.pos
	if ply > 0 && w.drawn() {
		return 0
	}
	moves := p.Legal(nil)
	inCheck := p.InCheck()
	lost := func(at int) int {
		if inCheck {
			return -(mateVal - at)
		}
		return 0
	}
	if inForce != noBan {
		best := -infinity
		for _, m := range moves {
			if m.Pair() != inForce {
				p.Make(m)
				w.keys = append(w.keys, p.hash)
				best = max(best, -naive(w, depth-1, ply+1))
				w.keys = w.keys[:len(w.keys)-1]
				p.Unmake()
			}
		}
		if best == -infinity {
			return lost(ply)
		}
		return best
	}
	if len(moves) == 0 {
		return lost(ply)
	}
	var bans []int
	seen := map[int]bool{}
	for _, m := range moves {
		if !seen[m.Pair()] {
			seen[m.Pair()] = true
			bans = append(bans, m.Pair())
		}
	}
	if len(bans) == 1 {
		return lost(ply + 1)
	}
	if depth == 0 {
		return w.eval()
	}
	// A move's value does not depend on the ban: work each out once.
	values := make([]int, len(moves))
	for i, m := range moves {
		p.Make(m)
		w.keys = append(w.keys, p.hash)
		values[i] = -naive(w, depth-1, ply+2)
		w.keys = w.keys[:len(w.keys)-1]
		p.Unmake()
	}
	worst := infinity
	for _, ban := range bans {
		best := -infinity
		for i, m := range moves {
			if m.Pair() != ban {
				best = max(best, values[i])
			}
		}
		worst = min(worst, best)
	}
	return worst
}

// TestTurnIsSecondBest checks the second-best alpha-beta against plain
// minimax over explicit bans, on positions of the reference games (every
// 97th), to two moves; mates and stalemates by bans included.
func TestTurnIsSecondBest(t *testing.T) {
	depth, every, want := 2, 97, 200
	if testing.Short() || race.Enabled { // one goroutine's work: CI compares them all without the race detector
		every, want = 499, 10
	}
	n := 0
	for gi, ref := range loadRefGames(t) {
		g, err := rules.FromFEN(ref.Start, rules.BanChess{})
		if err != nil {
			continue
		}
		for pi, ply := range ref.Plies {
			if g.Turn().Phase == rules.PhaseBan && (gi*1000+pi)%every == 0 && !g.Outcome().Over() {
				s, err := FromGame(g)
				if err != nil {
					t.Fatal(err)
				}
				w := exactSearch(s)
				want := naive(w, depth, 0)
				got := w.turn(depth, 0, -infinity, infinity, noBan)
				if got != want {
					t.Errorf("game %d ply %d %s: turn = %d, minimax = %d", gi, pi, g.FEN(), got, want)
				}
				n++
			}
			if err := g.PlayText(ply.Play); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n < want {
		t.Errorf("compared %d positions, want %d or more", n, want)
	}
	t.Logf("compared %d positions", n)
}

// exactSearch returns a search of s with reductions, table cutoffs and
// quiescence off.
func exactSearch(s *State) *search {
	w := &search{thread: newThread(), tt: newTable(1), shared: &shared{}, ctx: context.Background(), s: s, pos: s.pos.Copy(), rootBan: s.ban, exact: true}
	w.keys = append([]uint64(nil), s.history...)
	return w
}
