package players

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/banchess/banchess/errs"
)

// SignUp is a sign-up: a name and a password for a player, and who asks.
type SignUp struct {
	Name, Password string
	// Client is the address asking: sign-ups are limited per address
	// (WithSignupsPerHour).
	Client string
	// Credential is the anonymous player's to name, "" for a new player.
	// It is revoked once the player is named: the player's new credential
	// replaces it, so that a credential someone else planted or saw
	// before the sign-up holds nothing after it.
	Credential Credential
	// Kind is the kind of the player's new credential.
	Kind CredentialKind
}

// SignupWindow is the window of the limit on sign-ups from an address
// (WithSignupsPerHour).
const SignupWindow = time.Hour

// Register gives a player a name and a password: up.Credential's player,
// which must have no name yet (it keeps its games; up.Credential is
// revoked), or with no credential a new player. It returns the player's
// new credential, of up.Kind, the player and a device token naming them.
//
// What costs nothing is checked first: the name and password's rules,
// whether the name is taken; then, before the password is hashed, the
// sign-up is counted against its address's limit, in one step of the
// store with the check of it, and forgotten if it names no one.
func (s *Service) Register(ctx context.Context, up SignUp) (SignedIn, error) {
	if err := CheckName(up.Name); err != nil {
		return SignedIn{}, err
	}
	if err := CheckPassword(up.Password); err != nil {
		return SignedIn{}, err
	}
	var p Player
	if up.Credential != "" {
		var err error
		if p, err = s.Identify(ctx, up.Credential); err != nil {
			return SignedIn{}, err
		}
		switch {
		case p.ID == "":
			return SignedIn{}, Unissued()
		case p.Named():
			return SignedIn{}, errs.Errorf(errs.Conflict, "You have a name already: %s.", p.Name).WithDetail(errs.Named)
		}
	}
	if err := s.nameFree(ctx, up.Name); err != nil {
		return SignedIn{}, err
	}
	attempt, err := s.countSignUp(ctx, up.Client)
	if err != nil {
		return SignedIn{}, err
	}
	in, err := s.register(ctx, up, p)
	if err != nil && attempt != nil {
		// A sign-up that named no one does not count.
		if ferr := s.store.ForgetAttempt(context.WithoutCancel(ctx), *attempt); ferr != nil {
			err = errors.Join(err, fmt.Errorf("forgetting a sign-up that failed: %w", ferr))
		}
	}
	return in, err
}

// nameFree refuses a name another player has, or one that looks like
// it. The store refuses them too, when it names the player, in the same
// step: this is to refuse them before the password is hashed.
func (s *Service) nameFree(ctx context.Context, name string) error {
	_, err := s.store.PlayerNamed(ctx, name)
	switch {
	case err == nil:
		return NameTaken(name)
	case !isNotFound(err):
		return errs.FromStore(err)
	}
	p, err := s.store.PlayerLike(ctx, name)
	switch {
	case err == nil:
		return LooksLike(name, p.Name)
	case !isNotFound(err):
		return errs.FromStore(err)
	}
	return nil
}

// NameTaken refuses a name another player has in any case.
func NameTaken(name string) *errs.Error {
	return errs.Errorf(errs.Conflict, "The name %s is taken (names differing only in case count as one): choose another.", name).WithDetail(errs.NameTaken)
}

// countSignUp counts a sign-up from client against the limit, or refuses
// it (TooMany, with RetryAfter). It returns the attempt counted, nil when
// sign-ups are not limited.
func (s *Service) countSignUp(ctx context.Context, client string) (*Attempt, error) {
	if s.signupsPerHour <= 0 {
		return nil, nil
	}
	now := s.now()
	attempt := Attempt{ID: newPlayerID(), At: now, Counters: []Counter{{Key: "signup:" + client, Max: s.signupsPerHour, Window: SignupWindow}}}
	refused, err := s.store.StartAttempt(ctx, attempt)
	if err != nil {
		return nil, errs.FromStore(err)
	}
	if refused != nil {
		wait := refused.Until[len(refused.Until)-s.signupsPerHour].Sub(now)
		e := errs.Errorf(errs.TooMany, "This address has signed up %d players in the last hour, the most this server allows: try again in %d minutes.",
			s.signupsPerHour, (seconds(wait)+59)/60).WithDetail(errs.TooManySignups)
		e.RetryAfter = wait
		return nil, e
	}
	return &attempt, nil
}

// register hashes the password and names p (a new player when p.ID is "").
func (s *Service) register(ctx context.Context, up SignUp, p Player) (SignedIn, error) {
	hash, err := s.passwords.Hash(ctx, up.Password)
	if err != nil {
		return SignedIn{}, errs.Of(err)
	}
	var cred Credential
	if p.ID == "" {
		if cred, p, err = s.addPlayer(ctx, up.Kind, Player{Name: up.Name, Password: hash}); err != nil {
			return SignedIn{}, err
		}
	} else {
		cred = NewCredential()
		n := Naming{Player: p.ID, Name: up.Name, Password: hash,
			Issued: Issued{Hash: cred.Hash(), Player: p.ID, Kind: up.Kind, Created: s.now()}, Revoked: up.Credential.Hash()}
		if err := s.store.SetName(ctx, n); err != nil {
			return SignedIn{}, errs.FromStore(err)
		}
		s.Notice(NoticeRevoked(n.Revoked))
		p.Name, p.Password = up.Name, hash
	}
	device, err := s.deviceToken(ctx, p.Name)
	if err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Credential: cred, Player: p, Device: device}, nil
}
