package moderation_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/moderation"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type env struct {
	t                  *testing.T
	ctx                context.Context
	site               testsite.Site
	clk                *clock
	ann, bob, cat, mod players.Credential
	anon               players.Credential
	game               string // a game between ann and bob
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), clk: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}}
	e.site = testsite.New(store.NewMemory(), testsite.Config{Now: func() time.Time { return e.clk.t }})
	t.Cleanup(e.site.Close)
	for _, p := range []struct {
		cred *players.Credential
		name string
	}{{&e.ann, "ann"}, {&e.bob, "bob"}, {&e.cat, "cat"}, {&e.mod, "Warden"}} {
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
	if err := e.site.Moderation.SetModerator(e.ctx, "warden", true); err != nil {
		t.Fatal(err)
	}
	id, code, _, err := e.site.Games.CreateInvite(e.ctx, e.ann, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.site.Games.Join(e.ctx, id, e.bob, code); err != nil {
		t.Fatal(err)
	}
	e.game = id
	return e
}

// say has cred say text in the players' room, and returns its seq.
func (e *env) say(cred players.Credential, text string) int64 {
	e.t.Helper()
	e.clk.t = e.clk.t.Add(10 * time.Second)
	l, err := e.site.Chat.Post(e.ctx, e.game, cred, chat.PlayerRoom, text)
	if err != nil {
		e.t.Fatal(err)
	}
	return l.Seq
}

func refusedAs(t *testing.T, what string, err error, code errs.Code, detail errs.Detail) {
	t.Helper()
	if e := errs.Of(err); err == nil || e.Code != code || e.Detail != detail {
		t.Errorf("%s: %v, want %s/%s", what, err, code, detail)
	}
}

// TestReports: who may report what, each refusal with its code; a line
// is reported with its writer, a player by name.
func TestReports(t *testing.T) {
	e := newEnv(t)
	m := e.site.Moderation
	seq := e.say(e.bob, "you are bad")
	for _, c := range []struct {
		what   string
		do     func() error
		code   errs.Code
		detail errs.Detail
	}{
		{"no credential", func() error { _, err := m.ReportPlayer(e.ctx, "", "bob", "abuse", ""); return err }, errs.Unauthorized, ""},
		{"an anonymous player", func() error { _, err := m.ReportPlayer(e.ctx, e.anon, "bob", "abuse", ""); return err }, errs.Forbidden, errs.NameNeeded},
		{"no reason", func() error { _, err := m.ReportPlayer(e.ctx, e.ann, "bob", "", ""); return err }, errs.Invalid, errs.BadReason},
		{"another reason", func() error { _, err := m.ReportPlayer(e.ctx, e.ann, "bob", "rude", ""); return err }, errs.Invalid, errs.BadReason},
		{"a long text", func() error {
			_, err := m.ReportPlayer(e.ctx, e.ann, "bob", "abuse", strings.Repeat("x", 501))
			return err
		}, errs.Invalid, errs.BadReportText},
		{"oneself", func() error { _, err := m.ReportPlayer(e.ctx, e.ann, "ANN", "other", ""); return err }, errs.Invalid, errs.SelfRelation},
		{"no such player", func() error { _, err := m.ReportPlayer(e.ctx, e.ann, "nobody", "other", ""); return err }, errs.NotFound, errs.NoPlayer},
		{"no such line", func() error {
			_, err := m.ReportLine(e.ctx, e.ann, e.game, chat.PlayerRoom, 99, "abuse", "")
			return err
		}, errs.NotFound, errs.NoLine},
		{"a line of a room not theirs", func() error {
			_, err := m.ReportLine(e.ctx, e.cat, e.game, chat.PlayerRoom, seq, "abuse", "")
			return err
		}, errs.Invalid, errs.ChatRoom},
		{"one's own line", func() error {
			_, err := m.ReportLine(e.ctx, e.bob, e.game, chat.PlayerRoom, seq, "abuse", "")
			return err
		}, errs.Invalid, errs.SelfRelation},
	} {
		refusedAs(t, c.what, c.do(), c.code, c.detail)
	}
	r, err := m.ReportLine(e.ctx, e.ann, e.game, chat.PlayerRoom, seq, "abuse", "  rude  ")
	if err != nil || r.ReportedName != "bob" || r.Seq != seq || r.Text != "rude" || r.ReporterName != "ann" {
		t.Fatalf("a line's report: %+v, %v", r, err)
	}
	if _, err := m.ReportPlayer(e.ctx, e.cat, "Bob", "cheating", ""); err != nil {
		t.Fatal(err)
	}
	for range moderation.MaxOpenReports - 1 {
		if _, err := m.ReportPlayer(e.ctx, e.ann, "cat", "other", ""); err != nil {
			t.Fatal(err)
		}
	}
	_, err = m.ReportPlayer(e.ctx, e.ann, "cat", "other", "")
	refusedAs(t, "a report over the open ones", err, errs.TooMany, errs.TooManyReports)
}

// TestModerators: only a moderator reads the reports (the newest first,
// a line with its context) and the log, and acts; each action closes its
// report and is logged with who, when and why; a mute refuses the
// player's lines until it ends; closing an account ends its credentials
// and its sign-ins, reopening allows them again.
func TestModerators(t *testing.T) {
	e := newEnv(t)
	m := e.site.Moderation
	var seqs []int64
	for i := range 8 {
		who := e.ann
		if i%2 == 1 {
			who = e.bob
		}
		seqs = append(seqs, e.say(who, "line "+string(rune('a'+i))))
	}
	line, err := m.ReportLine(e.ctx, e.ann, e.game, chat.PlayerRoom, seqs[1], "abuse", "")
	if err != nil {
		t.Fatal(err)
	}
	e.clk.t = e.clk.t.Add(time.Minute)
	player, err := m.ReportPlayer(e.ctx, e.cat, "bob", "cheating", "too good")
	if err != nil {
		t.Fatal(err)
	}
	for _, cred := range []players.Credential{"", e.anon, e.ann} {
		_, err := m.OpenReports(e.ctx, cred)
		refusedAs(t, "reports to a non-moderator", err, errs.NotFound, errs.NotModerator)
		_, err = m.Log(e.ctx, cred)
		refusedAs(t, "the log to a non-moderator", err, errs.NotFound, errs.NotModerator)
		_, err = m.Do(e.ctx, cred, moderation.Act{Action: moderation.Dismiss, Report: line.ID, Why: "no"})
		refusedAs(t, "an action of a non-moderator", err, errs.NotFound, errs.NotModerator)
	}
	cases, err := m.OpenReports(e.ctx, e.mod)
	if err != nil || len(cases) != 2 || cases[0].ID != player.ID || cases[1].ID != line.ID {
		t.Fatalf("open reports: %+v, %v", cases, err)
	}
	if ctx := cases[1].Context; len(ctx) != 7 || ctx[0].Seq != seqs[0] || ctx[6].Seq != seqs[6] {
		t.Errorf("the line's context: %+v", ctx)
	}
	for _, c := range []struct {
		what   string
		act    moderation.Act
		code   errs.Code
		detail errs.Detail
	}{
		{"no why", moderation.Act{Action: moderation.Mute, Player: "bob", For: time.Hour}, errs.Invalid, errs.BadReportText},
		{"a mute of 2 hours", moderation.Act{Action: moderation.Mute, Player: "bob", For: 2 * time.Hour, Why: "x"}, errs.Invalid, errs.BadMute},
		{"no such player", moderation.Act{Action: moderation.Close, Player: "nobody", Why: "x"}, errs.NotFound, errs.NoPlayer},
		{"no such report", moderation.Act{Action: moderation.Dismiss, Report: "nope", Why: "x"}, errs.NotFound, errs.NoReport},
		{"a dismissal of nothing", moderation.Act{Action: moderation.Dismiss, Why: "x"}, errs.Invalid, errs.NoReport},
	} {
		_, err := m.Do(e.ctx, e.mod, c.act)
		refusedAs(t, c.what, err, c.code, c.detail)
	}

	// A mute: bob's lines are refused for an hour.
	if _, err := m.Do(e.ctx, e.mod, moderation.Act{Action: moderation.Mute, Player: "bob", Report: line.ID, For: time.Hour, Why: "insults"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.site.Chat.Post(e.ctx, e.game, e.bob, chat.PlayerRoom, "still here")
	refusedAs(t, "a muted player's line", err, errs.Forbidden, errs.ChatMuted)
	if v, err := e.site.Chat.Room(e.ctx, e.game, e.bob); err != nil || v.Write || !strings.Contains(v.Why, "muted") {
		t.Errorf("a muted player's room: write %v, why %q, %v", v.Write, v.Why, err)
	}
	e.clk.t = e.clk.t.Add(time.Hour + time.Second)
	e.say(e.bob, "back again")

	// Closing bob's account: his token stops working, he cannot sign in.
	if _, err := m.Do(e.ctx, e.mod, moderation.Act{Action: moderation.Close, Player: "bob", Report: player.ID, Why: "an engine"}); err != nil {
		t.Fatal(err)
	}
	if p, err := e.site.Players.Identify(e.ctx, e.bob); err != nil || p.ID != "" {
		t.Errorf("a closed account's token names %+v (%v)", p, err)
	}
	_, err = e.site.Players.Login(e.ctx, players.SignIn{Name: "bob", Password: "a long enough password", Kind: players.Token})
	refusedAs(t, "signing in to a closed account", err, errs.Forbidden, errs.AccountClosed)
	if cases, _ := m.OpenReports(e.ctx, e.mod); len(cases) != 0 {
		t.Errorf("reports acted on are still open: %+v", cases)
	}
	if _, err := m.Do(e.ctx, e.mod, moderation.Act{Action: moderation.Reopen, Player: "bob", Why: "appeal"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.site.Players.Login(e.ctx, players.SignIn{Name: "bob", Password: "a long enough password", Kind: players.Token}); err != nil {
		t.Errorf("signing in once reopened: %v", err)
	}
	log, err := m.Log(e.ctx, e.mod)
	if err != nil || len(log) != 4 {
		t.Fatalf("the log: %+v, %v", log, err)
	}
	want := []struct {
		action moderation.Action
		who    string
		why    string
	}{{moderation.Reopen, "Warden", "appeal"}, {moderation.Close, "Warden", "an engine"}, {moderation.Mute, "Warden", "insults"}, {moderation.Grant, "the server", "banchess admin grant-mod"}}
	for i, w := range want {
		if g := log[i]; g.Action != w.action || g.ModeratorName != w.who || g.Why != w.why || g.At.IsZero() {
			t.Errorf("log entry %d: %+v, want %+v", i, g, w)
		}
	}
	if log[2].Until.IsZero() || log[2].PlayerName != "bob" || log[2].Report != line.ID {
		t.Errorf("the mute's entry: %+v", log[2])
	}
}
