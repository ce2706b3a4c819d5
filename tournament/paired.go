package tournament

import (
	"context"
	"time"

	"github.com/banchess/banchess/errs"
)

// Paired is a game a player was paired into by a tournament.
type Paired struct {
	Game       string `json:"game"`
	Tournament string `json:"tournament"`
}

// Paired returns the games player is playing in the started tournaments
// that were paired at since or later, as read within ReadFor: the lobby's
// streams tell a player of them, as of the lobby's own pairings.
func (s *Service) Paired(ctx context.Context, player string, since time.Time) ([]Paired, error) {
	if player == "" {
		return nil, nil
	}
	now := s.now()
	ids, err := s.startedIDs(ctx, now)
	if err != nil {
		return nil, err
	}
	var out []Paired
	for _, id := range ids {
		look := func(t *Tournament) {
			if p := t.Playing(player); p != nil && !p.Started.Before(since) {
				out = append(out, Paired{Game: p.Game, Tournament: t.ID})
			}
		}
		if s.reads.with(id, now, look) {
			continue
		}
		t, err := s.Tournament(ctx, id)
		if err != nil {
			if errs.Of(err).Code == errs.NotFound {
				continue
			}
			return nil, err
		}
		look(t)
	}
	return out, nil
}

// startedIDs lists the started tournaments, as read within ReadFor.
func (s *Service) startedIDs(ctx context.Context, now time.Time) ([]string, error) {
	l := &s.startedNow
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.at.IsZero() && now.Sub(l.at) < ReadFor && !now.Before(l.at) {
		return l.ids, nil
	}
	ts, err := s.store.Tournaments(ctx, Started, ListSize)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
		s.reads.put(t, now)
	}
	l.ids, l.at = ids, now
	return ids, nil
}
