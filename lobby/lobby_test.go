package lobby_test

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/lobby"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// room is the lobby's service with a manual clock and some players: two
// named (ann, bob), one anonymous (cat).
type room struct {
	t             *testing.T
	ctx           context.Context
	svc           testsite.Site
	clk           *manualClock
	ann, bob, cat players.Credential
}

func newLobby(t *testing.T, st testsite.Store) *room {
	t.Helper()
	clk := &manualClock{now: epoch}
	svc := testsite.New(st, testsite.Config{Now: clk.Now, LobbyAsMain: true})
	t.Cleanup(svc.Games.Close)
	l := &room{t: t, ctx: context.Background(), svc: svc, clk: clk}
	l.ann, l.bob = l.named("Ann"), l.named("Bob")
	cat, _, err := svc.Players.NewPlayer(l.ctx, players.Cookie)
	if err != nil {
		t.Fatal(err)
	}
	l.cat = cat
	return l
}

func (l *room) named(name string) players.Credential {
	l.t.Helper()
	in, err := l.svc.Players.Register(l.ctx, players.SignUp{Name: name, Password: "password " + name, Kind: players.Cookie})
	cred := in.Credential
	if err != nil {
		l.t.Fatal(err)
	}
	return cred
}

func (l *room) seek(cred players.Credential, st lobby.SeekSettings) lobby.Seek {
	l.t.Helper()
	k, err := l.svc.Lobby.AddSeek(l.ctx, cred, st)
	if err != nil {
		l.t.Fatal(err)
	}
	return k
}

func (l *room) view() lobby.View {
	l.t.Helper()
	v, err := l.svc.Lobby.View(l.ctx)
	if err != nil {
		l.t.Fatal(err)
	}
	return v
}

func (l *room) record(id string) games.Record {
	l.t.Helper()
	var rec games.Record
	if err := l.svc.Games.View(l.ctx, id, "", func(r *games.Record, _ games.Seats) { rec = *r }); err != nil {
		l.t.Fatal(err)
	}
	return rec
}

func TestSeekRefusals(t *testing.T) {
	l := newLobby(t, store.NewMemory())
	for _, c := range []struct {
		name   string
		cred   players.Credential
		st     lobby.SeekSettings
		code   errs.Code
		detail string
	}{
		{"no credential", "", lobby.SeekSettings{Clock: "5+3"}, errs.Unauthorized, ""},
		{"an invented credential", players.NewCredential(), lobby.SeekSettings{Clock: "5+3"}, errs.Unauthorized, ""},
		{"EN-Chess", l.ann, lobby.SeekSettings{Variant: "en", Clock: "5+3"}, errs.Invalid, "unsupported_variant"},
		{"no variant of ours", l.ann, lobby.SeekSettings{Variant: "go", Clock: "5+3"}, errs.Invalid, "bad_variant"},
		{"no clock", l.ann, lobby.SeekSettings{}, errs.Invalid, "bad_clock"},
		{"a bad clock", l.ann, lobby.SeekSettings{Clock: "5+x"}, errs.Invalid, "bad_clock"},
		{"a bad colour", l.ann, lobby.SeekSettings{Clock: "5+3", Color: "green"}, errs.Invalid, "bad_color"},
		{"rated without a name", l.cat, lobby.SeekSettings{Clock: "5+3", Rated: true}, errs.Forbidden, "name_needed"},
	} {
		_, err := l.svc.Lobby.AddSeek(l.ctx, c.cred, c.st)
		refused(t, c.name, err, c.code, c.detail)
	}
	for range lobby.MaxCustomSeeks {
		l.seek(l.ann, lobby.SeekSettings{Clock: "5+3"})
	}
	refused(t, "one seek too many", second(l.svc.Lobby.AddSeek(l.ctx, l.ann, lobby.SeekSettings{Clock: "5+3"})), errs.Conflict, "too_many_seeks")
	refused(t, "a pool of no one's", third(l.svc.Lobby.JoinPool(l.ctx, l.ann, "4+4", "")), errs.Invalid, "bad_pool")
	if n := len(l.view().Seeks); n != lobby.MaxCustomSeeks {
		t.Errorf("%d seeks open", n)
	}
}

