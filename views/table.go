package views

import (
	"github.com/a-h/templ"

	"github.com/banchess/banchess/games"
)

// Table is a game between two players around its board: the seats, the
// clock, the offers, the invite. Nil for a hot-seat game.
type Table struct {
	// InviteURL is the link that gives the free seat, shown to the creator
	// while the seat is free ("" once it is taken).
	InviteURL string
	Players   []Player // White, then Black
	// Clocked says the game has a clock; TimeControl is its setting ("5+3").
	Clocked     bool
	TimeControl string
	// Rated says the game's result changes both players' ratings.
	Rated bool
	// Offers are the offers pending, each by the side that made it.
	Offers games.Offers
	// RematchURL is the rematch game, once accepted.
	RematchURL string
	// Spectators counts the viewers watching live who hold no seat.
	Spectators int
	// OfferURL and AnswerURL are the forms that make and answer offers.
	OfferURL, AnswerURL templ.SafeURL
}

// Player is one seat at a table.
type Player struct {
	Side, Name string // "white", "White"
	// Player is the seat's player's name ("" for an anonymous one), Rating
	// their rating when the game began ("1500?" while provisional; "" for
	// none).
	Player, Rating string
	Seated         bool // someone holds the seat
	You            bool // the viewer holds it
	Connected      bool // its holder watches the game live now
	// ClockMS is the time left in milliseconds; Running says it runs now.
	ClockMS int64
	Clock   string // "4:59"
	Running bool
}

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
