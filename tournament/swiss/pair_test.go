package swiss

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// field of n players "A", "B"… rated 2000, 1990… (the first the best).
func players(n int) []Player {
	out := make([]Player, n)
	for i := range out {
		out[i] = Player{ID: string(rune('A' + i)), Rating: 2000 - 10*i}
	}
	return out
}

// record appends a round to the players' histories, from lines "W-B p"
// (white's half-points p), "X bye" and "X absent"; players not named are
// absent.
func record(t *testing.T, ps []Player, lines ...string) {
	t.Helper()
	round := 0
	for _, p := range ps {
		round = max(round, len(p.Games)+1)
	}
	idx := map[string]int{}
	for i := range ps {
		for len(ps[i].Games) < round-1 {
			ps[i].Games = append(ps[i].Games, Game{Kind: Absent})
		}
		idx[ps[i].ID] = i
	}
	seen := map[string]bool{}
	add := func(id string, g Game) {
		i, ok := idx[id]
		if !ok || seen[id] {
			t.Fatalf("record: %q unknown or twice", id)
		}
		seen[id] = true
		ps[i].Games = append(ps[i].Games, g)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case f[1] == "bye":
			add(f[0], Game{Kind: Bye, Points: 2})
		case f[1] == "absent":
			add(f[0], Game{Kind: Absent})
		case f[1] == "forfeit": // the first named wins, no game played
			wb := strings.Split(f[0], "-")
			add(wb[0], Game{Kind: Forfeit, Opponent: wb[1], Points: 2})
			add(wb[1], Game{Kind: Forfeit, Opponent: wb[0]})
		default:
			wb := strings.Split(f[0], "-")
			pts, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			add(wb[0], Game{Kind: Played, Opponent: wb[1], Color: White, Points: pts})
			add(wb[1], Game{Kind: Played, Opponent: wb[0], Color: Black, Points: 2 - pts})
		}
	}
	for _, p := range ps {
		if !seen[p.ID] {
			add(p.ID, Game{Kind: Absent})
		}
	}
}

// lines writes a round as "W-B" and "X bye".
func lines(r Round) []string {
	var out []string
	for _, b := range r.Boards {
		out = append(out, b.White+"-"+b.Black)
	}
	if r.Bye != "" {
		out = append(out, r.Bye+" bye")
	}
	return out
}

