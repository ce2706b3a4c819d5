package tournament

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// bigArena is an arena of n players who played games each, in rounds.
func bigArena(n, games int) *Tournament {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t := &Tournament{Status: Started, Starts: at, Minutes: 60}
	for i := range n {
		t.Players = append(t.Players, Player{ID: "p" + strconv.Itoa(i), Name: "P" + strconv.Itoa(i), Rating: 1200 + i*3, Joined: at})
	}
	for round := range games {
		for i := 0; i+1 < n; i += 2 {
			a, b := (i+round)%n, (i+round+1)%n
			t.Pairings = append(t.Pairings, Pairing{Game: strconv.Itoa(round) + "." + strconv.Itoa(i), White: t.Players[a].ID, Black: t.Players[b].ID,
				WhiteRating: t.Players[a].Rating, BlackRating: t.Players[b].Rating, Done: true, Winner: rules.Color((i + round) % 3), Moves: 20})
		}
	}
	return t
}

// BenchmarkStandings: the standings of 200 players after 20 games each,
// as every page view and tick works them out.
func BenchmarkStandings(b *testing.B) {
	t := bigArena(200, 20)
	for b.Loop() {
		Standings(t)
	}
}

// BenchmarkPairWaiting: the candidates and pairs of 200 players waiting
// after 20 games each, as a tick works them out.
func BenchmarkPairWaiting(b *testing.B) {
	t := bigArena(200, 20)
	for b.Loop() {
		ArenaPairer{}.Pair(Waiting(t))
	}
}

// BenchmarkDecode: reading the stored JSON of 200 players after 20 games
// each, as every read of a tournament does.
func BenchmarkDecode(b *testing.B) {
	data, err := json.Marshal(bigArena(200, 20))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var t Tournament
		if err := json.Unmarshal(data, &t); err != nil {
			b.Fatal(err)
		}
	}
}
