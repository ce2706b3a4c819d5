package players_test

import (
	"context"
	"errors"
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
// password.Default's) and records what it is asked to check.
type passwords struct {
	h      *password.Hasher
	mu     sync.Mutex
	checks []string // the hashes checked against
}

func newPasswords() *passwords {
	return &passwords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)}
}

func (p *passwords) Hash(ctx context.Context, pw string) (string, error) { return p.h.Hash(ctx, pw) }

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
	cred, p, err := e.svc.Register(e.ctx, anon, players.Cookie, "Ann_1", "correct horse")
	if err != nil || cred != anon || p.Name != "Ann_1" || p.ID != e.id(anon) {
		t.Fatalf("naming an anonymous player: %q, %+v, %v", cred, p, err)
	}
	if strings.Contains(p.Password, "correct horse") || !strings.HasPrefix(p.Password, "$argon2id$") {
		t.Errorf("the password is kept as %q", p.Password)
	}
	// The player keeps their seats.
	e.play(id, anon, "e4")
	refused(t, "naming again", third(e.svc.Register(e.ctx, anon, players.Cookie, "Ann_2", "correct horse")), errs.Conflict, "named")
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
		_, _, err := e.svc.Register(e.ctx, "", players.Token, c.name, c.pw)
		code := errs.Invalid
		if c.detail == "name_taken" {
			code = errs.Conflict
		}
		refused(t, "registering "+c.name, err, code, c.detail)
	}
	// Without a credential: a new player, with one.
	tok, bob, err := e.svc.Register(e.ctx, "", players.Token, "bob-2", "hunter2hunter2")
	if err != nil || tok == "" || bob.Name != "bob-2" || e.id(tok) != bob.ID {
		t.Fatalf("a new named player: %q, %+v, %v", tok, bob, err)
	}
	refused(t, "naming with an invented credential", third(e.svc.Register(e.ctx, players.NewCredential(), players.Cookie, "Cat", "hunter2hunter2")), errs.Unauthorized, "")
	if p, err := e.svc.Named(e.ctx, "BOB-2"); err != nil || p.ID != bob.ID {
		t.Errorf("Named(BOB-2) = %+v, %v", p, err)
	}
	refused(t, "an unknown name", second(e.svc.Named(e.ctx, "nobody")), errs.NotFound, "no_player")
	refused(t, "a name that could not be", second(e.svc.Named(e.ctx, "no/body")), errs.NotFound, "no_player")
}

func second[A, B any](_ A, b B) B        { return b }
func third[A, B, C any](_ A, _ B, c C) C { return c }

