package i18n

import (
	"encoding/json"
	"fmt"
	"math"
)

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
	Args   map[string]json.RawMessage `json:"args,omitempty"`
	Plural bool                       `json:"plural,omitempty"`
	Count  int                        `json:"n,omitempty"`
}

// MarshalJSON writes m with its arguments by name.
func (m Message) MarshalJSON() ([]byte, error) {
	out := messageJSON{ID: m.ID, Text: m.Text, Plural: m.Plural, Count: m.Count}
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
	*m = Message{ID: in.ID, Text: in.Text, Plural: in.Plural, Count: in.Count}
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
