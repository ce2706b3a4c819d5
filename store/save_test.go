package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/computer"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/password"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
)

// TestEveryStoredFieldIsSaved: the services' actions change every field of
// a game's record, and every change is read back as it was made from a
// store that did not see it made — SQLite with a cache of one game, read
// after another game pushed it out; a second PostgreSQL instance on the
// same database; memory, which keeps the record itself. A field added to
// games.Record, its Table or what they hold fails this test until an
// action here changes it and its change is saved: nothing else lists the
// fields a change touches (see games.recordState).
func TestEveryStoredFieldIsSaved(t *testing.T) {
	for _, st := range []struct {
		name string
		open func(t *testing.T) (write, read fullStore)
	}{
		{"memory", func(*testing.T) (fullStore, fullStore) { m := NewMemory(); return m, m }},
		{"sqlite", func(t *testing.T) (fullStore, fullStore) {
			s := openSQLite(t, filepath.Join(t.TempDir(), "games.db"), Options{CacheSize: 1})
			return s, s
		}},
		{"postgres", func(t *testing.T) (fullStore, fullStore) {
			url := pg.Server(t).Schema(t)
			return openPostgres(t, PostgresOptions{}, url), openPostgres(t, PostgresOptions{}, url)
		}},
	} {
		t.Run(st.name, func(t *testing.T) {
			if st.name == "postgres" && testing.Short() {
				t.Skip("starts PostgreSQL")
			}
			write, read := st.open(t)
			s := newSaveScene(t, write, read)
			s.run()
			s.covered()
		})
	}
}

// saveScene plays the actions of TestEveryStoredFieldIsSaved through the
// services on write and checks each change on read.
type saveScene struct {
	t           *testing.T
	ctx         context.Context
	write, read fullStore
	clk         *saveClock
	svc         *games.Service
	players     *players.Service
	lobby       *lobby.Service
	other       string              // a game read to push the others out of a cache of one
	changed     map[string]bool     // the fields some action changed
	last        map[string]snapshot // each game as last checked
}

func newSaveScene(t *testing.T, write, read fullStore) *saveScene {
	clk := &saveClock{now: epoch}
	pl := players.New(write, players.WithClock(clk.Now), players.WithPasswords(password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1}, 2)))
	svc := games.New(write, pl, games.WithClock(clk.Now), games.WithComputer(computer.New(idleEngine{})))
	t.Cleanup(svc.Close)
	s := &saveScene{t: t, ctx: context.Background(), write: write, read: read, clk: clk, svc: svc, players: pl,
		lobby:   lobby.New(write, svc, svc.Loader(), pl, lobby.WithClock(clk.Now)),
		changed: map[string]bool{}, last: map[string]snapshot{}}
	cred := s.player("")
	s.other = s.must2(svc.Create(s.ctx, cred, rules.New(rules.BanChess{})))
	return s
}

