package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
)

// countedPasswords hashes with cheap parameters and counts the passwords
// hashed and checked; each takes a while, as argon2id's does, so that
// requests sent together are hashed together unless something stops them.
type countedPasswords struct {
	h      *password.Hasher
	hashes atomic.Int64
	checks atomic.Int64
}

func (p *countedPasswords) Hash(ctx context.Context, pw string) (string, error) {
	p.hashes.Add(1)
	time.Sleep(20 * time.Millisecond)
	return p.h.Hash(ctx, pw)
}

func (p *countedPasswords) Check(ctx context.Context, encoded, pw string) (bool, error) {
	p.checks.Add(1)
	time.Sleep(20 * time.Millisecond)
	return p.h.Check(ctx, encoded, pw)
}

// TestLoginLimitUnderConcurrency: 40 wrong passwords for one name from
// one address, sent at once, get at most MaxFailedLogins passwords
// checked, and the right password sent after them is refused for the
// rate while the window lasts. On PostgreSQL the guesses go to two
// servers sharing the database.
func TestLoginLimitUnderConcurrency(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) []fullStore
	}{
		{"memory", func(*testing.T) []fullStore { return []fullStore{NewMemory()} }},
		{"sqlite", func(t *testing.T) []fullStore {
			return []fullStore{openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{})}
		}},
		{"postgres, two servers", func(t *testing.T) []fullStore {
			url := pg.Server(t).Schema(t)
			return []fullStore{openPostgres(t, PostgresOptions{}, url), openPostgres(t, PostgresOptions{}, url)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			pw := &countedPasswords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 40)}
			now := func() time.Time { return epoch } // the window lasts throughout
			var servers []*players.Service
			for _, st := range tc.open(t) {
				servers = append(servers, players.New(st, players.WithClock(now), players.WithPasswords(pw)))
			}
			if _, err := servers[0].Register(ctx, players.SignUp{Name: "Ann", Password: "correct horse", Kind: players.Cookie}); err != nil {
				t.Fatal(err)
			}
			const guesses = 40
			start := make(chan struct{})
			var wg sync.WaitGroup
			refusals := make([]*errs.Error, guesses)
			for i := range guesses {
				wg.Go(func() {
					<-start
					_, err := servers[i%len(servers)].Login(ctx, players.SignIn{Name: "ann", Password: "wrong horse", Client: "10.0.0.1", Kind: players.Cookie})
					refusals[i] = errs.Of(err)
				})
			}
			close(start)
			wg.Wait()
			bad, limited := 0, 0
			for i, e := range refusals {
				switch e.Detail {
				case errs.BadLogin:
					bad++
				case errs.TooManyLogins:
					limited++
				default:
					t.Errorf("guess %d: %v", i, e)
				}
			}
			if n := pw.checks.Load(); n > players.MaxFailedLogins || int(n) != bad || bad+limited != guesses {
				t.Errorf("%d passwords checked of %d guesses sent at once (%d wrong, %d limited), want at most %d", n, guesses, bad, limited, players.MaxFailedLogins)
			}
			checked := pw.checks.Load()
			for _, svc := range servers {
				_, err := svc.Login(ctx, players.SignIn{Name: "Ann", Password: "correct horse", Client: "10.0.0.1", Kind: players.Cookie})
				if e := errs.Of(err); err == nil || e.Detail != errs.TooManyLogins || e.RetryAfter <= 0 {
					t.Errorf("the right password after the guesses: %v, want too_many_logins", err)
				}
			}
			if n := pw.checks.Load(); n != checked {
				t.Errorf("the right password, refused for the rate, was checked too (%d checks, then %d)", checked, n)
			}
		})
	}
}

// TestLoginLimitsAcrossServers (issue 45, item 6): the sign-in limits and
// device tokens hold for servers sharing a store: five wrong passwords
// from one address, sent to either server, lock the name at that address
// on both and nowhere else; the name's ceiling, reached through both,
// holds on both; a device token one server issued lets the device sign
// in through the other while the name is locked.
func TestLoginLimitsAcrossServers(t *testing.T) {
	for _, tc := range twoServers() {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			pw := &countedPasswords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 4)}
			now := func() time.Time { return epoch }
			var servers []*players.Service
			for _, st := range tc.open(t) {
				servers = append(servers, players.New(st, players.WithClock(now), players.WithPasswords(pw)))
			}
			if _, err := servers[0].Register(ctx, players.SignUp{Name: "Ann", Password: "correct horse", Kind: players.Cookie}); err != nil {
				t.Fatal(err)
			}
			login := func(i int, password, addr, device string) error {
				_, err := servers[i%2].Login(ctx, players.SignIn{Name: "Ann", Password: password, Client: addr, Device: device, Kind: players.Cookie})
				return err
			}
			home, err := servers[0].Login(ctx, players.SignIn{Name: "Ann", Password: "correct horse", Client: "192.0.2.1", Kind: players.Cookie})
			if err != nil {
				t.Fatal(err)
			}
			for i := range players.MaxFailedLogins {
				login(i, "wrong horse", "10.0.0.1", "")
			}
			for i := range servers {
				if err := login(i, "correct horse", "10.0.0.1", ""); errs.Of(err).Detail != errs.TooManyLogins {
					t.Errorf("server %d, from the guessing address: %v, want too_many_logins", i, err)
				}
				if err := login(i, "correct horse", fmt.Sprint("10.0.1.", i), ""); err != nil {
					t.Errorf("server %d, from another address: %v", i, err)
				}
			}
			for i := range players.MaxFailedLoginsPerName {
				login(i, "wrong horse", fmt.Sprint("10.0.2.", i/2), "")
			}
			for i := range servers {
				if err := login(i, "correct horse", "10.0.3.1", ""); errs.Of(err).Detail != errs.TooManyLogins {
					t.Errorf("server %d, over the name's ceiling: %v, want too_many_logins", i, err)
				}
				if err := login(i, "correct horse", "10.0.3.1", home.Device); err != nil {
					t.Errorf("server %d, the device server 0 trusted: %v", i, err)
				}
			}
		})
	}
}

