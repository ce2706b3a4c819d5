package chat_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/errs"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/internal/testsite"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is a site with players and games to chat at: named's players are
// ann and bob (named), anon's two anonymous players; cat is a named
// spectator, nobody an anonymous one; hot is a hot-seat game of ann's.
type env struct {
	t                         *testing.T
	ctx                       context.Context
	site                      testsite.Site
	clk                       *clock
	woken                     chan string
	ann, bob, cat, nobody     players.Credential
	anon1, anon2              players.Credential
	named, anon, hot          string
	annID, bobID, catID, noID string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), clk: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}, woken: make(chan string, 100)}
	e.site = testsite.New(store.NewMemory(), testsite.Config{Now: e.clk.Now,
		Chat: []chat.Option{chat.WithWaker(func(id string) { e.woken <- id })}})
	t.Cleanup(e.site.Close)
	e.ann, e.annID = e.named_("ann")
	e.bob, e.bobID = e.named_("bob")
	e.cat, e.catID = e.named_("cat")
	e.nobody, e.noID = e.anonymous()
	e.anon1, _ = e.anonymous()
	e.anon2, _ = e.anonymous()
	e.named = e.invite(e.ann, e.bob)
	e.anon = e.invite(e.anon1, e.anon2)
	hot, err := e.site.Games.Create(e.ctx, e.ann, rules.New(rules.BanChess{}))
	if err != nil {
		t.Fatal(err)
	}
	e.hot = hot
	return e
}

func (e *env) named_(name string) (players.Credential, string) {
	e.t.Helper()
	in, err := e.site.Players.Register(e.ctx, players.SignUp{Name: name, Password: "a long enough password", Kind: players.Token})
	if err != nil {
		e.t.Fatal(err)
	}
	return in.Credential, in.Player.ID
}

func (e *env) anonymous() (players.Credential, string) {
	e.t.Helper()
	cred, p, err := e.site.Players.NewPlayer(e.ctx, players.Token)
	if err != nil {
		e.t.Fatal(err)
	}
	return cred, p.ID
}

// invite starts a game between white and black.
func (e *env) invite(white, black players.Credential) string {
	e.t.Helper()
	id, code, _, err := e.site.Games.CreateInvite(e.ctx, white, rules.New(rules.BanChess{}), games.InviteSettings{Color: rules.White})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.site.Games.Join(e.ctx, id, black, code); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// refusedAs checks err is a refusal of code and detail.
func refusedAs(t *testing.T, what string, err error, code errs.Code, detail errs.Detail) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: accepted, want %s/%s", what, code, detail)
		return
	}
	if e := errs.Of(err); e.Code != code || e.Detail != detail {
		t.Errorf("%s: %s/%s (%s), want %s/%s", what, e.Code, e.Detail, e.Msg, code, detail)
	}
}

// TestPost: who may write what where, each refusal with its code.
func TestPost(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name   string
		game   string
		who    players.Credential
		room   chat.Room
		text   string
		code   errs.Code
		detail errs.Detail
	}{
		{"a player in the players' room", e.named, e.ann, chat.PlayerRoom, "good luck", "", ""},
		{"the other player", e.named, e.bob, chat.PlayerRoom, "you too", "", ""},
		{"a named spectator", e.named, e.cat, chat.SpectatorRoom, "go ann", "", ""},
		{"140 characters, some wide", e.named, e.cat, chat.SpectatorRoom, strings.Repeat("é", 70) + strings.Repeat("♞", 70), "", ""},
		{"141 characters", e.named, e.cat, chat.SpectatorRoom, strings.Repeat("x", 141), errs.Invalid, errs.ChatTooLong},
		{"empty", e.named, e.ann, chat.PlayerRoom, "", errs.Invalid, errs.ChatEmpty},
		{"spaces and line breaks", e.named, e.ann, chat.PlayerRoom, " \n\t\r ", errs.Invalid, errs.ChatEmpty},
		{"not UTF-8", e.named, e.ann, chat.PlayerRoom, "\xff\xfe", errs.Invalid, errs.ChatEmpty},
		{"a player in the spectators' room", e.named, e.ann, chat.SpectatorRoom, "hi", errs.Invalid, errs.ChatRoom},
		{"a spectator in the players' room", e.named, e.cat, chat.PlayerRoom, "psst", errs.Invalid, errs.ChatRoom},
		{"an unknown room", e.named, e.ann, chat.Room("lobby"), "hi", errs.Invalid, errs.ChatRoom},
		{"anonymous at a game between named players", e.named, e.nobody, chat.SpectatorRoom, "hi", errs.Invalid, errs.ChatAnonymous},
		{"anonymous at a game between anonymous players", e.anon, e.nobody, chat.SpectatorRoom, "hi", "", ""},
		{"an anonymous player in their own game", e.anon, e.anon1, chat.PlayerRoom, "hi", "", ""},
		{"no credential", e.named, "", chat.SpectatorRoom, "hi", errs.Unauthorized, ""},
		{"a credential never issued", e.named, players.NewCredential(), chat.SpectatorRoom, "hi", errs.Unauthorized, ""},
		{"a hot-seat game", e.hot, e.ann, chat.PlayerRoom, "hi", errs.Invalid, errs.NoChat},
		{"an unknown game", "nope", e.ann, chat.PlayerRoom, "hi", errs.NotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _, _ := e.site.Chat.Lines(e.ctx, c.game, "", chat.SpectatorRoom, 0)
			l, err := e.site.Chat.Post(e.ctx, c.game, c.who, c.room, c.text)
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if l.Seq == 0 || l.Text != strings.TrimSpace(c.text) || l.Room != c.room || l.Game != c.game {
					t.Errorf("line %+v", l)
				}
				return
			}
			refusedAs(t, c.name, err, c.code, c.detail)
			if after, _, _ := e.site.Chat.Lines(e.ctx, c.game, "", chat.SpectatorRoom, 0); len(after) != len(before) {
				t.Errorf("a refused line changed the spectators' room: %d lines, then %d", len(before), len(after))
			}
		})
	}
}

