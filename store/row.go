package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/banchess/banchess/rules"
)

// row is a game as its database row stores it.
type row struct {
	variant   string
	startFEN  string
	actions   string // BCN separated by spaces
	declared  string // see declaredNames
	tags      string // JSON
	fromChess bool
}

// declaredNames are how a row writes a declared outcome.
var declaredNames = map[string]rules.Outcome{
	"":               {},
	"white-resigned": {Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.Black},
	"black-resigned": {Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.White},
	"draw-agreed":    {Status: rules.Draw, Reason: rules.Agreement},
}

func encodeRow(s rules.Snapshot) (row, error) {
	r := row{
		variant:   s.Variant,
		startFEN:  s.StartFEN,
		actions:   strings.Join(s.Actions, " "),
		fromChess: s.FromChessGame,
		tags:      "[]",
	}
	found := false
	for name, o := range declaredNames {
		if o == s.Declared {
			r.declared, found = name, true
		}
	}
	if !found {
		return row{}, fmt.Errorf("encoding the game: cannot store the declared outcome %v", s.Declared)
	}
	if len(s.Tags) > 0 {
		b, err := json.Marshal(s.Tags)
		if err != nil {
			return row{}, fmt.Errorf("encoding the game's tags: %w", err)
		}
		r.tags = string(b)
	}
	return r, nil
}

func (r row) decode() (rules.Snapshot, error) {
	s := rules.Snapshot{
		Variant:       r.variant,
		StartFEN:      r.startFEN,
		Actions:       strings.Fields(r.actions),
		FromChessGame: r.fromChess,
	}
	var ok bool
	if s.Declared, ok = declaredNames[r.declared]; !ok {
		return rules.Snapshot{}, fmt.Errorf("decoding the game: unknown declared outcome %q", r.declared)
	}
	if err := json.Unmarshal([]byte(r.tags), &s.Tags); err != nil {
		return rules.Snapshot{}, fmt.Errorf("decoding the game's tags: %w", err)
	}
	return s, nil
}
