package games_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// clock is a time that moves on a second each time it is read, so every
// change the service stamps has a time of its own.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

var epoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// service is a games service with the players who hold its seats.
type service struct {
	*games.Service
	players  *players.Service
	analysis *analysis.Service // nil unless a test sets it
}

// newService returns a service on st, whose players st keeps too.
func newService(st interface {
	games.Store
	players.Store
}, opts ...games.Option) service {
	pl := players.New(st)
	return service{Service: games.New(st, pl, opts...), players: pl}
}

// env is a service on a fresh in-memory store.
type env struct {
	t     *testing.T
	ctx   context.Context
	svc   service
	store *store.Memory
}

func newEnv(t *testing.T, opts ...games.Option) *env {
	t.Helper()
	clk := &clock{now: epoch}
	m := store.NewMemory()
	return &env{t: t, ctx: context.Background(), svc: newService(m, append([]games.Option{games.WithClock(clk.Now)}, opts...)...), store: m}
}

// issue gives a new anonymous player of svc a credential.
func issue(t testing.TB, svc service) players.Credential {
	t.Helper()
	cred, _, err := svc.players.NewPlayer(context.Background(), players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// cred gives a new anonymous player a credential.
func (e *env) cred() players.Credential { return issue(e.t, e.svc) }

// id returns the id of cred's player ("" for none).
func (e *env) id(cred players.Credential) string {
	e.t.Helper()
	p, err := e.svc.players.Identify(e.ctx, cred)
	if err != nil {
		e.t.Fatal(err)
	}
	return p.ID
}

// create starts a new Ban Chess game whose seats cred holds.
func (e *env) create(cred players.Credential) string {
	e.t.Helper()
	return e.createGame(cred, rules.New(rules.BanChess{}))
}

func (e *env) createGame(cred players.Credential, g *rules.Game) string {
	e.t.Helper()
	id, err := e.svc.Create(e.ctx, cred, g)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

// insert stores a record straight into the store, as a game with other
// seats than a hot-seat game's (two players, or none).
func (e *env) insert(g *rules.Game, white, black players.Credential) string {
	e.t.Helper()
	rec := &games.Record{Game: g, White: e.id(white), Black: e.id(black), Mode: games.HotSeat, Created: epoch, Updated: epoch}
	if err := e.store.Create(e.ctx, rec); err != nil {
		e.t.Fatal(err)
	}
	return rec.ID
}

// record returns a copy of the record id, its game's state as text.
func (e *env) record(id string) (games.Record, string) {
	e.t.Helper()
	var rec games.Record
	var st string
	if err := e.store.View(e.ctx, id, func(r *games.Record) error { rec, st = *r, state(r.Game); return nil }); err != nil {
		e.t.Fatal(err)
	}
	return rec, st
}

func (e *env) play(id string, cred players.Credential, texts ...string) {
	e.t.Helper()
	for _, text := range texts {
		if err := e.svc.Play(e.ctx, id, cred, games.Input{Text: text}, nil); err != nil {
			e.t.Fatalf("play %s: %v", text, err)
		}
	}
}

// state is what two copies of a game must share.
func state(g *rules.Game) string {
	return g.FEN() + "\n" + g.Outcome().String() + "\n" + strings.Join(g.BCN(), " ")
}

func codeOf(err error) errs.Code {
	if err == nil {
		return ""
	}
	return errs.Of(err).Code
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
	if e.Msg == "" {
		t.Errorf("%s: no message", what)
	}
}

func square(t *testing.T, s string) rules.Square {
	t.Helper()
	sq, err := rules.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestCreate(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	rec, _ := e.record(id)
	if rec.ID != id || rec.White != e.id(cred) || rec.Black != e.id(cred) || rec.Mode != games.HotSeat {
		t.Errorf("created %+v", rec)
	}
	if rec.Created.IsZero() || !rec.Updated.Equal(rec.Created) {
		t.Errorf("created at %v, updated at %v", rec.Created, rec.Updated)
	}
	var seats games.Seats
	if err := e.svc.View(e.ctx, id, cred, func(_ *games.Record, s games.Seats) { seats = s }); err != nil || !seats.Both() {
		t.Errorf("the creator's seats: %+v (%v)", seats, err)
	}
	if err := e.svc.View(e.ctx, id, players.NewCredential(), func(_ *games.Record, s games.Seats) { seats = s }); err != nil || seats.Any() {
		t.Errorf("a watcher's seats: %+v (%v)", seats, err)
	}
	if err := e.svc.View(e.ctx, id, "", func(_ *games.Record, s games.Seats) { seats = s }); err != nil || seats.Any() {
		t.Errorf("an anonymous watcher's seats: %+v (%v)", seats, err)
	}
	for _, bad := range []players.Credential{"", players.Credential(strings.Repeat("x", 129)), players.NewCredential()} {
		_, err := e.svc.Create(e.ctx, bad, rules.New(rules.BanChess{}))
		refused(t, "create without a credential the server issued", err, errs.Unauthorized, "")
	}
	err := e.svc.View(e.ctx, "nope", cred, func(*games.Record, games.Seats) { t.Error("viewed a game that is not there") })
	refused(t, "view an unknown game", err, errs.NotFound, "")
	err = e.svc.Play(e.ctx, "nope", cred, games.Input{Text: "e4"}, nil)
	refused(t, "play an unknown game", err, errs.NotFound, "")
}

func TestCredential(t *testing.T) {
	a, b := players.NewCredential(), players.NewCredential()
	if a == b || !a.Valid() || len(a) != 43 {
		t.Errorf("credentials %q, %q", a, b)
	}
	if a.Hash() == "" || a.Hash() == b.Hash() || a.Hash() == string(a) {
		t.Errorf("hashes %q, %q", a.Hash(), b.Hash())
	}
	// A credential's hash is its SHA-256 (base64url, unpadded): the same on
	// every call, server and restart, so a stored credential knows its
	// player. "abc" is FIPS 180-2's example (ba7816bf…).
	if got, want := players.Credential("abc").Hash(), "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"; got != want {
		t.Errorf("the hash of %q is %q, want %q", "abc", got, want)
	}
	for _, bad := range []players.Credential{"", players.Credential(strings.Repeat("x", 129))} {
		if bad.Valid() || bad.Hash() != "" {
			t.Errorf("%.10q is valid or hashed", bad)
		}
	}
	rec := &games.Record{White: "p1"}
	if w, bl := rec.Seats("p1"); !w || bl {
		t.Errorf("seats of white: %v %v", w, bl)
	}
	if w, bl := rec.Seats(""); w || bl {
		t.Errorf("nobody holds the free black seat: %v %v", w, bl)
	}
	if !rec.Holds("p1", rules.White) || rec.Holds("p1", rules.Black) || rec.Holds("p1", 0) {
		t.Error("Holds")
	}
}

// TestPlayAuthorization plays at a hot-seat game with each kind of
// credential: only its holder plays; the others are refused and change
// nothing.
func TestPlayAuthorization(t *testing.T) {
	e := newEnv(t)
	holder, other := e.cred(), e.cred()
	id := e.create(holder)
	e.create(other) // other holds seats elsewhere
	_, before := e.record(id)
	for _, c := range []struct {
		name string
		cred players.Credential
		want errs.Code
	}{
		{"no credential", "", errs.Unauthorized},
		// A credential the server did not issue is answered as one that
		// holds no seat here: the answer tells nothing of which exist.
		{"an overlong credential", players.Credential(strings.Repeat("x", 200)), errs.Forbidden},
		{"an unknown credential", players.NewCredential(), errs.Forbidden},
		{"a credential known from another game", other, errs.Forbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := e.svc.Play(e.ctx, id, c.cred, games.Input{Text: "e4"}, func(*games.Record, games.Seats) { t.Error("then ran") })
			refused(t, "play", err, c.want, "")
			_, err = e.svc.Undo(e.ctx, id, c.cred, nil)
			refused(t, "undo", err, c.want, "")
			refused(t, "resign", e.svc.Resign(e.ctx, id, c.cred, rules.White, nil), c.want, "")
			refused(t, "draw", e.svc.Draw(e.ctx, id, c.cred, nil), c.want, "")
			if _, after := e.record(id); after != before {
				t.Errorf("a refusal changed the game:\n%s", after)
			}
		})
	}
	var seats games.Seats
	err := e.svc.Play(e.ctx, id, holder, games.Input{Text: "e4"}, func(rec *games.Record, s games.Seats) {
		seats = s
		if rec.Game.Ply() != 2 {
			t.Errorf("then saw ply %d", rec.Game.Ply())
		}
	})
	if err != nil || !seats.Both() {
		t.Errorf("the holder's ply: %v, seats %+v", err, seats)
	}
}

// TestSeats plays a game of two players: each acts only for their side,
// and taking back or agreeing a draw needs both seats.
func TestSeats(t *testing.T) {
	e := newEnv(t)
	white, black := e.cred(), e.cred()
	id := e.insert(rules.New(rules.BanChess{}), white, black)
	steps := []struct {
		name string
		do   func() error
		want errs.Code
	}{
		{"white bans for black", func() error { return e.svc.Play(e.ctx, id, white, games.Input{Text: "e4"}, nil) }, errs.Forbidden},
		{"black bans", func() error { return e.svc.Play(e.ctx, id, black, games.Input{Text: "e4"}, nil) }, ""},
		{"black moves for white", func() error { return e.svc.Play(e.ctx, id, black, games.Input{Text: "d4"}, nil) }, errs.Forbidden},
		{"white moves", func() error { return e.svc.Play(e.ctx, id, white, games.Input{Text: "d4"}, nil) }, ""},
		{"white takes back", func() error { _, err := e.svc.Undo(e.ctx, id, white, nil); return err }, errs.Forbidden},
		{"black takes back", func() error { _, err := e.svc.Undo(e.ctx, id, black, nil); return err }, errs.Forbidden},
		{"white agrees a draw", func() error { return e.svc.Draw(e.ctx, id, white, nil) }, errs.Forbidden},
		{"white resigns for black", func() error { return e.svc.Resign(e.ctx, id, white, rules.Black, nil) }, errs.Forbidden},
		{"black resigns for white", func() error { return e.svc.Resign(e.ctx, id, black, rules.White, nil) }, errs.Forbidden},
		{"resign for no side", func() error { return e.svc.Resign(e.ctx, id, black, 0, nil) }, errs.Invalid},
		{"black resigns", func() error { return e.svc.Resign(e.ctx, id, black, rules.Black, nil) }, ""},
		{"white resigns after", func() error { return e.svc.Resign(e.ctx, id, white, rules.White, nil) }, errs.GameOver},
	}
	for _, s := range steps {
		_, before := e.record(id)
		err := s.do()
		if got := codeOf(err); got != s.want {
			t.Fatalf("%s: %v (%s), want %q", s.name, err, got, s.want)
		}
		if _, after := e.record(id); err != nil && after != before {
			t.Errorf("%s: refused, yet the game changed", s.name)
		}
	}
	rec, _ := e.record(id)
	if o := rec.Game.Outcome(); o.Reason != rules.Resignation || o.Winner != rules.White {
		t.Errorf("outcome %v", o)
	}
	// The message says which seat is held.
	err := e.svc.Draw(e.ctx, id, white, nil)
	if msg := errs.Of(err).Msg; !strings.Contains(msg, "White's seat") {
		t.Errorf("white's draw refused as %q", msg)
	}
}

// TestPlayInputs plays typed and board input at a hot-seat game.
func TestPlayInputs(t *testing.T) {
	for _, c := range []struct {
		name   string
		before []string // BCN played first
		in     func(t *testing.T) games.Input
		want   string // the action played
		code   errs.Code
		detail string
	}{
		{name: "SAN at a ban bans the move", in: text("Nf3"), want: "b:g1f3"},
		{name: "BCN in capitals", in: text("B:E2E4"), want: "b:e2e4"},
		{name: "BCN", in: text("b:e2e4"), want: "b:e2e4"},
		{name: "squares at a ban", in: text(" e2e4 "), want: "b:e2e4"},
		{name: "squares in capitals", in: text("E2E4"), want: "b:e2e4"},
		{name: "a board's ban", in: board("e2", "e4", 0), want: "b:e2e4"},
		{name: "a board's ban ignores a promotion", in: board("e2", "e4", rules.Queen), want: "b:e2e4"},
		{name: "SAN move", before: []string{"b:e2e4"}, in: text("d4"), want: "m:d2d4"},
		{name: "SAN knight move", before: []string{"b:e2e4"}, in: text("Nf3+"), want: "m:g1f3"},
		{name: "a board's move", before: []string{"b:e2e4"}, in: board("g1", "f3", 0), want: "m:g1f3"},
		{name: "the banned move in SAN", before: []string{"b:e2e4"}, in: text("e4"), code: errs.Banned},
		{name: "the banned move in squares", before: []string{"b:e2e4"}, in: text("e2e4"), code: errs.Banned},
		{name: "the banned move from a board", before: []string{"b:e2e4"}, in: board("e2", "e4", 0), code: errs.Banned},
		{name: "not an action", in: text("hello"), code: errs.Invalid, detail: "not_bcn"},
		{name: "nothing typed", in: text("   "), code: errs.Invalid, detail: "not_bcn"},
		{name: "overlong input", in: text(strings.Repeat("e4", 100)), code: errs.Invalid, detail: "not_bcn"},
		{name: "a move at a ban", in: text("m:e2e4"), code: errs.Illegal},
		{name: "an illegal SAN move", before: []string{"b:e2e4"}, in: text("Qh5"), code: errs.Illegal},
		{name: "an illegal board move", before: []string{"b:e2e4"}, in: board("e2", "e5", 0), code: errs.Illegal},
		{name: "an illegal ban", in: text("e2e5"), code: errs.Illegal},
		{name: "an empty board input", in: func(*testing.T) games.Input { return games.Input{} }, code: errs.Illegal},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			cred := e.cred()
			id := e.create(cred)
			e.play(id, cred, c.before...)
			recBefore, before := e.record(id)
			err := e.svc.Play(e.ctx, id, cred, c.in(t), nil)
			rec, after := e.record(id)
			if c.code != "" {
				refused(t, "play", err, c.code, c.detail)
				if after != before || !rec.Updated.Equal(recBefore.Updated) {
					t.Errorf("a refusal changed the game:\n%s", after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if bcn := rec.Game.BCN(); bcn[len(bcn)-1] != c.want {
				t.Errorf("played %s, want %s", bcn[len(bcn)-1], c.want)
			}
			if !rec.Updated.After(recBefore.Updated) {
				t.Errorf("updated at %v, before %v", rec.Updated, recBefore.Updated)
			}
		})
	}
}

func text(s string) func(*testing.T) games.Input {
	return func(*testing.T) games.Input { return games.Input{Text: s} }
}

func board(from, to string, promo rules.PieceKind) func(*testing.T) games.Input {
	return func(t *testing.T) games.Input {
		return games.Input{From: square(t, from), To: square(t, to), Promotion: promo}
	}
}

// TestTypedTextKept refuses typed input with a message that quotes it as
// typed: "bxc3" is not made "Bxc3", a bishop's move.
func TestTypedTextKept(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	e.play(id, cred, "e4")
	for _, typed := range []string{"bxc3", "e4", "e2e4"} {
		err := e.svc.Play(e.ctx, id, cred, games.Input{Text: typed}, nil)
		msg := errs.Of(err).Msg
		if err == nil || !strings.HasPrefix(msg, typed) || !strings.HasSuffix(msg, ".") {
			t.Errorf("%s refused as %q (%v)", typed, msg, err)
		}
	}
}

// TestStalePly refuses input made at a ply the game has left, changing
// nothing; ply 0 skips the check.
func TestStalePly(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	if err := e.svc.Play(e.ctx, id, cred, games.Input{Text: "e4", Ply: 1}, nil); err != nil {
		t.Fatal(err)
	}
	rec, before := e.record(id)
	for _, ply := range []int{1, 3, 99, -1} {
		err := e.svc.Play(e.ctx, id, cred, games.Input{Text: "d4", Ply: ply}, nil)
		refused(t, "a stale ply", err, errs.Conflict, "")
		if msg := errs.Of(err).Msg; !strings.Contains(msg, "ply 2") {
			t.Errorf("the refusal does not say the ply: %q", msg)
		}
		if after, st := e.record(id); st != before || !after.Updated.Equal(rec.Updated) {
			t.Errorf("a stale ply changed the game:\n%s", st)
		}
	}
	// The seat is checked before the ply: a stranger learns no more.
	err := e.svc.Play(e.ctx, id, e.cred(), games.Input{Text: "d4", Ply: 1}, nil)
	refused(t, "a stranger's stale ply", err, errs.Forbidden, "")
	if err := e.svc.Play(e.ctx, id, cred, games.Input{Text: "d4", Ply: 2}, nil); err != nil {
		t.Error(err)
	}
	if err := e.svc.Play(e.ctx, id, cred, games.Input{Text: "e5", Ply: 0}, nil); err != nil {
		t.Error(err)
	}
}

// TestPromotionNeeded asks for the piece of a promotion a board gives
// without one, changing nothing.
func TestPromotionNeeded(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	g, err := e.svc.Loader().FromFEN("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "")
	if err != nil {
		t.Fatal(err)
	}
	id := e.createGame(cred, g)
	e.play(id, cred, "Kd1") // Black bans Ke1-d1
	_, before := e.record(id)
	for _, in := range []games.Input{board("a7", "a8", 0)(t), {Text: "a7a8"}, {Text: "A7A8"}} {
		err := e.svc.Play(e.ctx, id, cred, in, nil)
		if !games.IsPromotionNeeded(err) {
			t.Errorf("%+v: %v, want the piece asked for", in, err)
		}
		refused(t, "no promotion piece", err, errs.Invalid, "promotion_needed")
		if _, after := e.record(id); after != before {
			t.Errorf("%+v changed the game", in)
		}
	}
	if games.IsPromotionNeeded(errors.New("other")) || games.IsPromotionNeeded(nil) {
		t.Error("IsPromotionNeeded of another error")
	}
	if err := e.svc.Play(e.ctx, id, cred, board("a7", "a8", rules.Knight)(t), nil); err != nil {
		t.Fatal(err)
	}
	if rec, _ := e.record(id); rec.Game.BCN()[1] != "m:a7a8n" {
		t.Errorf("played %v", rec.Game.BCN())
	}
}

func TestUndo(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	e.play(id, cred, "e4", "d4")

	undone, err := e.svc.Undo(e.ctx, id, cred, nil)
	if err != nil || undone.Ply.Action.String() != "m:d2d4" || undone.Ply.Ply != 2 || undone.Ply.Actor != rules.White || undone.Declared.Over() {
		t.Errorf("undo a move: %+v, %v", undone, err)
	}
	if err := e.svc.Resign(e.ctx, id, cred, rules.Black, nil); err != nil {
		t.Fatal(err)
	}
	undone, err = e.svc.Undo(e.ctx, id, cred, nil)
	if err != nil || undone.Declared.Reason != rules.Resignation || undone.Declared.Winner != rules.White || undone.Ply.Ply != 0 {
		t.Errorf("undo a resignation: %+v, %v", undone, err)
	}
	if err := e.svc.Draw(e.ctx, id, cred, nil); err != nil {
		t.Fatal(err)
	}
	undone, err = e.svc.Undo(e.ctx, id, cred, nil)
	if err != nil || undone.Declared.Reason != rules.Agreement {
		t.Errorf("undo a draw: %+v, %v", undone, err)
	}
	var then int
	var thenUndone games.Undone
	undone, err = e.svc.Undo(e.ctx, id, cred, func(u games.Undone, rec *games.Record, _ games.Seats) { thenUndone, then = u, rec.Game.Ply() })
	if err != nil || undone.Ply.Action.String() != "b:e2e4" || then != 1 || thenUndone.Ply.Action != undone.Ply.Action {
		t.Errorf("undo the ban: %+v, %v, then at ply %d knowing %+v", undone, err, then, thenUndone)
	}
	rec, before := e.record(id)
	_, err = e.svc.Undo(e.ctx, id, cred, nil)
	refused(t, "undo at the start", err, errs.Conflict, "nothing_to_undo")
	if after, st := e.record(id); st != before || !after.Updated.Equal(rec.Updated) {
		t.Error("undoing nothing changed the game")
	}
}

func TestDrawAndGameOver(t *testing.T) {
	e := newEnv(t)
	cred := e.cred()
	id := e.create(cred)
	e.play(id, cred, "e4")
	if err := e.svc.Draw(e.ctx, id, cred, nil); err != nil {
		t.Fatal(err)
	}
	rec, before := e.record(id)
	if o := rec.Game.Outcome(); o.Reason != rules.Agreement || o.Result() != "1/2-1/2" {
		t.Errorf("outcome %v", o)
	}
	for name, do := range map[string]func() error{
		"typed":  func() error { return e.svc.Play(e.ctx, id, cred, games.Input{Text: "d4"}, nil) },
		"board":  func() error { return e.svc.Play(e.ctx, id, cred, board("d2", "d4", 0)(t), nil) },
		"resign": func() error { return e.svc.Resign(e.ctx, id, cred, rules.White, nil) },
		"draw":   func() error { return e.svc.Draw(e.ctx, id, cred, nil) },
	} {
		refused(t, name, do(), errs.GameOver, "")
	}
	if _, after := e.record(id); after != before {
		t.Error("the ended game changed")
	}
	// Checkmate ends a game too.
	g, err := rules.Replay(rules.Classic{}, "", []string{"m:f2f3", "m:e7e5", "m:g2g4"})
	if err != nil {
		t.Fatal(err)
	}
	id = e.createGame(cred, g)
	e.play(id, cred, "Qh4#")
	refused(t, "after mate", e.svc.Play(e.ctx, id, cred, games.Input{Text: "a3"}, nil), errs.GameOver, "")
}

// TestHide removes a game from its holder's list only: it can still be
// watched and played, and the other player still lists it.
func TestHide(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.cred(), e.cred()
	kept, hidden := e.create(ann), e.create(ann)
	shared := e.insert(rules.New(rules.BanChess{}), ann, bob)
	if err := e.svc.Hide(e.ctx, hidden, ann); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Hide(e.ctx, shared, ann); err != nil {
		t.Fatal(err)
	}
	listIs(t, e, ann, 10, kept)
	listIs(t, e, bob, 10, shared)
	var seats games.Seats
	if err := e.svc.View(e.ctx, hidden, ann, func(_ *games.Record, s games.Seats) { seats = s }); err != nil || !seats.Both() {
		t.Errorf("the hidden game: %v, seats %+v", err, seats)
	}
	e.play(hidden, ann, "e4")
	for _, c := range []struct {
		name string
		id   string
		cred players.Credential
		want errs.Code
	}{
		{"a stranger", kept, bob, errs.Forbidden},
		{"nobody", kept, "", errs.Forbidden},
		{"an unknown game", "nope", ann, errs.NotFound},
	} {
		refused(t, c.name, e.svc.Hide(e.ctx, c.id, c.cred), c.want, "")
	}
	listIs(t, e, ann, 10, kept)
}

func listIs(t *testing.T, e *env, cred players.Credential, limit int, ids ...string) {
	t.Helper()
	list, err := e.svc.Games(e.ctx, cred, limit)
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

// TestClaim gives a game stored without holders to whoever claims it
// first, and nothing to anyone else.
func TestClaim(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.cred(), e.cred()
	legacy := e.insert(rules.New(rules.BanChess{}), "", "")
	held := e.create(bob)

	refused(t, "play before the claim", e.svc.Play(e.ctx, legacy, ann, games.Input{Text: "e4"}, nil), errs.Forbidden, "")
	refused(t, "play before the claim, known", e.svc.Play(e.ctx, legacy, bob, games.Input{Text: "e4"}, nil), errs.Forbidden, "")
	for _, c := range []struct {
		name string
		id   string
		cred players.Credential
		want bool
		code errs.Code
	}{
		{"nobody claims", legacy, "", false, ""},
		{"ann claims", legacy, ann, true, ""},
		{"ann claims again", legacy, ann, true, ""},
		{"bob claims after ann", legacy, bob, false, ""},
		{"ann claims bob's game", held, ann, false, ""},
		{"bob claims his own game", held, bob, true, ""},
		{"a claim of no game", "nope", ann, false, errs.NotFound},
	} {
		got, err := e.svc.Claim(e.ctx, c.id, c.cred)
		if got != c.want || codeOf(err) != c.code {
			t.Errorf("%s: %v, %v; want %v, %q", c.name, got, err, c.want, c.code)
		}
	}
	rec, _ := e.record(legacy)
	if rec.White != e.id(ann) || rec.Black != e.id(ann) || rec.Mode != games.HotSeat {
		t.Errorf("the claimed game: %+v", rec)
	}
	if rec, _ := e.record(held); rec.White != e.id(bob) || rec.Black != e.id(bob) {
		t.Errorf("bob's game: %+v", rec)
	}
	listIs(t, e, ann, 10, legacy)
	e.play(legacy, ann, "e4")
	refused(t, "bob plays ann's game", e.svc.Play(e.ctx, legacy, bob, games.Input{Text: "d4"}, nil), errs.Forbidden, "")
}

// TestGames lists a credential's games, the most recently played first.
func TestGames(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.cred(), e.cred()
	a, b, c := e.create(ann), e.create(ann), e.create(ann)
	e.create(bob)
	listIs(t, e, ann, 10, c, b, a)
	e.play(a, ann, "e4")
	listIs(t, e, ann, 10, a, c, b)
	listIs(t, e, ann, 2, a, c)
	// A refused ply, a view, a hide of another game and a claim do not
	// count as play.
	e.svc.Play(e.ctx, b, ann, games.Input{Text: "e9"}, nil)
	e.svc.View(e.ctx, b, ann, func(*games.Record, games.Seats) {})
	e.svc.Claim(e.ctx, b, ann)
	listIs(t, e, ann, 10, a, c, b)
	if err := e.svc.Resign(e.ctx, b, ann, rules.White, nil); err != nil {
		t.Fatal(err)
	}
	listIs(t, e, ann, 10, b, a, c)
	list, err := e.svc.Games(e.ctx, ann, 1)
	if err != nil || len(list) != 1 || list[0].Phase != "over" || list[0].Result != "0-1" {
		t.Errorf("the resigned game listed as %+v (%v)", list, err)
	}
	for _, nobody := range []players.Credential{"", players.NewCredential()} {
		if list, err := e.svc.Games(e.ctx, nobody, 10); err != nil || len(list) != 0 {
			t.Errorf("games of %.8q: %+v, %v", nobody, list, err)
		}
	}
}

// fullStore keeps games and players.
type fullStore interface {
	games.Store
	players.Store
}

// brokenStore fails as a database can.
type brokenStore struct {
	fullStore
	err error
}

func (b brokenStore) Create(context.Context, *games.Record) error { return b.err }
func (b brokenStore) Update(ctx context.Context, id string, fn func(*games.Record) error) error {
	if err := b.fullStore.Update(ctx, id, fn); err != nil {
		return err
	}
	return b.err
}
func (b brokenStore) List(context.Context, string, int) ([]games.Summary, error) { return nil, b.err }

// brokenCredentials cannot look up credentials.
type brokenCredentials struct {
	fullStore
	err error
}

func (b brokenCredentials) CredentialPlayer(context.Context, string) (string, error) {
	return "", b.err
}

// TestInternal turns a store's failures into Internal errors whose
// message tells nothing of the cause, which stays for the logs.
func TestInternal(t *testing.T) {
	ctx := context.Background()
	cause := errors.New("disk on fire at /var/lib/banchess/games.db")
	m := store.NewMemory()
	svc := newService(brokenStore{m, cause})
	cred, p, err := svc.players.NewPlayer(ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: p.ID, Black: p.ID}
	if err := m.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := rec.Game.PlayText("b:e2e4"); err != nil {
		t.Fatal(err)
	}
	_, createErr := svc.Create(ctx, cred, rules.New(rules.BanChess{}))
	_, gamesErr := svc.Games(ctx, cred, 10)
	_, claimErr := svc.Claim(ctx, rec.ID, cred)
	_, undoErr := svc.Undo(ctx, rec.ID, cred, nil)
	for name, err := range map[string]error{
		"create":   createErr,
		"games":    gamesErr,
		"claim":    claimErr,
		"undo":     undoErr,
		"play":     svc.Play(ctx, rec.ID, cred, games.Input{Text: "e4"}, nil),
		"identify": newService(brokenCredentials{m, cause}).Play(ctx, rec.ID, cred, games.Input{Text: "e4"}, nil),
		"hide":     svc.Hide(ctx, rec.ID, cred),
	} {
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.Internal {
			t.Errorf("%s: %v, want Internal", name, err)
			continue
		}
		if strings.Contains(e.Msg, "fire") || strings.Contains(e.Msg, "/var") {
			t.Errorf("%s: the message shows the cause: %q", name, e.Msg)
		}
		if !errors.Is(err, cause) || !strings.Contains(err.Error(), "disk on fire") {
			t.Errorf("%s: the cause is lost for the logs: %v", name, err)
		}
	}
	// A cancelled request is Unavailable (the client may try again), and
	// says so.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err = newService(m).Play(cancelled, rec.ID, cred, games.Input{Text: "e4"}, nil)
	refused(t, "cancelled", err, errs.Unavailable, "cancelled")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRecordCloneSharesNothing: a clone keeps what its record held while
// the record changes — its game, clock, offers and the computer's seat —
// and every field that refers to memory (a pointer, map or slice) is one
// Clone copies.
func TestRecordCloneSharesNothing(t *testing.T) {
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: "a", Black: "b", Mode: games.Invite}
	rec.Clock = games.NewClock(games.TimeControl{Initial: time.Minute})
	rec.Clock.After = map[int]time.Duration{1: time.Second}
	rec.Bot = &games.Bot{Color: rules.Black, Level: 3}
	c := rec.Clone()
	if err := rec.Game.PlayText("b:e2e4"); err != nil {
		t.Fatal(err)
	}
	rec.Clock.White, rec.Clock.After[2] = time.Hour, time.Hour
	rec.Bot.Level = 8
	rec.Offers.Draw = rules.White
	if c.Game.Ply() != 1 || c.Clock.White != time.Minute || len(c.Clock.After) != 1 || c.Bot.Level != 3 || c.Offers.Draw != 0 {
		t.Errorf("the clone changed with its record: ply %d, %+v, %+v, %+v", c.Game.Ply(), c.Clock, c.Bot, c.Offers)
	}
	copied := []string{"Record.Game", "Table.Clock", "Table.Bot", "Clock.After", "Table.Forecasts", "Forecasts.White", "Forecasts.Black"}
	var walk func(name string, t reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(name string, typ reflect.Type) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			path := name + "." + f.Name
			switch k := f.Type.Kind(); {
			case k == reflect.Struct && f.Type.PkgPath() == typ.PkgPath():
				walk(f.Type.Name(), f.Type)
			case k == reflect.Pointer || k == reflect.Map || k == reflect.Slice:
				if !slices.Contains(copied, path) {
					t.Errorf("%s refers to memory Record.Clone does not copy", path)
				}
				if k == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct && f.Type.Elem().PkgPath() == typ.PkgPath() {
					walk(f.Type.Elem().Name(), f.Type.Elem())
				}
			}
		}
	}
	walk("Record", reflect.TypeFor[games.Record]())
}
