package notify

import (
	"context"
	"errors"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/tournament"
)

// Game tells the players of a changed game what concerns them
// (games.WithChanges): their turn in a correspondence game, its end, a
// forecast played for them. The player who made the change is not told.
func (s *Service) Game(ctx context.Context, c games.Change) error {
	link := "/g/" + c.ID
	var all []error
	tell := func(player string, k Kind, msg i18n.Message) {
		// A forecast's reply is the opponent's action, not the player's.
		if player != "" && (player != c.By || k == YourTurn && c.Forecast != "") {
			all = append(all, s.Tell(ctx, player, k, msg, link))
		}
	}
	if c.Forecast != "" {
		tell(c.Forecast, ForecastUsed, i18n.Msg("notice.forecastUsed", "Game", c.ID))
	}
	switch {
	case c.Ended:
		tell(c.White, GameEnded, i18n.Msg("notice.gameEnded", "Game", c.ID))
		tell(c.Black, GameEnded, i18n.Msg("notice.gameEnded", "Game", c.ID))
	case c.Turn != "" && c.Correspondence && c.Turn != c.Forecast:
		tell(c.Turn, YourTurn, i18n.Msg("notice.yourTurn", "Game", c.ID))
	}
	return errors.Join(all...)
}

// Challenge tells a challenge's receiver of it (challenges.WithNotices).
func (s *Service) Challenge(ctx context.Context, c challenges.Challenge) error {
	if c.Status != challenges.Created || c.Dest.ID == c.Challenger.ID {
		return nil
	}
	return s.Tell(ctx, c.Dest.ID, Challenge, i18n.Msg("notice.challenge", "Name", c.Challenger.Name), "/challenges")
}

// Tournament tells the players of a tournament that it starts
// (tournament.WithStarted).
func (s *Service) Tournament(ctx context.Context, t *tournament.Tournament) error {
	var all []error
	for _, p := range t.Players {
		if p.Paused {
			continue
		}
		all = append(all, s.Tell(ctx, p.ID, TournamentStarting, i18n.Msg("notice.tournamentStarting", "Name", t.Title()), "/tournament/"+t.ID))
	}
	return errors.Join(all...)
}
