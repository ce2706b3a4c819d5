package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NAG is a PGN Numeric Annotation Glyph, $0 to $255: $1 good move (!),
// $2 mistake (?), $3 brilliant move (!!), $4 blunder (??), $5
// interesting move (!?), $6 dubious move (?!), and so on.
type NAG uint8

// nagSymbols are the glyphs PGN files write for $1 to $6.
var nagSymbols = [...]string{1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

// String returns the NAG as PGN exports it: "$1".
func (n NAG) String() string { return "$" + strconv.Itoa(int(n)) }

// Symbol returns the glyph of $1 to $6 ("!", "?", "!!", "??", "!?",
// "?!"), and the NAG as String writes it otherwise.
func (n NAG) Symbol() string {
	if int(n) < len(nagSymbols) && nagSymbols[n] != "" {
		return nagSymbols[n]
	}
	return n.String()
}

// ParseNAG reads a NAG written "$n" (0 to 255) or as one of the six
// glyphs Symbol writes.
func ParseNAG(s string) (NAG, error) {
	if digits, ok := strings.CutPrefix(s, "$"); ok {
		n, err := strconv.Atoi(digits)
		if err != nil || n < 0 || n > 255 || digits == "" || digits[0] == '+' || digits[0] == '-' {
			return 0, fmt.Errorf("%q is not a NAG: they are $0 to $255", Clip(s))
		}
		return NAG(n), nil
	}
	for n, sym := range nagSymbols {
		if sym != "" && sym == s {
			return NAG(n), nil
		}
	}
	return 0, fmt.Errorf("%q is not an annotation: use !, ?, !!, ??, !?, ?! or $0 to $255", Clip(s))
}

// MarshalText writes the NAG as String does (encoding.TextMarshaler).
func (n NAG) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalText reads a NAG as ParseNAG does (encoding.TextUnmarshaler).
func (n *NAG) UnmarshalText(b []byte) error {
	v, err := ParseNAG(string(b))
	if err != nil {
		return err
	}
	*n = v
	return nil
}

// note is what a line keeps at one point between its plies.
type note struct {
	nags    []NAG  // of the ply before (at the line's start: of the line)
	comment string // after the ply before
	// variations are alternatives to the ply before: each branches from
	// the position before it.
	variations []*Variation
}

// notes are a line's annotations by the number of its plies before them:
// notes[n] holds ply n's NAGs and the comment after it (notes[0], before
// the first ply), and the variations that are alternatives to ply n. A
// ply taken back takes its note with it. Most games have none: a nil map.
type notes map[int]*note

// at returns the note at n, made when missing.
func (ns *notes) at(n int) *note {
	if *ns == nil {
		*ns = notes{}
	}
	nt := (*ns)[n]
	if nt == nil {
		nt = &note{}
		(*ns)[n] = nt
	}
	return nt
}

// addComment keeps a PGN comment at n, after any already there, with its
// runs of white space made single spaces.
func (ns *notes) addComment(n int, text string) {
	if text = strings.Join(strings.Fields(text), " "); text != "" {
		ns.at(n).addComment(text)
	}
}

// addComment keeps a comment, already tidied, after any already there.
func (nt *note) addComment(text string) {
	if nt.comment != "" {
		text = nt.comment + " " + text
	}
	nt.comment = text
}

// addNAG keeps a NAG, once.
func (nt *note) addNAG(nag NAG) {
	if !slices.Contains(nt.nags, nag) {
		nt.nags = append(nt.nags, nag)
	}
}

func (ns notes) comment(n int) string {
	if nt := ns[n]; nt != nil {
		return nt.comment
	}
	return ""
}

func (ns notes) nags(n int) []NAG {
	if nt := ns[n]; nt != nil {
		return slices.Clone(nt.nags)
	}
	return nil
}

// variationsAfter returns the variations that branch after the first n
// plies: the alternatives to ply n+1.
func (ns notes) variationsAfter(n int) []*Variation {
	if nt := ns[n+1]; nt != nil {
		return slices.Clone(nt.variations)
	}
	return nil
}

// tidy drops the note at n when it holds nothing.
func (ns notes) tidy(n int) {
	if nt := ns[n]; nt != nil && nt.comment == "" && len(nt.nags) == 0 && len(nt.variations) == 0 {
		delete(ns, n)
	}
}

// interrupts reports whether the note at n stands between two plies in
// movetext, so that the next ply is numbered again: a comment or a
// variation does, NAGs do not.
func (ns notes) interrupts(n int) bool {
	nt := ns[n]
	return nt != nil && (nt.comment != "" || len(nt.variations) > 0)
}

// size adds up what the notes and every variation in them hold.
func (ns notes) size(depth int, s *TreeSize) {
	for _, nt := range ns {
		s.CommentBytes += len(nt.comment)
		for _, v := range nt.variations {
			s.Variations++
			s.Plies += len(v.plies)
			s.Depth = max(s.Depth, depth+1)
			v.notes.size(depth+1, s)
		}
	}
}

// TreeSize is how much a game holds beside its main line, which its
// limits bound (see VariationLimits and Variations.Size).
type TreeSize struct {
	Plies        int // every ply, the main line's and every variation's
	Variations   int // every variation, nested ones included
	Depth        int // the deepest variation: 1 for a variation of the main line, 0 for none
	CommentBytes int // the comments (other than bans), in all
}

// PGNHeader is what a PGN says of one of its games before its moves.
type PGNHeader struct {
	Tags []Tag
}

// Tag returns the value of the tag name, or "".
func (h PGNHeader) Tag(name string) string {
	for _, t := range h.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// ListPGN returns the header of every game in PGN text, in order, within
// opts' bounds on tags, so a reader can choose one (PGNOptions.Game). It
// reads no moves: a game that lists may still fail to load. Text that Load
// reads as a FEN holds none.
func ListPGN(text string, opts PGNOptions) ([]PGNHeader, error) {
	if LooksLikeFEN(text) {
		return nil, nil
	}
	games, err := splitPGN(text, opts)
	if err != nil {
		return nil, err
	}
	out := make([]PGNHeader, len(games))
	for i, pg := range games {
		out[i] = PGNHeader{Tags: pg.tags}
	}
	return out, nil
}

// commentToken writes a comment for movetext; a comment cannot hold "}".
func commentToken(text string) string {
	return "{" + strings.ReplaceAll(text, "}", ")") + "}"
}
