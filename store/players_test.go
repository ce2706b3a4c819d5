package store

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/lobby"

	"github.com/banchess/banchess/players"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/rating"
	"github.com/banchess/banchess/rules"
)

// banMate is a game from the start to White's checkmate by a ban.
var banMate = []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:f1c4", "m:d1h5", "b:g7g6", "m:b8c6", "b:h5e5", "m:h5f7", "b:e8f7"}

// addPlayer stores a player, named name ("" for none), with a credential
// whose hash is "cred-"+id, and returns its id.
func addPlayer(t *testing.T, s fullStore, id, name string) string {
	t.Helper()
	p := players.Player{ID: id, Name: name, Created: epoch}
	if name != "" {
		p.Password = "hash-of-" + name
	}
	if err := s.AddPlayer(context.Background(), p, players.Issued{Hash: "cred-" + id, Player: id, Kind: players.Cookie, Created: epoch}); err != nil {
		t.Fatalf("adding %s: %v", id, err)
	}
	return id
}

// twoPlayerGame stores a game between white and black, rated or not, with
// a 5+3 clock, ending at ended, and returns its id.
func twoPlayerGame(t *testing.T, s fullStore, white, black string, rated bool, ended time.Time) string {
	t.Helper()
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: white, Black: black, Mode: games.Invite, Created: epoch, Updated: ended, Revision: 1}
	rec.Clock = games.NewClock(games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second})
	rec.Rated = rated
	rec.WhitePlayer, rec.BlackPlayer = games.Entrant{Name: "W-" + white}, games.Entrant{Name: "B-" + black}
	if err := s.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

func refusedWith(t *testing.T, what string, err error, code errs.Code, detail errs.Detail) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s %q", what, code, detail)
		return
	}
	if e := errs.Of(err); e.Code != code || e.Detail != detail {
		t.Errorf("%s: %v (code %s, detail %q), want %s %q", what, err, e.Code, e.Detail, code, detail)
	}
}

