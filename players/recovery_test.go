package players_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/store"
)

// newSafeEnv is newAccountsEnv with recovery codes and closed accounts
// kept in the memory store.
func newSafeEnv(t *testing.T) (*env, *manualClock, players.SafetyStore) {
	clk := &manualClock{now: epoch}
	m := store.NewMemory()
	pl := players.New(m, players.WithPasswords(newPasswords()), players.WithClock(clk.Now), players.WithSafety(m.Safety()))
	return &env{t: t, ctx: context.Background(), svc: pl}, clk, m.Safety()
}

var codeRE = regexp.MustCompile(`^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$`)

// TestRecoveryCodes: ten codes, of their form, distinct; a code signs in
// once with a new password and ends every other credential; the old
// password no longer works and the new one does; codes made again end
// the old ones; refusals say why and change nothing.
func TestRecoveryCodes(t *testing.T) {
	e, _, _ := newSafeEnv(t)
	in, err := e.svc.Register(e.ctx, signUp("Ann", "old password"))
	if err != nil {
		t.Fatal(err)
	}
	laptop, err := e.svc.Login(e.ctx, signIn("Ann", "old password", "10.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	codes, err := e.svc.NewRecoveryCodes(e.ctx, in.Credential)
	if err != nil || len(codes) != players.RecoveryCodes {
		t.Fatalf("codes %q, %v", codes, err)
	}
	seen := map[string]bool{}
	for _, c := range codes {
		if !codeRE.MatchString(c) || seen[c[:4]] {
			t.Errorf("code %q: not of the form, or its first group is another's", c)
		}
		seen[c[:4]] = true
	}
	if n, err := e.svc.RecoveryCodesLeft(e.ctx, in.Credential); n != 10 || err != nil {
		t.Errorf("codes left: %d, %v", n, err)
	}
	clients := 0
	recover := func(name, code, pw string) (players.SignedIn, error) { // each from an address of its own: no limit met
		clients++
		return e.svc.Recover(e.ctx, players.RecoverIn{Name: name, Code: code, Password: pw, Client: fmt.Sprintf("10.0.1.%d", clients), Kind: players.Cookie})
	}
	anon := e.cred()
	for _, c := range []struct {
		what, name, code, pw string
		code_                errs.Code
		detail               string
	}{
		{"a wrong code", "Ann", "aaaa-bbbb-cccc-dddd", "new password", errs.Unauthorized, "bad_recovery"},
		{"a code's id with a wrong secret", "Ann", codes[0][:5] + "bbbb-cccc-dddd", "new password", errs.Unauthorized, "bad_recovery"},
		{"not a code", "Ann", "hello", "new password", errs.Unauthorized, "bad_recovery"},
		{"an unknown name", "Nobody", codes[0], "new password", errs.Unauthorized, "bad_recovery"},
		{"another's name", "Bob", codes[0], "new password", errs.Unauthorized, "bad_recovery"},
		{"a short password", "Ann", codes[0], "short", errs.Invalid, "bad_password"},
	} {
		_, err := recover(c.name, c.code, c.pw)
		refused(t, c.what, err, c.code_, c.detail)
	}
	if _, err := e.svc.NewRecoveryCodes(e.ctx, anon); errs.Of(err).Detail != errs.NameNeeded {
		t.Errorf("an anonymous player's codes: %v", err)
	}
	if _, err := e.svc.NewRecoveryCodes(e.ctx, ""); errs.Of(err).Code != errs.Unauthorized {
		t.Errorf("codes without a credential: %v", err)
	}

	// The code in upper case, without dashes, works once.
	got, err := recover("ann", strings.ToUpper(strings.ReplaceAll(codes[3], "-", " ")), "new password")
	if err != nil || got.Player.Name != "Ann" || got.Credential == "" {
		t.Fatalf("recovering: %+v, %v", got, err)
	}
	for _, old := range []players.Credential{in.Credential, laptop.Credential} {
		if p, err := e.svc.Identify(e.ctx, old); err != nil || p.ID != "" {
			t.Errorf("an old credential still names %+v (%v)", p, err)
		}
	}
	if p, err := e.svc.Identify(e.ctx, got.Credential); err != nil || p.Name != "Ann" {
		t.Errorf("the new credential names %+v (%v)", p, err)
	}
	_, err = recover("Ann", codes[3], "another password")
	refused(t, "a code used", err, errs.Unauthorized, "bad_recovery")
	_, err = e.svc.Login(e.ctx, signIn("Ann", "old password", "10.0.0.3"))
	refused(t, "the old password", err, errs.Unauthorized, "bad_login")
	if _, err := e.svc.Login(e.ctx, signIn("Ann", "new password", "10.0.0.3")); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if n, _ := e.svc.RecoveryCodesLeft(e.ctx, got.Credential); n != 9 {
		t.Errorf("codes left after one used: %d", n)
	}

	// New codes end the old.
	fresh, err := e.svc.NewRecoveryCodes(e.ctx, got.Credential)
	if err != nil {
		t.Fatal(err)
	}
	_, err = recover("Ann", codes[4], "third password")
	refused(t, "an old code after new ones", err, errs.Unauthorized, "bad_recovery")
	if _, err := recover("Ann", fresh[0], "third password"); err != nil {
		t.Errorf("a new code: %v", err)
	}
}

// TestRecoveryCodeSets: a player makes codes RecoveryCodeSets times an
// hour; the next is refused, with when to try again, and keeps the codes.
func TestRecoveryCodeSets(t *testing.T) {
	e, clk, _ := newSafeEnv(t)
	in, err := e.svc.Register(e.ctx, signUp("Ann", "old password"))
	if err != nil {
		t.Fatal(err)
	}
	var last []string
	for range players.RecoveryCodeSets {
		if last, err = e.svc.NewRecoveryCodes(e.ctx, in.Credential); err != nil {
			t.Fatal(err)
		}
	}
	_, err = e.svc.NewRecoveryCodes(e.ctx, in.Credential)
	refused(t, "codes once too often", err, errs.TooMany, "recovery_codes_rate")
	if e := errs.Of(err); e.RetryAfter <= 0 {
		t.Errorf("no Retry-After: %+v", e)
	}
	back, err := e.svc.Recover(e.ctx, players.RecoverIn{Name: "Ann", Code: last[0], Password: "new password", Kind: players.Cookie})
	if err != nil {
		t.Fatalf("the last codes made: %v", err)
	}
	clk.advance(players.RecoveryCodeWindow)
	if _, err := e.svc.NewRecoveryCodes(e.ctx, back.Credential); err != nil {
		t.Errorf("an hour later: %v", err)
	}
}

// TestRecoveryLimited: failed recoveries are counted with failed
// sign-ins: past MaxFailedLogins for the name from an address, even the
// right code is refused until the window passes.
func TestRecoveryLimited(t *testing.T) {
	e, clk, _ := newSafeEnv(t)
	in, err := e.svc.Register(e.ctx, signUp("Ann", "old password"))
	if err != nil {
		t.Fatal(err)
	}
	codes, err := e.svc.NewRecoveryCodes(e.ctx, in.Credential)
	if err != nil {
		t.Fatal(err)
	}
	rec := players.RecoverIn{Name: "Ann", Code: "aaaa-bbbb-cccc-dddd", Password: "new password", Client: "10.0.0.9", Kind: players.Cookie}
	for range players.MaxFailedLogins {
		if _, err := e.svc.Recover(e.ctx, rec); errs.Of(err).Detail != errs.BadRecovery {
			t.Fatalf("a wrong code: %v", err)
		}
	}
	rec.Code = codes[0]
	_, err = e.svc.Recover(e.ctx, rec)
	refused(t, "the right code past the limit", err, errs.TooMany, "too_many_logins")
	_, err = e.svc.Login(e.ctx, signIn("Ann", "old password", "10.0.0.9"))
	refused(t, "a sign-in past the limit", err, errs.TooMany, "too_many_logins")
	clk.advance(players.LoginWindow + time.Second)
	if _, err := e.svc.Recover(e.ctx, rec); err != nil {
		t.Errorf("after the window: %v", err)
	}
}

// TestClosedAccount: a closed account's credentials stop working, it
// cannot sign in (even with the right password) nor recover; reopened,
// it signs in again.
func TestClosedAccount(t *testing.T) {
	e, _, safety := newSafeEnv(t)
	in, err := e.svc.Register(e.ctx, signUp("Ann", "old password"))
	if err != nil {
		t.Fatal(err)
	}
	codes, err := e.svc.NewRecoveryCodes(e.ctx, in.Credential)
	if err != nil {
		t.Fatal(err)
	}
	if err := safety.SetClosed(e.ctx, in.Player.ID, true, epoch); err != nil {
		t.Fatal(err)
	}
	e.svc.Notice(players.NoticeSignedOut(in.Player.ID)) // as the store's notice does
	if p, err := e.svc.Identify(e.ctx, in.Credential); err != nil || p.ID != "" {
		t.Errorf("a closed account's credential names %+v (%v)", p, err)
	}
	_, err = e.svc.Login(e.ctx, signIn("Ann", "old password", "10.0.0.1"))
	refused(t, "signing in to a closed account", err, errs.Forbidden, "account_closed")
	_, err = e.svc.Recover(e.ctx, players.RecoverIn{Name: "Ann", Code: codes[0], Password: "new password", Kind: players.Cookie})
	refused(t, "recovering a closed account", err, errs.Forbidden, "account_closed")
	if err := safety.SetClosed(e.ctx, in.Player.ID, false, epoch); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Login(e.ctx, signIn("Ann", "old password", "10.0.0.1")); err != nil {
		t.Errorf("signing in once reopened: %v", err)
	}
}
