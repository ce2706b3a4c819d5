package swiss

import (
	"slices"
	"strings"
)

// Standing is a player's place in the standings.
type Standing struct {
	ID     string
	Rank   int // from 1; every player has a rank of their own
	Points int // half-points
	// Buchholz is the sum of the opponents' scores, in half-points.
	Buchholz int
	// SonnebornBerger is the sum of the scores of the opponents beaten and
	// half those of the opponents drawn, in quarter-points.
	SonnebornBerger int
	Rating          int
	Withdrawn       bool
}

// Standings ranks the players by points, then Buchholz, then
// Sonneborn-Berger, then rating (then ID, so that every rank is one
// player's). It fails with ErrInvalid for an inconsistent event.
//
// The tiebreaks count every round of the event (as many as the longest
// history) and take the opponents' scores as they are now, points from
// byes and forfeits included. A round in which the player played no game
// (the pairing's bye, a zero-point bye for a round before they joined or
// after they withdrew, a forfeit) counts, as FIDE's tie-break
// regulations of 2023 have it (C.07, article 16), as a game against a
// "dummy opponent" whose score is the player's own: Buchholz adds the
// player's own score for it, Sonneborn-Berger the points scored in that
// round times the player's own score. So a bye neither lifts a player's
// Buchholz by an opponent they never met nor sinks it by a zero.
func Standings(players []Player) ([]Standing, error) {
	rounds := 0
	for _, p := range players {
		rounds = max(rounds, len(p.Games))
	}
	if err := validate(players, rounds+1); err != nil {
		return nil, err
	}
	score := make(map[string]int, len(players))
	for _, p := range players {
		score[p.ID] = p.Points()
	}
	out := make([]Standing, len(players))
	for i, p := range players {
		own := score[p.ID]
		s := Standing{ID: p.ID, Points: own, Rating: p.Rating, Withdrawn: p.Withdrawn}
		for r := range rounds {
			g := Game{Kind: Absent}
			if r < len(p.Games) {
				g = p.Games[r]
			}
			opp := own
			if g.Kind == Played {
				opp = score[g.Opponent]
			}
			s.Buchholz += opp
			s.SonnebornBerger += g.Points * opp
		}
		out[i] = s
	}
	slices.SortFunc(out, func(a, b Standing) int {
		switch {
		case a.Points != b.Points:
			return b.Points - a.Points
		case a.Buchholz != b.Buchholz:
			return b.Buchholz - a.Buchholz
		case a.SonnebornBerger != b.SonnebornBerger:
			return b.SonnebornBerger - a.SonnebornBerger
		case a.Rating != b.Rating:
			return b.Rating - a.Rating
		}
		return strings.Compare(a.ID, b.ID)
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}
