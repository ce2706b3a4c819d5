package views

import (
	"strconv"

	"github.com/banchess/banchess/rules"
)

// Variant is one variant a new game can be of.
type Variant struct {
	ID, Name string
	Bot      bool // the computer plays it

	rules rules.Variant
}

// VariantsOf lists vs, the variants the server plays (the default first),
// as the pages offer them; bot says which the computer plays.
func VariantsOf(vs []rules.Variant, bot func(rules.Variant) bool) []Variant {
	out := make([]Variant, len(vs))
	for i, v := range vs {
		out[i] = Variant{ID: v.ID(), Name: v.Name(), Bot: bot(v), rules: v}
	}
	return out
}

// branches lists the variants of vs a position of a game of v can start
// a game of (rules.CanBranch).
func branches(vs []Variant, v rules.Variant) []Variant {
	var out []Variant
	for _, w := range vs {
		if rules.CanBranch(v, w.rules) {
			out = append(out, w)
		}
	}
	return out
}

// ImportChoice is one game of a PGN of several, offered to import.
type ImportChoice struct {
	Index int
	Label string // "Morphy – Duke Karl, 1-0, 1858.??.??"
}

// ImportChoices describes a PGN's games for the import box.
func ImportChoices(list []rules.PGNHeader) []ImportChoice {
	out := make([]ImportChoice, len(list))
	for i, h := range list {
		name := func(tag, dflt string) string {
			if v := h.Tag(tag); v != "" && v != "?" {
				return v
			}
			return dflt
		}
		label := name("White", "?") + " – " + name("Black", "?") + ", " + name("Result", "*")
		if d := name("Date", ""); d != "" {
			label += ", " + d
		}
		if e := name("Event", ""); e != "" {
			label += " (" + e + ")"
		}
		out[i] = ImportChoice{Index: i, Label: strconv.Itoa(i+1) + ". " + label}
	}
	return out
}

// Levels lists the computer's levels, weakest first.
func Levels() []int { return []int{1, 2, 3, 4, 5, 6, 7, 8} }

// TimeControls lists the clocks a page offers a game with a friend
// (minutes+seconds of increment).
func TimeControls() []string { return []string{"3+2", "5+3", "10+5", "15+10"} }
