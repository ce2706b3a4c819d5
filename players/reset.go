package players

import (
	"context"
	"fmt"

	"time"

	"github.com/banchess/banchess/errs"
)

// ResetLinkTTL is how long a moderator's reset link works (once).
const ResetLinkTTL = 24 * time.Hour

// DeletedName is the name shown for a deleted account: in its games, in
// its opponents' lists and on its profile.
const DeletedName = "deleted"

// NewResetLink makes a one-time reset link's token for the player of id
// (a moderator's action, for a player who lost their recovery codes):
// /reset/{token} sets a new password within ResetLinkTTL, once. Only the
// token's hash is kept; it is returned with when it expires.
func (s *Service) NewResetLink(ctx context.Context, id string) (string, time.Time, error) {
	if s.safety == nil {
		return "", time.Time{}, noRecovery()
	}
	p, err := s.Player(ctx, id)
	if err != nil {
		return "", time.Time{}, err
	}
	if !p.Named() {
		return "", time.Time{}, errs.Errorf(errs.Invalid, "Only a player with a name and a password can be given a reset link.").WithDetail(errs.NameNeeded)
	}
	if err := s.open(ctx, id); err != nil {
		return "", time.Time{}, err
	}
	token := NewCredential()
	expires := s.now().Add(ResetLinkTTL)
	if err := s.safety.AddResetLink(ctx, id, token.Hash(), expires); err != nil {
		return "", time.Time{}, errs.FromStore(fmt.Errorf("keeping a reset link: %w", err))
	}
	return string(token), expires, nil
}

// ResetIn is the use of a reset link: its token and a new password, and
// who asks (as a sign-in).
type ResetIn struct {
	Token, Password string
	Kind            CredentialKind
}

// badResetLink refuses a reset link unknown, used or expired.
func badResetLink() *errs.Error {
	return errs.Errorf(errs.NotFound, "This reset link is unknown, was used already or has expired: ask a moderator for another.").WithDetail(errs.BadResetLink)
}

// ResetLinkPlayer returns the name of the player a reset link's token
// resets, or refuses it (NotFound, bad_reset_link) when it is unknown,
// used or expired.
func (s *Service) ResetLinkPlayer(ctx context.Context, token string) (string, error) {
	if s.safety == nil {
		return "", badResetLink()
	}
	cred := Credential(token)
	if !cred.Valid() {
		return "", badResetLink()
	}
	player, expires, ok, err := s.safety.ResetLink(ctx, cred.Hash())
	if err != nil {
		return "", errs.FromStore(fmt.Errorf("reading a reset link: %w", err))
	}
	if !ok || !s.now().Before(expires) {
		return "", badResetLink()
	}
	p, err := s.Player(ctx, player)
	if err != nil {
		return "", err
	}
	return p.Name, nil
}

// ResetPassword uses a reset link: it sets the new password, spends the
// link, signs its player out everywhere and issues a new credential, as
// a recovery does.
func (s *Service) ResetPassword(ctx context.Context, in ResetIn) (SignedIn, error) {
	name, err := s.ResetLinkPlayer(ctx, in.Token)
	if err != nil {
		return SignedIn{}, err
	}
	if err := CheckPassword(in.Password); err != nil {
		return SignedIn{}, err
	}
	p, err := s.Named(ctx, name)
	if err != nil {
		return SignedIn{}, err
	}
	if err := s.open(ctx, p.ID); err != nil {
		return SignedIn{}, err
	}
	pw, err := s.passwords.Hash(ctx, in.Password)
	if err != nil {
		return SignedIn{}, errs.Of(err)
	}
	cred := NewCredential()
	r := Recovery{Player: p.ID, Code: Credential(in.Token).Hash(), Password: pw, Issued: Issued{Hash: cred.Hash(), Player: p.ID, Kind: in.Kind, Created: s.now()}}
	done, err := s.safety.UseResetLink(ctx, r)
	if err != nil {
		return SignedIn{}, errs.FromStore(fmt.Errorf("resetting a password: %w", err))
	}
	if !done {
		return SignedIn{}, badResetLink() // used at the same time
	}
	s.Notice(NoticeSignedOut(p.ID))
	device, err := s.deviceToken(ctx, p.Name)
	if err != nil {
		return SignedIn{}, err
	}
	p.Password = pw
	return SignedIn{Credential: cred, Player: p, Device: device}, nil
}

// DeleteAccount deletes cred's player's account once password is theirs:
// their games stay, their name shown in them as DeletedName; their chat
// lines, ratings, puzzle history, follows, blocks, recovery codes and
// every credential go; no one signs in to it again, and its name is not
// given to anyone else.
func (s *Service) DeleteAccount(ctx context.Context, cred Credential, password string) error {
	if s.safety == nil {
		return errs.Errorf(errs.NotFound, "This server deletes no accounts.")
	}
	p, err := s.Identify(ctx, cred)
	if err != nil {
		return err
	}
	if p.ID == "" {
		return Unissued()
	}
	if !p.Named() {
		return errs.Errorf(errs.Forbidden, "An anonymous player has no account to delete: sign out to forget this browser's.").WithDetail(errs.NameNeeded)
	}
	if len(password) > MaxPassword {
		password = password[:MaxPassword]
	}
	ok, err := s.passwords.Check(ctx, p.Password, password)
	if err != nil {
		return errs.Of(err)
	}
	if !ok {
		return errs.Errorf(errs.Forbidden, "That is not your password: the account is kept.").WithDetail(errs.WrongPassword)
	}
	if err := s.safety.Delete(ctx, p.ID, s.now()); err != nil {
		return errs.FromStore(fmt.Errorf("deleting an account: %w", err))
	}
	s.Notice(NoticeSignedOut(p.ID))
	return nil
}
