package players

import (
	"context"
	"errors"
	"time"

	"github.com/banchess/banchess/errs"
)

// Sign-in attempts are counted from when each is received until its
// password is found right (then it is forgotten) or LoginWindow has
// passed, and limited (see Login):
//
//   - MaxFailedLogins for a name from one client address: a guesser at one
//     address is held to this, and locks no one else out;
//   - MaxFailedLoginsPerName for a name from every address together: the
//     ceiling on guesses spread over many addresses;
//   - MaxFailedLoginsPerAddress from one address, for every name: one
//     password tried on many names;
//   - MaxFailedLogins from a device that signed in as the name before
//     (its device token, see SignIn.Device), counted for that device
//     alone: the name's ceiling, reached by others, does not lock it out.
const (
	LoginWindow               = 15 * time.Minute
	MaxFailedLogins           = 5
	MaxFailedLoginsPerName    = 50
	MaxFailedLoginsPerAddress = 30
)

// SignIn is a sign-in: a name and a password, and who asks.
type SignIn struct {
	Name, Password string
	// Client is the address asking.
	Client string
	// Device is the device token the client keeps from an earlier sign-in
	// ("" for none). One this server issued for Name makes the attempt
	// count for this device alone.
	Device string
	// Kind is the kind of credential to issue.
	Kind CredentialKind
	// Scopes limit the new credential (none: it is not limited).
	Scopes Scopes
	// Replaces is the credential the client holds ("" for none), revoked
	// once it signs in: a browser keeps one credential, the new one.
	Replaces Credential
}

// SignedIn is what a sign-in or a sign-up gives: a new credential of the
// player, and a fresh device token naming them, for the client to keep
// and present when it next signs in (SignIn.Device).
type SignedIn struct {
	Credential Credential
	Player     Player
	Device     string
}

// Login checks a player's name and password and issues them a new
// credential of in.Kind: a second device, or a program's new token. A name
// that does not exist costs as long to refuse as a wrong password.
//
// Each attempt is counted before its password is checked, in one step of
// the store with the check of the limits, and forgotten once it succeeds:
// concurrent guesses are counted one after another. Over a limit, the
// attempt is refused (TooMany, with RetryAfter) unchecked. An attempt with
// a device token issued for the name counts for that device alone (OWASP's
// device cookies): others' failures for the name do not lock it out.
func (s *Service) Login(ctx context.Context, in SignIn) (SignedIn, error) {
	now := s.now()
	key := NameKey(clipName(in.Name))
	counters, says, err := s.loginCounters(ctx, key, in)
	if err != nil {
		return SignedIn{}, err
	}
	attempt := Attempt{ID: newPlayerID(), At: now, Counters: counters}
	refused, err := s.store.StartAttempt(ctx, attempt)
	if err != nil {
		return SignedIn{}, errs.FromStore(err)
	}
	if refused != nil {
		wait := refused.Until[len(refused.Until)-counters[refused.Counter].Max].Sub(now)
		e := errs.Errorf(errs.TooMany, says[refused.Counter], seconds(wait)).WithDetail(errs.TooManyLogins)
		e.RetryAfter = wait
		return SignedIn{}, e
	}
	p, err := s.store.PlayerNamed(ctx, in.Name)
	if err != nil && !isNotFound(err) {
		return SignedIn{}, errs.FromStore(err)
	}
	pw := in.Password
	if len(pw) > MaxPassword {
		pw = pw[:MaxPassword] // refused below all the same, at the usual cost
	}
	ok, err := s.passwords.Check(ctx, p.Password, pw)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return SignedIn{}, errs.Internalf(err, "checking the password of %q", p.ID)
	}
	if err != nil {
		return SignedIn{}, errs.Of(err)
	}
	if !ok {
		// The attempt counted stays counted: a failure.
		return SignedIn{}, errs.Errorf(errs.Unauthorized, "The name or the password is wrong.").WithDetail(errs.BadLogin)
	}
	if err := s.store.ForgetAttempt(ctx, attempt); err != nil {
		return SignedIn{}, errs.FromStore(err)
	}
	if err := s.open(ctx, p.ID); err != nil {
		return SignedIn{}, err
	}
	cred := NewCredential()
	if err := s.store.Issue(ctx, Issued{Hash: cred.Hash(), Player: p.ID, Kind: in.Kind, Created: now, Scopes: in.Scopes}); err != nil {
		return SignedIn{}, errs.FromStore(err)
	}
	if in.Replaces.Valid() {
		if err := s.store.Revoke(ctx, in.Replaces.Hash(), false); err != nil {
			return SignedIn{}, errs.FromStore(err)
		}
		s.Notice(NoticeRevoked(in.Replaces.Hash()))
	}
	device, err := s.deviceToken(ctx, p.Name)
	if err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Credential: cred, Player: p, Device: device}, nil
}

// loginCounters are the counters a sign-in as the name of key counts
// under, and what a refusal by each says (a format of the seconds to
// wait): the device's alone when it presents a device token issued
// for the name, else the name's from the address, the name's and the
// address's.
func (s *Service) loginCounters(ctx context.Context, key string, in SignIn) ([]Counter, []string, error) {
	nonce, err := s.trustedDevice(ctx, in.Device, key)
	if err != nil {
		return nil, nil, err
	}
	if nonce != "" {
		return []Counter{{Key: "device:" + nonce, Max: MaxFailedLogins, Window: LoginWindow}}, []string{"Too many failed sign-ins from this device: try again in %d s."}, nil
	}
	return []Counter{
			{Key: "name@addr:" + key + " " + in.Client, Max: MaxFailedLogins, Window: LoginWindow},
			{Key: "name:" + key, Max: MaxFailedLoginsPerName, Window: LoginWindow},
			{Key: "addr:" + in.Client, Max: MaxFailedLoginsPerAddress, Window: LoginWindow},
		}, []string{
			"Too many failed sign-ins for this name from this address: try again in %d s.",
			"Too many failed sign-ins for this name: try again in %d s, or from a device that has signed in as it before.",
			"Too many failed sign-ins from this address: try again in %d s.",
		}, nil
}

// Attempt is an attempt the store counts (a sign-in): under each of its
// counters' keys, from At until the counter's Window has passed, unless it
// is forgotten.
type Attempt struct {
	// ID tells the attempt from others under the same keys at the same
	// time, to forget it.
	ID       string
	At       time.Time
	Counters []Counter
}

// Counter is a key that attempts are counted under, and how many of them
// it takes in any Window.
type Counter struct {
	Key    string
	Max    int
	Window time.Duration
}

// Refused says which of an attempt's counters was full: its index in
// Attempt.Counters, and until when each attempt it counts keeps counting,
// earliest first (at least the counter's Max of them).
type Refused struct {
	Counter int
	Until   []time.Time
}
