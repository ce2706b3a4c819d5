package views

import "context"

// Look is how the viewer likes boards drawn: a board colour theme and a
// piece set, kept in the settings cookie with the other settings. Every
// page's body carries it as classes (Class), which the stylesheet draws
// by, so a change applies to every board at once, with or without
// scripts.
type Look struct {
	Board  string // a BoardThemes ID: "green", "brown", "blue"
	Pieces string // a PieceSets ID: "cburnett", "dejavu"
}

// Choice is one option of a setting: its value and its name.
type Choice struct{ ID, Name string }

// BoardThemes are the board's colour themes, the default first.
var BoardThemes = []Choice{{"green", "theme.green"}, {"brown", "theme.brown"}, {"blue", "theme.blue"}, {"grey", "theme.grey"}}

// PieceSets are the piece sets, the default first (their art and
// licences: NOTICE).
var PieceSets = []Choice{{"cburnett", "Cburnett"}, {"dejavu", "DejaVu"}}

// Valid returns l with each choice one of the known ones (else the
// default).
func (l Look) Valid() Look {
	return Look{Board: known(BoardThemes, l.Board), Pieces: known(PieceSets, l.Pieces)}
}

// known is id when it is one of cs, else cs's first.
func known(cs []Choice, id string) string {
	for _, c := range cs {
		if c.ID == id {
			return id
		}
	}
	return cs[0].ID
}

// Class is the look as the body's classes: "board-green pieces-cburnett".
func (l Look) Class() string {
	l = l.Valid()
	return "board-" + l.Board + " pieces-" + l.Pieces
}

// lookKey keys the look in a request's context.
type lookKey struct{}

// WithLook returns ctx carrying the viewer's look, which the page's
// layout draws the page with.
func WithLook(ctx context.Context, l Look) context.Context {
	return context.WithValue(ctx, lookKey{}, l)
}

// lookOf is the look ctx carries, or the default.
func lookOf(ctx context.Context) Look {
	l, _ := ctx.Value(lookKey{}).(Look)
	return l.Valid()
}
