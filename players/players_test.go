package players_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// passwords hashes with cheap parameters (the format and checks are
// password.Default's) and records what it is asked to check, and how
// many passwords it hashed.
type passwords struct {
	h      *password.Hasher
	mu     sync.Mutex
	checks []string // the hashes checked against
	hashes int
}

func newPasswords() *passwords {
	return &passwords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)}
}

func (p *passwords) Hash(ctx context.Context, pw string) (string, error) {
	p.mu.Lock()
	p.hashes++
	p.mu.Unlock()
	if pw == unhashable {
		return "", errors.New("out of memory")
	}
	return p.h.Hash(ctx, pw)
}

// unhashable is a password passwords fails to hash.
const unhashable = "unhashable password"

// hashed returns how many passwords were hashed.
func (p *passwords) hashed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hashes
}

func (p *passwords) Check(ctx context.Context, encoded, pw string) (bool, error) {
	p.mu.Lock()
	p.checks = append(p.checks, encoded)
	p.mu.Unlock()
	return p.h.Check(ctx, encoded, pw)
}

// checked returns and forgets the hashes checked against.
func (p *passwords) checked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.checks
	p.checks = nil
	return c
}

var epoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// manualClock is a time that moves when told.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// env is the players service, and games whose seats its players hold, on
// a fresh memory store.
type env struct {
	t     *testing.T
	ctx   context.Context
	svc   *players.Service
	games *games.Service
}

func newAccountsEnv(t *testing.T) (*env, *passwords) {
	pw := newPasswords()
	clk := &manualClock{now: epoch}
	m := store.NewMemory()
	pl := players.New(m, players.WithPasswords(pw), players.WithClock(clk.Now))
	return &env{t: t, ctx: context.Background(), svc: pl, games: games.New(m, pl, games.WithClock(clk.Now))}, pw
}

// cred gives a new anonymous player a credential.
func (e *env) cred() players.Credential {
	e.t.Helper()
	cred, _, err := e.svc.NewPlayer(e.ctx, players.Cookie)
	if err != nil {
		e.t.Fatal(err)
	}
	return cred
}

// id returns the id of cred's player ("" for none).
func (e *env) id(cred players.Credential) string {
	e.t.Helper()
	p, err := e.svc.Identify(e.ctx, cred)
	if err != nil {
		e.t.Fatal(err)
	}
	return p.ID
}

// create starts a new Ban Chess game whose seats cred holds.
func (e *env) create(cred players.Credential) string {
	e.t.Helper()
	id, err := e.games.Create(e.ctx, cred, rules.New(rules.BanChess{}))
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) play(id string, cred players.Credential, texts ...string) {
	e.t.Helper()
	for _, text := range texts {
		if err := e.games.Play(e.ctx, id, cred, games.Input{Text: text}, nil); err != nil {
			e.t.Fatalf("play %s: %v", text, err)
		}
	}
}

// refused checks err is an *errs.Error of code (and detail, when given).
func refused(t *testing.T, what string, err error, code errs.Code, detail string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: %v (%T), want a *errs.Error of code %s", what, err, err, code)
		return
	}
	if e.Code != code || detail != "" && string(e.Detail) != detail {
		t.Errorf("%s: code %s, detail %q (%s); want %s, %q", what, e.Code, e.Detail, e.Msg, code, detail)
	}
}

// listIs checks the games cred holds seats in, up to limit.
func listIs(t *testing.T, e *env, cred players.Credential, limit int, ids ...string) {
	t.Helper()
	list, err := e.games.Games(e.ctx, cred, limit)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list {
		got = append(got, s.ID)
	}
	if strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Errorf("games %q, want %q", got, ids)
	}
}