// run plays the actions, checking the games they change after each.
func (s *saveScene) run() {
	ctx, svc := s.ctx, s.svc
	ann, bob := s.player("Ann"), s.player("Bob")

	// A hot-seat game: created, played, annotated, hidden.
	hot := s.step("create a hot-seat game", s.must2(svc.Create(ctx, ann, rules.New(rules.BanChess{}))))
	s.must(svc.Play(ctx, hot, ann, games.Input{Text: "b:e2e4"}, nil))
	s.must(svc.Play(ctx, hot, ann, games.Input{Text: "d4"}, nil))
	s.step("play", hot)
	s.must2(svc.PlayVariation(ctx, hot, ann, games.Spot{N: 1}, "c4"))
	s.step("a variation", hot)
	s.must(svc.Hide(ctx, hot, ann))
	s.step("hide", hot)

	// A game between two players on a clock: invited, joined, arrived,
	// played, offers made, declined and accepted, ended, a rematch.
	tc := games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}
	live, code, _, err := svc.CreateInvite(ctx, ann, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White, Clock: &tc})
	s.must(err)
	s.step("invite", live)
	s.must2(svc.Join(ctx, live, bob, code))
	s.step("join", live)
	for _, c := range []players.Credential{ann, bob} {
		s.arrive(live, c)
	}
	s.step("arrive", live)
	s.tick()
	s.must(svc.Play(ctx, live, bob, games.Input{Text: "b:e2e4"}, nil))
	s.tick()
	s.must(svc.Play(ctx, live, ann, games.Input{Text: "d4"}, nil))
	s.step("first actions", live)
	s.tick()
	s.must(svc.Play(ctx, live, ann, games.Input{Text: "b:e7e5"}, nil))
	s.must(svc.Play(ctx, live, bob, games.Input{Text: "d5"}, nil))
	s.step("a move each", live)
	s.must2(svc.Premoves().Set(ctx, live, ann, []string{"m:c2c4", "b:c7c5"}, nil))
	s.must2(svc.Premoves().Set(ctx, live, bob, []string{"m:g8f6", "b:b1c3"}, nil))
	s.step("premoves queued", live)
	s.must(svc.Play(ctx, live, bob, games.Input{Text: "b:c2c4"}, nil))
	s.must(svc.Play(ctx, live, ann, games.Input{Text: "Nf3"}, nil))
	s.must(svc.Play(ctx, live, ann, games.Input{Text: "b:g8f6"}, nil))
	s.step("premoves banned", live)
	s.tick()
	s.must(svc.MakeOffer(ctx, live, ann, games.OfferDraw, nil))
	s.must(svc.MakeOffer(ctx, live, bob, games.OfferTakeback, nil))
	s.step("offers", live)
	s.must(svc.AnswerOffer(ctx, live, ann, games.OfferTakeback, false, nil))
	s.must(svc.AnswerOffer(ctx, live, bob, games.OfferDraw, false, nil))
	s.step("declined", live)
	s.must(svc.Resign(ctx, live, bob, rules.Black, nil))
	s.step("resign", live)
	s.must(svc.MakeOffer(ctx, live, bob, games.OfferRematch, nil))
	s.step("rematch offered", live)
	s.must(svc.AnswerOffer(ctx, live, ann, games.OfferRematch, false, nil))
	s.step("rematch declined", live)
	s.must(svc.MakeOffer(ctx, live, ann, games.OfferRematch, nil))
	s.must(svc.AnswerOffer(ctx, live, bob, games.OfferRematch, true, nil))
	s.step("rematch accepted", live)
	again := s.last[live]["Rematch"].(string)
	s.step("the rematch, its seats held from the start", again)
	for _, c := range []players.Credential{ann, bob} {
		s.arrive(again, c)
	}
	s.step("arrive at the rematch", again)

	// A rated game the lobby paired: its players' ratings recorded.
	seek, err := s.lobby.AddSeek(ctx, ann, lobby.SeekSettings{Clock: "5+3", Color: "black", Rated: true})
	s.must(err)
	rated := s.step("a rated pairing", s.must2(s.lobby.AcceptSeek(ctx, bob, seek.ID)))

	// A correspondence game the lobby paired: days a move, the seek's
	// days read back from the store.
	corr, err := s.lobby.AddSeek(ctx, bob, lobby.SeekSettings{Clock: "3d", Color: "white"})
	s.must(err)
	daily := s.step("a correspondence pairing", s.must2(s.lobby.AcceptSeek(ctx, ann, corr.ID)))
	s.must2(games.ForecastsOf(svc).Set(ctx, daily, bob, [][]string{{"b:e2e4", "m:d2d4"}, {"b:d2d4", "m:e2e4", "b:e7e5"}}))
	s.step("forecasts", daily)
	s.must(svc.Play(ctx, daily, ann, games.Input{Text: "b:e2e4"}, nil))
	s.step("a forecast played", daily)
	s.must2(games.ForecastsOf(svc).Set(ctx, daily, ann, [][]string{{"b:e7e5", "m:d7d5"}}))
	s.step("Black's forecast", daily)
	// A tournament's game, berserked.
	pa, err := s.players.Identify(ctx, ann)
	s.must(err)
	pb, err := s.players.Identify(ctx, bob)
	s.must(err)
	arena, err := svc.PairedGame(rules.BanChess{}.ID(), tc, false, rules.White, games.Seated{Player: pa}, games.Seated{Player: pb}, s.clk.Now())
	s.must(err)
	arena.Tournament = "t1"
	s.must(s.write.Create(ctx, arena))
	s.step("a tournament's game", arena.ID)
	s.must(svc.Clocks().Berserk(ctx, arena.ID, ann))
	s.must(svc.Clocks().Berserk(ctx, arena.ID, bob))
	s.step("berserk", arena.ID)

	// A game against the computer.
	bot, _, err := svc.CreateBot(ctx, ann, rules.New(rules.BanChess{}), games.BotSettings{Color: rules.White, Level: 3, Clock: &tc})
	s.must(err)
	s.step("against the computer", bot)

	// A game stored before games had seats, claimed.
	legacy := &games.Record{Game: rules.New(rules.BanChess{}), Created: epoch, Updated: epoch}
	s.must(s.write.Create(ctx, legacy))
	s.last[legacy.ID] = s.persisted(legacy.ID)
	s.must2(svc.Claim(ctx, legacy.ID, bob))
	s.step("claim", legacy.ID)
	_ = rated
}

// step checks game id after the action named what: the record read back
// is the record as the service left it, and the fields that changed since
// the last check (or since nothing, for a new game) count as covered.
func (s *saveScene) step(what, id string) string {
	s.t.Helper()
	live := s.live(id)
	got := s.persisted(id)
	if diff := live.diff(got); len(diff) > 0 {
		var say []string
		for _, f := range diff {
			say = append(say, fmt.Sprintf("%s (%s, read back %s)", f, clip(live[f]), clip(got[f])))
		}
		s.t.Errorf("%s: saved and read back, the game differs in %s", what, strings.Join(say, ", "))
	}
	before, ok := s.last[id]
	if !ok {
		before = snapshotOf(&games.Record{})
	}
	for _, f := range before.diff(live) {
		s.changed[f] = true
	}
	s.last[id] = live
	return id
}

