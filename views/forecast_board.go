package views

import "github.com/a-h/templ"

// ForecastBoard is a correspondence game's forecasts on its analysis
// board, shown to their author alone while the opponent is to act: the
// lines stored (each with a form that deletes it) and, when the board
// shows a line played on from the position now, the form that saves it
// as a forecast.
type ForecastBoard struct {
	// Lines are the lines stored, each its actions from the position now
	// (BCN, space-separated).
	Lines []string
	// Delete is where a line's delete form posts, with its index.
	Delete templ.SafeURL
	// Save is where the line shown is saved ("" when the board shows no
	// line from the position now); Moves is that line (BCN,
	// comma-separated, as the board's address holds it), Said it as the
	// move list writes it.
	Save        templ.SafeURL
	Moves, Said string
	// Flip says the board is turned round: the forms carry it on.
	Flip bool
}