// TestSignupLimitUnderConcurrency (issue 45, item 7): twenty sign-ups
// from one address sent at once, to two servers sharing the store on
// PostgreSQL, name the limit's players and no more, and hash no more
// passwords; another address signs up after them.
func TestSignupLimitUnderConcurrency(t *testing.T) {
	for _, tc := range twoServers() {
		t.Run(tc.name, func(t *testing.T) {
			const limit, sent = 5, 20
			ctx := context.Background()
			pw := &countedPasswords{h: password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 40)}
			now := func() time.Time { return epoch }
			var servers []*players.Service
			for _, st := range tc.open(t) {
				servers = append(servers, players.New(st, players.WithClock(now), players.WithPasswords(pw), players.WithSignupsPerHour(limit)))
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			answers := make([]error, sent)
			for i := range sent {
				wg.Go(func() {
					<-start
					_, answers[i] = servers[i%2].Register(ctx, players.SignUp{Name: fmt.Sprint("Player", i), Password: "correct horse", Client: "10.0.0.1", Kind: players.Cookie})
				})
			}
			close(start)
			wg.Wait()
			named := 0
			for i, err := range answers {
				switch {
				case err == nil:
					named++
				case errs.Of(err).Detail != errs.TooManySignups:
					t.Errorf("sign-up %d: %v", i, err)
				}
			}
			if n := pw.hashes.Load(); named != limit || n != limit {
				t.Errorf("%d sign-ups sent at once named %d players and hashed %d passwords, want %d", sent, named, n, limit)
			}
			for i, svc := range servers {
				if _, err := svc.Register(ctx, players.SignUp{Name: fmt.Sprint("Late", i), Password: "correct horse", Client: "10.0.0.1", Kind: players.Cookie}); errs.Of(err).Detail != errs.TooManySignups {
					t.Errorf("server %d, a sign-up after them: %v, want too_many_signups", i, err)
				}
				if _, err := svc.Register(ctx, players.SignUp{Name: fmt.Sprint("Other", i), Password: "correct horse", Client: "10.0.0.2", Kind: players.Cookie}); err != nil {
					t.Errorf("server %d, another address: %v", i, err)
				}
			}
		})
	}
}

// TestPostgresSignUpRevokesEverywhere (issue 45, item 8): the credential
// an anonymous player signs up with is revoked on every server: one that
// had it cached hears of it and forgets it, and the new credential holds
// the player there.
func TestPostgresSignUpRevokesEverywhere(t *testing.T) {
	url := pg.Server(t).Schema(t)
	a, b := openPostgres(t, PostgresOptions{}, url), openPostgres(t, PostgresOptions{}, url)
	pw := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)
	pa, pb := players.New(a, players.WithPasswords(pw)), players.New(b, players.WithPasswords(pw))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	saves := make(chan string, 100)
	go b.Listen(ctx, func(id string, _ int64) { saves <- id }, pb.Notice)
	// b listens once it hears a save.
	for deadline := time.Now().Add(10 * time.Second); ; {
		id := newGame(t, a)
		select {
		case heard := <-saves:
			if heard != id {
				continue
			}
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("b never heard a save")
			}
			continue
		}
		break
	}
	anon, p, err := pa.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := pb.PlayerID(ctx, anon); err != nil || id != p.ID { // cached on b
		t.Fatalf("b: %q, %v", id, err)
	}
	in, err := pa.Register(ctx, players.SignUp{Name: "Ann", Password: "correct horse", Credential: anon, Kind: players.Cookie})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		id, err := pb.PlayerID(ctx, anon)
		if err != nil {
			t.Fatal(err)
		}
		if id == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b still takes the credential signed up with for the player")
		}
	}
	if id, err := pb.PlayerID(ctx, in.Credential); err != nil || id != p.ID {
		t.Errorf("b, the new credential: %q, %v; want %q", id, err, p.ID)
	}
}
