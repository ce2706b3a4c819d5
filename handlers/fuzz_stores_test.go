package handlers

import (
	"context"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/challenges"
	"github.com/banchess/banchess/games"
)

// Reviews are the reviews of the store's memory as it stands: reset
// empties them too.
func (s *fuzzStore) Reviews() analysis.ReviewStore { return fuzzReviews{s} }

// fuzzReviews are a fuzzStore's reviews, its memory's of the moment.
type fuzzReviews struct{ s *fuzzStore }

func (f fuzzReviews) LoadReview(ctx context.Context, id string) (analysis.StoredReview, bool, error) {
	return f.s.Memory.Reviews().LoadReview(ctx, id)
}

func (f fuzzReviews) ClaimReview(ctx context.Context, rev analysis.StoredReview, now time.Time) (bool, error) {
	return f.s.Memory.Reviews().ClaimReview(ctx, rev, now)
}

func (f fuzzReviews) SaveReview(ctx context.Context, rev analysis.StoredReview) (bool, error) {
	return f.s.Memory.Reviews().SaveReview(ctx, rev)
}

// Challenges are the challenges of the store's memory as it stands.
func (s *fuzzStore) Challenges() challenges.Store { return fuzzChallenges{s} }

// fuzzChallenges are a fuzzStore's challenges, its memory's of the moment.
type fuzzChallenges struct{ s *fuzzStore }

func (f fuzzChallenges) AddChallenge(ctx context.Context, c challenges.Challenge, openSince time.Time, limit int) error {
	return f.s.Memory.Challenges().AddChallenge(ctx, c, openSince, limit)
}

func (f fuzzChallenges) Challenge(ctx context.Context, id string) (challenges.Challenge, error) {
	return f.s.Memory.Challenges().Challenge(ctx, id)
}

func (f fuzzChallenges) ChallengesOf(ctx context.Context, player string, since time.Time, limit int) ([]challenges.Challenge, error) {
	return f.s.Memory.Challenges().ChallengesOf(ctx, player, since, limit)
}

func (f fuzzChallenges) AcceptChallenge(ctx context.Context, req challenges.AcceptRequest) (*games.Record, challenges.Challenge, error) {
	return f.s.Memory.Challenges().AcceptChallenge(ctx, req)
}

func (f fuzzChallenges) EndChallenge(ctx context.Context, id, player string, status challenges.Status, reason string, openSince, at time.Time) (challenges.Challenge, error) {
	return f.s.Memory.Challenges().EndChallenge(ctx, id, player, status, reason, openSince, at)
}