func TestRegister(t *testing.T) {
	e, _ := newAccountsEnv(t)
	anon := e.cred()
	id := e.create(anon)
	anonID := e.id(anon)
	in, err := e.svc.Register(e.ctx, players.SignUp{Name: "Ann_1", Password: "correct horse", Credential: anon})
	p := in.Player
	if err != nil || p.Name != "Ann_1" || p.ID != anonID || e.id(in.Credential) != anonID || in.Device == "" {
		t.Fatalf("naming an anonymous player: %+v, %v", in, err)
	}
	if strings.Contains(p.Password, "correct horse") || !strings.HasPrefix(p.Password, "$argon2id$") {
		t.Errorf("the password is kept as %q", p.Password)
	}
	// The player keeps their seats, with their new credential.
	e.play(id, in.Credential, "e4")
	refused(t, "naming again", second(e.svc.Register(e.ctx, players.SignUp{Name: "Ann_2", Password: "correct horse", Credential: in.Credential})), errs.Conflict, "named")
	for _, c := range []struct{ name, pw, detail string }{
		{"ANN_1", "correct horse", "name_taken"},
		{"a", "correct horse", "bad_name"},
		{strings.Repeat("a", 21), "correct horse", "bad_name"},
		{"ann bob", "correct horse", "bad_name"},
		{"Ännchen", "correct horse", "bad_name"},
		{"Admin", "correct horse", "bad_name"},
		{"COMPUTER", "correct horse", "bad_name"},
		{"anonymous", "correct horse", "bad_name"},
		{"Bob", "short", "bad_password"},
		{"Bob", strings.Repeat("x", players.MaxPassword+1), "bad_password"},
	} {
		_, err := e.svc.Register(e.ctx, players.SignUp{Name: c.name, Password: c.pw, Kind: players.Token})
		code := errs.Invalid
		if c.detail == "name_taken" {
			code = errs.Conflict
		}
		refused(t, "registering "+c.name, err, code, c.detail)
	}
	// Without a credential: a new player, with one.
	in, err = e.svc.Register(e.ctx, players.SignUp{Name: "bob-2", Password: "hunter2hunter2", Kind: players.Token})
	bob := in.Player
	if err != nil || in.Credential == "" || bob.Name != "bob-2" || e.id(in.Credential) != bob.ID {
		t.Fatalf("a new named player: %+v, %v", in, err)
	}
	refused(t, "naming with an invented credential", second(e.svc.Register(e.ctx, players.SignUp{Name: "Cat", Password: "hunter2hunter2", Credential: players.NewCredential()})), errs.Unauthorized, "")
	if p, err := e.svc.Named(e.ctx, "BOB-2"); err != nil || p.ID != bob.ID {
		t.Errorf("Named(BOB-2) = %+v, %v", p, err)
	}
	refused(t, "an unknown name", second(e.svc.Named(e.ctx, "nobody")), errs.NotFound, "no_player")
	refused(t, "a name that could not be", second(e.svc.Named(e.ctx, "no/body")), errs.NotFound, "no_player")
}

func second[A, B any](_ A, b B) B { return b }

// signUp is a sign-up of a new player with a cookie.
func signUp(name, pw string) players.SignUp {
	return players.SignUp{Name: name, Password: pw, Kind: players.Cookie}
}

// signIn is a sign-in from client with a cookie, without a device token.
func signIn(name, pw, client string) players.SignIn {
	return players.SignIn{Name: name, Password: pw, Client: client, Kind: players.Cookie}
}

