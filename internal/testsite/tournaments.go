package testsite

import (
	"context"
	"time"

	"github.com/banchess/banchess/tournament"
)

// storeTournaments are a Store's tournaments as they stand at each call:
// a store whose memory a test swaps (the fuzz tests') keeps serving them.
type storeTournaments struct{ st Store }

func (s storeTournaments) CreateTournament(ctx context.Context, t *tournament.Tournament) error {
	return s.st.Tournaments().CreateTournament(ctx, t)
}

func (s storeTournaments) Tournament(ctx context.Context, id string) (*tournament.Tournament, error) {
	return s.st.Tournaments().Tournament(ctx, id)
}

func (s storeTournaments) UpdateTournament(ctx context.Context, id string, fn func(*tournament.Tournament) error) error {
	return s.st.Tournaments().UpdateTournament(ctx, id, fn)
}

func (s storeTournaments) Tournaments(ctx context.Context, status tournament.Status, limit int) ([]*tournament.Tournament, error) {
	return s.st.Tournaments().Tournaments(ctx, status, limit)
}

func (s storeTournaments) ClaimTournaments(ctx context.Context, owner string, now, until time.Time) ([]string, error) {
	return s.st.Tournaments().ClaimTournaments(ctx, owner, now, until)
}

func (s storeTournaments) TournamentResults(ctx context.Context, player string, limit int) ([]tournament.Result, error) {
	return s.st.Tournaments().TournamentResults(ctx, player, limit)
}
