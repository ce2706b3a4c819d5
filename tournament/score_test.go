package tournament

import (
	"reflect"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

func TestSheet(t *testing.T) {
	W, D, L := Game{Outcome: Win, Moves: 20}, Game{Outcome: Draw, Moves: 20}, Game{Outcome: Loss, Moves: 20}
	berserk := func(g Game, moves int) Game { g.Berserk, g.Moves = true, moves; return g }
	short := Game{Outcome: Draw, Moves: DrawMoves - 1}
	for _, c := range []struct {
		name   string
		games  []Game
		points []int
		fire   bool
	}{
		{"nothing", nil, nil, false},
		{"win, draw, loss", []Game{W, D, L}, []int{2, 1, 0}, false},
		{"two wins light the fire", []Game{W, W}, []int{2, 2}, true},
		{"on fire a win is 4", []Game{W, W, W, W}, []int{2, 2, 4, 4}, true},
		{"on fire a draw is 2 and puts it out", []Game{W, W, D, W}, []int{2, 2, 2, 2}, false},
		{"a loss puts it out", []Game{W, W, L, W, W, W}, []int{2, 2, 0, 2, 2, 4}, true},
		{"the issue's sheet", []Game{W, W, W, L, D}, []int{2, 2, 4, 0, 1}, false},
		{"a berserk win scores one more", []Game{berserk(W, BerserkMoves)}, []int{3}, false},
		{"a berserk win too short scores none more", []Game{berserk(W, BerserkMoves-1)}, []int{2}, false},
		{"a berserk win on fire", []Game{W, W, berserk(W, 30)}, []int{2, 2, 5}, true},
		{"a berserk loss scores nothing", []Game{berserk(L, 30)}, []int{0}, false},
		{"a berserk draw scores as a draw", []Game{berserk(D, 30)}, []int{1}, false},
		{"a short draw scores nothing", []Game{short}, []int{0}, false},
		{"a short draw on fire scores nothing and puts it out", []Game{W, W, short, W}, []int{2, 2, 0, 2}, false},
		{"a draw of exactly DrawMoves counts", []Game{{Outcome: Draw, Moves: DrawMoves}}, []int{1}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			marks, total, fire := Sheet(c.games)
			var got []int
			sum := 0
			for _, m := range marks {
				got = append(got, m.Points)
				sum += m.Points
			}
			if !reflect.DeepEqual(got, c.points) || total != sum || fire != c.fire {
				t.Errorf("points %v total %d fire %v; want %v, fire %v", got, total, fire, c.points, c.fire)
			}
		})
	}
}

func TestSheetMarksFireAndBerserk(t *testing.T) {
	marks, _, _ := Sheet([]Game{{Outcome: Win, Moves: 9}, {Outcome: Win, Moves: 9, Berserk: true}, {Outcome: Win, Moves: 9}})
	want := []Mark{{Outcome: Win, Points: 2}, {Outcome: Win, Points: 3, Berserk: true}, {Outcome: Win, Points: 4, Fire: true}}
	if !reflect.DeepEqual(marks, want) {
		t.Errorf("marks %+v, want %+v", marks, want)
	}
}

func TestPerformance(t *testing.T) {
	for _, c := range []struct {
		outcomes []Outcome
		opps     []int
		want     int
	}{
		{nil, nil, 0},
		{[]Outcome{Win}, []int{1500}, 2000},
		{[]Outcome{Loss}, []int{1700}, 1200},
		{[]Outcome{Draw, Win}, []int{1600, 0}, (1600 + 1500 + 500) / 2},
	} {
		if got := Performance(c.outcomes, c.opps); got != c.want {
			t.Errorf("Performance(%v, %v) = %d, want %d", c.outcomes, c.opps, got, c.want)
		}
	}
}

// TestStandingsTieBrokenByPerformance: equal scores rank by performance,
// then by who joined first.
func TestStandingsTieBrokenByPerformance(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &Tournament{Players: []Player{{ID: "a", Joined: at}, {ID: "b", Joined: at.Add(time.Second)}, {ID: "c", Joined: at.Add(2 * time.Second)}, {ID: "d", Joined: at.Add(3 * time.Second)}},
		Pairings: []Pairing{
			{Game: "1", White: "a", Black: "c", BlackRating: 1400, WhiteRating: 1500, Done: true, Winner: rules.White, Moves: 20},
			{Game: "2", White: "b", Black: "d", BlackRating: 1900, WhiteRating: 1500, Done: true, Winner: rules.White, Moves: 20},
			{Game: "3", White: "c", Black: "d", Done: true, Aborted: true},
		}}
	var got []string
	for _, r := range Standings(tr) {
		got = append(got, r.Player)
	}
	if want := []string{"b", "a", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}
}
