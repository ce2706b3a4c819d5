package rules

import "strings"

// Load starts a game from text that is either a FEN or a PGN, telling them
// apart: a FEN is one line of 6 or 7 fields whose first has 7 slashes.
// v applies to a FEN; for a PGN, nil lets the text decide (see PGNOptions).
func Load(text string, v Variant) (*Game, error) {
	if LooksLikeFEN(text) {
		return FromFEN(text, v)
	}
	return FromPGN(text, PGNOptions{Variant: v})
}

// LooksLikeFEN reports whether text has the shape of a FEN rather than a PGN.
func LooksLikeFEN(text string) bool {
	fields := strings.Fields(text)
	return len(fields) >= 2 && len(fields) <= 8 && strings.Count(fields[0], "/") == 7 &&
		!strings.ContainsAny(text, "[{")
}
