package notify

import (
	"context"
	"errors"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/tournament"
)

// Game tells the players of a changed game what concerns them
// (games.WithChanges): their turn in a correspondence game, its end, a
// forecast played for them. The player who made the change is not told.
func (s *Service) Game(ctx context.Context, c games.Change) error {
	link := "/g/" + c.ID
	var all []error
	tell := func(player string, k Kind, text string) {
		// A forecast's reply is the opponent's action, not the player's.
		if player != "" && (player != c.By || k == YourTurn && c.Forecast != "") {
			all = append(all, s.Tell(ctx, player, k, text, link))
		}
	}
	if c.Forecast != "" {
		tell(c.Forecast, ForecastUsed, "Your forecast was played in game "+c.ID+".")
	}
	switch {
	case c.Ended:
		tell(c.White, GameEnded, "Your game "+c.ID+" has ended.")
		tell(c.Black, GameEnded, "Your game "+c.ID+" has ended.")
	case c.Turn != "" && c.Correspondence && c.Turn != c.Forecast:
		tell(c.Turn, YourTurn, "It is your turn in game "+c.ID+".")
	}
	return errors.Join(all...)
}

// Challenge tells a challenge's receiver of it (challenges.WithNotices).
func (s *Service) Challenge(ctx context.Context, c challenges.Challenge) error {
	if c.Status != challenges.Created || c.Dest.ID == c.Challenger.ID {
		return nil
	}
	return s.Tell(ctx, c.Dest.ID, Challenge, c.Challenger.Name+" challenges you.", "/challenges")
}

// Tournament tells the players of a tournament that it starts
// (tournament.WithStarted).
func (s *Service) Tournament(ctx context.Context, t *tournament.Tournament) error {
	var all []error
	for _, p := range t.Players {
		if p.Paused {
			continue
		}
		all = append(all, s.Tell(ctx, p.ID, TournamentStarting, t.Name+" is starting.", "/tournament/"+t.ID))
	}
	return errors.Join(all...)
}
