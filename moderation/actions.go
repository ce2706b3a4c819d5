package moderation

import (
	"context"
	"fmt"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// Act is a moderator's action on a player, or on a report alone.
type Act struct {
	Action Action
	// Player is the name of the player acted on ("" to dismiss a report).
	Player string
	// Report is the report the action closes ("" for none); Dismiss
	// needs one.
	Report string
	// For is a mute's length: one of Mutes.
	For time.Duration
	Why string
}

// Do does a, for cred's moderator, and writes it to the log. It refuses
// anyone else as an unknown page (NotFound, not_moderator), an action
// without a why, a mute of another length, and a report closed already
// or unknown.
func (s *Service) Do(ctx context.Context, cred players.Credential, a Act) (Entry, error) {
	mod, err := s.moderator(ctx, cred)
	if err != nil {
		return Entry{}, err
	}
	why, err := cleanText(a.Why, true, "a moderator's action")
	if err != nil {
		return Entry{}, err
	}
	e := Entry{ID: newID(), At: s.now(), Moderator: mod.ID, ModeratorName: mod.Name, Action: a.Action, Report: a.Report, Why: why}
	var target players.Player
	if a.Action != Dismiss || a.Player != "" {
		if target, err = s.players.Named(ctx, a.Player); err != nil {
			return Entry{}, err
		}
		e.Player, e.PlayerName = target.ID, target.Name
	}
	if a.Report != "" {
		if _, err := s.store.Report(ctx, a.Report); err != nil {
			return Entry{}, errs.FromStore(err)
		}
	}
	switch a.Action {
	case Mute:
		if !validMute(a.For) {
			return Entry{}, errs.Errorf(errs.Invalid, "Mute for 15 minutes, an hour or a day.").WithDetail(errs.BadMute)
		}
		e.Until = e.At.Add(a.For)
		if err := s.store.SetMute(ctx, target.ID, e.Until); err != nil {
			return Entry{}, errs.FromStore(fmt.Errorf("muting a player: %w", err))
		}
	case Close, Reopen:
		if err := s.players.SetClosed(ctx, target.ID, a.Action == Close); err != nil {
			return Entry{}, err
		}
	case Dismiss:
		if a.Report == "" {
			return Entry{}, errs.Errorf(errs.Invalid, "Say which report to dismiss.").WithDetail(errs.NoReport)
		}
	default:
		return Entry{}, errs.Errorf(errs.Invalid, "%q is not a moderator's action: mute, close, reopen or dismiss.", rules.Clip(string(a.Action)))
	}
	if a.Report != "" {
		if _, err := s.store.CloseReport(ctx, a.Report, string(a.Action), e.At); err != nil {
			return Entry{}, errs.FromStore(fmt.Errorf("closing a report: %w", err))
		}
	}
	if err := s.store.AddEntry(ctx, e); err != nil {
		return Entry{}, errs.FromStore(fmt.Errorf("writing the moderation log: %w", err))
	}
	return e, nil
}

// validMute reports whether d is one of Mutes.
func validMute(d time.Duration) bool {
	for _, m := range Mutes() {
		if d == m {
			return true
		}
	}
	return false
}

// SetModerator makes the player named name a moderator (or no longer
// one), as the server's operator asks (banchess admin grant-mod NAME), and
// writes it to the log.
func (s *Service) SetModerator(ctx context.Context, name string, mod bool) error {
	p, err := s.players.Named(ctx, name)
	if err != nil {
		return err
	}
	now := s.now()
	if err := s.store.SetModerator(ctx, p.ID, mod, now); err != nil {
		return errs.FromStore(fmt.Errorf("granting a moderator: %w", err))
	}
	e := Entry{ID: newID(), At: now, ModeratorName: "the server", Action: Grant, Player: p.ID, PlayerName: p.Name, Why: "banchess admin grant-mod"}
	if !mod {
		e.Action, e.Why = Revoke, "banchess admin revoke-mod"
	}
	if err := s.store.AddEntry(ctx, e); err != nil {
		return errs.FromStore(fmt.Errorf("writing the moderation log: %w", err))
	}
	return nil
}

// IssueResetLink makes a one-time reset link's token for the player named
// name, for cred's moderator, and writes it to the log (never the
// token, which only its hash outlives): a player who lost their recovery
// codes sets a new password with it within players.ResetLinkTTL. It
// refuses anyone else as an unknown page, and an action without a why.
func (s *Service) IssueResetLink(ctx context.Context, cred players.Credential, name, why string) (string, Entry, error) {
	mod, err := s.moderator(ctx, cred)
	if err != nil {
		return "", Entry{}, err
	}
	if why, err = cleanText(why, true, "a moderator's action"); err != nil {
		return "", Entry{}, err
	}
	target, err := s.players.Named(ctx, name)
	if err != nil {
		return "", Entry{}, err
	}
	token, expires, err := s.players.NewResetLink(ctx, target.ID)
	if err != nil {
		return "", Entry{}, err
	}
	e := Entry{ID: newID(), At: s.now(), Moderator: mod.ID, ModeratorName: mod.Name, Action: Reset, Player: target.ID, PlayerName: target.Name, Until: expires, Why: why}
	if err := s.store.AddEntry(ctx, e); err != nil {
		return "", Entry{}, errs.FromStore(fmt.Errorf("writing the moderation log: %w", err))
	}
	return token, e, nil
}