// TestPairHandChecked: small events whose pairings were worked out by hand
// from the Dutch system's rules.
func TestPairHandChecked(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		history [][]string
		change  func([]Player)
		want    []string
	}{{
		name: "round 1: top half against bottom half, colours alternating from the first board",
		n:    8,
		want: []string{"A-E", "F-B", "C-G", "H-D"},
	}, {
		name: "round 1, odd: the lowest-ranked has the bye",
		n:    5,
		want: []string{"A-C", "D-B", "E bye"},
	}, {
		name: "round 1 orders by rating, not by the order given",
		n:    4,
		change: func(ps []Player) {
			ps[0].Rating, ps[3].Rating = ps[3].Rating, ps[0].Rating
		},
		// D (2000) is first: D–C, and B, second, has black.
		want: []string{"D-C", "A-B"},
	}, {
		name:    "round 2: winners meet, colours alternate",
		n:       4,
		history: [][]string{{"A-C 2", "D-B 0"}},
		want:    []string{"B-A", "C-D"},
	}, {
		name:    "round 2: no rematch, the winners' group pairs across",
		n:       4,
		history: [][]string{{"A-B 2", "D-C 0"}},
		want:    []string{"C-A", "B-D"},
	}, {
		name:    "the bye goes to the lowest of the lowest group who has not had one",
		n:       5,
		history: [][]string{{"A-C 2", "D-B 0", "E bye"}},
		// E has a point and a bye; C and D have nothing: D, the lower, sits
		// out. E floats down to C, who had black; E has no preference.
		want: []string{"B-A", "C-E", "D bye"},
	}, {
		name:    "a late joiner is paired from zero; a withdrawn player is not",
		n:       5,
		history: [][]string{{"A-C 2", "D-B 0", "E absent"}},
		change:  func(ps []Player) { ps[1].Withdrawn = true },
		// A (one win) floats to the zero group; A met C; A–D would cross
		// their preferences (both black), A–E and C–D meet them all.
		want: []string{"E-A", "C-D"},
	}, {
		name:    "a forfeit is a meeting without colours",
		n:       4,
		history: [][]string{{"A-B forfeit", "C-D 1"}},
		// A (2) may not meet B again and floats to C, the first of the
		// draws; A has no colour to alternate, C had white.
		want: []string{"A-C", "D-B"},
	}, {
		name:    "who floated last round does not float the same way again",
		n:       6,
		history: [][]string{{"A-D 1", "C-F 2", "E-B 0"}, {"F-A 0", "D-E 0", "B-C 0"}},
		// C 4, A 3, B 2, E 2, D 1, F 0: every score its own group but B's
		// and E's, and the score costs tie between C–A, D–B, E–F and
		// C–E, A–B, D–F. A and D floated down in round 2, E and F up: the
		// first repeats only F's upfloat, the second A's and D's
		// downfloats and E's and F's upfloats.
		want: []string{"C-A", "D-B", "E-F"},
	}, {
		name: "two players who both must have white do not meet",
		n:    4,
		// A and B had black twice: each must have white; C and D black.
		history: [][]string{{"C-A 1", "D-B 1"}, {"D-A 1", "C-B 1"}},
		want:    nil, // A–B and C–D would break the colour rules; all else met
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := players(tc.n)
			for _, h := range tc.history {
				record(t, ps, h...)
			}
			if tc.change != nil {
				tc.change(ps)
			}
			r, err := Pair(ps, len(tc.history)+1)
			if tc.want == nil {
				if !errors.Is(err, ErrNoPairing) {
					t.Fatalf("got %v, %v; want ErrNoPairing", lines(r), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(r); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPairRefusesInconsistentEvents: histories that cannot be are refused
// with ErrInvalid, naming what is wrong.
func TestPairRefusesInconsistentEvents(t *testing.T) {
	tests := []struct {
		name  string
		round int
		ps    func() []Player
	}{
		{"round 0", 0, func() []Player { return players(2) }},
		{"no ID", 1, func() []Player { ps := players(2); ps[1].ID = " "; return ps }},
		{"two IDs alike", 1, func() []Player { ps := players(2); ps[1].ID = "A"; return ps }},
		{"history past the round", 1, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Absent}}
			return ps
		}},
		{"unknown opponent", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Played, Opponent: "Z", Color: White}}
			return ps
		}},
		{"one-sided game", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Played, Opponent: "B", Color: White}}
			ps[1].Games = []Game{{Kind: Absent}}
			return ps
		}},
		{"both white", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Played, Opponent: "B", Color: White}}
			ps[1].Games = []Game{{Kind: Played, Opponent: "A", Color: White}}
			return ps
		}},
		{"a game worth a point and a half", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Played, Opponent: "B", Color: White, Points: 2}}
			ps[1].Games = []Game{{Kind: Played, Opponent: "A", Color: Black, Points: 1}}
			return ps
		}},
		{"three points", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Bye, Points: 3}}
			return ps
		}},
		{"a bye with an opponent", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: Bye, Opponent: "B", Points: 2}}
			return ps
		}},
		{"an unknown kind", 2, func() []Player {
			ps := players(2)
			ps[0].Games = []Game{{Kind: 9}}
			return ps
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Pair(tc.ps(), tc.round)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
}

// TestPairEdges: no one, one player, everyone withdrawn, byes exhausted.
func TestPairEdges(t *testing.T) {
	if r, err := Pair(nil, 1); err != nil || len(r.Boards) != 0 || r.Bye != "" {
		t.Errorf("no players: %v, %v", r, err)
	}
	if r, err := Pair(players(1), 1); err != nil || r.Bye != "A" {
		t.Errorf("one player: %v, %v; want A's bye", r, err)
	}
	ps := players(1)
	record(t, ps, "A bye")
	if _, err := Pair(ps, 2); !errors.Is(err, ErrNoPairing) {
		t.Errorf("one player's second bye: %v; want ErrNoPairing", err)
	}
	ps = players(3)
	ps[0].Withdrawn, ps[1].Withdrawn, ps[2].Withdrawn = true, true, true
	if r, err := Pair(ps, 1); err != nil || len(r.Boards) != 0 {
		t.Errorf("all withdrawn: %v, %v", r, err)
	}
	// Three players, three rounds: everyone met everyone and had a bye.
	ps = players(3)
	for round := 1; round <= 4; round++ {
		r, err := Pair(ps, round)
		if round == 4 {
			if !errors.Is(err, ErrNoPairing) {
				t.Fatalf("round 4 of 3 players: %v, %v; want ErrNoPairing", lines(r), err)
			}
			break
		}
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var ls []string
		for _, l := range lines(r) {
			if !strings.HasSuffix(l, "bye") {
				l += " 1"
			}
			ls = append(ls, l)
		}
		record(t, ps, ls...)
	}
}

func ExamplePair() {
	ps := []Player{{ID: "ann", Rating: 1800}, {ID: "bob", Rating: 1700}, {ID: "cy", Rating: 1600}}
	r, _ := Pair(ps, 1)
	fmt.Println(r.Boards, r.Bye)
	// Output: [{ann bob}] cy
}