// TestLogin: a second device signs in with the name and password and holds
// the player's seats; failed logins are limited per name and per address,
// and an unknown name is checked against a hash as a known one is.
func TestLogin(t *testing.T) {
	e, pw := newAccountsEnv(t)
	first, ann, err := e.svc.Register(e.ctx, "", players.Cookie, "Ann", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	id := e.create(first)
	pw.checked()
	second, p, err := e.svc.Login(e.ctx, "aNN", "correct horse", "10.0.0.1", players.Cookie)
	if err != nil || second == first || p.ID != ann.ID {
		t.Fatalf("login: %q, %+v, %v", second, p, err)
	}
	if c := pw.checked(); len(c) != 1 || c[0] != ann.Password {
		t.Errorf("checked %q", c)
	}
	e.play(id, second, "e4") // the seats are the player's
	listIs(t, e, first, 10, id)
	listIs(t, e, second, 10, id)

	// A wrong password and an unknown name cost one check each, against a
	// hash (the unknown name's: the dummy, passed as "").
	refused(t, "a wrong password", third(e.svc.Login(e.ctx, "Ann", "wrong horse", "10.0.0.1", players.Cookie)), errs.Unauthorized, "bad_login")
	refused(t, "an unknown name", third(e.svc.Login(e.ctx, "Nobody", "correct horse", "10.0.0.1", players.Cookie)), errs.Unauthorized, "bad_login")
	if c := pw.checked(); len(c) != 2 || c[0] != ann.Password || c[1] != "" {
		t.Errorf("checked %q, want Ann's hash then the dummy", c)
	}
	for range 4 {
		e.svc.Login(e.ctx, "Ann", "wrong", "10.0.0.2", players.Cookie)
	}
	// Five failures for Ann in the minute: the sixth try is refused, even
	// with the right password, and costs no check.
	pw.checked()
	_, _, err = e.svc.Login(e.ctx, "ann", "correct horse", "10.0.0.3", players.Cookie)
	refused(t, "the sixth login for a name", err, errs.TooMany, "too_many_logins")
	if ge := errs.Of(err); ge.RetryAfter <= 0 || ge.RetryAfter > players.LoginWindow {
		t.Errorf("retry after %v", ge.RetryAfter)
	}
	if c := pw.checked(); len(c) != 0 {
		t.Errorf("a limited login checked %q", c)
	}
	// Per address too: 10.0.0.2 failed four times, and once more.
	e.svc.Login(e.ctx, "x1", "wrong", "10.0.0.2", players.Cookie)
	refused(t, "the sixth failure from an address", third(e.svc.Login(e.ctx, "x3", "whatever", "10.0.0.2", players.Cookie)), errs.TooMany, "too_many_logins")
}

// TestLoginWindow: failures a minute old no longer count.
func TestLoginWindow(t *testing.T) {
	clk := &manualClock{now: epoch}
	pw := newPasswords()
	svc := players.New(store.NewMemory(), players.WithClock(clk.Now), players.WithPasswords(pw))
	ctx := context.Background()
	if _, _, err := svc.Register(ctx, "", players.Cookie, "Ann", "correct horse"); err != nil {
		t.Fatal(err)
	}
	for range players.MaxFailedLogins {
		svc.Login(ctx, "Ann", "wrong", "a", players.Cookie)
		clk.advance(time.Second)
	}
	_, _, err := svc.Login(ctx, "Ann", "correct horse", "b", players.Cookie)
	if ge := errs.Of(err); err == nil || ge.Code != errs.TooMany || ge.RetryAfter != 55*time.Second {
		t.Fatalf("limited: %v (retry after %v)", err, ge.RetryAfter)
	}
	clk.advance(55 * time.Second)
	if _, _, err := svc.Login(ctx, "Ann", "correct horse", "b", players.Cookie); err != nil {
		t.Errorf("a minute after the first failure: %v", err)
	}
}

// TestLoginSuccessIsNoFailure: each attempt counts while its password is
// checked, and one with the right password is forgotten: signing in often
// never reaches the limit, and failures still do.
func TestLoginSuccessIsNoFailure(t *testing.T) {
	svc := players.New(store.NewMemory(), players.WithClock(func() time.Time { return epoch }), players.WithPasswords(newPasswords()))
	ctx := context.Background()
	if _, _, err := svc.Register(ctx, "", players.Cookie, "Ann", "correct horse"); err != nil {
		t.Fatal(err)
	}
	for range players.MaxFailedLogins - 1 {
		svc.Login(ctx, "Ann", "wrong", "a", players.Cookie)
	}
	for i := range 2 * players.MaxFailedLogins {
		if _, _, err := svc.Login(ctx, "Ann", "correct horse", "a", players.Cookie); err != nil {
			t.Fatalf("sign-in %d with the right password: %v", i+1, err)
		}
	}
	refused(t, "the fifth failure", third(svc.Login(ctx, "Ann", "wrong", "a", players.Cookie)), errs.Unauthorized, "bad_login")
	refused(t, "after five failures", third(svc.Login(ctx, "Ann", "correct horse", "a", players.Cookie)), errs.TooMany, "too_many_logins")
}

// TestSignOut: signing out ends one credential; signing out everywhere
// ends every one; another instance on the same store learns of it by the
// notice.
func TestSignOut(t *testing.T) {
	pw := newPasswords()
	m := store.NewMemory()
	a, b := players.New(m, players.WithPasswords(pw)), players.New(m, players.WithPasswords(pw))
	ctx := context.Background()
	phone, ann, err := a.Register(ctx, "", players.Cookie, "Ann", "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	laptop, _, _ := a.Login(ctx, "Ann", "correct horse", "x", players.Cookie)
	bot, _, _ := b.Login(ctx, "Ann", "correct horse", "x", players.Token)
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
	again, p, err := a.Login(ctx, "ann", "correct horse", "x", players.Cookie)
	if err != nil || p.ID != ann.ID {
		t.Fatalf("signing in again: %+v, %v", p, err)
	}
	is(a, again, ann.ID)
	if err := a.SignOut(ctx, players.NewCredential()); err != nil {
		t.Errorf("signing out an unknown credential: %v", err)
	}
}
