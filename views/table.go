package views

import (
	"github.com/a-h/templ"

	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/rules"
)

// Table is a game between two players around its board: the seats, the
// clock, the offers, the invite. Nil for a hot-seat game.
type Table struct {
	// InviteURL is the link that gives the free seat, shown to the creator
	// while the seat is free ("" once it is taken).
	InviteURL string
	// Clocked says the game has a clock; TimeControl is its setting ("5+3").
	Clocked     bool
	TimeControl string
	// Rated says the game's result changes both players' ratings.
	Rated bool
	// Offers are the offers pending, each by the side that made it;
	// Declined, the offers the opponent declined, by their maker.
	Offers, Declined games.Offers
	// RematchURL is the rematch game, once accepted.
	RematchURL string
	// Spectators counts the viewers watching live who hold no seat.
	Spectators int
	// OfferURL and AnswerURL are the forms that make and answer offers.
	OfferURL, AnswerURL templ.SafeURL
	// Premove is the viewer's own premove, when they may queue one.
	Premove Premove
	// Forecast is the viewer's own forecasts, at a correspondence game
	// they play.
	Forecast Forecast
	// TournamentURL is the page of the tournament that paired the game,
	// "" for none; BerserkURL the form that berserks it, while the viewer
	// may (before their first action).
	TournamentURL, BerserkURL string
}

// Forecast is a player's forecast lines at a correspondence game, shown
// to that player alone: each line's actions (BCN, space-separated), and
// the form that stores them ("" when the viewer may not forecast); Open
// says the opponent is to act, when lines may be stored.
type Forecast struct {
	URL templ.SafeURL
	// Board is the game's analysis board, where lines are played and
	// saved as forecasts.
	Board templ.SafeURL
	Lines []string
	Open  bool
}

// Premove is a player's premove at a game between two players, shown to
// that player alone: what is queued (BCN, and as read), why the last was
// dropped, and the form that queues and cancels ("" when the viewer may
// not premove: a spectator, a game over). Side is the player's colour
// ("white", "black"): the page's script queues a move from their pieces
// and a ban from the opponent's.
type Premove struct {
	URL     templ.SafeURL
	Side    string
	Actions []string
	Text    string
	Dropped string
}

func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// offerKinds are the kinds of offer, in the order the page shows them.
var offerKinds = [...]games.Offer{games.OfferTakeback, games.OfferDraw, games.OfferRematch}

// offerOf is the side pending in o for kind.
func offerOf(o *games.Offers, kind games.Offer) *rules.Color {
	switch kind {
	case games.OfferTakeback:
		return &o.Takeback
	case games.OfferDraw:
		return &o.Draw
	}
	return &o.Rematch
}

// declinedText tells a player the opponent declined their offer of kind.
func declinedText(l *i18n.Language, kind games.Offer) string {
	switch kind {
	case games.OfferTakeback:
		return l.T("offer.theyDeclined.takeback")
	case games.OfferDraw:
		return l.T("offer.theyDeclined.draw")
	}
	return l.T("offer.theyDeclined.rematch")
}
