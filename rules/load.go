package rules

import "strings"

// Load starts a game from text that is either a FEN or a PGN, telling them
// apart (LooksLikeFEN): a FEN is read as a game of v (nil: Ban Chess) with
// FromFEN, any other text as a PGN with FromPGN and opts, whose Variant (nil:
// the text decides) applies to it alone.
func Load(text string, v Variant, opts PGNOptions) (*Game, error) {
	if LooksLikeFEN(text) {
		return FromFEN(text, v)
	}
	return FromPGN(text, opts)
}

// LooksLikeFEN reports whether text has the shape of a FEN rather than a
// PGN: at most 8 fields, the first a placement — letters and digits with a
// slash between ranks, as no PGN's first token is — and no PGN tag or
// comment. A FEN cut short or mistyped is read, and refused, as a FEN,
// whose error names the field at fault.
func LooksLikeFEN(text string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 || len(fields) > 8 || strings.ContainsAny(text, "[{") || !strings.Contains(fields[0], "/") {
		return false
	}
	for _, r := range fields[0] {
		if !(r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