// covered checks that every field was changed by some action.
func (s *saveScene) covered() {
	var missing []string
	for _, f := range snapshotOf(&games.Record{Table: games.Table{Clock: &games.Clock{}, Bot: &games.Bot{}}}).fields() {
		if !s.changed[f] {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		s.t.Errorf("no action here changed %s: add one that does, so that its saving is tested", strings.Join(missing, ", "))
	}
}

// live is game id as the service holds it.
func (s *saveScene) live(id string) snapshot {
	var snap snapshot
	s.must(s.svc.View(s.ctx, id, "", func(rec *games.Record, _ games.Seats) { snap = snapshotOf(rec) }))
	return snap
}

// persisted is game id as read back from the store: from read after
// another game pushed it out of write's cache.
func (s *saveScene) persisted(id string) snapshot {
	s.must(s.write.View(s.ctx, s.other, func(*games.Record) error { return nil }))
	var snap snapshot
	s.must(s.read.View(s.ctx, id, func(rec *games.Record) error { snap = snapshotOf(rec); return nil }))
	return snap
}

// arrive has cred's player come to game id, and waits until the game
// knows.
func (s *saveScene) arrive(id string, cred players.Credential) {
	s.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		waiting := true
		s.must(s.svc.View(s.ctx, id, cred, func(rec *games.Record, seats games.Seats) {
			waiting = rec.Clock.Awaiting.White && seats.White || rec.Clock.Awaiting.Black && seats.Black
		}))
		if !waiting {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatal("the player did not arrive")
		}
	}
}

// player issues a new player a credential, named name unless "".
func (s *saveScene) player(name string) players.Credential {
	s.t.Helper()
	if name == "" {
		cred, _, err := s.players.NewPlayer(s.ctx, players.Cookie)
		s.must(err)
		return cred
	}
	in, err := s.players.Register(s.ctx, players.SignUp{Name: name, Password: "password " + name, Kind: players.Cookie})
	cred := in.Credential
	s.must(err)
	return cred
}

func (s *saveScene) tick() { s.clk.advance(time.Second) }

func (s *saveScene) must(err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *saveScene) must2(v any, err error) string {
	s.t.Helper()
	s.must(err)
	if id, ok := v.(string); ok {
		return id
	}
	return fmt.Sprint(v)
}

// snapshot is a record as its fields' paths and values: the game by what
// a store keeps of it (rules.Game.Snapshot), every other field as it is,
// times to the precision the stores keep them.
type snapshot map[string]any

func snapshotOf(rec *games.Record) snapshot {
	out := snapshot{}
	if rec.Game != nil {
		out["Game"] = rec.Game.Snapshot()
	} else {
		out["Game"] = nil
	}
	flatten(out, "", reflect.ValueOf(rec).Elem())
	return out
}

// flatten records v's leaf fields under prefix: it goes into structs and
// pointers to structs (nil counts as the zero struct), but not into
// times, maps or the game.
func flatten(out snapshot, prefix string, v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Type == reflect.TypeFor[*rules.Game]() {
			continue
		}
		name := prefix + f.Name
		fv := v.Field(i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
			if fv.IsNil() {
				fv = reflect.New(ft.Elem()).Elem()
			} else {
				fv = fv.Elem()
			}
			ft = ft.Elem()
		}
		switch {
		case ft == reflect.TypeFor[time.Time]():
			tm := fv.Interface().(time.Time)
			if name == "Created" {
				out[name] = tm.Unix()
			} else {
				out[name] = tm.UnixMilli()
			}
		case ft.Kind() == reflect.Struct && f.Anonymous:
			flatten(out, prefix, fv)
		case ft.Kind() == reflect.Struct:
			flatten(out, name+".", fv)
		case ft.Kind() == reflect.Map && fv.Len() == 0:
			out[name] = nil // an empty map reads back as none
		default:
			out[name] = fv.Interface()
		}
	}
}

// fields lists the snapshot's fields, in order.
func (s snapshot) fields() []string {
	var out []string
	for f := range s {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// diff lists the fields whose values differ in o.
func (s snapshot) diff(o snapshot) []string {
	var out []string
	for _, f := range s.fields() {
		if !reflect.DeepEqual(s[f], o[f]) {
			out = append(out, f)
		}
	}
	for f := range o {
		if _, ok := s[f]; !ok && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func clip(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// saveClock is a time that moves when told, in whole seconds.
type saveClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *saveClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *saveClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// idleEngine never finds a move: the computer's turns wait until they are
// cancelled, so a game against it stays as the test left it.
type idleEngine struct{}

func (idleEngine) Play(ctx context.Context, _ *rules.Game, _ engine.Limits) (engine.Result, error) {
	<-ctx.Done()
	return engine.Result{}, ctx.Err()
}
