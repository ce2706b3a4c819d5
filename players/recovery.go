package players

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"github.com/banchess/banchess/errs"
)

// Recovery codes give a player who forgot their password their account
// back without e-mail: RecoveryCodes of them, each used once, shown to
// the player once when made and kept only as argon2id hashes (as
// passwords are). Making new ones ends the old.
const RecoveryCodes = 10

// Making recovery codes costs RecoveryCodes hashes (about a second of a
// core): a player makes them at most RecoveryCodeSets times in
// RecoveryCodeWindow.
const (
	RecoveryCodeSets   = 5
	RecoveryCodeWindow = time.Hour
)

// A recovery code is 16 letters and digits of RFC 4648's base32 in lower
// case, written in four groups ("abcd-efgh-ijkl-mnop"): the first group
// tells the player's codes apart (it is kept as it is), the other twelve
// are the secret (60 bits, kept hashed).
const (
	codeIDLen = 4
	codeLen   = 16
)

// SafetyStore keeps what guards accounts beyond their passwords: recovery
// codes, and closed accounts.
type SafetyStore interface {
	// SetRecoveryCodes replaces the player's recovery codes with codes.
	SetRecoveryCodes(ctx context.Context, player string, codes []RecoveryCode) error
	// RecoveryCode returns the hash of the player's unused code id, and
	// whether there is one.
	RecoveryCode(ctx context.Context, player, id string) (string, bool, error)
	// RecoveryCodesLeft counts the player's unused codes.
	RecoveryCodesLeft(ctx context.Context, player string) (int, error)
	// Recover spends r's code, sets the player's password, revokes every
	// credential of theirs and records r.Issued, in one step; it reports
	// false, changing nothing, when the code is spent already.
	Recover(ctx context.Context, r Recovery) (bool, error)
	// SetClosed closes the player's account at at, revoking every
	// credential of theirs, or reopens it.
	SetClosed(ctx context.Context, player string, closed bool, at time.Time) error
	// Closed reports whether the player's account is closed.
	Closed(ctx context.Context, player string) (bool, error)
	// AddResetLink keeps a moderator's reset link for player: the hash of
	// its token, valid until expires.
	AddResetLink(ctx context.Context, player, hash string, expires time.Time) error
	// ResetLink returns the player of the reset link of hash and when it
	// expires, and whether there is one (unused).
	ResetLink(ctx context.Context, hash string) (player string, expires time.Time, ok bool, err error)
	// UseResetLink is Recover with r.Code the hash of a reset link: it
	// spends the link instead of a code.
	UseResetLink(ctx context.Context, r Recovery) (bool, error)
	// Delete deletes the player's account (see Service.DeleteAccount), in
	// one step.
	Delete(ctx context.Context, player string, at time.Time) error
}

// RecoveryCode is a recovery code as the store keeps it: its id (the
// code's first group) and the hash of the code.
type RecoveryCode struct {
	ID, Hash string
}

// Recovery is a recovery as the store records it (SafetyStore.Recover).
type Recovery struct {
	Player, Code string // the player's id and the code's id
	Password     string // the new password's hash
	Issued       Issued // the player's new credential
}

// WithSafety keeps recovery codes and closed accounts in st; without it
// the service makes no recovery codes (NotFound) and closes no account.
func WithSafety(st SafetyStore) Option { return func(s *Service) { s.safety = st } }

// noRecovery refuses recovery on a service without a SafetyStore.
func noRecovery() *errs.Error {
	return errs.Errorf(errs.NotFound, "This server keeps no recovery codes.")
}