// TestClean: a line is one line of plain text; markup is kept as text
// (the pages escape it).
func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"  hi  ":                        "hi",
		"one\ntwo\r\nthree":             "one two  three",
		"<script>alert(1)</script>":     "<script>alert(1)</script>",
		"see https://example.com/?a=<b": "see https://example.com/?a=<b",
		"tab\there\u2028":               "tab here",
		"gg \u202eevil\u202c":           "gg evil",
		"👩\u200d💻 ok":                   "👩\u200d💻 ok",
	} {
		if got, err := chat.Clean(in); err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestRate: three lines in five seconds, twenty a minute, per player in
// all games; a refusal says when to try again and keeps nothing, and a
// repeat refused gives back its share of the rate.
func TestRate(t *testing.T) {
	e := newEnv(t)
	say := func(who players.Credential, game string, room chat.Room, text string) error {
		_, err := e.site.Chat.Post(e.ctx, game, who, room, text)
		return err
	}
	for i := range 3 {
		if err := say(e.ann, e.named, chat.PlayerRoom, fmt.Sprint("line ", i)); err != nil {
			t.Fatal(err)
		}
	}
	err := say(e.ann, e.named, chat.PlayerRoom, "line 3")
	refusedAs(t, "a fourth line in five seconds", err, errs.TooMany, errs.ChatRate)
	if ra := errs.Of(err).RetryAfter; ra <= 0 || ra > 5*time.Second {
		t.Errorf("retry after %v", ra)
	}
	refusedAs(t, "ann at another game", say(e.ann, e.anon, chat.SpectatorRoom, "hi"), errs.TooMany, errs.ChatRate)
	if err := say(e.bob, e.named, chat.PlayerRoom, "bob is not ann"); err != nil {
		t.Errorf("bob was limited by ann's rate: %v", err)
	}
	if lines, _, _ := e.site.Chat.Lines(e.ctx, e.named, e.ann, chat.PlayerRoom, 0); len(lines) != 4 {
		t.Errorf("%d lines kept, want 4", len(lines))
	}

	// After five seconds, three more.
	e.clk.Add(5 * time.Second)
	for i := range 3 {
		if err := say(e.ann, e.named, chat.PlayerRoom, fmt.Sprint("later ", i)); err != nil {
			t.Errorf("line %d five seconds later: %v", i, err)
		}
	}

	// A minute: a line every 2 s keeps within three in five seconds;
	// the 21st within the minute is refused, and is taken once the first
	// has left it.
	cat := e.cat
	n := 0
	var refused error
	for i := range 40 {
		if refused = say(cat, e.named, chat.SpectatorRoom, fmt.Sprint("cat ", i)); refused != nil {
			break
		}
		n++
		e.clk.Add(2 * time.Second)
	}
	if n != 20 {
		t.Errorf("%d lines before the minute's limit, want 20", n)
	}
	refusedAs(t, "over twenty a minute", refused, errs.TooMany, errs.ChatRate)
	if ra := errs.Of(refused).RetryAfter; ra != 20*time.Second {
		t.Errorf("the 21st line may come in %v, want 20s", ra)
	}
	e.clk.Add(20 * time.Second)
	if err := say(cat, e.named, chat.SpectatorRoom, "a minute after the first"); err != nil {
		t.Errorf("a minute after the first line: %v", err)
	}

	// A repeat refused spends nothing.
	e.clk.Add(time.Hour)
	for range 3 {
		refusedAs(t, "a repeat", say(cat, e.named, chat.SpectatorRoom, "a minute after the first"), errs.Invalid, errs.ChatRepeated)
	}
	for i := range 3 {
		if err := say(cat, e.named, chat.SpectatorRoom, fmt.Sprint("after an hour ", i)); err != nil {
			t.Errorf("line %d after refused repeats: %v", i, err)
		}
	}
}

// TestRepeat: the same line twice in a row in a room is refused; after
// another line, or from someone else, it is not.
func TestRepeat(t *testing.T) {
	e := newEnv(t)
	steps := []struct {
		who    players.Credential
		text   string
		detail errs.Detail
	}{
		{e.ann, "gg", ""},
		{e.ann, "gg", errs.ChatRepeated},
		{e.ann, "  gg ", errs.ChatRepeated}, // the same once cleaned
		{e.bob, "gg", ""},
		{e.ann, "GG", ""},
		{e.ann, "gg", ""},
	}
	for i, s := range steps {
		e.clk.Add(10 * time.Second)
		_, err := e.site.Chat.Post(e.ctx, e.named, s.who, chat.PlayerRoom, s.text)
		if s.detail == "" {
			if err != nil {
				t.Errorf("step %d: %v", i, err)
			}
			continue
		}
		refusedAs(t, fmt.Sprint("step ", i), err, errs.Invalid, s.detail)
	}
}

// TestReadOnlyAfterTheEnd: once the game is over no one writes, and the
// rooms are still read.
func TestReadOnlyAfterTheEnd(t *testing.T) {
	e := newEnv(t)
	if _, err := e.site.Chat.Post(e.ctx, e.named, e.ann, chat.PlayerRoom, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.site.Chat.Post(e.ctx, e.named, e.cat, chat.SpectatorRoom, "hello"); err != nil {
		t.Fatal(err)
	}
	if err := e.site.Games.Abort(e.ctx, e.named, e.ann, nil); err != nil {
		t.Fatal(err)
	}
	e.clk.Add(time.Minute)
	for _, w := range []struct {
		who  players.Credential
		room chat.Room
	}{{e.ann, chat.PlayerRoom}, {e.bob, chat.PlayerRoom}, {e.cat, chat.SpectatorRoom}} {
		_, err := e.site.Chat.Post(e.ctx, e.named, w.who, w.room, "after")
		refusedAs(t, "a line after the end", err, errs.Invalid, errs.ChatClosed)
	}
	v, err := e.site.Chat.Room(e.ctx, e.named, e.bob)
	if err != nil || !v.Chat || v.Room != chat.PlayerRoom || v.Write || v.Why == "" || len(v.Lines) != 1 || v.Lines[0].Text != "hi" {
		t.Errorf("the players' room after the end: %+v %v", v, err)
	}
	v, _ = e.site.Chat.Room(e.ctx, e.named, "")
	if v.Room != chat.SpectatorRoom || v.Write || len(v.Lines) != 1 || v.Lines[0].Text != "hello" {
		t.Errorf("the spectators' room after the end: %+v", v)
	}
}

// TestRoomsApart: a spectator never reads the players' room, nor a
// player the spectators', whether they ask for it or follow the stream
// (Since).
func TestRoomsApart(t *testing.T) {
	e := newEnv(t)
	post := func(who players.Credential, room chat.Room, text string) {
		t.Helper()
		if _, err := e.site.Chat.Post(e.ctx, e.named, who, room, text); err != nil {
			t.Fatal(err)
		}
	}
	post(e.ann, chat.PlayerRoom, "players only")
	post(e.cat, chat.SpectatorRoom, "spectators only")
	post(e.bob, chat.PlayerRoom, "players again")

	for _, c := range []struct {
		name   string
		who    players.Credential
		room   chat.Room
		want   string
		detail errs.Detail
	}{
		{"a player, the players' room", e.ann, chat.PlayerRoom, "[players only players again]", ""},
		{"a player, the spectators' room", e.bob, chat.SpectatorRoom, "", errs.ChatRoom},
		{"a spectator, the spectators' room", e.cat, chat.SpectatorRoom, "[spectators only]", ""},
		{"no one, the spectators' room", "", chat.SpectatorRoom, "[spectators only]", ""},
		{"a spectator, the players' room", e.cat, chat.PlayerRoom, "", errs.ChatRoom},
		{"no one, the players' room", "", chat.PlayerRoom, "", errs.ChatRoom},
	} {
		lines, _, err := e.site.Chat.Lines(e.ctx, e.named, c.who, c.room, 0)
		if c.detail != "" {
			refusedAs(t, c.name, err, errs.Invalid, c.detail)
			continue
		}
		if err != nil || fmt.Sprint(texts(lines)) != c.want {
			t.Errorf("%s: %q %v", c.name, texts(lines), err)
		}
	}
	// The stream: each viewer hears their room's lines after the cursor.
	for _, c := range []struct {
		who  players.Credential
		want string
	}{{e.ann, "[players again]"}, {e.cat, "[]"}, {"", "[]"}} {
		lines, last, err := e.site.Chat.Since(e.ctx, e.named, c.who, 2)
		if err != nil || last != 3 || fmt.Sprint(texts(lines)) != c.want {
			t.Errorf("since 2: %q, last %d, %v; want %s", texts(lines), last, err, c.want)
		}
	}
	post(e.cat, chat.SpectatorRoom, "more")
	lines, last, _ := e.site.Chat.Since(e.ctx, e.named, "", 3)
	if last != 4 || fmt.Sprint(texts(lines)) != "[more]" {
		t.Errorf("a spectator's stream: %q, last %d", texts(lines), last)
	}
	lines, last, _ = e.site.Chat.Since(e.ctx, e.named, e.bob, 3)
	if last != 4 || len(lines) != 0 {
		t.Errorf("a player's stream heard the spectators: %q, last %d", texts(lines), last)
	}
	// Each line woke the game's watchers.
	for range 4 {
		select {
		case id := <-e.woken:
			if id != e.named {
				t.Errorf("woke %s", id)
			}
		default:
			t.Fatal("a line woke no one")
		}
	}
}

// TestChatOff: a player who turns chat off sees no room and writes
// nothing, until they turn it on again.
func TestChatOff(t *testing.T) {
	e := newEnv(t)
	if _, err := e.site.Chat.Post(e.ctx, e.named, e.bob, chat.PlayerRoom, "hello"); err != nil {
		t.Fatal(err)
	}
	if err := e.site.Chat.SetOff(e.ctx, e.ann, true); err != nil {
		t.Fatal(err)
	}
	if off, err := e.site.Chat.Off(e.ctx, e.ann); !off || err != nil {
		t.Fatalf("off: %v %v", off, err)
	}
	_, err := e.site.Chat.Post(e.ctx, e.named, e.ann, chat.PlayerRoom, "hi")
	refusedAs(t, "writing with chat off", err, errs.Invalid, errs.ChatOff)
	_, _, err = e.site.Chat.Lines(e.ctx, e.named, e.ann, chat.PlayerRoom, 0)
	refusedAs(t, "reading with chat off", err, errs.Invalid, errs.ChatOff)
	if lines, _, err := e.site.Chat.Since(e.ctx, e.named, e.ann, 0); len(lines) != 0 || err != nil {
		t.Errorf("the stream with chat off: %q %v", texts(lines), err)
	}
	v, err := e.site.Chat.Room(e.ctx, e.named, e.ann)
	if err != nil || !v.Off || v.Write || len(v.Lines) != 0 {
		t.Errorf("the room with chat off: %+v %v", v, err)
	}
	if v, _ := e.site.Chat.Room(e.ctx, e.named, e.bob); v.Off || !v.Write || len(v.Lines) != 1 {
		t.Errorf("bob's room: %+v", v)
	}
	refusedAs(t, "no credential turns chat off", e.site.Chat.SetOff(e.ctx, "", true), errs.Unauthorized, "")
	if err := e.site.Chat.SetOff(e.ctx, e.ann, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.site.Chat.Post(e.ctx, e.named, e.ann, chat.PlayerRoom, "back"); err != nil {
		t.Errorf("writing with chat on again: %v", err)
	}
}

// TestNotice: a line another server kept wakes this one's streams.
func TestNotice(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"lobby", "chat:", "chat:x:g", "chat:5:", "chat:5"} {
		e.site.Chat.Notice(n)
	}
	select {
	case id := <-e.woken:
		t.Fatalf("a stray notice woke %s", id)
	default:
	}
	e.site.Chat.Notice(chat.NoticeLine("g1", 7))
	if id := <-e.woken; id != "g1" {
		t.Errorf("woke %s", id)
	}
}

func texts(lines []chat.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}
