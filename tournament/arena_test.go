package tournament_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/tournament"
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

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// arena is a tournament's service on a memory store, its clock manual.
type arena struct {
	t     *testing.T
	ctx   context.Context
	site  testsite.Site
	svc   *tournament.Service
	clk   *manualClock
	creds map[string]players.Credential // by name
	ids   map[string]string             // player id → name
	id    string                        // the tournament's
}

func newArena(t *testing.T, st testsite.Store, opts ...tournament.Option) *arena {
	clk := &manualClock{now: epoch}
	site := testsite.New(st, testsite.Config{Now: clk.Now, Tournament: opts})
	t.Cleanup(site.Games.Close)
	return &arena{t: t, ctx: context.Background(), site: site, svc: site.Tournaments, clk: clk, creds: map[string]players.Credential{}, ids: map[string]string{}}
}

func (a *arena) named(names ...string) {
	a.t.Helper()
	for _, name := range names {
		in, err := a.site.Players.Register(a.ctx, players.SignUp{Name: name, Password: "password " + name, Kind: players.Cookie})
		if err != nil {
			a.t.Fatal(err)
		}
		a.creds[name], a.ids[in.Player.ID] = in.Credential, name
	}
}

func (a *arena) must(err error) {
	a.t.Helper()
	if err != nil {
		a.t.Fatal(err)
	}
}

func (a *arena) tick() *tournament.Tournament {
	a.t.Helper()
	a.must(a.svc.Tick(a.ctx))
	return a.get()
}

func (a *arena) get() *tournament.Tournament {
	a.t.Helper()
	tr, err := a.svc.Tournament(a.ctx, a.id)
	a.must(err)
	return tr
}

// games returns the games running, as "white-black" by name.
func (a *arena) running(tr *tournament.Tournament) map[string]string {
	out := map[string]string{}
	for _, p := range tr.Pairings {
		if !p.Done {
			out[a.ids[p.White]+"-"+a.ids[p.Black]] = p.Game
		}
	}
	return out
}

// play plays n full moves at game id (each side's first legal action,
// bans too), then has loser resign (or no one: the game runs on).
func (a *arena) play(id string, moves int, white, black string) {
	a.t.Helper()
	for n := 0; n < moves*4; n++ {
		var turn rules.Color
		var act rules.Action
		var over rules.Outcome
		a.must(a.site.Games.View(a.ctx, id, "", func(rec *games.Record, _ games.Seats) {
			turn, over = rec.Game.Turn().Actor, rec.Game.Outcome()
			if legal := rec.Game.Legal(); len(legal) > 0 {
				act = legal[len(legal)/2]
			}
		}))
		if over.Over() {
			a.t.Fatalf("game over after %d plies: %s", n, over)
		}
		who := white
		if turn == rules.Black {
			who = black
		}
		a.must(a.site.Games.Play(a.ctx, id, a.creds[who], games.Input{Text: act.String()}, nil))
		a.clk.advance(time.Second)
	}
}

func (a *arena) resign(id, who string) {
	a.t.Helper()
	var side rules.Color
	a.must(a.site.Games.View(a.ctx, id, a.creds[who], func(_ *games.Record, seats games.Seats) { side = seats.Side() }))
	a.must(a.site.Games.Resign(a.ctx, id, a.creds[who], side, nil))
}

func sheets(a *arena, tr *tournament.Tournament) map[string][]int {
	out := map[string][]int{}
	for _, r := range tournament.Standings(tr) {
		var pts []int
		for _, m := range r.Sheet {
			pts = append(pts, m.Points)
		}
		out[r.Name] = pts
	}
	return out
}

