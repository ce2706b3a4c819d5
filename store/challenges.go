package store

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
)

// Every store keeps the challenges (through its Challenges accessor).
var (
	_ challenges.Store = (*memoryChallenges)(nil)
	_ challenges.Store = sqlChallenges{}
)

// Challenges returns the store's challenges.
func (m *Memory) Challenges() challenges.Store { return &m.challenges }

// Challenges returns the store's challenges.
func (s *sqlStore) Challenges() challenges.Store { return sqlChallenges{db: s.db} }

// challengeGone refuses an answer to a challenge that is not open.
func challengeGone() error { return challenges.Gone() }

// memoryChallenges are the Memory store's challenges, under their own
// lock (taken before the accounts' when accepting). Its m is the store,
// whose players and games an accepted challenge reads and creates.
type memoryChallenges struct {
	mu   sync.Mutex
	m    *Memory
	byID map[string]challenges.Challenge
}

// AddChallenge stores c within limit (see challenges.Store).
func (s *memoryChallenges) AddChallenge(ctx context.Context, c challenges.Challenge, openSince time.Time, limit int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	open := 0
	for id, o := range s.byID {
		switch {
		case o.Updated.Before(c.Created.Add(-challenges.Memory)):
			delete(s.byID, id)
		case o.Challenger.ID == c.Challenger.ID && o.Status == challenges.Created && !o.Created.Before(openSince):
			open++
		}
	}
	if open >= limit {
		return challenges.TooMany()
	}
	if s.byID == nil {
		s.byID = map[string]challenges.Challenge{}
	}
	s.byID[c.ID] = c
	return nil
}

// Challenge returns challenge id.
func (s *memoryChallenges) Challenge(ctx context.Context, id string) (challenges.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return challenges.Challenge{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.byID[id]
	if !ok {
		return challenges.Challenge{}, challengeGone()
	}
	return c, nil
}

// ChallengesOf returns player's challenges changed since since, the
// latest first.
func (s *memoryChallenges) ChallengesOf(ctx context.Context, player string, since time.Time, limit int) ([]challenges.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []challenges.Challenge
	for _, c := range s.byID {
		if (c.Challenger.ID == player || c.Dest.ID == player) && !c.Updated.Before(since) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b challenges.Challenge) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), limit)], nil
}

// open returns open challenge id, if player may answer it (as its
// receiver, or its challenger with byChallenger, or anyone but its
// challenger accepting an open challenge with accepting); s.mu is held.
func (s *memoryChallenges) open(id, player string, byChallenger, accepting bool, openSince time.Time) (challenges.Challenge, error) {
	c, ok := s.byID[id]
	who := c.Dest.ID
	if byChallenger {
		who = c.Challenger.ID
	} else if accepting && c.Anyone && c.Challenger.ID != player {
		who = player
	}
	if !ok || c.Status != challenges.Created || c.Created.Before(openSince) || who != player {
		return challenges.Challenge{}, challengeGone()
	}
	return c, nil
}

// AcceptChallenge accepts challenge req.ID (see challenges.AcceptRequest).
func (s *memoryChallenges) AcceptChallenge(ctx context.Context, req challenges.AcceptRequest) (*games.Record, challenges.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return nil, challenges.Challenge{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.open(req.ID, req.Dest, false, true, req.OpenSince)
	if err != nil {
		return nil, challenges.Challenge{}, err
	}
	a := &s.m.accounts
	a.mu.Lock()
	from, to := a.seatedIn(c.Challenger.ID, c.Variant, c.Speed()), a.seatedIn(req.Dest, c.Variant, c.Speed())
	a.mu.Unlock()
	if c.Anyone {
		c.Dest = acceptorSide(to, c.Created)
	}
	rec, err := req.Game(c, from, to)
	if err != nil {
		return nil, challenges.Challenge{}, err
	}
	if err := s.m.Create(ctx, rec); err != nil {
		return nil, challenges.Challenge{}, err
	}
	c.Status, c.Game, c.Updated = challenges.Accepted, rec.ID, req.At
	s.byID[c.ID] = c
	return rec, c, nil
}

// EndChallenge declines or cancels open challenge id (see
// challenges.Store).
func (s *memoryChallenges) EndChallenge(ctx context.Context, id, player string, status challenges.Status, reason string, openSince, at time.Time) (challenges.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return challenges.Challenge{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.open(id, player, status == challenges.Canceled, false, openSince)
	if err != nil {
		return challenges.Challenge{}, err
	}
	c.Status, c.Reason, c.Updated = status, reason, at
	s.byID[id] = c
	return c, nil
}

// seatedIn describes player id about to sit at a game of variant and
// speed; a.mu is held.
func (a *memoryPlayers) seatedIn(id, variant string, speed rating.Speed) games.Seated {
	var p players.Player
	if pp := a.players[id]; pp != nil {
		p = *pp
	}
	return games.Seated{Player: p, Standing: a.standing(id, variant, speed)}
}

// acceptorSide is the player who accepted an open challenge, as it shows
// them: as they stood when it was made.
func acceptorSide(p games.Seated, made time.Time) challenges.Side {
	r := p.Standing.At(made)
	e := games.NewEntrant(p.Player, &r)
	return challenges.Side{ID: p.Player.ID, Name: p.Player.Name, Rating: e.Rating, Provisional: e.Provisional, Bot: p.Player.Bot}
}
