package rules

import (
	"maps"
	"strings"
)

// addComment keeps a PGN comment after the plies played so far (before the
// first, for 0), after any already there.
func (g *Game) addComment(text string) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return
	}
	if g.comments == nil {
		g.comments = map[int]string{}
	}
	n := len(g.plies)
	if old := g.comments[n]; old != "" {
		text = old + " " + text
	}
	g.comments[n] = text
}

// Comment returns the PGN comment read after the first n plies (n = 0:
// before the first), or "".
func (g *Game) Comment(n int) string { return g.comments[n] }

// DroppedVariations returns how many variations the PGN the game was read
// from held: the game keeps its main line only.
func (g *Game) DroppedVariations() int { return g.variations }

// commentToken writes a comment for movetext; a comment cannot hold "}".
func commentToken(text string) string {
	return "{" + strings.ReplaceAll(text, "}", ")") + "}"
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

// cloneComments copies a game's comments for a snapshot or a restore.
func cloneComments(c map[int]string) map[int]string {
	if len(c) == 0 {
		return nil
	}
	return maps.Clone(c)
}