func code(err error) errs.Code {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestArenaThroughTheService runs a small arena from its creation to its
// podium on a manual clock: pairing on start, berserk, scoring, no
// rematch while another waits, a withdrawal, the last 30 s without new
// pairings, a game running at the end counted.
func TestArenaThroughTheService(t *testing.T) {
	a := newArena(t, nil)
	a.named("Ann", "Bob", "Cat", "Dan")
	anon, _, err := a.site.Players.NewPlayer(a.ctx, players.Cookie)
	a.must(err)
	st := tournament.Settings{Name: "Sunday arena", Clock: "3+2", Minutes: 20, Starts: epoch.Add(time.Minute)}
	if _, err := a.svc.Create(a.ctx, anon, st); code(err) != errs.Forbidden {
		t.Errorf("an anonymous player created a tournament: %v", err)
	}
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], st)
	a.must(err)
	a.id = tr.ID
	if tr.Status != tournament.Created || tr.Variant == "" {
		t.Fatalf("created %+v", tr)
	}
	if err := a.svc.Join(a.ctx, tr.ID, anon); code(err) != errs.Forbidden {
		t.Errorf("an anonymous player joined: %v", err)
	}
	for _, n := range []string{"Ann", "Bob", "Cat", "Dan"} {
		a.must(a.svc.Join(a.ctx, tr.ID, a.creds[n]))
	}
	if tr = a.tick(); tr.Status != tournament.Created || len(tr.Pairings) != 0 {
		t.Fatalf("before its start: %s, %d pairings", tr.Status, len(tr.Pairings))
	}
	a.clk.advance(time.Minute)
	tr = a.tick()
	games1 := a.running(tr)
	if tr.Status != tournament.Started || !reflect.DeepEqual(keys(games1), []string{"Ann-Bob", "Cat-Dan"}) {
		t.Fatalf("at its start: %s, games %v", tr.Status, games1)
	}
	// Ann berserks and wins in 8 moves: 3 points; Cat beats Dan at once: 2.
	ab, cd := games1["Ann-Bob"], games1["Cat-Dan"]
	a.must(a.svc.Berserk(a.ctx, ab, a.creds["Ann"]))
	if err := a.svc.Berserk(a.ctx, ab, a.creds["Ann"]); code(err) != errs.Conflict {
		t.Errorf("berserk twice: %v", err)
	}
	var clk games.Clock
	a.must(a.site.Games.View(a.ctx, ab, "", func(rec *games.Record, _ games.Seats) { clk = *rec.Clock }))
	if clk.White != 90*time.Second || clk.Black != 3*time.Minute || !clk.Berserk.White {
		t.Errorf("berserk clock: %v, %v, %+v", clk.White, clk.Black, clk.Berserk)
	}
	a.play(cd, 1, "Cat", "Dan")
	a.resign(cd, "Dan")
	a.play(ab, 8, "Ann", "Bob")
	if err := a.svc.Berserk(a.ctx, ab, a.creds["Bob"]); code(err) != errs.Conflict {
		t.Errorf("berserk after the first action: %v", err)
	}
	a.resign(ab, "Bob")
	tr = a.tick()
	if got := sheets(a, tr); !reflect.DeepEqual(got, map[string][]int{"Ann": {3}, "Cat": {2}, "Bob": {0}, "Dan": {0}}) {
		t.Errorf("sheets after round 1: %v", got)
	}
	// Paired again at once, each with the next in rank who was not their
	// opponent: Ann (1st) with Cat (2nd), Bob with Dan.
	games2 := a.running(tr)
	if got := normalized(games2); !reflect.DeepEqual(got, []string{"Ann-Cat", "Bob-Dan"}) {
		t.Fatalf("round 2: %v", games2)
	}
	// Dan withdraws: his game plays on, he is paired no more.
	a.must(a.svc.Withdraw(a.ctx, tr.ID, a.creds["Dan"]))
	for pair, id := range games2 {
		w, b := split(pair)
		a.play(id, 1, w, b)
		a.resign(id, b) // white wins
	}
	tr = a.tick()
	if got := normalized(a.running(tr)); len(got) != 1 || got[0] == "" || contains(got[0], "Dan") {
		t.Errorf("after Dan withdrew: %v", got)
	}
	// Into the last 30 s: games that end are not followed by others.
	for pair, id := range a.running(tr) {
		w, b := split(pair)
		a.play(id, 1, w, b)
		a.resign(id, b)
	}
	a.clk.now = tr.Ends().Add(-tournament.LastPairing + time.Second)
	if tr = a.tick(); len(a.running(tr)) != 0 {
		t.Errorf("paired in the last 30 s: %v", a.running(tr))
	}
	if tr.Status != tournament.Started {
		t.Errorf("before the end: %s", tr.Status)
	}
	a.clk.now = tr.Ends().Add(time.Second)
	if tr = a.tick(); tr.Status != tournament.Finished {
		t.Errorf("after the end, no game running: %s", tr.Status)
	}
	res, err := a.svc.Results(a.ctx, playerID(a, "Ann"), 10)
	a.must(err)
	if len(res) != 1 || res[0].Tournament != tr.ID || res[0].Rank != 1 || res[0].Players != 4 {
		t.Errorf("Ann's results: %+v", res)
	}
	if err := a.svc.Join(a.ctx, tr.ID, a.creds["Bob"]); code(err) != errs.Conflict {
		t.Errorf("joined a finished tournament: %v", err)
	}
}

