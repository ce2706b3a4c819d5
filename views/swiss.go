package views

import "strconv"

// SwissRound is a Swiss event's round on its page: "Round 3 of 7", its
// boards and its bye.
type SwissRound struct {
	Round, Rounds int
	Interval      int // seconds; 0: a round waits for every game
	Boards        []SwissBoard
	Bye           string // the name of the player with the bye, "" for none
}

// SwissBoard is one game of a Swiss round.
type SwissBoard struct {
	Number       int
	White, Black string // names
	Game         string
	Result       string // "1-0", "0-1", "½-½", "+/-" (a forfeit), "" while playing
}

// Points writes the row's score: in points from half-points when swiss.
func (r StandingRow) Points(swiss bool) string {
	if !swiss {
		return strconv.Itoa(r.Score)
	}
	return Halves(r.Score)
}

// Halves writes n half-points as points: "2", "2.5".
func Halves(n int) string {
	s := strconv.Itoa(n / 2)
	if n%2 != 0 {
		s += ".5"
	}
	return s
}
