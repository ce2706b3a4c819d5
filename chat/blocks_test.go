package chat_test

import (
	"slices"
	"testing"

	"github.com/banchess/banchess/chat"
)

// TestBlockedLinesHidden: the lines of a player one blocks are hidden
// from one in every read (the room, the lines, the stream's), and shown
// again once unblocked; the blocked player still reads the blocker's.
func TestBlockedLinesHidden(t *testing.T) {
	e := newEnv(t)
	for _, text := range []string{"hello", "good luck"} {
		if _, err := e.site.Chat.Post(e.ctx, e.named, e.ann, chat.PlayerRoom, text+" from ann"); err != nil {
			t.Fatal(err)
		}
		e.clk.Add(10e9)
		if _, err := e.site.Chat.Post(e.ctx, e.named, e.bob, chat.PlayerRoom, text+" from bob"); err != nil {
			t.Fatal(err)
		}
		e.clk.Add(10e9)
	}
	if err := e.site.Relations.Block(e.ctx, e.ann, "bob"); err != nil {
		t.Fatal(err)
	}
	texts := func(lines []chat.Line) []string {
		var out []string
		for _, l := range lines {
			out = append(out, l.Text)
		}
		return out
	}
	fromAnn := []string{"hello from ann", "good luck from ann"}
	all := []string{"hello from ann", "hello from bob", "good luck from ann", "good luck from bob"}
	reads := []struct {
		name string
		read func() ([]chat.Line, error)
	}{
		{"room", func() ([]chat.Line, error) {
			v, err := e.site.Chat.Room(e.ctx, e.named, e.ann)
			return v.Lines, err
		}},
		{"lines", func() ([]chat.Line, error) {
			l, _, err := e.site.Chat.Lines(e.ctx, e.named, e.ann, chat.PlayerRoom, 0)
			return l, err
		}},
		{"since", func() ([]chat.Line, error) {
			l, _, err := e.site.Chat.Since(e.ctx, e.named, e.ann, 0)
			return l, err
		}},
	}
	for _, r := range reads {
		if got, err := r.read(); err != nil || !slices.Equal(texts(got), fromAnn) {
			t.Errorf("%s, bob blocked: %q, %v; want %q", r.name, texts(got), err, fromAnn)
		}
	}
	if l, _, err := e.site.Chat.Lines(e.ctx, e.named, e.bob, chat.PlayerRoom, 0); err != nil || !slices.Equal(texts(l), all) {
		t.Errorf("bob reads: %q, %v; want %q", texts(l), err, all)
	}
	if err := e.site.Relations.Unblock(e.ctx, e.ann, "bob"); err != nil {
		t.Fatal(err)
	}
	for _, r := range reads {
		if got, err := r.read(); err != nil || !slices.Equal(texts(got), all) {
			t.Errorf("%s, bob unblocked: %q, %v; want %q", r.name, texts(got), err, all)
		}
	}
}
