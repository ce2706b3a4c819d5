package tournament

import (
	"reflect"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

func TestArenaPairer(t *testing.T) {
	c := func(id, opp string) Candidate { return Candidate{ID: id, Opponent: opp} }
	for _, tc := range []struct {
		name    string
		waiting []Candidate
		want    []Pair
	}{
		{"no one", nil, nil},
		{"one waits alone", []Candidate{c("a", "")}, nil},
		{"neighbours in rank", []Candidate{c("a", ""), c("b", ""), c("c", ""), c("d", "")}, []Pair{{"a", "b"}, {"c", "d"}}},
		{"no rematch when another waits", []Candidate{c("a", "b"), c("b", "a"), c("c", "")}, []Pair{{"a", "c"}}},
		{"the rematch skipped, the next in rank taken", []Candidate{c("a", "b"), c("b", "a"), c("c", "d"), c("d", "c")}, []Pair{{"a", "c"}, {"b", "d"}}},
		{"a rematch when no one else waits", []Candidate{c("a", "b"), c("b", "a")}, []Pair{{"a", "b"}}},
		{"one side's last opponent is enough", []Candidate{c("a", ""), c("b", "a"), c("c", "")}, []Pair{{"a", "c"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ArenaPairer{}.Pair(tc.waiting)
			for _, p := range got {
				if p.White == "" || p.Black == "" || p.White == p.Black {
					t.Fatalf("pair %+v", p)
				}
			}
			// Compare who meets whom; colours are TestColors'.
			norm := func(ps []Pair) [][2]string {
				var out [][2]string
				for _, p := range ps {
					a, b := p.White, p.Black
					if a > b {
						a, b = b, a
					}
					out = append(out, [2]string{a, b})
				}
				return out
			}
			if !reflect.DeepEqual(norm(got), norm(tc.want)) {
				t.Errorf("pairs %v, want %v", got, tc.want)
			}
		})
	}
}

func TestColors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  Candidate
		white string
	}{
		{"more whites gets black", Candidate{ID: "a", Whites: 2, Blacks: 1}, Candidate{ID: "b", Whites: 1, Blacks: 1}, "b"},
		{"fewer whites gets white", Candidate{ID: "a", Whites: 0, Blacks: 2}, Candidate{ID: "b", Whites: 1, Blacks: 1}, "a"},
		{"even: white last gets black", Candidate{ID: "a", Whites: 1, Blacks: 1, Last: rules.White}, Candidate{ID: "b", Whites: 1, Blacks: 1, Last: rules.Black}, "b"},
		{"even and new: the first", Candidate{ID: "a"}, Candidate{ID: "b"}, "a"},
	} {
		if got := Colors(tc.a, tc.b); got.White != tc.white {
			t.Errorf("%s: white %s, want %s", tc.name, got.White, tc.white)
		}
	}
}

// TestColorsBalanceOverManyGames: in a pool of four paired round after
// round, each player's whites and blacks differ by at most two (two who
// both had white last meet: one has it again).
func TestColorsBalanceOverManyGames(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &Tournament{Status: Started, Starts: at, Minutes: 60}
	for _, id := range []string{"a", "b", "c", "d"} {
		tr.Players = append(tr.Players, Player{ID: id, Joined: at})
	}
	for round := range 12 {
		for _, p := range (ArenaPairer{}).Pair(Waiting(tr)) {
			tr.Pairings = append(tr.Pairings, Pairing{Game: p.White + p.Black + string(rune('A'+round)), White: p.White, Black: p.Black, Done: true, Winner: rules.White, Moves: 20})
		}
		for _, r := range Standings(tr) {
			if d := r.Whites - r.Blacks; d > 2 || d < -2 {
				t.Fatalf("round %d: %s has %d whites, %d blacks", round, r.Player, r.Whites, r.Blacks)
			}
		}
	}
}

func TestMayPair(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Status: Started, Starts: at, Minutes: 20}
	end := tr.Ends()
	for _, c := range []struct {
		now  time.Time
		want bool
	}{
		{at.Add(-time.Second), false},
		{at, true},
		{end.Add(-LastPairing - time.Millisecond), true},
		{end.Add(-LastPairing), false},
		{end.Add(-time.Second), false},
		{end, false},
	} {
		if got := MayPair(tr, c.now); got != c.want {
			t.Errorf("MayPair at end%+v = %v, want %v", c.now.Sub(end), got, c.want)
		}
	}
	tr.Status = Created
	if MayPair(tr, at.Add(time.Minute)) {
		t.Error("a tournament not started pairs")
	}
}