// NewRecoveryCodes makes RecoveryCodes new recovery codes for cred's
// player, who must have a name, and returns them: the only time they are
// seen. The player's old codes no longer work.
func (s *Service) NewRecoveryCodes(ctx context.Context, cred Credential) ([]string, error) {
	if s.safety == nil {
		return nil, noRecovery()
	}
	p, err := s.Identify(ctx, cred)
	if err != nil {
		return nil, err
	}
	switch {
	case p.ID == "":
		return nil, errs.Errorf(errs.Unauthorized, "Sign in first: recovery codes are a named player's.")
	case !p.Named():
		return nil, errs.Errorf(errs.Forbidden, "Choose a name and a password first: recovery codes give back a named account.").WithDetail(errs.NameNeeded)
	}
	now := s.now()
	counter := Counter{Key: "recovery-codes:" + p.ID, Max: RecoveryCodeSets, Window: RecoveryCodeWindow}
	refused, err := s.store.StartAttempt(ctx, Attempt{ID: newPlayerID(), At: now, Counters: []Counter{counter}})
	if err != nil {
		return nil, errs.FromStore(err)
	}
	if refused != nil {
		wait := refused.Until[len(refused.Until)-counter.Max].Sub(now)
		e := errs.Errorf(errs.TooMany, "You made recovery codes %d times in the last hour: try again in %d s.", RecoveryCodeSets, seconds(wait)).WithDetail(errs.RecoveryCodesRate)
		e.RetryAfter = wait
		return nil, e
	}
	codes := make([]string, 0, RecoveryCodes)
	kept := make([]RecoveryCode, 0, RecoveryCodes)
	ids := map[string]bool{}
	for len(codes) < RecoveryCodes {
		code := newRecoveryCode()
		id := code[:codeIDLen]
		if ids[id] {
			continue
		}
		ids[id] = true
		hash, err := s.passwords.Hash(ctx, code)
		if err != nil {
			return nil, errs.Of(err)
		}
		codes, kept = append(codes, formatCode(code)), append(kept, RecoveryCode{ID: id, Hash: hash})
	}
	if err := s.safety.SetRecoveryCodes(ctx, p.ID, kept); err != nil {
		return nil, errs.FromStore(fmt.Errorf("keeping recovery codes: %w", err))
	}
	return codes, nil
}

// RecoveryCodesLeft counts the unused recovery codes of cred's player.
func (s *Service) RecoveryCodesLeft(ctx context.Context, cred Credential) (int, error) {
	if s.safety == nil {
		return 0, nil
	}
	p, err := s.Identify(ctx, cred)
	if err != nil || !p.Named() {
		return 0, err
	}
	n, err := s.safety.RecoveryCodesLeft(ctx, p.ID)
	if err != nil {
		return 0, errs.FromStore(fmt.Errorf("counting recovery codes: %w", err))
	}
	return n, nil
}

// RecoverIn is a recovery: the name, a recovery code and a new password,
// and who asks (as a sign-in).
type RecoverIn struct {
	Name, Code, Password string
	// Client, Device, Kind and Replaces are as a sign-in's (SignIn).
	Client, Device string
	Kind           CredentialKind
	Replaces       Credential
}

// Recover gives a player their account back with one of their recovery
// codes: it sets the new password, spends the code, signs the player out
// everywhere and issues a new credential. It is counted and limited as a
// sign-in is (Login), under the same counters; a wrong name or code is
// refused alike (Unauthorized, bad_recovery), at the same cost.
func (s *Service) Recover(ctx context.Context, in RecoverIn) (SignedIn, error) {
	if s.safety == nil {
		return SignedIn{}, noRecovery()
	}
	if err := CheckPassword(in.Password); err != nil {
		return SignedIn{}, err
	}
	now := s.now()
	counters, says, err := s.loginCounters(ctx, NameKey(clipName(in.Name)), SignIn{Client: in.Client, Device: in.Device})
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
	p, hash, err := s.recoveryCode(ctx, in.Name, in.Code)
	if err != nil {
		return SignedIn{}, err
	}
	code := parseCode(in.Code)
	ok, err := s.passwords.Check(ctx, hash, code)
	if err != nil {
		return SignedIn{}, errs.Of(err)
	}
	wrong := errs.Errorf(errs.Unauthorized, "The name or the recovery code is wrong, or the code was used.").WithDetail(errs.BadRecovery)
	if !ok {
		return SignedIn{}, wrong // the attempt counted stays counted
	}
	if err := s.open(ctx, p.ID); err != nil {
		return SignedIn{}, err
	}
	pw, err := s.passwords.Hash(ctx, in.Password)
	if err != nil {
		return SignedIn{}, errs.Of(err)
	}
	cred := NewCredential()
	r := Recovery{Player: p.ID, Code: code[:codeIDLen], Password: pw, Issued: Issued{Hash: cred.Hash(), Player: p.ID, Kind: in.Kind, Created: now}}
	done, err := s.safety.Recover(ctx, r)
	if err != nil {
		return SignedIn{}, errs.FromStore(fmt.Errorf("recovering an account: %w", err))
	}
	if !done {
		return SignedIn{}, wrong // spent by a recovery at the same time
	}
	s.Notice(NoticeSignedOut(p.ID))
	if err := s.store.ForgetAttempt(ctx, attempt); err != nil {
		return SignedIn{}, errs.FromStore(err)
	}
	device, err := s.deviceToken(ctx, p.Name)
	if err != nil {
		return SignedIn{}, err
	}
	p.Password = pw
	return SignedIn{Credential: cred, Player: p, Device: device}, nil
}

