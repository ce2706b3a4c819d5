package games

import "context"

// Change is what one change to a game did, for WithChanges: who made it
// and whose turn, or end, it brought.
type Change struct {
	ID           string
	By           string // the holder who made it; "" for the server (a clock)
	White, Black string // the seats' holders
	// Turn is the holder to act after it when it passed the turn to
	// them ("" when the turn stayed, or at a game not between two).
	Turn           string
	Ended          bool   // the change ended the game
	Correspondence bool   // a game of days a move
	Forecast       string // the holder whose forecast it played, if any
}

// Changes hears of games' changes, after they are saved.
type Changes func(ctx context.Context, c Change)

// WithChanges makes the service tell fn of every change between two
// players, once saved (notifications listen so).
func WithChanges(fn Changes) Option { return func(s *Service) { s.changes = fn } }

// changeOf is the change from before to rec, made by holder.
func changeOf(id, holder string, rec *Record, before recordState, forecast string) *Change {
	if rec.Mode != Invite || rec.White == "" || rec.Black == "" || rec.White == rec.Black {
		return nil
	}
	c := &Change{ID: id, By: holder, White: rec.White, Black: rec.Black, Forecast: forecast,
		Ended: rec.Game.Outcome().Over() && !before.over, Correspondence: rec.Clock != nil && rec.Clock.Control.Correspondence()}
	if to := rec.ToAct(); to != "" && (rec.Game.Turn().Actor != before.actor || forecast != "") {
		c.Turn = to
	}
	if !c.Ended && c.Turn == "" && c.Forecast == "" {
		return nil
	}
	return c
}