// playerBehaviours are what every store does with players, results and
// the lobby.
var playerBehaviours = []struct {
	name string
	test func(t *testing.T, s fullStore)
}{
	{"credentials belong to players until revoked", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann := addPlayer(t, s, "p-ann", "")
		addPlayer(t, s, "p-bob", "")
		if err := s.Issue(ctx, players.Issued{Hash: "second", Player: ann, Kind: players.Token, Created: epoch}); err != nil {
			t.Fatal(err)
		}
		err := s.Issue(ctx, players.Issued{Hash: "stray", Player: "p-nobody", Kind: players.Token, Created: epoch})
		refusedWith(t, "issuing to no player", err, errs.NotFound, "no_player")
		holds := func(hash, want string) {
			t.Helper()
			if got, err := s.CredentialPlayer(ctx, hash); err != nil || got != want {
				t.Errorf("CredentialPlayer(%q) = %q, %v; want %q", hash, got, err, want)
			}
		}
		holds("cred-p-ann", ann)
		holds("second", ann)
		holds("cred-p-bob", "p-bob")
		holds("stray", "")
		holds("", "")
		if p, err := s.Player(ctx, ann); err != nil || p.ID != ann || p.Named() || !p.Created.Equal(epoch) {
			t.Errorf("Player: %+v, %v", p, err)
		}
		if _, err := s.Player(ctx, "p-nobody"); errs.Of(err).Code != errs.NotFound {
			t.Errorf("Player of no one: %v", err)
		}
		if err := s.Revoke(ctx, "cred-p-ann", false); err != nil {
			t.Fatal(err)
		}
		holds("cred-p-ann", "")
		holds("second", ann)
		if err := s.Revoke(ctx, "cred-p-ann", true); err != nil { // revoked already: nothing to do
			t.Fatal(err)
		}
		holds("second", ann)
		if err := s.Issue(ctx, players.Issued{Hash: "third", Player: ann, Kind: players.Cookie, Created: epoch}); err != nil {
			t.Fatal(err)
		}
		if err := s.Revoke(ctx, "second", true); err != nil {
			t.Fatal(err)
		}
		holds("second", "")
		holds("third", "")
		holds("cred-p-bob", "p-bob")
	}},
	{"a credential keeps its scopes; a player becomes a bot once, unless rated games were played", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob, cid := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob"), addPlayer(t, s, "p-cid", "Cid")
		limited := players.Scopes{players.BoardPlay, players.BotPlay}
		if err := s.Issue(ctx, players.Issued{Hash: "limited", Player: ann, Kind: players.Token, Created: epoch, Scopes: limited}); err != nil {
			t.Fatal(err)
		}
		for hash, want := range map[string]players.Scopes{"limited": limited, "cred-p-ann": nil} {
			iss, ok, err := s.Credential(ctx, hash)
			if err != nil || !ok || iss.Player != ann || iss.Scopes.String() != want.String() || !iss.Created.Equal(epoch) {
				t.Errorf("Credential(%q) = %+v, %v, %v; want scopes %q", hash, iss, ok, err, want)
			}
		}
		if _, ok, err := s.Credential(ctx, "no-such"); ok || err != nil {
			t.Errorf("Credential of none: %v, %v", ok, err)
		}
		if err := s.SetBot(ctx, ann); err != nil {
			t.Fatal(err)
		}
		if p, err := s.Player(ctx, ann); err != nil || !p.Bot {
			t.Errorf("after SetBot: %+v, %v", p, err)
		}
		refusedWith(t, "a bot again", s.SetBot(ctx, ann), errs.Forbidden, errs.BotNotAllowed)
		id := twoPlayerGame(t, s, bob, cid, true, epoch.Add(time.Hour))
		play(t, s, id, banMate...)
		refusedWith(t, "a player with a rated game", s.SetBot(ctx, bob), errs.Forbidden, errs.BotNotAllowed)
		if p, err := s.PlayerNamed(ctx, "bob"); err != nil || p.Bot {
			t.Errorf("refused, Bob: %+v, %v", p, err)
		}
		refusedWith(t, "no one", s.SetBot(ctx, "p-nobody"), errs.NotFound, errs.NoPlayer)
	}},
	{"names are unique in any case", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		addPlayer(t, s, "p-ann", "Ann")
		err := s.AddPlayer(ctx, players.Player{ID: "p-ann2", Name: "ANN", Created: epoch}, players.Issued{Hash: "h2", Player: "p-ann2", Created: epoch})
		refusedWith(t, "a second Ann", err, errs.Conflict, "name_taken")
		if p, _ := s.CredentialPlayer(ctx, "h2"); p != "" {
			t.Error("a refused player's credential was kept")
		}
		anon := addPlayer(t, s, "p-anon", "")
		naming := func(id, name, pw, issued string) players.Naming {
			return players.Naming{Player: id, Name: name, Password: pw, Issued: players.Issued{Hash: issued, Player: id, Kind: players.Cookie, Created: epoch}, Revoked: "cred-" + id}
		}
		refusedWith(t, "naming anon ann", s.SetName(ctx, naming(anon, "aNN", "pw", "refused")), errs.Conflict, "name_taken")
		for hash, want := range map[string]string{"refused": "", "cred-p-anon": anon} {
			if p, _ := s.CredentialPlayer(ctx, hash); p != want {
				t.Errorf("after a refused naming, %s is %q's, want %q's", hash, p, want)
			}
		}
		if err := s.SetName(ctx, naming(anon, "Bob_2", "bob's hash", "bob's new")); err != nil {
			t.Fatal(err)
		}
		// The credential named is replaced by the one issued.
		for hash, want := range map[string]string{"bob's new": anon, "cred-p-anon": ""} {
			if p, _ := s.CredentialPlayer(ctx, hash); p != want {
				t.Errorf("after naming, %s is %q's, want %q's", hash, p, want)
			}
		}
		refusedWith(t, "naming bob again", s.SetName(ctx, naming(anon, "Carl", "pw", "again")), errs.Conflict, "named")
		refusedWith(t, "naming no one", s.SetName(ctx, naming("p-nobody", "Dora", "pw", "nobody's")), errs.NotFound, "no_player")
		// Another player's credential is not revoked by a naming.
		cat := addPlayer(t, s, "p-cat", "")
		other := naming(cat, "Cat", "pw", "cat's new")
		other.Revoked = "cred-p-ann"
		if err := s.SetName(ctx, other); err != nil {
			t.Fatal(err)
		}
		if p, _ := s.CredentialPlayer(ctx, "cred-p-ann"); p != "p-ann" {
			t.Errorf("naming Cat revoked Ann's credential: %q", p)
		}
		p, err := s.PlayerNamed(ctx, "BOB_2")
		if err != nil || p.ID != anon || p.Name != "Bob_2" || p.Password != "bob's hash" {
			t.Errorf("PlayerNamed(BOB_2) = %+v, %v", p, err)
		}
		if p, err := s.PlayerNamed(ctx, "ann"); err != nil || p.Name != "Ann" {
			t.Errorf("PlayerNamed(ann) = %+v, %v", p, err)
		}
		for _, nobody := range []string{"Carl", "", "Bob_"} {
			if _, err := s.PlayerNamed(ctx, nobody); errs.Of(err).Code != errs.NotFound {
				t.Errorf("PlayerNamed(%q): %v", nobody, err)
			}
		}
	}},
	{"a finished game records its result once", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob")
		id := twoPlayerGame(t, s, ann, bob, true, epoch.Add(time.Hour))
		play(t, s, id, banMate...)
		check := func(when string) {
			t.Helper()
			a, _ := s.Standings(ctx, ann)
			b, _ := s.Standings(ctx, bob)
			if len(a) != 1 || len(b) != 1 || a[0].Games != 1 || b[0].Games != 1 || a[0].Speed != rating.Blitz || a[0].Variant != "ban" {
				t.Fatalf("%s: standings %+v and %+v", when, a, b)
			}
			if a[0].Rating.Rating <= 1500 || b[0].Rating.Rating >= 1500 || !a[0].Last.Equal(epoch.Add(time.Hour)) {
				t.Errorf("%s: the winner %+v, the loser %+v", when, a[0], b[0])
			}
			pa, _ := s.Player(ctx, ann)
			pb, _ := s.Player(ctx, bob)
			if pa.Wins != 1 || pa.Losses != 0 || pb.Losses != 1 || pb.Wins+pb.Draws+pa.Draws != 0 {
				t.Errorf("%s: results %+v, %+v", when, pa, pb)
			}
			list, err := s.PlayedGames(ctx, ann, players.PlayedGamesCursor{}, 10)
			if err != nil || len(list) != 1 {
				t.Fatalf("%s: ann's games %+v, %v", when, list, err)
			}
			g := list[0]
			if g.Game != id || g.Color != rules.White || g.Opponent != "B-p-bob" || g.Score != rating.Win || g.Result != "1-0" || !g.Rated ||
				g.Before != 1500 || g.After <= 1500 || g.Speed != rating.Blitz || !g.Ended.Equal(epoch.Add(time.Hour)) || !strings.Contains(g.Ending, "checkmate") || g.FEN == "" {
				t.Errorf("%s: ann's game %+v", when, g)
			}
			if one, ok, err := s.PlayedGame(ctx, ann, id); err != nil || !ok || one != g {
				t.Errorf("%s: ann's game read alone: %+v, %v, %v; want %+v", when, one, ok, err, g)
			}
			if _, ok, err := s.PlayedGame(ctx, ann, "no-such-game"); err != nil || ok {
				t.Errorf("%s: a game ann did not play: %v, %v", when, ok, err)
			}
		}
		check("at the end")
		update(t, s, id, func(r *games.Record) error { r.Offers.Rematch = rules.Black; r.Revision++; return nil })
		check("after an offer")
		// Taken back and finished again: recorded once all the same.
		update(t, s, id, func(r *games.Record) error { return r.Game.Undo() })
		play(t, s, id, "b:e8f7")
		check("finished again")
	}},
	{"a casual game is listed, not rated; a hot-seat game neither", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "")
		id := twoPlayerGame(t, s, ann, bob, false, epoch)
		play(t, s, id, "b:e2e4")
		update(t, s, id, func(r *games.Record) error { return r.Game.AgreeDraw() })
		hot := create(t, s, rules.New(rules.BanChess{}), ann)
		update(t, s, hot, func(r *games.Record) error { return r.Game.Resign(rules.White) })
		if st, _ := s.Standings(ctx, ann); len(st) != 0 {
			t.Errorf("standings after a casual game: %+v", st)
		}
		list, _ := s.PlayedGames(ctx, bob, players.PlayedGamesCursor{}, 10)
		if len(list) != 1 || list[0].Game != id || list[0].Rated || list[0].Score != rating.Draw || list[0].Before != 0 || list[0].Color != rules.Black {
			t.Errorf("bob's games: %+v", list)
		}
		if p, _ := s.Player(ctx, ann); p.Draws != 1 || p.Wins+p.Losses != 0 {
			t.Errorf("ann's results: %+v", p)
		}
	}},
	{"played games: newest first, page by page", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob")
		ids := map[string]bool{}
		for i := range 5 {
			// Two games end at the same millisecond: the id orders them.
			id := twoPlayerGame(t, s, ann, bob, false, epoch.Add(time.Duration(i/2)*time.Minute))
			update(t, s, id, func(r *games.Record) error { return r.Game.Resign(rules.Black) })
			ids[id] = true
		}
		all, err := s.PlayedGames(ctx, ann, players.PlayedGamesCursor{}, 10)
		if err != nil || len(all) != 5 || !ids[all[0].Game] || !ids[all[4].Game] {
			t.Fatalf("all: %+v, %v", all, err)
		}
		for i := 1; i < len(all); i++ {
			a, b := all[i-1], all[i]
			if a.Ended.Before(b.Ended) || a.Ended.Equal(b.Ended) && a.Game < b.Game {
				t.Errorf("not newest first: %v %s, then %v %s", a.Ended, a.Game, b.Ended, b.Game)
			}
		}
		var paged []string
		cursor := players.PlayedGamesCursor{}
		for range 4 {
			page, err := s.PlayedGames(ctx, ann, cursor, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range page {
				paged = append(paged, g.Game)
			}
			if len(page) < 2 {
				break
			}
			cursor = players.PlayedGamesCursor{Ended: page[len(page)-1].Ended, Game: page[len(page)-1].Game}
		}
		var want []string
		for _, g := range all {
			want = append(want, g.Game)
		}
		if strings.Join(paged, " ") != strings.Join(want, " ") {
			t.Errorf("paged %q, want %q", paged, want)
		}
	}},
	{"leaders: ten rated games or more, highest first", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob, cat := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob"), addPlayer(t, s, "p-cat", "Cat")
		// Each game is resigned once each side has made its first action
		// (before, it would count for no rating).
		for i := range 10 {
			id := twoPlayerGame(t, s, ann, bob, true, epoch.Add(time.Duration(i)*time.Minute))
			play(t, s, id, "b:e2e4", "m:d2d4")
			update(t, s, id, func(r *games.Record) error { return r.Game.Resign(rules.Black) })
		}
		for i := range 9 {
			id := twoPlayerGame(t, s, cat, ann, true, epoch.Add(time.Duration(20+i)*time.Minute))
			play(t, s, id, "b:e2e4", "m:d2d4")
			update(t, s, id, func(r *games.Record) error { return r.Game.Resign(rules.Black) })
		}
		list, err := s.Leaders(ctx, "ban", rating.Blitz, 10, 50)
		if err != nil || len(list) != 2 || list[0].Name != "Cat" && list[0].Name != "Ann" {
			t.Fatalf("leaders %+v, %v", list, err)
		}
		var names []string
		for _, l := range list {
			names = append(names, l.Name)
			if l.Standing.Games < 10 {
				t.Errorf("a leader with %d games", l.Standing.Games)
			}
		}
		if names[0] != "Ann" || names[1] != "Bob" || list[0].Standing.Rating.Rating <= list[1].Standing.Rating.Rating {
			t.Errorf("leaders %v: %+v", names, list)
		}
		if l, _ := s.Leaders(ctx, "ban", rating.Blitz, 10, 1); len(l) != 1 || l[0].Name != "Ann" {
			t.Errorf("the top one: %+v", l)
		}
		if l, _ := s.Leaders(ctx, "ban", rating.Rapid, 10, 50); len(l) != 0 {
			t.Errorf("rapid leaders: %+v", l)
		}
	}},
	{"attempts: counted to each key's limit for its window, forgotten when they succeed or get old", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		sec := func(n float64) time.Time { return epoch.Add(time.Duration(n * float64(time.Second))) }
		c := func(key string, limit int, window time.Duration) players.Counter {
			return players.Counter{Key: key, Max: limit, Window: window}
		}
		start := func(id string, at time.Time, counters ...players.Counter) *players.Refused {
			t.Helper()
			refused, err := s.StartAttempt(ctx, players.Attempt{ID: id, At: at, Counters: counters})
			if err != nil {
				t.Fatalf("attempt %s: %v", id, err)
			}
			return refused
		}
		refusedBy := func(what string, got *players.Refused, counter int, until ...time.Time) {
			t.Helper()
			if got == nil || got.Counter != counter || len(got.Until) != len(until) {
				t.Errorf("%s: refused %+v, want by counter %d, until %v", what, got, counter, until)
				return
			}
			for i := range until {
				if !got.Until[i].Equal(until[i]) {
					t.Errorf("%s: refused %+v, want until %v", what, got, until)
				}
			}
		}
		const w = 10 * time.Second
		for i := range 3 {
			if refused := start(fmt.Sprint(i), sec(float64(i)), c("name:ann", 3, w), c("addr:1", 3, w)); refused != nil {
				t.Fatalf("attempt %d refused: %+v", i, refused)
			}
		}
		// A key at its limit refuses an attempt, counted under no key.
		refusedBy("over the limit", start("x", sec(3), c("name:bob", 3, w), c("addr:1", 3, w)), 1, sec(10), sec(11), sec(12))
		// A success is forgotten.
		if err := s.ForgetAttempt(ctx, players.Attempt{ID: "1", At: sec(1), Counters: []players.Counter{c("name:ann", 3, w), c("addr:1", 3, w)}}); err != nil {
			t.Fatal(err)
		}
		refusedBy("after a success was forgotten", start("z", sec(3), c("addr:3", 2, w), c("name:ann", 2, w)), 1, sec(10), sec(12))
		// Bob's attempt was not counted.
		if refused := start("bob", sec(4), c("name:bob", 1, w)); refused != nil {
			t.Fatalf("Bob's first attempt refused: %+v", refused)
		}
		// Each key counts for its own window: an hour under one, ten
		// seconds under the other.
		if refused := start("long", sec(4), c("name:cat", 5, time.Hour), c("addr:1", 5, w)); refused != nil {
			t.Fatalf("an attempt refused: %+v", refused)
		}
		// At 12 s the attempts at 0 and 2 s no longer count (nor at 1 s,
		// forgotten): the one at 4 s does, until 14 s.
		refusedBy("at 12 s", start("y", sec(12), c("addr:1", 1, w)), 0, sec(14))
		refusedBy("the hour's", start("v", sec(20), c("name:cat", 1, time.Hour)), 0, sec(4).Add(time.Hour))
		if refused := start("u", sec(20), c("addr:1", 1, w), c("name:ann", 1, w)); refused != nil {
			t.Errorf("after their windows: refused %+v", refused)
		}
	}},
	{"server keys: made the first time, the same after", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		a, err := s.ServerKey(ctx, "a")
		if err != nil || len(a) != 32 {
			t.Fatalf("key a: %x, %v", a, err)
		}
		again, err := s.ServerKey(ctx, "a")
		if err != nil || !bytes.Equal(a, again) {
			t.Errorf("key a again: %x, %v; want %x", again, err, a)
		}
		if b, err := s.ServerKey(ctx, "b"); err != nil || len(b) != 32 || bytes.Equal(a, b) {
			t.Errorf("key b: %x, %v", b, err)
		}
	}},
	{"seeks: added, listed while open, cancelled by their maker", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "")
		open := lobby.SeekWindow{AliveSince: epoch.Add(-30 * time.Second), CreatedSince: epoch.Add(-30 * time.Minute)}
		var ids []string
		for i := range 3 {
			k := seek(ann, "", epoch.Add(time.Duration(i)*time.Millisecond))
			if err := s.AddSeek(ctx, k, open, lobby.SeekLimits{PerPlayer: 3}); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, k.ID)
		}
		refusedWith(t, "a fourth seek", s.AddSeek(ctx, seek(ann, "", epoch), open, lobby.SeekLimits{PerPlayer: 3}), errs.Conflict, "too_many_seeks")
		pool := seek(ann, "5+3", epoch.Add(time.Second))
		if _, _, err := s.Pair(ctx, lobby.PairRequest{Taker: ann, Pool: "5+3", Wait: pool, Open: open, At: epoch, Game: pairedGame}); err != nil {
			t.Fatal(err)
		}
		stale := seek(bob, "", epoch.Add(-time.Minute)) // its maker left a minute ago
		if err := s.AddSeek(ctx, stale, open, lobby.SeekLimits{PerPlayer: 3}); err != nil {
			t.Fatal(err)
		}
		seeksAre(t, s, open, append(ids, pool.ID)...)
		got, _ := s.Seeks(ctx, open)
		if k, want := got[0], seek(ann, "", epoch); k.ID != want.ID || k.Player != ann || k.Name != want.Name || k.Rating != 1500 || !k.Provisional ||
			k.Variant != "ban" || k.Clock != want.Clock || k.Color != rules.White || !k.Rated || k.Pool != "" || !k.Created.Equal(epoch) || !k.Alive.Equal(epoch) || k.Game != "" {
			t.Errorf("read back %+v", k)
		}
		refusedWith(t, "cancelling another's seek", s.CancelSeek(ctx, ids[0], bob), errs.NotFound, "seek_gone")
		if err := s.CancelSeek(ctx, ids[0], ann); err != nil {
			t.Fatal(err)
		}
		refusedWith(t, "cancelling twice", s.CancelSeek(ctx, ids[0], ann), errs.NotFound, "seek_gone")
		seeksAre(t, s, open, ids[1], ids[2], pool.ID)
		// Kept alive by its maker's lobby page, the stale one is open again;
		// swept, the gone ones go.
		if err := s.TouchSeeks(ctx, []string{bob}, epoch, "server:a"); err != nil {
			t.Fatal(err)
		}
		seeksAre(t, s, open, stale.ID, ids[1], ids[2], pool.ID)
		later := lobby.SeekWindow{AliveSince: epoch.Add(2 * time.Millisecond), CreatedSince: epoch.Add(-30 * time.Minute)}
		if n, err := s.SweepSeeks(ctx, later, epoch); err != nil || n != 2 {
			t.Errorf("swept %d, %v; want 2", n, err)
		}
		seeksAre(t, s, open, ids[2], pool.ID)
	}},
	{"seeks from one address are bounded, custom and in pools, while open", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		open := lobby.SeekWindow{AliveSince: epoch.Add(-30 * time.Second), CreatedSince: epoch.Add(-30 * time.Minute)}
		limits := lobby.SeekLimits{PerPlayer: 3, PerAddress: 4}
		from := func(k lobby.Seek, addr string) lobby.Seek { k.Address = addr; return k }
		var first string
		for i, name := range []string{"a", "b", "c"} {
			p := addPlayer(t, s, "p-"+name, "")
			k := from(seek(p, "", epoch.Add(time.Duration(i)*time.Millisecond)), "10.0.0.1")
			if err := s.AddSeek(ctx, k, open, limits); err != nil {
				t.Fatal(err)
			}
			first = cmp.Or(first, k.ID)
		}
		d := addPlayer(t, s, "p-d", "")
		wait := from(seek(d, "5+3", epoch), "10.0.0.1")
		if _, _, err := s.Pair(ctx, lobby.PairRequest{Taker: d, Pool: "5+3", Wait: wait, Limits: limits, Open: open, At: epoch, Game: pairedGame}); err != nil {
			t.Fatal(err)
		}
		e := addPlayer(t, s, "p-e", "")
		refusedWith(t, "a fifth seek from the address", s.AddSeek(ctx, from(seek(e, "", epoch), "10.0.0.1"), open, limits), errs.TooMany, "seeks_from_address")
		_, _, err := s.Pair(ctx, lobby.PairRequest{Taker: e, Pool: "3+2", Wait: from(seek(e, "3+2", epoch), "10.0.0.1"), Limits: limits, Open: open, At: epoch, Game: pairedGame})
		refusedWith(t, "a fifth seek from the address, in a pool", err, errs.TooMany, "seeks_from_address")
		if err := s.AddSeek(ctx, from(seek(e, "", epoch), "10.0.0.2"), open, limits); err != nil {
			t.Errorf("a seek from another address: %v", err)
		}
		// A seek gone frees its place.
		if err := s.CancelSeek(ctx, first, "p-a"); err != nil {
			t.Fatal(err)
		}
		if err := s.AddSeek(ctx, from(seek(e, "", epoch.Add(time.Second)), "10.0.0.1"), open, limits); err != nil {
			t.Errorf("a seek from the address once one is cancelled: %v", err)
		}
	}},
	{"a seek is accepted once", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob, cat := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob"), addPlayer(t, s, "p-cat", "")
		open := lobby.SeekWindow{AliveSince: epoch.Add(-30 * time.Second), CreatedSince: epoch.Add(-30 * time.Minute)}
		k, other := seek(ann, "", epoch), seek(ann, "", epoch.Add(time.Millisecond))
		bobs := seek(bob, "3+2", epoch)
		for _, x := range []lobby.Seek{k, other} {
			if err := s.AddSeek(ctx, x, open, lobby.SeekLimits{PerPlayer: 3}); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := s.Pair(ctx, lobby.PairRequest{Taker: bob, Pool: "3+2", Wait: bobs, Open: open, At: epoch, Game: pairedGame}); err != nil {
			t.Fatal(err)
		}
		refused := lobby.PairRequest{Taker: cat, Seek: k.ID, Open: open, At: epoch, Game: func(lobby.Seek, games.Seated, games.Seated) (*games.Record, error) {
			return nil, &errs.Error{Code: errs.Forbidden, Detail: "name_needed", Msg: "no"}
		}}
		if _, _, err := s.Pair(ctx, refused); errs.Of(err).Detail != "name_needed" {
			t.Errorf("a refused pairing: %v", err)
		}
		seeksAre(t, s, open, k.ID, bobs.ID, other.ID)
		at := epoch.Add(time.Second)
		rec, got, err := s.Pair(ctx, lobby.PairRequest{Taker: bob, Seek: k.ID, Open: open, At: at, Game: pairedGame})
		if err != nil || rec == nil || rec.ID == "" || got.ID != k.ID || got.Game != rec.ID || got.Acceptor != bob || !got.Accepted.Equal(at) {
			t.Fatalf("accepted: %+v, %+v, %v", rec, got, err)
		}
		if r := viewRecord(t, s, rec.ID); r.White != ann || r.Black != bob || r.Mode != games.Invite || !r.Rated || r.WhitePlayer.Name != "Ann" || r.BlackPlayer.Name != "Bob" || r.Revision != 1 {
			t.Errorf("the game: %+v", r)
		}
		play(t, s, rec.ID, "b:e2e4") // a game like any other
		_, _, err = s.Pair(ctx, lobby.PairRequest{Taker: cat, Seek: k.ID, Open: open, At: at, Game: pairedGame})
		refusedWith(t, "accepting again", err, errs.NotFound, "seek_gone")
		seeksAre(t, s, open) // both players' other seeks went
		for _, p := range []string{ann, bob} {
			list, err := s.Pairings(ctx, p, at)
			if err != nil || len(list) != 1 || list[0].Game != rec.ID {
				t.Errorf("%s's pairings: %+v, %v", p, list, err)
			}
		}
		if list, _ := s.Pairings(ctx, ann, at.Add(time.Millisecond)); len(list) != 0 {
			t.Errorf("pairings since later: %+v", list)
		}
		if list, _ := s.Pairings(ctx, cat, epoch); len(list) != 0 {
			t.Errorf("cat's pairings: %+v", list)
		}
		if n, err := s.SweepSeeks(ctx, open, at.Add(time.Millisecond)); err != nil || n != 0 {
			t.Errorf("sweep: %d, %v", n, err)
		}
		if list, _ := s.Pairings(ctx, ann, at); len(list) != 0 {
			t.Errorf("pairings after the sweep: %+v", list)
		}
	}},
	{"a pool pairs players in turn", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob, cat := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob"), addPlayer(t, s, "p-cat", "")
		open := lobby.SeekWindow{AliveSince: epoch.Add(-30 * time.Second), CreatedSince: epoch.Add(-30 * time.Minute)}
		join := func(player string, at time.Time) (*games.Record, lobby.Seek) {
			t.Helper()
			rec, k, err := s.Pair(ctx, lobby.PairRequest{Taker: player, Pool: "5+3", Wait: seek(player, "5+3", at), Open: open, At: at, Game: pairedGame})
			if err != nil {
				t.Fatal(err)
			}
			return rec, k
		}
		rec, first := join(ann, epoch)
		if rec != nil || first.Player != ann {
			t.Fatalf("the first waits: %+v, %+v", rec, first)
		}
		rec, again := join(ann, epoch.Add(time.Second))
		if rec != nil || again.ID != first.ID || !again.Alive.Equal(epoch.Add(time.Second)) {
			t.Errorf("joining again: %+v, %+v", rec, again)
		}
		seeksAre(t, s, open, first.ID)
		rec, k := join(bob, epoch.Add(2*time.Second))
		if rec == nil || k.ID != first.ID || k.Game != rec.ID || k.Acceptor != bob {
			t.Fatalf("the second is paired: %+v, %+v", rec, k)
		}
		if r := viewRecord(t, s, rec.ID); !(r.White == ann && r.Black == bob || r.White == bob && r.Black == ann) || r.Clock == nil || r.Clock.Control.Initial != 5*time.Minute {
			t.Errorf("the pool's game: %+v", r)
		}
		rec, third := join(cat, epoch.Add(3*time.Second))
		if rec != nil || third.Player != cat {
			t.Errorf("the third waits: %+v, %+v", rec, third)
		}
		seeksAre(t, s, open, third.ID)
	}},
	{"a seek ends with its server", func(t *testing.T, s fullStore) {
		ctx := context.Background()
		ann, bob, cat, dan := addPlayer(t, s, "p-ann", "Ann"), addPlayer(t, s, "p-bob", "Bob"), addPlayer(t, s, "p-cat", "Cat"), addPlayer(t, s, "p-dan", "Dan")
		at := func(d time.Duration) time.Time { return epoch.Add(d) }
		on := func(k lobby.Seek, instance string) lobby.Seek { k.Instance = instance; return k }
		unbounded := lobby.SeekWindow{AliveSince: epoch.Add(-30 * time.Second), CreatedSince: epoch.Add(-30 * time.Minute)}
		for _, b := range []struct {
			instance string
			at       time.Time
		}{{"server:a", epoch}, {"server:b", epoch}, {"server:b", at(5 * time.Second)}, {"server:b", at(time.Second)}} {
			if err := s.Beat(ctx, b.instance, b.at); err != nil {
				t.Fatal(err)
			}
		}
		annA, bobB, legacy := on(seek(ann, "", epoch), "server:a"), on(seek(bob, "", epoch), "server:b"), seek(dan, "", epoch)
		for _, k := range []lobby.Seek{annA, bobB, legacy} {
			if err := s.AddSeek(ctx, k, unbounded, lobby.SeekLimits{PerPlayer: 3}); err != nil {
				t.Fatal(err)
			}
		}
		catA := on(seek(cat, "3+2", epoch), "server:a")
		if rec, _, err := s.Pair(ctx, lobby.PairRequest{Taker: cat, Pool: "3+2", Wait: catA, Open: unbounded, At: epoch, Game: pairedGame}); err != nil || rec != nil {
			t.Fatalf("cat waits: %v, %v", rec, err)
		}
		now := at(6 * time.Second)
		fresh := on(seek(ann, "", now), "server:c") // a server starting: it has yet to beat
		if err := s.AddSeek(ctx, fresh, unbounded, lobby.SeekLimits{PerPlayer: 3}); err != nil {
			t.Fatal(err)
		}
		seeksAre(t, s, unbounded, annA.ID, bobB.ID, catA.ID, legacy.ID, fresh.ID)
		// Six seconds on, server a has not beaten for more than five.
		open := lobby.SeekWindow{AliveSince: now.Add(-30 * time.Second), CreatedSince: now.Add(-30 * time.Minute), BeatSince: now.Add(-5 * time.Second)}
		seeksAre(t, s, open, bobB.ID, legacy.ID, fresh.ID)
		_, _, err := s.Pair(ctx, lobby.PairRequest{Taker: dan, Seek: annA.ID, Open: open, At: now, Game: pairedGame})
		refusedWith(t, "accepting the seek of a server that died", err, errs.NotFound, "seek_gone")
		danWaits := seek(dan, "3+2", now)
		if rec, k, err := s.Pair(ctx, lobby.PairRequest{Taker: dan, Pool: "3+2", Wait: danWaits, Open: open, At: now, Game: pairedGame}); err != nil || rec != nil || k.ID != danWaits.ID {
			t.Fatalf("joining the pool where only a dead server's player waits: %+v, %+v, %v; want to wait", rec, k, err)
		}
		if n, err := s.SweepSeeks(ctx, open, epoch); err != nil || n != 2 {
			t.Errorf("swept %d, %v; want the dead server's 2", n, err)
		}
		seeksAre(t, s, unbounded, bobB.ID, legacy.ID, fresh.ID, danWaits.ID)
		// A player present on a live server keeps their seeks there.
		if err := s.TouchSeeks(ctx, []string{bob}, now, "server:c"); err != nil {
			t.Fatal(err)
		}
		later := lobby.SeekWindow{AliveSince: now, CreatedSince: now.Add(-30 * time.Minute), BeatSince: now.Add(time.Second)}
		if err := s.Beat(ctx, "server:c", now.Add(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		seeksAre(t, s, later, bobB.ID, fresh.ID, danWaits.ID)
		if got, _ := s.Seeks(ctx, later); len(got) == 0 || got[0].Instance != "server:c" {
			t.Errorf("bob's seek, touched on server c: %+v", got)
		}
	}},
}

// seek is a custom seek by player (or a pool's, with pool) made at at.
func seek(player, pool string, at time.Time) lobby.Seek {
	k := lobby.Seek{ID: fmt.Sprintf("k-%s-%s-%d", player, pool, at.UnixNano()), Player: player, Name: strings.TrimPrefix(player, "p-"), Rating: 1500, Provisional: true,
		Variant: "ban", Clock: games.TimeControl{Initial: 5 * time.Minute, Increment: 3 * time.Second}, Color: rules.White, Rated: true, Pool: pool, Created: at, Alive: at}
	if pool != "" {
		k.Color = 0
	}
	return k
}

// pairedGame builds the game of a pairing: the maker White, rated.
func pairedGame(k lobby.Seek, maker, taker games.Seated) (*games.Record, error) {
	rec := &games.Record{Game: rules.New(rules.BanChess{}), White: maker.Player.ID, Black: taker.Player.ID, Mode: games.Invite, Created: epoch, Updated: epoch, Revision: 1}
	rec.Clock = games.NewClock(k.Clock)
	rec.Rated = true
	rec.WhitePlayer, rec.BlackPlayer = games.Entrant{Name: maker.Player.Name}, games.Entrant{Name: taker.Player.Name}
	return rec, nil
}

// seeksAre checks the open seeks are ids, in that order.
func seeksAre(t *testing.T, s fullStore, open lobby.SeekWindow, ids ...string) {
	t.Helper()
	list, err := s.Seeks(context.Background(), open)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range list {
		got = append(got, k.ID)
	}
	if strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Errorf("open seeks %q, want %q", got, ids)
	}
}

func TestPlayerStores(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			for _, b := range playerBehaviours {
				t.Run(b.name, func(t *testing.T) {
					b.test(t, st.open(t))
				})
			}
		})
	}
}
