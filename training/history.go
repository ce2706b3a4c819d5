package training

import (
	"context"
	"fmt"

	"github.com/banchess/banchess/errs"
)

// MaxHistory bounds the attempts History returns.
const MaxHistory = 10000

// History returns the player's last finished attempt at each puzzle they
// attempted, up to MaxHistory of them (their puzzle history, as their
// data's download gives it).
func (s *Service) History(ctx context.Context, player string) ([]Attempt, error) {
	ids, err := s.store.Attempted(ctx, player)
	if err != nil {
		return nil, errs.FromStore(fmt.Errorf("listing a player's puzzles: %w", err))
	}
	var out []Attempt
	for _, id := range ids[:min(len(ids), MaxHistory)] {
		a, ok, err := s.store.LastAttempt(ctx, player, id)
		if err != nil {
			return nil, errs.FromStore(fmt.Errorf("reading an attempt: %w", err))
		}
		if ok {
			out = append(out, a)
		}
	}
	return out, nil
}
