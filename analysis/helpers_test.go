package analysis_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

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

// env is the services on a fresh in-memory store.
type env struct {
	t     *testing.T
	ctx   context.Context
	svc   testsite.Site
	store *store.Memory
}

func newEnv(t *testing.T, c testsite.Config) *env {
	t.Helper()
	m := store.NewMemory()
	return &env{t: t, ctx: context.Background(), svc: testsite.New(m, c), store: m}
}

// issue gives a new anonymous player of svc a credential.
func issue(t testing.TB, svc testsite.Site) players.Credential {
	t.Helper()
	cred, _, err := svc.Players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// cred gives a new anonymous player a credential.
func (e *env) cred() players.Credential { return issue(e.t, e.svc) }

// create starts a new Ban Chess game whose seats cred holds.
func (e *env) create(cred players.Credential) string {
	e.t.Helper()
	return e.createGame(cred, rules.New(rules.BanChess{}))
}

func (e *env) createGame(cred players.Credential, g *rules.Game) string {
	e.t.Helper()
	id, err := e.svc.Games.Create(e.ctx, cred, g)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *env) play(id string, cred players.Credential, texts ...string) {
	e.t.Helper()
	for _, text := range texts {
		if err := e.svc.Games.Play(e.ctx, id, cred, games.Input{Text: text}, nil); err != nil {
			e.t.Fatalf("play %s: %v", text, err)
		}
	}
}

// botGame creates a game of g against the computer at level, the human at
// side, and returns a view of it.
func (e *env) botGame(ctx context.Context, g *rules.Game, side rules.Color, level int) *botGame {
	e.t.Helper()
	cred := e.cred()
	id, _, err := e.svc.Games.CreateBot(ctx, cred, g, games.BotSettings{Color: side, Level: level})
	if err != nil {
		e.t.Fatal(err)
	}
	w, _ := e.svc.Games.Watch(e.ctx, id, cred)
	e.t.Cleanup(w.Close)
	return &botGame{env: e, cred: cred, id: id, watch: w}
}

// botGame is a game against the computer.
type botGame struct {
	*env
	cred  players.Credential
	id    string
	watch *games.Watch
}

// waitPly waits until the game is at ply n.
func (b *botGame) waitPly(n int) {
	b.t.Helper()
	deadline := time.After(5 * time.Second)
	for b.ply() != n {
		select {
		case <-b.watch.C():
		case <-deadline:
			b.t.Fatalf("game at ply %d, want %d", b.ply(), n)
		}
	}
}

func (b *botGame) ply() int {
	var ply int
	if err := b.svc.Games.View(b.ctx, b.id, b.cred, func(rec *games.Record, _ games.Seats) { ply = rec.Game.Ply() }); err != nil {
		b.t.Fatal(err)
	}
	return ply
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

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
