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
// PGN: 2 to 8 fields whose first has 7 slashes, and no PGN tag or comment.
func LooksLikeFEN(text string) bool {
	fields := strings.Fields(text)
	return len(fields) >= 2 && len(fields) <= 8 && strings.Count(fields[0], "/") == 7 &&
		!strings.ContainsAny(text, "[{")
}