// TestAcceptSeek: a rated seek accepted makes a game of both players,
// the clock running, names and ratings recorded; accepted once.
func TestAcceptSeek(t *testing.T) {
	l := newLobby(t, store.NewMemory())
	k := l.seek(l.ann, lobby.SeekSettings{Variant: "ban", Clock: "5+3", Color: "black", Rated: true})
	if k.Name != "Ann" || k.Rating != 1500 || !k.Provisional || !k.Rated || k.Color != rules.Black || k.Speed() != rating.Blitz {
		t.Errorf("the seek %+v", k)
	}
	v := l.view()
	if len(v.Custom()) != 1 || len(v.Of(k.Player)) != 1 || v.Custom()[0].ID != k.ID {
		t.Errorf("the lobby: %+v", v)
	}
	refused(t, "accepting one's own seek", second(l.svc.Lobby.AcceptSeek(l.ctx, l.ann, k.ID)), errs.Conflict, "own_seek")
	refused(t, "an anonymous player accepting a rated seek", second(l.svc.Lobby.AcceptSeek(l.ctx, l.cat, k.ID)), errs.Forbidden, "name_needed")
	watch, err := l.svc.Lobby.Watch(l.ctx, l.ann)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	watch.Paired() // a new watch checks once
	id, err := l.svc.Lobby.AcceptSeek(l.ctx, l.bob, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-watch.C():
	default:
		t.Error("the maker's lobby was not woken")
	}
	if !watch.Paired() {
		t.Error("the maker's watch does not say they may be paired")
	}
	pairings, err := l.svc.Lobby.Pairings(l.ctx, l.ann, epoch)
	if err != nil || len(pairings) != 1 || pairings[0].Game != id {
		t.Errorf("ann's pairings: %+v, %v", pairings, err)
	}
	refused(t, "accepting again", second(l.svc.Lobby.AcceptSeek(l.ctx, l.cat, k.ID)), errs.NotFound, "seek_gone")
	rec := l.record(id)
	ann, bob := l.player(l.ann), l.player(l.bob)
	if rec.Black != ann || rec.White != bob || rec.Mode != games.Invite || !rec.Rated || rec.Clock == nil || rec.Clock.Running != 0 || rec.Clock.FirstBy.IsZero() ||
		rec.BlackPlayer != (games.Entrant{Name: "Ann", Rating: 1500, Provisional: true}) || rec.WhitePlayer.Name != "Bob" || rec.InviteCode != "" {
		t.Errorf("the game: %+v", rec)
	}
	if len(l.view().Seeks) != 0 {
		t.Error("the accepted seek is still open")
	}
	// Played to its end (resigned once each side has acted): both
	// ratings move, once.
	for _, a := range []struct {
		cred players.Credential
		bcn  string
	}{{l.ann, "b:e2e4"}, {l.bob, "m:d2d4"}} {
		if err := l.svc.Games.Play(l.ctx, id, a.cred, games.Input{Text: a.bcn}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.svc.Games.Resign(l.ctx, id, l.bob, rules.White, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := l.svc.Players.Standings(l.ctx, ann)
	b, _ := l.svc.Players.Standings(l.ctx, bob)
	if len(a) != 1 || len(b) != 1 || a[0].Rating.Rating <= 1500 || b[0].Rating.Rating >= 1500 || a[0].Games != 1 {
		t.Errorf("standings %+v, %+v", a, b)
	}
	list, err := l.svc.Players.PlayedGames(l.ctx, ann, players.PlayedGamesCursor{}, 10)
	if err != nil || len(list) != 1 || list[0].Opponent != "Bob" || list[0].Score != rating.Win {
		t.Errorf("ann's games: %+v, %v", list, err)
	}
	// The rematch is rated too, with the ratings as they stand now.
	if err := l.svc.Games.MakeOffer(l.ctx, id, l.bob, games.OfferRematch, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.svc.Games.AnswerOffer(l.ctx, id, l.ann, games.OfferRematch, true, nil); err != nil {
		t.Fatal(err)
	}
	re := l.record(l.record(id).Rematch)
	if !re.Rated || re.WhitePlayer.Name != "Ann" || re.WhitePlayer.Rating <= 1500 || re.BlackPlayer.Rating >= 1500 {
		t.Errorf("the rematch: %+v", re)
	}
}

func (l *room) player(cred players.Credential) string {
	l.t.Helper()
	p, err := l.svc.Players.Identify(l.ctx, cred)
	if err != nil || p.ID == "" {
		l.t.Fatalf("identify: %+v, %v", p, err)
	}
	return p.ID
}

// TestPools: two players in a pool are paired at once, casual unless both
// have a name; a third waits; a player's other seeks go when paired.
func TestPools(t *testing.T) {
	l := newLobby(t, store.NewMemory())
	other := l.seek(l.ann, lobby.SeekSettings{Clock: "10+5"})
	game, k, err := l.svc.Lobby.JoinPool(l.ctx, l.ann, "5+3", "")
	if err != nil || game != "" || k.Pool != "5+3" || !k.Rated {
		t.Fatalf("the first waits: %q, %+v, %v", game, k, err)
	}
	if v := l.view(); v.Waiting["5+3"] != 1 || len(v.Custom()) != 1 || v.Custom()[0].ID != other.ID {
		t.Errorf("the lobby: %+v", v)
	}
	if game, again, err := l.svc.Lobby.JoinPool(l.ctx, l.ann, "5+3", ""); err != nil || game != "" || again.ID != k.ID {
		t.Errorf("joining twice: %q, %+v, %v", game, again, err)
	}
	game, _, err = l.svc.Lobby.JoinPool(l.ctx, l.cat, "5+3", "")
	if err != nil || game == "" {
		t.Fatalf("the second is paired: %q, %v", game, err)
	}
	rec := l.record(game)
	if rec.Rated || rec.Clock.Control.Initial != 5*time.Minute || rec.Clock.Running != 0 || rec.Clock.FirstBy.IsZero() || rec.Game.Variant().ID() != "ban" {
		t.Errorf("a pool game with an anonymous player: %+v", rec)
	}
	if v := l.view(); len(v.Seeks) != 0 || v.Waiting["5+3"] != 0 {
		t.Errorf("after the pairing: %+v", v)
	}
	if game, _, _ := l.svc.Lobby.JoinPool(l.ctx, l.bob, "5+3", ""); game != "" {
		t.Errorf("the third was paired into %s", game)
	}
	game, _, _ = l.svc.Lobby.JoinPool(l.ctx, l.ann, "5+3", "")
	if rec := l.record(game); !rec.Rated {
		t.Errorf("a pool game between named players: %+v", rec)
	}
}

// TestSeekLifetime: a seek lives while its maker has a lobby page open,
// SeekAbsence once the last is closed, and SeekLifetime at most.
func TestSeekLifetime(t *testing.T) {
	l := newLobby(t, store.NewMemory())
	k := l.seek(l.ann, lobby.SeekSettings{Clock: "5+3"})
	w, _ := l.svc.Lobby.Watch(l.ctx, l.ann)
	w2, _ := l.svc.Lobby.Watch(l.ctx, l.ann)
	open := func(want bool) {
		t.Helper()
		l.svc.Lobby.Sweep(l.ctx)
		if got := len(l.view().Seeks) == 1; got != want {
			t.Errorf("at %v: open %v, want %v", l.clk.Now().Sub(epoch), got, want)
		}
	}
	for range 10 { // present for 10 minutes: touched by the heartbeat
		l.clk.advance(time.Minute)
		l.svc.Lobby.Touch(l.ctx, l.ann)
		open(true)
	}
	w.Close()
	l.clk.advance(time.Minute) // no heartbeat here: the seek is 60 s old
	w2.Close()                 // the last page: its close counts as present, in the background
	deadline := time.Now().Add(5 * time.Second)
	for len(l.view().Seeks) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	l.clk.advance(lobby.SeekAbsence - time.Second)
	open(true)
	l.clk.advance(2 * time.Second)
	open(false)
	refused(t, "accepting a seek gone", second(l.svc.Lobby.AcceptSeek(l.ctx, l.bob, k.ID)), errs.NotFound, "seek_gone")

	l.seek(l.bob, lobby.SeekSettings{Clock: "5+3"})
	for range 29 {
		l.clk.advance(time.Minute)
		l.svc.Lobby.Touch(l.ctx, l.bob)
		open(true)
	}
	l.clk.advance(time.Minute + time.Second)
	l.svc.Lobby.Touch(l.ctx, l.bob)
	open(false)
}

// TestLobbyVariants: by default the lobby plays every variant the service
// plays; WithVariants narrows it; an unknown variant is never played.
func TestLobbyVariants(t *testing.T) {
	all := testsite.New(nil, testsite.Config{})
	some := testsite.New(nil, testsite.Config{Lobby: []lobby.Option{lobby.WithVariants(rules.BanChess{}.ID())}})
	for _, c := range []struct {
		svc  testsite.Site
		id   string
		want bool
	}{
		{all, rules.ENChess{}.ID(), true},
		{all, rules.Classic{}.ID(), true},
		{all, "go", false},
		{some, rules.BanChess{}.ID(), true},
		{some, rules.ENChess{}.ID(), false},
	} {
		if got := c.svc.Lobby.Plays(c.id); got != c.want {
			t.Errorf("Plays(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}

// TestSeeksEndWithTheirServer: two servers share a store; the seeks made
// on one, a custom seek and a player waiting in a pool, end once it has
// not beaten for Liveness.Timeout: the other lists neither, accepting the
// seek is refused, and a player joining the pool waits rather than be
// paired with a player no server holds. Within the timeout they stay.
func TestSeeksEndWithTheirServer(t *testing.T) {
	st := store.NewMemory()
	clk := &manualClock{now: epoch}
	site := func(name string) testsite.Site {
		svc := testsite.New(st, testsite.Config{Now: clk.Now, LobbyAsMain: true,
			Lobby: []lobby.Option{lobby.WithLiveness(lobby.Liveness{Instance: name, Timeout: 5 * time.Second})}})
		t.Cleanup(svc.Games.Close)
		return svc
	}
	a, b := site("server:a"), site("server:b")
	ctx := context.Background()
	ann, bob, cat := register(t, a, "Ann"), register(t, b, "Bob"), register(t, a, "Cat")
	a.Lobby.Sweep(ctx) // each server beats as it sweeps
	k, err := a.Lobby.AddSeek(ctx, ann, lobby.SeekSettings{Clock: "5+3"})
	if err != nil {
		t.Fatal(err)
	}
	if game, _, err := a.Lobby.JoinPool(ctx, cat, "3+2", ""); err != nil || game != "" {
		t.Fatalf("cat waits: %q, %v", game, err)
	}
	seeks := func() int {
		t.Helper()
		b.Lobby.Sweep(ctx)
		v, err := b.Lobby.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(v.Seeks)
	}
	clk.advance(5 * time.Second)
	if n := seeks(); n != 2 {
		t.Fatalf("server a last heard of 5 s ago: the other lists %d seeks, want 2", n)
	}
	clk.advance(time.Second)
	if n := seeks(); n != 0 {
		t.Errorf("server a unheard of for 6 s: the other lists %d seeks, want none", n)
	}
	refused(t, "accepting the seek of a server that died", second(b.Lobby.AcceptSeek(ctx, bob, k.ID)), errs.NotFound, "seek_gone")
	if game, _, err := b.Lobby.JoinPool(ctx, bob, "3+2", ""); err != nil || game != "" {
		t.Errorf("joining the pool on the other: paired into %q (%v), want to wait", game, err)
	}
}

// TestDaysSeekLifetime: a correspondence seek stays open with no lobby
// page of its maker's and no server holding one, for DaysSeekLifetime at
// most; accepted meanwhile, it starts a game of its days a move.
func TestDaysSeekLifetime(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) testsite.Store{
		"memory": func(*testing.T) testsite.Store { return store.NewMemory() },
		"sqlite": func(t *testing.T) testsite.Store {
			s, err := store.OpenSQLite(context.Background(), ":memory:", store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			l := newLobby(t, open(t))
			l.seek(l.ann, lobby.SeekSettings{Clock: "3d"}) // never in the lobby
			live := l.seek(l.bob, lobby.SeekSettings{Clock: "5+3"})
			l.clk.advance(lobby.SeekAbsence + time.Minute)
			l.svc.Lobby.Sweep(l.ctx)
			seeks := l.view().Seeks
			if len(seeks) != 1 || seeks[0].Clock.Days != 3 || seeks[0].ID == live.ID {
				t.Fatalf("open after its maker left: %+v, want the correspondence seek", seeks)
			}
			l.clk.advance(lobby.DaysSeekLifetime - lobby.SeekAbsence - 2*time.Minute)
			l.svc.Lobby.Sweep(l.ctx)
			if len(l.view().Seeks) != 1 {
				t.Fatal("the correspondence seek ended before its lifetime")
			}
			game, err := l.svc.Lobby.AcceptSeek(l.ctx, l.bob, seeks[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if rec := l.record(game); rec.Clock == nil || rec.Clock.Control != games.DaysPerMove(3) {
				t.Errorf("the game's clock: %+v", rec.Clock)
			}
			l.seek(l.ann, lobby.SeekSettings{Clock: "unlimited"})
			l.clk.advance(lobby.DaysSeekLifetime + time.Second)
			l.svc.Lobby.Sweep(l.ctx)
			if n := len(l.view().Seeks); n != 0 {
				t.Errorf("%d seeks open past the correspondence lifetime", n)
			}
		})
	}
}
