package stream

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/banchess/banchess/chat"
	"github.com/banchess/banchess/players"
)

// Chat is what a game's stream needs of the chat: the lines of the
// viewer's room it has not sent yet.
type Chat interface {
	Since(ctx context.Context, id string, cred players.Credential, after int64) ([]chat.Line, int64, error)
}

// ChatLine is a chat line as the streams and the API write it.
type ChatLine struct {
	Seq  int64   `json:"seq"`
	Room string  `json:"room"`
	Name *string `json:"name"` // null for an anonymous player
	Text string  `json:"text"`
	At   string  `json:"at"` // RFC 3339, UTC, to the millisecond
}

// ChatLineOf is l as the streams and the API write it.
func ChatLineOf(l chat.Line) ChatLine {
	out := ChatLine{Seq: l.Seq, Room: string(l.Room), Text: l.Text, At: l.At.UTC().Format(time.RFC3339Nano)}
	if l.Name != "" {
		out.Name = &l.Name
	}
	return out
}

// ChatAfter reads the chat line a stream's client has seen up to from
// its query's "chat" (the last line's seq its page shows): 0, every
// line kept, when it does not say.
func ChatAfter(q string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(q), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// FollowChat returns what a game's stream calls at each wake to send the
// lines of the viewer's room said since after, each an event "chat"
// (its id empty, so the stream's Last-Event-ID stays the game's
// revision; its data a ChatLine). A nil ch sends nothing.
func FollowChat(ch Chat, id string, cred players.Credential, after int64) func(context.Context, *Source) error {
	if ch == nil {
		return func(context.Context, *Source) error { return nil }
	}
	return func(ctx context.Context, es *Source) error {
		lines, last, err := ch.Since(ctx, id, cred, after)
		if err != nil {
			return nil // the game's own events say when it is gone; the next wake tries again
		}
		after = max(after, last)
		if len(lines) == 0 {
			return nil
		}
		evs := make([]Event, len(lines))
		for i, l := range lines {
			data, err := json.Marshal(ChatLineOf(l))
			if err != nil {
				return err
			}
			evs[i] = Event{Name: "chat", Data: data}
		}
		return es.Send(evs...)
	}
}
