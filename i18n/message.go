package i18n

import (
	"encoding/json"
	"fmt"
	"math"
)

// Message is a text a service words for a view to translate: a message's
// id and its placeholders' values, name-value pairs ("Name", value, …).
// A value that is itself a Message is translated in the same language.
// A counted message (Counted) takes the plural form of its Count, as N.
// The zero Message says nothing.
type Message struct {
	ID string
	// Text, when ID is "", is said as it is in every language: notation
	// ("Nf3", "e2–e4").
	Text string
	// Move says Text is a move in English SAN ("Nf3"), written as the
	// reader writes moves (Language.WriteMove): their piece letters.
	Move   bool
	Args   []any
	Plural bool
	Count  int
}

// Msg is message id with its placeholders' values, args' name-value
// pairs.
func Msg(id string, args ...any) Message { return Message{ID: id, Args: args} }

// Counted is Msg for a count: the plural form that n takes, as N.
func Counted(id string, n int, args ...any) Message {
	return Message{ID: id, Args: args, Plural: true, Count: n}
}

// Verbatim is text said as it is in every language: notation.
func Verbatim(text string) Message { return Message{Text: text} }

// Move is a move in English SAN ("Nf3", "exd8=Q+"), said with the piece
// letters the reader writes moves with (Language.WithMoves).
func Move(san string) Message { return Message{Text: san, Move: true} }

// IsZero says m says nothing.
func (m Message) IsZero() bool { return m.ID == "" && m.Text == "" }

// Say is m in the language: its text, its placeholders filled, messages
// among them translated too. A nil *Language is the source.
func (l *Language) Say(m Message) string {
	if m.ID == "" {
		if m.Move {
			return l.WriteMove(m.Text)
		}
		return m.Text
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if inner, ok := a.(Message); ok {
			a = l.Say(inner)
		}
		args[i] = a
	}
	if m.Plural {
		return l.N(m.ID, m.Count, args...)
	}
	return l.T(m.ID, args...)
}

// String is m in the source language (for logs, tests and the JSON API,
// which speaks English).
func (m Message) String() string { return (*Language)(nil).Say(m) }

// Arg is the value m gives its placeholder name, or nil.
func (m Message) Arg(name string) any {
	for i := 0; i+1 < len(m.Args); i += 2 {
		if k, _ := m.Args[i].(string); k == name {
			return m.Args[i+1]
		}
	}
	return nil
}

// messageJSON is a Message as JSON keeps it (to be stored and said later,
// in whatever language is asked for then): its arguments by name, each a
// string, a number or a message.
type messageJSON struct {
	ID     string                     `json:"id,omitempty"`
	Text   string                     `json:"text,omitempty"`
	Move   bool                       `json:"move,omitempty"`
	Args   map[string]json.RawMessage `json:"args,omitempty"`
	Plural bool                       `json:"plural,omitempty"`
	Count  int                        `json:"n,omitempty"`
}

// MarshalJSON writes m with its arguments by name.
func (m Message) MarshalJSON() ([]byte, error) {
	out := messageJSON{ID: m.ID, Text: m.Text, Move: m.Move, Plural: m.Plural, Count: m.Count}
	for i := 0; i+1 < len(m.Args); i += 2 {
		name, ok := m.Args[i].(string)
		if !ok {
			return nil, fmt.Errorf("message %s: argument %d is named by a %T", m.ID, i/2, m.Args[i])
		}
		v := m.Args[i+1]
		switch v.(type) {
		case Message, string, int, int64, float64, bool:
		default:
			v = fmt.Sprint(v)
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("message %s, argument %s: %w", m.ID, name, err)
		}
		if out.Args == nil {
			out.Args = map[string]json.RawMessage{}
		}
		out.Args[name] = data
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a message MarshalJSON wrote.
func (m *Message) UnmarshalJSON(data []byte) error {
	var in messageJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("a message: %w", err)
	}
	*m = Message{ID: in.ID, Text: in.Text, Move: in.Move, Plural: in.Plural, Count: in.Count}
	for name, raw := range in.Args {
		var v any
		if len(raw) > 0 && raw[0] == '{' {
			var inner Message
			if err := inner.UnmarshalJSON(raw); err != nil {
				return fmt.Errorf("message %s, argument %s: %w", in.ID, name, err)
			}
			v = inner
		} else if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("message %s, argument %s: %w", in.ID, name, err)
		}
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			v = int(f)
		}
		m.Args = append(m.Args, name, v)
	}
	return nil
}