// recoveryCode returns the player named name and the hash of their unused
// code that code names, or "" (which no code matches, at the same cost)
// when there is no such player or code.
func (s *Service) recoveryCode(ctx context.Context, name, code string) (Player, string, error) {
	p, err := s.store.PlayerNamed(ctx, clipName(name))
	if isNotFound(err) || CheckName(name) != nil {
		return Player{}, "", nil
	}
	if err != nil {
		return Player{}, "", errs.FromStore(err)
	}
	c := parseCode(code)
	if len(c) != codeLen {
		return p, "", nil
	}
	hash, ok, err := s.safety.RecoveryCode(ctx, p.ID, c[:codeIDLen])
	if err != nil {
		return Player{}, "", errs.FromStore(fmt.Errorf("reading a recovery code: %w", err))
	}
	if !ok {
		return p, "", nil
	}
	return p, hash, nil
}

// open refuses the player of id when their account is closed.
func (s *Service) open(ctx context.Context, id string) error {
	if s.safety == nil {
		return nil
	}
	closed, err := s.safety.Closed(ctx, id)
	if err != nil {
		return errs.FromStore(fmt.Errorf("reading whether an account is closed: %w", err))
	}
	if closed {
		return accountClosed()
	}
	return nil
}

// accountClosed refuses a closed account.
func accountClosed() *errs.Error {
	return errs.Errorf(errs.Forbidden, "This account is closed.").WithDetail(errs.AccountClosed)
}

// codeAlphabet writes recovery codes: RFC 4648's base32 in lower case.
var codeAlphabet = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newRecoveryCode returns a fresh code, unformatted (codeLen characters).
func newRecoveryCode() string {
	var b [10]byte // 80 bits: 16 characters
	rand.Read(b[:])
	return codeAlphabet.EncodeToString(b[:])
}

// formatCode writes a code in groups of four: abcd-efgh-ijkl-mnop.
func formatCode(c string) string {
	var groups []string
	for i := 0; i < len(c); i += 4 {
		groups = append(groups, c[i:min(i+4, len(c))])
	}
	return strings.Join(groups, "-")
}

// parseCode reads a code as a person types it: in any case, with or
// without its dashes and spaces. What is not a code comes back as
// something no code's hash matches.
func parseCode(s string) string {
	if len(s) > 4*codeLen {
		return ""
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// SetClosed closes the account of the player of id (a moderator's
// action: its games stay, it cannot sign in, and every credential of it
// is revoked, on every server sharing the store), or reopens it.
func (s *Service) SetClosed(ctx context.Context, id string, closed bool) error {
	if s.safety == nil {
		return errs.Errorf(errs.NotFound, "This server closes no accounts.")
	}
	if err := s.safety.SetClosed(ctx, id, closed, s.now()); err != nil {
		return errs.FromStore(fmt.Errorf("closing an account: %w", err))
	}
	if closed {
		s.Notice(NoticeSignedOut(id))
	}
	return nil
}

// Closed reports whether the account of the player of id is closed.
func (s *Service) Closed(ctx context.Context, id string) (bool, error) {
	if s.safety == nil {
		return false, nil
	}
	closed, err := s.safety.Closed(ctx, id)
	if err != nil {
		return false, errs.FromStore(fmt.Errorf("reading whether an account is closed: %w", err))
	}
	return closed, nil
}