// TestArenaCountsGamesRunningAtTheEnd: a game still on when the time is
// up keeps the tournament going until it ends, and counts.
func TestArenaCountsGamesRunningAtTheEnd(t *testing.T) {
	a := newArena(t, nil)
	a.named("Ann", "Bob")
	tr, err := a.svc.Create(a.ctx, a.creds["Ann"], tournament.Settings{Name: "Short", Clock: "1+0", Minutes: 20})
	a.must(err)
	a.id = tr.ID
	a.must(a.svc.Join(a.ctx, tr.ID, a.creds["Ann"]))
	a.tick()
	a.clk.now = tr.Ends().Add(-35 * time.Second)
	a.must(a.svc.Join(a.ctx, tr.ID, a.creds["Bob"]))
	tr = a.tick()
	g := a.running(tr)
	if len(g) != 1 {
		t.Fatalf("games %v", g)
	}
	var id, pair string
	for pair, id = range g {
	}
	a.play(id, 2, whiteOf(a, tr, id), blackOf(a, tr, id))
	a.clk.now = tr.Ends().Add(5 * time.Second)
	if tr = a.tick(); tr.Status != tournament.Started {
		t.Fatalf("ended with a game running: %s", tr.Status)
	}
	_, b := split(pair)
	a.resign(id, b)
	if tr = a.tick(); tr.Status != tournament.Finished {
		t.Fatalf("not finished once its last game ended: %s", tr.Status)
	}
	if got := sheets(a, tr); len(got[whiteOf(a, tr, id)]) != 1 || got[whiteOf(a, tr, id)][0] != 2 {
		t.Errorf("sheets %v", got)
	}
}

