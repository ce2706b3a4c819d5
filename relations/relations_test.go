package relations_test

import (
	"context"
	"testing"
	"time"

	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/relations"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// clock is a manual clock.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type env struct {
	t             *testing.T
	ctx           context.Context
	site          testsite.Site
	clk           *clock
	ann, bob, cat players.Credential
	anon          players.Credential
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), clk: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}}
	e.site = testsite.New(store.NewMemory(), testsite.Config{Now: e.clk.Now, LobbyAsMain: true})
	t.Cleanup(e.site.Close)
	for _, p := range []struct {
		cred *players.Credential
		name string
	}{{&e.ann, "ann"}, {&e.bob, "bob"}, {&e.cat, "cat"}} {
		in, err := e.site.Players.Register(e.ctx, players.SignUp{Name: p.name, Password: "a long enough password", Kind: players.Token})
		if err != nil {
			t.Fatal(err)
		}
		*p.cred = in.Credential
	}
	anon, _, err := e.site.Players.NewPlayer(e.ctx, players.Token)
	if err != nil {
		t.Fatal(err)
	}
	e.anon = anon
	return e
}

// TestRefusals: who may follow and block whom, each refusal with its
// code, and nothing changed by one.
func TestRefusals(t *testing.T) {
	e := newEnv(t)
	svc := e.site.Relations
	for _, c := range []struct {
		name   string
		cred   players.Credential
		target string
		code   errs.Code
		detail errs.Detail
	}{
		{"no credential", "", "bob", errs.Unauthorized, ""},
		{"a credential never issued", "junk", "bob", errs.Unauthorized, ""},
		{"an anonymous player", e.anon, "bob", errs.Forbidden, errs.NameNeeded},
		{"oneself", e.ann, "ann", errs.Invalid, errs.SelfRelation},
		{"oneself in another case", e.ann, "ANN", errs.Invalid, errs.SelfRelation},
		{"no such player", e.ann, "nobody42", errs.NotFound, errs.NoPlayer},
		{"not a name", e.ann, "<script>", errs.NotFound, errs.NoPlayer},
	} {
		for _, act := range []struct {
			name string
			do   func(context.Context, players.Credential, string) error
		}{{"follow", svc.Follow}, {"unfollow", svc.Unfollow}, {"block", svc.Block}, {"unblock", svc.Unblock}} {
			err := act.do(e.ctx, c.cred, c.target)
			if e := errs.Of(err); err == nil || e.Code != c.code || e.Detail != c.detail {
				t.Errorf("%s: %s: %v (%s/%s), want %s/%s", c.name, act.name, err, e.Code, e.Detail, c.code, c.detail)
			}
		}
	}
	if list, err := svc.Following(e.ctx, e.ann); err != nil || len(list) != 0 {
		t.Errorf("after refusals ann follows %+v, %v", list, err)
	}
	if _, err := svc.Following(e.ctx, e.anon); errs.Of(err).Detail != errs.NameNeeded {
		t.Errorf("an anonymous player's list: %v", err)
	}
}

// TestFollowing: a follow is listed once, the latest first, in any case
// of the name; who is playing now and online; a block ends the follow;
// Blocks sees a block either way, and the limits hold.
func TestFollowing(t *testing.T) {
	e := newEnv(t)
	svc := e.site.Relations
	ctx := e.ctx
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.Follow(ctx, e.ann, "bob"))
	e.clk.t = e.clk.t.Add(time.Second)
	must(svc.Follow(ctx, e.ann, "CAT"))
	must(svc.Follow(ctx, e.ann, "bob")) // again
	names := func() []string {
		list, err := svc.Following(ctx, e.ann)
		must(err)
		var out []string
		for _, f := range list {
			out = append(out, f.Name)
		}
		return out
	}
	if got := names(); len(got) != 2 || got[0] != "cat" || got[1] != "bob" {
		t.Errorf("ann follows %q, want cat, bob", got)
	}
	if r, err := svc.Relation(ctx, e.ann, "Bob"); err != nil || !r.Follows || r.Blocks {
		t.Errorf("ann's relation to bob: %+v, %v", r, err)
	}
	if r, err := svc.Relation(ctx, e.anon, "Bob"); err != nil || r != (relations.Relation{}) {
		t.Errorf("an anonymous player's relation: %+v, %v", r, err)
	}

	// bob plays cat: both are playing it, and online.
	id, code, _, err := e.site.Games.CreateInvite(ctx, e.bob, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	must(err)
	_, err = e.site.Games.Join(ctx, id, e.cat, code)
	must(err)
	list, err := svc.Following(ctx, e.ann)
	must(err)
	for _, f := range list {
		if f.Closed {
			t.Errorf("%s is closed", f.Name)
		}
		if f.Playing != id || !f.Online {
			t.Errorf("%s: playing %q, online %v; want %s", f.Name, f.Playing, f.Online, id)
		}
	}
	e.clk.t = e.clk.t.Add(relations.PlayingWithin + time.Minute)
	list, err = svc.Following(ctx, e.ann)
	must(err)
	for _, f := range list {
		if f.Playing != "" || f.Online {
			t.Errorf("%s, long after: playing %q, online %v", f.Name, f.Playing, f.Online)
		}
	}

	bobID := func() string {
		p, err := e.site.Players.Identify(ctx, e.bob)
		must(err)
		return p.ID
	}()
	must(e.site.Players.SetClosed(ctx, bobID, true))
	if list, err := svc.Following(ctx, e.ann); err != nil || len(list) != 2 || list[1].Name != "bob" || !list[1].Closed || list[0].Closed {
		t.Errorf("bob closed: %+v, %v", list, err)
	}
	must(e.site.Players.SetClosed(ctx, bobID, false))
	must(svc.Block(ctx, e.ann, "bob"))
	if got := names(); len(got) != 1 || got[0] != "cat" {
		t.Errorf("ann blocked bob and follows %q", got)
	}
	ids := map[players.Credential]string{}
	for _, c := range []players.Credential{e.ann, e.bob, e.cat} {
		p, err := e.site.Players.Identify(ctx, c)
		must(err)
		ids[c] = p.ID
	}
	ids[e.bob] = bobID // his credential was signed out when his account was closed
	blocks := e.site.Blocks
	for _, c := range []struct {
		a, b players.Credential
		want bool
	}{{e.ann, e.bob, true}, {e.bob, e.ann, true}, {e.ann, e.cat, false}, {e.ann, e.ann, false}} {
		if got, err := blocks.Blocks(ctx, ids[c.a], ids[c.b]); err != nil || got != c.want {
			t.Errorf("Blocks(%s, %s) = %v, %v; want %v", ids[c.a], ids[c.b], got, err, c.want)
		}
	}
	list2, err := svc.Blocking(ctx, e.ann)
	if err != nil || len(list2) != 1 || list2[0].Name != "bob" {
		t.Errorf("ann blocks %+v, %v", list2, err)
	}
	if got, err := e.site.Players.Blocks(ctx, ids[e.bob], ids[e.ann]); err != nil || !got {
		t.Errorf("players.Blocks before unblocking: %v, %v", got, err)
	}
	must(svc.Unblock(ctx, e.ann, "bob"))
	if got, err := blocks.Blocks(ctx, ids[e.ann], ids[e.bob]); err != nil || got {
		t.Errorf("after unblocking: %v, %v", got, err)
	}
	if got, err := e.site.Players.Blocks(ctx, ids[e.ann], ids[e.bob]); err != nil || got {
		t.Errorf("players.Blocks after unblocking: %v, %v", got, err)
	}
}
