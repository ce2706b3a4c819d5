package tournament

import (
	"github.com/banchess/banchess/rules"
)

// Candidate is a player waiting to be paired: their rank in the
// standings, their last opponent and the sides they played.
type Candidate struct {
	ID             string
	Rank           int
	Opponent       string      // the last opponent, "" for none
	Whites, Blacks int         // games played on each side
	Last           rules.Color // the side of their last game, no Color for none
}

// Pair is a game to start.
type Pair struct{ White, Black string }

// Pairer pairs the players waiting in a tournament: a format's rule.
// It has no I/O: given the same players it pairs them the same way.
type Pairer interface {
	Pair(waiting []Candidate) []Pair
}

// ArenaPairer pairs an arena's waiting players: each, by rank, with the
// nearest in rank not yet paired who was not their last opponent. Two
// who just played each other are paired again only when no one else
// waits. Colours even out each player's sides (Colors).
type ArenaPairer struct{}

// Pair pairs waiting, which is in rank order (best first).
func (ArenaPairer) Pair(waiting []Candidate) []Pair {
	if len(waiting) == 2 {
		return []Pair{Colors(waiting[0], waiting[1])}
	}
	used := make([]bool, len(waiting))
	var out []Pair
	for i := range waiting {
		if used[i] {
			continue
		}
		a := waiting[i]
		for j := i + 1; j < len(waiting); j++ {
			b := waiting[j]
			if used[j] || a.Opponent == b.ID || b.Opponent == a.ID {
				continue
			}
			used[i], used[j] = true, true
			out = append(out, Colors(a, b))
			break
		}
	}
	return out
}

// Colors gives a and b their sides: white to the one who has played
// white less often than black by more, then to the one who had black
// last, then to a.
func Colors(a, b Candidate) Pair {
	da, db := a.Whites-a.Blacks, b.Whites-b.Blacks
	switch {
	case da > db:
		return Pair{White: b.ID, Black: a.ID}
	case da < db:
		return Pair{White: a.ID, Black: b.ID}
	case a.Last == rules.White && b.Last != rules.White:
		return Pair{White: b.ID, Black: a.ID}
	}
	return Pair{White: a.ID, Black: b.ID}
}
