package handlers

import (
	"context"
	"time"

	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
)

// The fuzz store's follows and blocks, recovery codes and closed accounts,
// and moderation: its memory's of the moment, as its chat (reset empties
// them too).

// Relations is the store's memory's of the moment.
func (s *fuzzStore) Relations() relations.Store { return fuzzRelations{s} }

type fuzzRelations struct{ s *fuzzStore }

func (f fuzzRelations) Follow(ctx context.Context, follower, followed string, at time.Time) error {
	return f.s.Memory.Relations().Follow(ctx, follower, followed, at)
}

func (f fuzzRelations) Unfollow(ctx context.Context, follower, followed string) error {
	return f.s.Memory.Relations().Unfollow(ctx, follower, followed)
}

func (f fuzzRelations) Following(ctx context.Context, follower string, limit int) ([]string, error) {
	return f.s.Memory.Relations().Following(ctx, follower, limit)
}

func (f fuzzRelations) Block(ctx context.Context, blocker, blocked string, at time.Time) error {
	return f.s.Memory.Relations().Block(ctx, blocker, blocked, at)
}

func (f fuzzRelations) Unblock(ctx context.Context, blocker, blocked string) error {
	return f.s.Memory.Relations().Unblock(ctx, blocker, blocked)
}

func (f fuzzRelations) Blocking(ctx context.Context, blocker string, limit int) ([]string, error) {
	return f.s.Memory.Relations().Blocking(ctx, blocker, limit)
}

func (f fuzzRelations) Shunned(ctx context.Context, player string) ([]string, error) {
	return f.s.Memory.Relations().Shunned(ctx, player)
}

func (f fuzzRelations) Relation(ctx context.Context, a, b string) (follows, blocks bool, err error) {
	return f.s.Memory.Relations().Relation(ctx, a, b)
}

// Safety is the store's memory's of the moment.
func (s *fuzzStore) Safety() players.SafetyStore { return fuzzSafety{s} }

type fuzzSafety struct{ s *fuzzStore }

func (f fuzzSafety) SetRecoveryCodes(ctx context.Context, player string, codes []players.RecoveryCode) error {
	return f.s.Memory.Safety().SetRecoveryCodes(ctx, player, codes)
}

func (f fuzzSafety) RecoveryCode(ctx context.Context, player, id string) (string, bool, error) {
	return f.s.Memory.Safety().RecoveryCode(ctx, player, id)
}

func (f fuzzSafety) RecoveryCodesLeft(ctx context.Context, player string) (int, error) {
	return f.s.Memory.Safety().RecoveryCodesLeft(ctx, player)
}

func (f fuzzSafety) Recover(ctx context.Context, r players.Recovery) (bool, error) {
	return f.s.Memory.Safety().Recover(ctx, r)
}

func (f fuzzSafety) SetClosed(ctx context.Context, player string, closed bool, at time.Time) error {
	return f.s.Memory.Safety().SetClosed(ctx, player, closed, at)
}

func (f fuzzSafety) Closed(ctx context.Context, player string) (bool, error) {
	return f.s.Memory.Safety().Closed(ctx, player)
}

func (f fuzzSafety) AddResetLink(ctx context.Context, player, hash string, expires time.Time) error {
	return f.s.Memory.Safety().AddResetLink(ctx, player, hash, expires)
}

func (f fuzzSafety) ResetLink(ctx context.Context, hash string) (string, time.Time, bool, error) {
	return f.s.Memory.Safety().ResetLink(ctx, hash)
}

func (f fuzzSafety) UseResetLink(ctx context.Context, r players.Recovery) (bool, error) {
	return f.s.Memory.Safety().UseResetLink(ctx, r)
}

func (f fuzzSafety) Delete(ctx context.Context, player string, at time.Time) error {
	return f.s.Memory.Safety().Delete(ctx, player, at)
}

// Moderation is the store's memory's of the moment.
func (s *fuzzStore) Moderation() moderation.Store { return fuzzModeration{s} }

type fuzzModeration struct{ s *fuzzStore }

func (f fuzzModeration) SetModerator(ctx context.Context, player string, mod bool, at time.Time) error {
	return f.s.Memory.Moderation().SetModerator(ctx, player, mod, at)
}

func (f fuzzModeration) Moderator(ctx context.Context, player string) (bool, error) {
	return f.s.Memory.Moderation().Moderator(ctx, player)
}

func (f fuzzModeration) AddReport(ctx context.Context, r moderation.Report) error {
	return f.s.Memory.Moderation().AddReport(ctx, r)
}

func (f fuzzModeration) OpenReports(ctx context.Context, limit int) ([]moderation.Report, error) {
	return f.s.Memory.Moderation().OpenReports(ctx, limit)
}

func (f fuzzModeration) OpenReportsBy(ctx context.Context, reporter string) (int, error) {
	return f.s.Memory.Moderation().OpenReportsBy(ctx, reporter)
}

func (f fuzzModeration) Report(ctx context.Context, id string) (moderation.Report, error) {
	return f.s.Memory.Moderation().Report(ctx, id)
}

func (f fuzzModeration) CloseReport(ctx context.Context, id, outcome string, at time.Time) (bool, error) {
	return f.s.Memory.Moderation().CloseReport(ctx, id, outcome, at)
}

func (f fuzzModeration) SetMute(ctx context.Context, player string, until time.Time) error {
	return f.s.Memory.Moderation().SetMute(ctx, player, until)
}

func (f fuzzModeration) MutedUntil(ctx context.Context, player string) (time.Time, error) {
	return f.s.Memory.Moderation().MutedUntil(ctx, player)
}

func (f fuzzModeration) AddEntry(ctx context.Context, e moderation.Entry) error {
	return f.s.Memory.Moderation().AddEntry(ctx, e)
}

func (f fuzzModeration) Entries(ctx context.Context, limit int) ([]moderation.Entry, error) {
	return f.s.Memory.Moderation().Entries(ctx, limit)
}
