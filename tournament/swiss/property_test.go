package swiss

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// seeds is how many events a property test simulates: n, fewer with
// -short, SWISS_SEEDS if set (SWISS_SEEDS=3000 for the thousands).
func seeds(n int) int {
	if s, err := strconv.Atoi(os.Getenv("SWISS_SEEDS")); err == nil && s > 0 {
		return s
	}
	if testing.Short() {
		return n / 10
	}
	return n
}

// simulation runs random events: random results, late joiners, withdrawals.
type simulation struct {
	rng     *rand.Rand
	players []Player
	next    int // the next joiner's number
}

func newSimulation(seed uint64, n int) *simulation {
	s := &simulation{rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
	for range n {
		s.join()
	}
	return s
}

func (s *simulation) join() {
	s.players = append(s.players, Player{ID: fmt.Sprintf("p%03d", s.next), Rating: 1000 + s.rng.IntN(1500)})
	s.next++
}

// play records round `round`'s results (random; now and then a forfeit,
// whose loser withdraws) in the histories.
func (s *simulation) play(round int, r Round) {
	idx := map[string]int{}
	for i := range s.players {
		for len(s.players[i].Games) < round-1 {
			s.players[i].Games = append(s.players[i].Games, Game{Kind: Absent})
		}
		idx[s.players[i].ID] = i
	}
	add := func(id string, g Game) { s.players[idx[id]].Games = append(s.players[idx[id]].Games, g) }
	for _, b := range r.Boards {
		if s.rng.IntN(50) == 0 { // one side never started: it loses and is withdrawn
			w, l := b.White, b.Black
			if s.rng.IntN(2) == 0 {
				w, l = l, w
			}
			add(w, Game{Kind: Forfeit, Opponent: l, Points: 2})
			add(l, Game{Kind: Forfeit, Opponent: w})
			s.players[idx[l]].Withdrawn = true
			continue
		}
		pts := []int{0, 1, 2, 2}[s.rng.IntN(4)]
		if s.rng.IntN(2) == 0 {
			pts = 2 - pts
		}
		add(b.White, Game{Kind: Played, Opponent: b.Black, Color: White, Points: pts})
		add(b.Black, Game{Kind: Played, Opponent: b.White, Color: Black, Points: 2 - pts})
	}
	if r.Bye != "" {
		add(r.Bye, Game{Kind: Bye, Points: 2})
	}
	for i := range s.players {
		if len(s.players[i].Games) < round {
			s.players[i].Games = append(s.players[i].Games, Game{Kind: Absent})
		}
	}
}

// checkRound checks a round's pairing against the rules it claims.
func checkRound(t *testing.T, ps []Player, round int, r Round) {
	t.Helper()
	by := map[string]*state{}
	active := 0
	for i := range ps {
		by[ps[i].ID] = newState(&ps[i], round)
		if !ps[i].Withdrawn {
			active++
		}
	}
	seen := map[string]bool{}
	mark := func(id string) *state {
		s := by[id]
		switch {
		case s == nil:
			t.Fatalf("round %d: unknown %q paired", round, id)
		case s.p.Withdrawn:
			t.Fatalf("round %d: withdrawn %s paired", round, id)
		case seen[id]:
			t.Fatalf("round %d: %s paired twice", round, id)
		}
		seen[id] = true
		return s
	}
	for _, b := range r.Boards {
		w, bl := mark(b.White), mark(b.Black)
		for _, g := range w.p.Games {
			if g.Opponent == b.Black {
				t.Fatalf("round %d: %s and %s meet again", round, b.White, b.Black)
			}
		}
		if !keepsColours(w.p.Games, White) || !keepsColours(bl.p.Games, Black) {
			t.Fatalf("round %d: %s–%s breaks the colour rules (%v; %v)", round, b.White, b.Black, w.colors, bl.colors)
		}
	}
	if r.Bye != "" {
		if s := mark(r.Bye); s.hadBye {
			t.Fatalf("round %d: %s has a second bye", round, r.Bye)
		}
		if active%2 == 0 {
			t.Fatalf("round %d: a bye with %d players", round, active)
		}
	} else if active%2 == 1 {
		t.Fatalf("round %d: no bye with %d players", round, active)
	}
	if len(seen) != active {
		t.Fatalf("round %d: %d of %d active players paired", round, len(seen), active)
	}
}

// keepsColours reports whether a game with colour c after the games
// played keeps whites − blacks within ±2 and no colour thrice in a row.
func keepsColours(games []Game, c Color) bool {
	var seq []Color
	for _, g := range games {
		if g.Kind == Played {
			seq = append(seq, g.Color)
		}
	}
	seq = append(seq, c)
	diff := 0
	for i, x := range seq {
		if x == White {
			diff++
		} else {
			diff--
		}
		if i >= 2 && seq[i-1] == x && seq[i-2] == x {
			return false
		}
	}
	return diff >= -2 && diff <= 2
}

// legalExists reports, by exhaustive search straight from the rules and
// the histories, whether the active players can be paired: no meeting
// twice, colours kept (either way round), one bye when odd, to someone
// who had none and won no forfeit.
func legalExists(ps []Player) bool {
	var active []*Player
	for i := range ps {
		if !ps[i].Withdrawn {
			active = append(active, &ps[i])
		}
	}
	met := func(a, b *Player) bool {
		for _, g := range a.Games {
			if g.Opponent == b.ID {
				return true
			}
		}
		return false
	}
	hadBye := func(a *Player) bool {
		for _, g := range a.Games {
			if g.Kind == Bye || g.Kind == Forfeit && g.Points == 2 {
				return true
			}
		}
		return false
	}
	used := make([]bool, len(active))
	var rec func(byeLeft bool) bool
	rec = func(byeLeft bool) bool {
		v := 0
		for v < len(active) && used[v] {
			v++
		}
		if v == len(active) {
			return !byeLeft
		}
		a := active[v]
		used[v] = true
		defer func() { used[v] = false }()
		if byeLeft && !hadBye(a) && rec(false) {
			return true
		}
		for u := v + 1; u < len(active); u++ {
			b := active[u]
			if used[u] || met(a, b) {
				continue
			}
			if !(keepsColours(a.Games, White) && keepsColours(b.Games, Black)) && !(keepsColours(a.Games, Black) && keepsColours(b.Games, White)) {
				continue
			}
			used[u] = true
			ok := rec(byeLeft)
			used[u] = false
			if ok {
				return true
			}
		}
		return false
	}
	return rec(len(active)%2 == 1)
}

// best finds by exhaustive search the least cost of a legal pairing, or
// false when there is none.
func best(f *field) (int64, bool) {
	n := f.vertices()
	w := map[[2]int]int64{}
	for _, e := range f.edges {
		w[[2]int{e.i, e.j}] = e.w
	}
	used := make([]bool, n)
	found, top := false, int64(0)
	var rec func(total int64)
	rec = func(total int64) {
		v := 0
		for v < n && used[v] {
			v++
		}
		if v == n {
			if !found || total > top {
				found, top = true, total
			}
			return
		}
		used[v] = true
		for u := v + 1; u < n; u++ {
			if x, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(total + x)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0)
	return top, found
}

// weight is a round's total weight in f's terms.
func weight(t *testing.T, f *field, r Round) int64 {
	t.Helper()
	pos := map[string]int{}
	for i, s := range f.active {
		pos[s.p.ID] = i
	}
	w := map[[2]int]int64{}
	for _, e := range f.edges {
		w[[2]int{e.i, e.j}] = e.w
	}
	var total int64
	get := func(i, j int) {
		if i > j {
			i, j = j, i
		}
		x, ok := w[[2]int{i, j}]
		if !ok {
			t.Fatalf("the pairing has %d–%d, not an edge", i, j)
		}
		total += x
	}
	for _, b := range r.Boards {
		i, j := pos[b.White], pos[b.Black]
		a, c := f.active[min(i, j)], f.active[max(i, j)]
		want, _ := allocate(a, c)
		if (i < j) != (want == White) {
			t.Fatalf("board %v: colours not as allocated", b)
		}
		get(i, j)
	}
	if r.Bye != "" {
		get(pos[r.Bye], len(f.active))
	}
	return total
}

// TestPairProperties simulates random events (2–60 players, 3–15 rounds,
// late joiners, withdrawals) and checks every round: everyone active
// paired once, no withdrawn player paired, no meeting twice, the colour
// rules, byes. With up to 11 active players an exhaustive search checks
// that a pairing exists exactly when Pair finds one, and that Pair's is
// the cheapest.
func TestPairProperties(t *testing.T) {
	exhaustive, rounds, unpairable := 0, 0, 0
	for seed := range uint64(seeds(250)) {
		small := seed%2 == 0
		n := 2 + int(seed*7919%59)
		if small {
			n = 2 + int(seed%10)
		}
		sim := newSimulation(seed, n)
		total := 3 + int(seed%13)
		for round := 1; round <= total; round++ {
			if round > 1 && sim.rng.IntN(3) == 0 {
				sim.join()
			}
			for i := range sim.players {
				if sim.rng.IntN(40) == 0 {
					sim.players[i].Withdrawn = true
				}
			}
			f, err := prepare(sim.players, round)
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, round, err)
			}
			r, err := Pair(sim.players, round)
			if len(f.active) <= 11 {
				exhaustive++
				top, ok := best(f)
				if legal := legalExists(sim.players); ok != (err == nil) || legal != ok {
					t.Fatalf("seed %d round %d (%d active): Pair says %v; the search on its graph found a pairing: %v, on the rules alone: %v", seed, round, len(f.active), err, ok, legal)
				}
				if ok {
					if got := weight(t, f, r); got != top {
						t.Fatalf("seed %d round %d: Pair's weight %d, the best %d", seed, round, got, top)
					}
				}
			}
			if errors.Is(err, ErrNoPairing) {
				if len(f.active) > 11 && round <= len(f.active)/2 {
					t.Fatalf("seed %d round %d: %d players found no pairing: %v", seed, round, len(f.active), err)
				}
				unpairable++
				break
			}
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, round, err)
			}
			checkRound(t, sim.players, round, r)
			if round%3 == 0 { // the order the players come in changes nothing
				shuffled := slices.Clone(sim.players)
				sim.rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
				if again, err := Pair(shuffled, round); err != nil || !reflect.DeepEqual(again, r) {
					t.Fatalf("seed %d round %d: the players shuffled pair as %v, %v; not %v", seed, round, lines(again), err, lines(r))
				}
			}
			sim.play(round, r)
			rounds++
		}
	}
	t.Logf("%d rounds paired, %d checked by exhaustive search, %d events ended by a round that could not be paired", rounds, exhaustive, unpairable)
	if unpairable == 0 {
		t.Error("no event ran out of pairings: ErrNoPairing went unchecked")
	}
}

// TestPairFiftyByNine: the shape, 50 players and 9 rounds, over
// many seeds, with the same checks every round and no round left
// unpaired.
func TestPairFiftyByNine(t *testing.T) {
	for seed := range uint64(seeds(120)) {
		sim := newSimulation(1000+seed, 50)
		for round := 1; round <= 9; round++ {
			r, err := Pair(sim.players, round)
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, round, err)
			}
			checkRound(t, sim.players, round, r)
			sim.play(round, r)
		}
	}
}