// TestLogin: a second device signs in with the name and password and holds
// the player's seats; failed logins are limited per name from an address
// and per address, and an unknown name is checked against a hash as a
// known one is.
func TestLogin(t *testing.T) {
	e, pw := newAccountsEnv(t)
	up, err := e.svc.Register(e.ctx, signUp("Ann", "correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	first, ann := up.Credential, up.Player
	id := e.create(first)
	pw.checked()
	in, err := e.svc.Login(e.ctx, signIn("aNN", "correct horse", "10.0.0.1"))
	if err != nil || in.Credential == first || in.Player.ID != ann.ID || in.Device == "" {
		t.Fatalf("login: %+v, %v", in, err)
	}
	if c := pw.checked(); len(c) != 1 || c[0] != ann.Password {
		t.Errorf("checked %q", c)
	}
	e.play(id, in.Credential, "e4") // the seats are the player's
	listIs(t, e, first, 10, id)
	listIs(t, e, in.Credential, 10, id)

	// A wrong password and an unknown name cost one check each, against a
	// hash (the unknown name's: the dummy, passed as "").
	refused(t, "a wrong password", second(e.svc.Login(e.ctx, signIn("Ann", "wrong horse", "10.0.0.1"))), errs.Unauthorized, "bad_login")
	refused(t, "an unknown name", second(e.svc.Login(e.ctx, signIn("Nobody", "correct horse", "10.0.0.1"))), errs.Unauthorized, "bad_login")
	if c := pw.checked(); len(c) != 2 || c[0] != ann.Password || c[1] != "" {
		t.Errorf("checked %q, want Ann's hash then the dummy", c)
	}
	for range players.MaxFailedLogins - 1 {
		e.svc.Login(e.ctx, signIn("Ann", "wrong", "10.0.0.1"))
	}
	// Five failures for Ann from 10.0.0.1 in the window: the sixth try
	// from there is refused, even with the right password, and costs no
	// check.
	pw.checked()
	_, err = e.svc.Login(e.ctx, signIn("ann", "correct horse", "10.0.0.1"))
	refused(t, "the sixth login for a name from an address", err, errs.TooMany, "too_many_logins")
	if ge := errs.Of(err); ge.RetryAfter <= 0 || ge.RetryAfter > players.LoginWindow || !strings.Contains(ge.Msg, "for this name from this address") {
		t.Errorf("retry after %v: %s", ge.RetryAfter, ge.Msg)
	}
	if c := pw.checked(); len(c) != 0 {
		t.Errorf("a limited login checked %q", c)
	}
	// Per address too, whatever the names: 10.0.0.2 fails for many.
	for i := range players.MaxFailedLoginsPerAddress {
		refused(t, "a failure from 10.0.0.2", second(e.svc.Login(e.ctx, signIn(fmt.Sprint("x", i), "wrong", "10.0.0.2"))), errs.Unauthorized, "bad_login")
	}
	_, err = e.svc.Login(e.ctx, signIn("Ann", "correct horse", "10.0.0.2"))
	refused(t, "a failure too many from an address", err, errs.TooMany, "too_many_logins")
	if !strings.Contains(errs.Of(err).Msg, "from this address") {
		t.Errorf("refused with %q", errs.Of(err).Msg)
	}
}

// TestLoginWindow: failures a window old no longer count.
func TestLoginWindow(t *testing.T) {
	clk := &manualClock{now: epoch}
	pw := newPasswords()
	svc := players.New(store.NewMemory(), players.WithClock(clk.Now), players.WithPasswords(pw))
	ctx := context.Background()
	if _, err := svc.Register(ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	for range players.MaxFailedLogins {
		svc.Login(ctx, signIn("Ann", "wrong", "a"))
		clk.advance(time.Second)
	}
	_, err := svc.Login(ctx, signIn("Ann", "correct horse", "a"))
	if ge := errs.Of(err); err == nil || ge.Code != errs.TooMany || ge.RetryAfter != players.LoginWindow-5*time.Second {
		t.Fatalf("limited: %v (retry after %v)", err, ge.RetryAfter)
	}
	clk.advance(players.LoginWindow - 5*time.Second)
	if _, err := svc.Login(ctx, signIn("Ann", "correct horse", "a")); err != nil {
		t.Errorf("a window after the first failure: %v", err)
	}
}

// TestLoginSuccessIsNoFailure: each attempt counts while its password is
// checked, and one with the right password is forgotten: signing in often
// never reaches the limit, and failures still do.
func TestLoginSuccessIsNoFailure(t *testing.T) {
	svc := players.New(store.NewMemory(), players.WithClock(func() time.Time { return epoch }), players.WithPasswords(newPasswords()))
	ctx := context.Background()
	if _, err := svc.Register(ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	for range players.MaxFailedLogins - 1 {
		svc.Login(ctx, signIn("Ann", "wrong", "a"))
	}
	for i := range 2 * players.MaxFailedLogins {
		if _, err := svc.Login(ctx, signIn("Ann", "correct horse", "a")); err != nil {
			t.Fatalf("sign-in %d with the right password: %v", i+1, err)
		}
	}
	refused(t, "the fifth failure", second(svc.Login(ctx, signIn("Ann", "wrong", "a"))), errs.Unauthorized, "bad_login")
	refused(t, "after five failures", second(svc.Login(ctx, signIn("Ann", "correct horse", "a"))), errs.TooMany, "too_many_logins")
}

// TestLoginLockoutIsPerAddress (issue 45, item 6): five wrong passwords
// for a name from one address do not lock the name's owner out at
// another: the right password from there signs in.
func TestLoginLockoutIsPerAddress(t *testing.T) {
	e, _ := newAccountsEnv(t)
	if _, err := e.svc.Register(e.ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	for i := range players.MaxFailedLogins {
		refused(t, fmt.Sprint("guess ", i+1, " from A"), second(e.svc.Login(e.ctx, signIn("Ann", "guess", "192.0.2.66"))), errs.Unauthorized, "bad_login")
	}
	refused(t, "the right password from A", second(e.svc.Login(e.ctx, signIn("Ann", "correct horse", "192.0.2.66"))), errs.TooMany, "too_many_logins")
	if _, err := e.svc.Login(e.ctx, signIn("Ann", "correct horse", "198.51.100.7")); err != nil {
		t.Errorf("the right password from B, after five wrong ones from A: %v", err)
	}
}

// TestLoginNameCeiling (issue 45, item 6): guesses for a name spread over
// many addresses, each under its own limit, stop at the name's ceiling:
// then the name is refused from every address without a device token,
// the right password too, unchecked.
func TestLoginNameCeiling(t *testing.T) {
	e, pw := newAccountsEnv(t)
	if _, err := e.svc.Register(e.ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	for i := range players.MaxFailedLoginsPerName {
		addr := fmt.Sprintf("203.0.113.%d", i/2) // two guesses an address: under its limits
		refused(t, fmt.Sprint("guess ", i+1), second(e.svc.Login(e.ctx, signIn("Ann", fmt.Sprint("guess ", i), addr))), errs.Unauthorized, "bad_login")
	}
	pw.checked()
	for _, addr := range []string{"198.51.100.7", "2001:db8::/64"} {
		_, err := e.svc.Login(e.ctx, signIn("ANN", "correct horse", addr))
		refused(t, "the right password from "+addr, err, errs.TooMany, "too_many_logins")
		if !strings.Contains(errs.Of(err).Msg, "for this name") {
			t.Errorf("refused with %q", errs.Of(err).Msg)
		}
	}
	if c := pw.checked(); len(c) != 0 {
		t.Errorf("%d passwords checked over the name's ceiling", len(c))
	}
	// Another name is not limited.
	if _, err := e.svc.Register(e.ctx, signUp("Bob", "battery staple")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Login(e.ctx, signIn("Bob", "battery staple", "198.51.100.7")); err != nil {
		t.Errorf("another name: %v", err)
	}
}

// TestLoginTrustedDevice (issue 45, item 6): a device that signed in as a
// name before (its device token) signs in while the name is locked for
// everyone else; its attempts are limited for that device alone; a
// forged token, another name's or another server's, helps nothing.
func TestLoginTrustedDevice(t *testing.T) {
	e, _ := newAccountsEnv(t)
	for _, name := range []string{"Ann", "Bob"} {
		if _, err := e.svc.Register(e.ctx, signUp(name, "correct horse")); err != nil {
			t.Fatal(err)
		}
	}
	device := func(svc *players.Service, name string) string {
		t.Helper()
		in, err := svc.Login(e.ctx, signIn(name, "correct horse", "192.0.2.1"))
		if err != nil || in.Device == "" {
			t.Fatalf("signing in as %s: %+v, %v", name, in, err)
		}
		return in.Device
	}
	phone, laptop, bobs := device(e.svc, "Ann"), device(e.svc, "Ann"), device(e.svc, "Bob")
	m := store.NewMemory()
	elsewhere := players.New(m, players.WithPasswords(newPasswords()))
	if _, err := elsewhere.Register(e.ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	foreign := device(elsewhere, "Ann")

	// Others lock the name: its ceiling, from many addresses.
	for i := range players.MaxFailedLoginsPerName {
		e.svc.Login(e.ctx, signIn("Ann", "guess", fmt.Sprintf("203.0.113.%d", i/2)))
	}
	withDevice := func(token, pw, addr string) players.SignIn {
		in := signIn("ann", pw, addr)
		in.Device = token
		return in
	}
	refused(t, "without a device token", second(e.svc.Login(e.ctx, signIn("Ann", "correct horse", "192.0.2.1"))), errs.TooMany, "too_many_logins")
	// The devices sign in, from an address that guessed too.
	for _, token := range []string{phone, laptop} {
		in, err := e.svc.Login(e.ctx, withDevice(token, "correct horse", "203.0.113.0"))
		if err != nil || in.Player.Name != "Ann" || in.Device == "" || in.Device == token {
			t.Errorf("a device that signed in before: %+v, %v", in, err)
		}
	}
	// Forged tokens are no device's.
	parts := strings.Split(phone, ".")
	for _, f := range []struct{ what, token string }{
		{"its MAC changed", strings.Join(append(parts[:3:3], strings.Repeat("A", len(parts[3]))), ".")},
		{"its nonce changed", strings.Join([]string{parts[0], parts[1], parts[2] + "x", parts[3]}, ".")},
		{"another name's", bobs},
		{"another name's, renamed", strings.Replace(bobs, ".bob.", ".ann.", 1)},
		{"another server's", foreign},
		{"not a token", "v1.ann.nonce"},
	} {
		refused(t, "a device token "+f.what, second(e.svc.Login(e.ctx, withDevice(f.token, "correct horse", "192.0.2.1"))), errs.TooMany, "too_many_logins")
	}
	// A device's failures count for it alone: the phone, guessed on,
	// is locked; the laptop is not.
	for range players.MaxFailedLogins {
		refused(t, "a wrong password from the phone", second(e.svc.Login(e.ctx, withDevice(phone, "guess", "192.0.2.1"))), errs.Unauthorized, "bad_login")
	}
	_, err := e.svc.Login(e.ctx, withDevice(phone, "correct horse", "192.0.2.1"))
	refused(t, "the phone after five failures", err, errs.TooMany, "too_many_logins")
	if !strings.Contains(errs.Of(err).Msg, "from this device") {
		t.Errorf("refused with %q", errs.Of(err).Msg)
	}
	if _, err := e.svc.Login(e.ctx, withDevice(laptop, "correct horse", "192.0.2.1")); err != nil {
		t.Errorf("the laptop, after the phone was locked: %v", err)
	}
}

// TestSignOut: signing out ends one credential; signing out everywhere
// ends every one; another instance on the same store learns of it by the
// notice.
func TestSignOut(t *testing.T) {
	pw := newPasswords()
	m := store.NewMemory()
	a, b := players.New(m, players.WithPasswords(pw)), players.New(m, players.WithPasswords(pw))
	ctx := context.Background()
	up, err := a.Register(ctx, signUp("Ann", "correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	phone, ann := up.Credential, up.Player
	in, _ := a.Login(ctx, signIn("Ann", "correct horse", "x"))
	laptop := in.Credential
	in, _ = b.Login(ctx, players.SignIn{Name: "Ann", Password: "correct horse", Client: "x", Kind: players.Token})
	bot := in.Credential
	is := func(svc *players.Service, cred players.Credential, want string) {
		t.Helper()
		if p, err := svc.Identify(ctx, cred); err != nil || p.ID != want {
			t.Errorf("Identify: %q, %v; want %q", p.ID, err, want)
		}
	}
	for _, c := range []players.Credential{phone, laptop, bot} {
		is(a, c, ann.ID)
		is(b, c, ann.ID) // now cached on b too
	}
	if err := a.SignOut(ctx, phone); err != nil {
		t.Fatal(err)
	}
	is(a, phone, "")
	is(a, laptop, ann.ID)
	is(b, phone, ann.ID) // b has not heard yet
	b.Notice(players.NoticeRevoked(phone.Hash()))
	is(b, phone, "")
	if err := b.SignOutEverywhere(ctx, bot); err != nil {
		t.Fatal(err)
	}
	is(b, laptop, "")
	is(b, bot, "")
	is(a, laptop, ann.ID)
	a.Notice("") // lost touch: forgets every credential
	is(a, laptop, "")
	if _, err := games.New(m, a).Create(ctx, laptop, rules.New(rules.BanChess{})); errs.Of(err).Code != errs.Unauthorized {
		t.Errorf("creating with a revoked credential: %v", err)
	}
	// Signed in again, the player has their name and their games.
	again, err := a.Login(ctx, signIn("ann", "correct horse", "x"))
	if err != nil || again.Player.ID != ann.ID {
		t.Fatalf("signing in again: %+v, %v", again, err)
	}
	is(a, again.Credential, ann.ID)
	if err := a.SignOut(ctx, players.NewCredential()); err != nil {
		t.Errorf("signing out an unknown credential: %v", err)
	}
}

// TestSignupsPerAddress (issue 45, item 7): an address signs up at most
// the limit's players in an hour; the next sign-up is refused (TooMany,
// too_many_signups, with the time to wait) before its password is hashed.
// Sign-ups that name no one do not count; other addresses are not
// limited; an hour later the address signs up again.
func TestSignupsPerAddress(t *testing.T) {
	const limit = 5
	clk := &manualClock{now: epoch}
	pw := newPasswords()
	svc := players.New(store.NewMemory(), players.WithClock(clk.Now), players.WithPasswords(pw), players.WithSignupsPerHour(limit))
	ctx := context.Background()
	from := func(client, name string) players.SignUp {
		up := signUp(name, "correct horse")
		up.Client = client
		return up
	}
	if _, err := svc.Register(ctx, from("192.0.2.9", "Taken")); err != nil {
		t.Fatal(err)
	}
	for i := range limit {
		// A taken name, a short password, a failure to hash between:
		// they count for nothing.
		refused(t, "a taken name", second(svc.Register(ctx, from("192.0.2.1", "taken"))), errs.Conflict, "name_taken")
		up := from("192.0.2.1", "Shorty")
		up.Password = "short"
		refused(t, "a short password", second(svc.Register(ctx, up)), errs.Invalid, "bad_password")
		up.Password = unhashable
		refused(t, "a password not hashed", second(svc.Register(ctx, up)), errs.Internal, "")
		if i == 0 { // an anonymous player named counts as a sign-up
			anon, _, err := svc.NewPlayer(ctx, players.Cookie)
			if err != nil {
				t.Fatal(err)
			}
			up := from("192.0.2.1", "Anon")
			up.Credential = anon
			if _, err := svc.Register(ctx, up); err != nil {
				t.Fatalf("naming an anonymous player: %v", err)
			}
			continue
		}
		clk.advance(time.Minute)
		if _, err := svc.Register(ctx, from("192.0.2.1", fmt.Sprint("Player", i))); err != nil {
			t.Fatalf("sign-up %d: %v", i+1, err)
		}
	}
	hashed := pw.hashed()
	_, err := svc.Register(ctx, from("192.0.2.1", "OneTooMany"))
	refused(t, "a sign-up over the limit", err, errs.TooMany, "too_many_signups")
	if e := errs.Of(err); e.RetryAfter != players.SignupWindow-(limit-1)*time.Minute || !strings.Contains(e.Msg, "signed up 5 players in the last hour") {
		t.Errorf("refused with %q, retry after %v", e.Msg, e.RetryAfter)
	}
	if n := pw.hashed(); n != hashed {
		t.Errorf("a sign-up over the limit hashed %d passwords", n-hashed)
	}
	if _, err := svc.Register(ctx, from("198.51.100.1", "OneTooMany")); err != nil {
		t.Errorf("another address: %v", err)
	}
	clk.advance(players.SignupWindow - (limit-1)*time.Minute)
	if _, err := svc.Register(ctx, from("192.0.2.1", "AnHourLater")); err != nil {
		t.Errorf("an hour after the first sign-up: %v", err)
	}
	// Without the option, sign-ups are not limited.
	free := players.New(store.NewMemory(), players.WithPasswords(pw))
	for i := range 2 * limit {
		if _, err := free.Register(ctx, from("192.0.2.1", fmt.Sprint("Free", i))); err != nil {
			t.Fatalf("unlimited sign-up %d: %v", i+1, err)
		}
	}
}

// TestTakenNameNotHashed (issue 45, item 7): a name taken in any case is
// refused before the password is hashed.
func TestTakenNameNotHashed(t *testing.T) {
	e, pw := newAccountsEnv(t)
	if _, err := e.svc.Register(e.ctx, signUp("Ann", "correct horse")); err != nil {
		t.Fatal(err)
	}
	anon := e.cred()
	hashed := pw.hashed()
	for _, up := range []players.SignUp{signUp("ANN", "correct horse"), {Name: "ann", Password: "correct horse", Credential: anon}} {
		refused(t, "the name taken", second(e.svc.Register(e.ctx, up)), errs.Conflict, "name_taken")
	}
	if n := pw.hashed(); n != hashed {
		t.Errorf("refusing a taken name hashed %d passwords", n-hashed)
	}
}

// TestSignUpRevokesTheCredential (issue 45, item 8): signing up gives the
// player a new credential and revokes the one it signed up with, even on
// the server that had it cached: a credential planted or seen before the
// sign-up holds nothing after it. The player keeps its games. Signing in
// revokes the credential the browser held too.
func TestSignUpRevokesTheCredential(t *testing.T) {
	e, _ := newAccountsEnv(t)
	anon := e.cred()
	game := e.create(anon)
	player := e.id(anon) // now cached
	in, err := e.svc.Register(e.ctx, players.SignUp{Name: "Ann", Password: "correct horse", Credential: anon, Kind: players.Cookie})
	if err != nil {
		t.Fatal(err)
	}
	if in.Credential == anon || e.id(in.Credential) != player {
		t.Fatalf("signed up: credential %q (before: %q), player %q", in.Credential, anon, e.id(in.Credential))
	}
	if id := e.id(anon); id != "" {
		t.Errorf("the credential signed up with still holds player %q", id)
	}
	if err := e.games.Play(e.ctx, game, anon, games.Input{Text: "e4"}, nil); err == nil || errs.Of(err).Code != errs.Forbidden {
		t.Errorf("playing with the credential signed up with: %v", err)
	}
	listIs(t, e, in.Credential, 10, game)
	e.play(game, in.Credential, "e4")

	// Signing in from a browser that holds a credential: it is revoked.
	held := e.cred()
	si := signIn("Ann", "correct horse", "x")
	si.Replaces = held
	out, err := e.svc.Login(e.ctx, si)
	if err != nil || e.id(out.Credential) != player {
		t.Fatalf("signing in: %+v, %v", out, err)
	}
	if id := e.id(held); id != "" {
		t.Errorf("the credential held before signing in still holds player %q", id)
	}
	if e.id(in.Credential) != player {
		t.Error("signing in elsewhere revoked the player's other credential")
	}
}

// TestReservedNames (issue 45, item 9): names that claim to speak for the
// site or to hold a power, the pages' own words, names that read as them
// (in any case, with look-alike letters, with _ or - between) and names
// of punctuation alone are refused; names that only contain one are not.
func TestReservedNames(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"administrator", false}, {"Admin", false}, {"ADM1N", false}, {"root", false}, {"r00t", false},
		{"system", false}, {"SYSTEM", false}, {"moderator", false}, {"M0DERAT0R", false}, {"mod", false},
		{"banchess", false}, {"BanChess", false}, {"ban_chess", false}, {"Ban-Chess", false},
		{"anonymous", false}, {"computer", false}, {"support", false}, {"staff", false}, {"nu11", false},
		{"--", false}, {"__", false}, {"-_-", false}, {"_-_-_-", false},
		{"Rooted", true}, {"Adminton", true}, {"Mod_Squad", true}, {"_Ann_", true}, {"a-1", true}, {"42", true},
	} {
		err := players.CheckName(c.name)
		switch {
		case c.ok && err != nil:
			t.Errorf("%q refused: %v", c.name, err)
		case !c.ok:
			refused(t, c.name, err, errs.Invalid, "bad_name")
		}
	}
	if err := players.CheckName("Ban-Chess"); err == nil || !strings.Contains(err.Error(), `reads as "banchess"`) {
		t.Errorf("refused with %v, want the reserved name it reads as", err)
	}
}

// TestLookAlikeNames (issue 45, item 9): a name whose skeleton (I, l, 1
// and |; O and 0; rn and m; vv and w; case) is another player's is
// refused, before the password is hashed, with a message naming that
// player; the same name in another case is taken, as before.
func TestLookAlikeNames(t *testing.T) {
	for _, c := range []struct {
		had, wants, detail string
	}{
		{"Carlsen", "CarIsen", "name_look_alike"},
		{"Carlsen", "Car1sen", "name_look_alike"},
		{"CarIsen", "carlsen", "name_look_alike"},
		{"Carlsen", "CARLSEN", "name_taken"},
		{"Bob", "B0b", "name_look_alike"},
		{"Karnov", "Kamov", "name_look_alike"},
		{"Wendy", "VVendy", "name_look_alike"},
		{"Kill", "KIlI", "name_look_alike"},
		{"Carlsen", "Carlson", ""},
		{"Bob", "Bobby", ""},
	} {
		t.Run(c.had+" then "+c.wants, func(t *testing.T) {
			e, pw := newAccountsEnv(t)
			if _, err := e.svc.Register(e.ctx, signUp(c.had, "correct horse")); err != nil {
				t.Fatal(err)
			}
			hashed := pw.hashed()
			_, err := e.svc.Register(e.ctx, signUp(c.wants, "correct horse"))
			if c.detail == "" {
				if err != nil {
					t.Errorf("%s refused: %v", c.wants, err)
				}
				return
			}
			refused(t, c.wants, err, errs.Conflict, c.detail)
			if err == nil {
				return
			}
			if msg := errs.Of(err).Msg; c.detail == "name_look_alike" && (!strings.Contains(msg, "looks too much like "+c.had) || !strings.Contains(msg, c.wants)) {
				t.Errorf("refused with %q, want it to say whose name %s looks like", msg, c.wants)
			}
			if n := pw.hashed(); n != hashed {
				t.Errorf("the refusal hashed %d passwords", n-hashed)
			}
			// Naming an anonymous player is refused alike.
			refused(t, c.wants+", naming an anonymous player", second(e.svc.Register(e.ctx, players.SignUp{Name: c.wants, Password: "correct horse", Credential: e.cred()})), errs.Conflict, c.detail)
		})
	}
}

// TestSkeleton: the form look-alike names share.
func TestSkeleton(t *testing.T) {
	for name, want := range map[string]string{
		"CarIsen": "carlsen", "Carlsen": "carlsen", "Car1sen": "carlsen", "carisen": "carlsen",
		"B0b": "bob", "Karnov": "kamov", "VVendy": "wendy", "vvvv": "ww", "rnrn": "mm", "A-1_b": "a-l_b",
	} {
		if got := players.Skeleton(name); got != want {
			t.Errorf("Skeleton(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestDeafCacheTrustsNothing: while an instance's listener does not hear
// the others' notices (players.NoticeDeaf, until ""), its cache of
// credentials holds nothing, so a credential revoked on another instance
// meanwhile is refused at once; once it hears again it caches again.
func TestDeafCacheTrustsNothing(t *testing.T) {
	pw := newPasswords()
	m := store.NewMemory()
	a, b := players.New(m, players.WithPasswords(pw)), players.New(m, players.WithPasswords(pw))
	ctx := context.Background()
	up, err := a.Register(ctx, signUp("Ann", "correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := a.Login(ctx, signIn("Ann", "correct horse", "x"))
	if err != nil {
		t.Fatal(err)
	}
	phone, laptop, ann := up.Credential, in.Credential, up.Player
	is := func(svc *players.Service, cred players.Credential, want string) {
		t.Helper()
		if p, err := svc.Identify(ctx, cred); err != nil || p.ID != want {
			t.Errorf("Identify: %q, %v; want %q", p.ID, err, want)
		}
	}
	is(b, phone, ann.ID) // cached on b
	b.Notice(players.NoticeDeaf)
	if err := a.SignOut(ctx, phone); err != nil { // b hears nothing of it
		t.Fatal(err)
	}
	is(b, phone, "")
	is(b, laptop, ann.ID) // looked up, not cached
	b.Notice("")          // hearing again
	is(b, laptop, ann.ID) // cached now
	if err := a.SignOut(ctx, laptop); err != nil {
		t.Fatal(err)
	}
	is(b, laptop, ann.ID) // cached, until its notice arrives
	b.Notice(players.NoticeRevoked(laptop.Hash()))
	is(b, laptop, "")
}