// TestArenaSettingsRefused: bad settings are refused with their detail,
// and nothing is created.
func TestArenaSettingsRefused(t *testing.T) {
	a := newArena(t, nil)
	a.named("Ann")
	ok := tournament.Settings{Name: "Fine", Clock: "3+2", Minutes: 30}
	for _, c := range []struct {
		name   string
		change func(*tournament.Settings)
		detail errs.Detail
	}{
		{"no name", func(s *tournament.Settings) { s.Name = "  " }, errs.BadTournamentName},
		{"a long name", func(s *tournament.Settings) { s.Name = "This name is far too long for a tournament at all" }, errs.BadTournamentName},
		{"no clock", func(s *tournament.Settings) { s.Clock = "" }, errs.BadClock},
		{"a bad clock", func(s *tournament.Settings) { s.Clock = "3-2" }, errs.BadClock},
		{"too short", func(s *tournament.Settings) { s.Minutes = 19 }, errs.BadDuration},
		{"too long", func(s *tournament.Settings) { s.Minutes = 181 }, errs.BadDuration},
		{"in the past", func(s *tournament.Settings) { s.Starts = epoch.Add(-time.Hour) }, errs.BadStart},
		{"too far ahead", func(s *tournament.Settings) { s.Starts = epoch.Add(8 * 24 * time.Hour) }, errs.BadStart},
		{"a variant unknown", func(s *tournament.Settings) { s.Variant = "nope" }, errs.BadVariant},
		{"a kind unknown", func(s *tournament.Settings) { s.Kind = "knockout" }, errs.BadKind},
		{"a Swiss of 2 rounds", func(s *tournament.Settings) { s.Kind, s.Rounds = tournament.Swiss, 2 }, errs.BadRounds},
		{"a Swiss of 16 rounds", func(s *tournament.Settings) { s.Kind, s.Rounds = tournament.Swiss, 16 }, errs.BadRounds},
		{"a Swiss interval below 0", func(s *tournament.Settings) { s.Kind, s.Rounds, s.Interval = tournament.Swiss, 5, -1 }, errs.BadInterval},
		{"a Swiss interval over an hour", func(s *tournament.Settings) { s.Kind, s.Rounds, s.Interval = tournament.Swiss, 5, 3601 }, errs.BadInterval},
	} {
		st := ok
		c.change(&st)
		_, err := a.svc.Create(a.ctx, a.creds["Ann"], st)
		var e *errs.Error
		if !errors.As(err, &e) || e.Detail != c.detail {
			t.Errorf("%s: %v, want detail %s", c.name, err, c.detail)
		}
	}
	l, err := a.svc.List(a.ctx)
	a.must(err)
	if len(l.Now)+len(l.Upcoming)+len(l.Finished) != 0 {
		t.Errorf("refusals created %+v", l)
	}
	if _, err := a.svc.Tournament(a.ctx, "nope"); code(err) != errs.NotFound {
		t.Errorf("an unknown tournament: %v", err)
	}
}

// TestSchedule: every server creates the schedule's next arena, once.
func TestSchedule(t *testing.T) {
	a := newArena(t, nil, tournament.WithSchedule(tournament.Schedule{Every: time.Hour, Name: "Hourly", Clock: "3+2", Minutes: 57}))
	a.must(a.svc.Tick(a.ctx))
	a.must(a.svc.Tick(a.ctx))
	l, err := a.svc.List(a.ctx)
	a.must(err)
	if len(l.Upcoming) != 1 || !l.Upcoming[0].Starts.Equal(epoch.Add(time.Hour)) || l.Upcoming[0].Name != "Hourly" {
		t.Fatalf("upcoming %+v", l.Upcoming)
	}
	a.clk.advance(time.Hour)
	a.must(a.svc.Tick(a.ctx))
	if l, _ = a.svc.List(a.ctx); len(l.Now) != 1 || len(l.Upcoming) != 1 {
		t.Errorf("an hour later: now %d, upcoming %d", len(l.Now), len(l.Upcoming))
	}
}

func keys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// normalized is who plays whom, each pair's names in order.
func normalized(m map[string]string) []string {
	var out []string
	for k := range m {
		w, b := split(k)
		if w > b {
			w, b = b, w
		}
		out = append(out, w+"-"+b)
	}
	slices.Sort(out)
	return out
}

func split(pair string) (white, black string) {
	white, black, _ = strings.Cut(pair, "-")
	return white, black
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func side(a *arena, tr *tournament.Tournament, game string, c rules.Color) string {
	for _, p := range tr.Pairings {
		if p.Game == game {
			if c == rules.White {
				return a.ids[p.White]
			}
			return a.ids[p.Black]
		}
	}
	a.t.Fatalf("no game %s", game)
	return ""
}

func whiteOf(a *arena, tr *tournament.Tournament, game string) string {
	return side(a, tr, game, rules.White)
}
func blackOf(a *arena, tr *tournament.Tournament, game string) string {
	return side(a, tr, game, rules.Black)
}

func playerID(a *arena, name string) string {
	for id, n := range a.ids {
		if n == name {
			return id
		}
	}
	return ""
}
