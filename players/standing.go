package players

import (
	"time"

	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// Standing is a player's rating in one variant at one speed, as the store
// keeps it.
type Standing struct {
	Variant string
	Speed   rating.Speed
	// Rating is as it was after the player's last rated game here.
	Rating rating.Rating
	// Games counts the player's rated games here.
	Games int
	// Last is when the player last finished a rated game here; zero if
	// never.
	Last time.Time
}

// NewStanding is the standing of a player who has not played a rated game
// of variant at speed.
func NewStanding(variant string, speed rating.Speed) Standing {
	return Standing{Variant: variant, Speed: speed, Rating: rating.New()}
}

// At is the standing's rating at now: its deviation grown with the time
// since the player's last rated game here (rating.Idle).
func (s Standing) At(now time.Time) rating.Rating {
	if s.Last.IsZero() {
		return s.Rating
	}
	return s.Rating.Idle(now.Sub(s.Last))
}

// PlayedGame is a finished game in a player's list of games (see
// Service.PlayedGames).
type PlayedGame struct {
	Game  string
	Ended time.Time
	// Color is the side the player had.
	Color rules.Color
	// Opponent is the other side's name as the game recorded it; "" for
	// an anonymous player.
	Opponent string
	Score    rating.Score
	// Result is "1-0", "0-1" or "1/2-1/2"; Ending says how it ended.
	Result, Ending string
	Variant        string
	Speed          rating.Speed
	Rated          bool
	// Before and After are the player's rating before and after a rated
	// game; 0 for another.
	Before, After float64
	FEN           string
}

// PlayedGamesCursor is where a page of a player's games starts: after
// the game Game ended at Ended (the zero cursor: the newest).
type PlayedGamesCursor struct {
	Ended time.Time
	Game  string
}

// Leader is a player in a list of the highest rated.
type Leader struct {
	Name     string
	Standing Standing
}

// Established reports whether the leader has played the LeaderGames
// rated games that rank a player among the established.
func (l Leader) Established() bool { return l.Standing.Games >= LeaderGames }
