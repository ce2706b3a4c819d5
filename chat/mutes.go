package chat

import (
	"context"
	"time"

	"github.com/banchess/banchess/errs"
)

// Mutes say whose chat a moderator muted, and until when
// (moderation.MuteList).
type Mutes interface {
	// MutedUntil returns when player's mute ends, the zero time when they
	// are not muted now.
	MutedUntil(ctx context.Context, player string) (time.Time, error)
}

// WithMutes refuses the lines of the players a moderator muted, while
// they are muted (Forbidden, chat_muted).
func WithMutes(m Mutes) Option { return func(s *Service) { s.mutes = m } }

// muted refuses player while a moderator has muted them.
func (s *Service) muted(ctx context.Context, player string) error {
	if s.mutes == nil || player == "" {
		return nil
	}
	until, err := s.mutes.MutedUntil(ctx, player)
	if err != nil || until.IsZero() {
		return err
	}
	return errs.Errorf(errs.Forbidden, "A moderator muted your chat until %s UTC.", until.UTC().Format("15:04 on 2 January")).WithDetail(errs.ChatMuted)
}
