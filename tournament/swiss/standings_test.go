package swiss

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestStandingsHandChecked: a five-player event of three rounds with
// draws, byes and an absence, its tiebreaks worked out by hand.
func TestStandingsHandChecked(t *testing.T) {
	ps := players(5)
	record(t, ps, "A-C 2", "D-B 1", "E bye")
	record(t, ps, "E-A 1", "B-C 2", "D bye")
	record(t, ps, "A-B 2", "C-D 2", "E absent")
	got, err := Standings(ps)
	if err != nil {
		t.Fatal(err)
	}
	// Scores: A 5, B 3, C 2, D 3, E 3 (half-points).
	// Buchholz: A C+E+B = 2+3+3 = 8; B D+C+A = 3+2+5 = 10; C A+B+D = 11;
	// D B+own+C = 3+3+2 = 8; E own+A+own = 3+5+3 = 11.
	// Sonneborn-Berger (quarter-points): A 2·2+1·3+2·3 = 13; B 1·3+2·2 = 7;
	// C 2·3 = 6; D 1·3+2·3 (the bye, own score) = 9; E 2·3+1·5 = 11.
	want := []Standing{
		{ID: "A", Rank: 1, Points: 5, Buchholz: 8, SonnebornBerger: 13, Rating: 2000},
		{ID: "E", Rank: 2, Points: 3, Buchholz: 11, SonnebornBerger: 11, Rating: 1960},
		{ID: "B", Rank: 3, Points: 3, Buchholz: 10, SonnebornBerger: 7, Rating: 1990},
		{ID: "D", Rank: 4, Points: 3, Buchholz: 8, SonnebornBerger: 9, Rating: 1970},
		{ID: "C", Rank: 5, Points: 2, Buchholz: 11, SonnebornBerger: 6, Rating: 1980},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// TestStandingsOrder: each key breaks the ties the ones before leave.
func TestStandingsOrder(t *testing.T) {
	// A beat B, C beat D, both with white: A and C on 2, B and D on 0;
	// everything else equal, the rating decides; then the ID.
	ps := players(4)
	record(t, ps, "A-B 2", "C-D 2")
	ps[2].Rating = ps[0].Rating + 1
	ps[3].Rating = ps[1].Rating
	got, err := Standings(ps)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got {
		ids = append(ids, s.ID)
	}
	if want := []string{"C", "A", "B", "D"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("got %v, want %v", ids, want)
	}
	// Sonneborn-Berger before rating: D beat B, who scores 4, and lost to
	// C, who scores 2; A (rated higher) the other way round; they drew.
	// Both score 3 with Buchholz 4+2+3 = 9; D's SB 2·4+1·3 = 11 quarters,
	// A's 2·2+1·3 = 7.
	ps = players(4)
	record(t, ps, "D-B 2", "A-C 2")
	record(t, ps, "D-C 0", "A-B 0")
	record(t, ps, "B-C 2", "D-A 1")
	got, err = Standings(ps)
	if err != nil {
		t.Fatal(err)
	}
	if got[1].ID != "D" || got[2].ID != "A" || got[1].Buchholz != 9 || got[2].Buchholz != 9 || got[1].SonnebornBerger != 11 || got[2].SonnebornBerger != 7 {
		t.Errorf("got %+v; want D (SB 11) before A (SB 7), both Buchholz 9", got)
	}
	if _, err := Standings([]Player{{ID: "A", Games: []Game{{Kind: Played, Opponent: "Z", Color: White}}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown opponent: %v, want ErrInvalid", err)
	}
}

// TestFivePlayersThreeRounds: the issue's Swiss of five players runs three
// rounds, a different player on the bye each round, and ends in standings
// with everyone's three rounds counted.
func TestFivePlayersThreeRounds(t *testing.T) {
	ps := players(5)
	byes := map[string]bool{}
	for round := 1; round <= 3; round++ {
		r, err := Pair(ps, round)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if r.Bye == "" || byes[r.Bye] || len(r.Boards) != 2 {
			t.Fatalf("round %d: %v: want two boards and a new player on the bye", round, lines(r))
		}
		byes[r.Bye] = true
		var ls []string
		for _, b := range r.Boards {
			ls = append(ls, b.White+"-"+b.Black+" 2") // white wins
		}
		record(t, ps, append(ls, r.Bye+" bye")...)
	}
	st, err := Standings(ps)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range st {
		total += s.Points
	}
	if len(st) != 5 || total != 3*(2*2+2) {
		t.Errorf("standings %+v: want five players and 18 half-points in all", st)
	}
}

// ExampleStandings builds the histories from a store's rows: each round
// padded with Absent up to its index, then the game or the bye.
func ExampleStandings() {
	ps := []Player{{ID: "ann", Rating: 1800}, {ID: "bob", Rating: 1700}, {ID: "cy", Rating: 1600}}
	// Round 1: ann–bob 1–0, cy the bye. Round 2: cy–ann ½–½, bob the bye.
	ps[0].Games = []Game{{Kind: Played, Opponent: "bob", Color: White, Points: 2}, {Kind: Played, Opponent: "cy", Color: Black, Points: 1}}
	ps[1].Games = []Game{{Kind: Played, Opponent: "ann", Color: Black}, {Kind: Bye, Points: 2}}
	ps[2].Games = []Game{{Kind: Bye, Points: 2}, {Kind: Played, Opponent: "ann", Color: White, Points: 1}}
	st, _ := Standings(ps)
	for _, s := range st {
		fmt.Printf("%d %s %.1f (Buchholz %.1f, SB %.2f)\n", s.Rank, s.ID, float64(s.Points)/2, float64(s.Buchholz)/2, float64(s.SonnebornBerger)/4)
	}
	// cy's bye counts as a game against a cy of 1.5: Buchholz 1.5+1.5,
	// ann's 1+1.5; SB: cy 1·1.5+½·1.5, ann 1·1+½·1.5, bob 1·1 (the bye).

	// Output:
	// 1 cy 1.5 (Buchholz 3.0, SB 2.25)
	// 2 ann 1.5 (Buchholz 2.5, SB 1.75)
	// 3 bob 1.0 (Buchholz 2.5, SB 1.00)
}
