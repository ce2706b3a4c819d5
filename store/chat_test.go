package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/banchess/banchess/chat"
)

// chatStores are the stores the chat's behaviours are tested on.
var chatStores = []struct {
	name string
	open func(t *testing.T) chat.Store
}{
	{"memory", func(*testing.T) chat.Store { return NewMemory().Chat() }},
	{"sqlite", func(t *testing.T) chat.Store { return openSQLite(t, ":memory:", Options{}).Chat() }},
	// Twenty racers share the pool's few connections: on a loaded machine
	// one waited past DefaultConnWait (and was refused busy, as it should
	// be); what they check is the lines' numbering, so they may wait.
	{"postgres", func(t *testing.T) chat.Store {
		return openPostgres(t, PostgresOptions{ConnWait: 10 * time.Second}).Chat()
	}},
}

// texts are the texts of lines.
func texts(lines []chat.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// TestChatStores: lines are numbered a game across its rooms, read back
// by room, the latest first cut by the limit but given oldest first, with
// what they were written with; a line repeating its author's previous
// line in its room is refused and keeps nothing, though the same text
// from another author, in the other room, or after another line is
// kept; racing lines get distinct numbers; and the chat setting is kept
// per player.
func TestChatStores(t *testing.T) {
	for _, st := range chatStores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			ctx := context.Background()
			at := time.UnixMilli(1_700_000_000_000)
			add := func(game string, room chat.Room, author, text string) (chat.Line, error) {
				return s.AddChatLine(ctx, chat.Line{Game: game, Room: room, Author: author, Name: "N" + author, Text: text, At: at})
			}
			mustAdd := func(game string, room chat.Room, author, text string, seq int64) {
				t.Helper()
				l, err := add(game, room, author, text)
				if err != nil || l.Seq != seq {
					t.Fatalf("adding %q: seq %d, %v; want seq %d", text, l.Seq, err, seq)
				}
			}
			mustAdd("g1", chat.PlayerRoom, "ann", "hello", 1)
			mustAdd("g1", chat.SpectatorRoom, "cat", "hi all", 2)
			mustAdd("g1", chat.PlayerRoom, "bob", "hello", 3) // another author
			mustAdd("g1", chat.SpectatorRoom, "ann", "hello", 4)
			mustAdd("g2", chat.PlayerRoom, "ann", "other game", 1)
			for _, rep := range []struct {
				room         chat.Room
				author, text string
			}{{chat.PlayerRoom, "ann", "hello"}, {chat.PlayerRoom, "bob", "hello"}, {chat.SpectatorRoom, "ann", "hello"}} {
				if _, err := add("g1", rep.room, rep.author, rep.text); !errors.Is(err, chat.ErrRepeated) {
					t.Errorf("%s repeating %q in %s: %v", rep.author, rep.text, rep.room, err)
				}
			}
			mustAdd("g1", chat.PlayerRoom, "ann", "gg", 5)
			mustAdd("g1", chat.PlayerRoom, "ann", "hello", 6) // not her previous line any more

			lines, last, err := s.ChatLines(ctx, "g1", chat.PlayerRoom, 0, 100)
			if err != nil || last != 6 || fmt.Sprint(texts(lines)) != "[hello hello gg hello]" {
				t.Fatalf("players' room: %q, last %d, %v", texts(lines), last, err)
			}
			if l := lines[0]; l.Seq != 1 || l.Author != "ann" || l.Name != "Nann" || l.Room != chat.PlayerRoom || l.Game != "g1" || !l.At.Equal(at) {
				t.Errorf("first line %+v", l)
			}
			lines, last, _ = s.ChatLines(ctx, "g1", chat.SpectatorRoom, 0, 100)
			if last != 6 || fmt.Sprint(texts(lines)) != "[hi all hello]" {
				t.Errorf("spectators' room: %q, last %d", texts(lines), last)
			}
			lines, _, _ = s.ChatLines(ctx, "g1", chat.PlayerRoom, 3, 100)
			if fmt.Sprint(texts(lines)) != "[gg hello]" || lines[0].Seq != 5 {
				t.Errorf("after 3: %+v", lines)
			}
			lines, _, _ = s.ChatLines(ctx, "g1", chat.PlayerRoom, 0, 2)
			if len(lines) != 2 || lines[0].Seq != 5 || lines[1].Seq != 6 {
				t.Errorf("the latest 2: %+v", lines)
			}
			if lines, last, err := s.ChatLines(ctx, "g1", chat.PlayerRoom, 6, 100); len(lines) != 0 || last != 6 || err != nil {
				t.Errorf("after the last: %+v %d %v", lines, last, err)
			}
			if lines, last, err := s.ChatLines(ctx, "nope", chat.PlayerRoom, 0, 100); len(lines) != 0 || last != 0 || err != nil {
				t.Errorf("a game without lines: %+v %d %v", lines, last, err)
			}

			// Racers: twenty lines at one game at once.
			var wg sync.WaitGroup
			errc := make(chan error, 20)
			for i := range 20 {
				wg.Go(func() {
					_, err := add("g3", chat.SpectatorRoom, fmt.Sprint("racer", i), "go")
					errc <- err
				})
			}
			wg.Wait()
			close(errc)
			for err := range errc {
				if err != nil {
					t.Fatal(err)
				}
			}
			lines, last, _ = s.ChatLines(ctx, "g3", chat.SpectatorRoom, 0, 100)
			if len(lines) != 20 || last != 20 {
				t.Fatalf("racers: %d lines, last %d", len(lines), last)
			}
			for i, l := range lines {
				if l.Seq != int64(i+1) {
					t.Errorf("racer line %d numbered %d", i, l.Seq)
				}
			}

			if off, err := s.ChatOff(ctx, "ann"); off || err != nil {
				t.Errorf("a player's chat is off before they said so: %v %v", off, err)
			}
			for _, want := range []bool{true, true, false, true} {
				if err := s.SetChatOff(ctx, "ann", want); err != nil {
					t.Fatal(err)
				}
				if off, err := s.ChatOff(ctx, "ann"); off != want || err != nil {
					t.Errorf("set %v, read %v %v", want, off, err)
				}
			}
			if off, _ := s.ChatOff(ctx, "bob"); off {
				t.Error("bob's chat is off with ann's")
			}
		})
	}
}

// TestChatKeptAcrossRestarts: an SQLite file keeps the lines and the
// settings when the store is opened again.
func TestChatKeptAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	ctx := context.Background()
	s, err := OpenSQLite(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Chat().AddChatLine(ctx, chat.Line{Game: "g", Room: chat.PlayerRoom, Author: "ann", Text: "kept", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Chat().SetChatOff(ctx, "bob", true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openSQLite(t, path, Options{})
	lines, last, err := s.Chat().ChatLines(ctx, "g", chat.PlayerRoom, 0, 10)
	if err != nil || last != 1 || len(lines) != 1 || lines[0].Text != "kept" {
		t.Errorf("after a restart: %+v %d %v", lines, last, err)
	}
	if off, _ := s.Chat().ChatOff(ctx, "bob"); !off {
		t.Error("bob's chat setting was lost")
	}
}
