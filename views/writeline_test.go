package views

import (
	"testing"

	"github.com/banchess/banchess/i18n"
)

// TestWriteLine: a line's moves take the notation's piece letters; move
// numbers, pawns, squares, castling and words stay.
func TestWriteLine(t *testing.T) {
	const line = "1. ⊘e4 d4 ⊘Nf3 Qxd8+ 2… exd8=Q# O-O e2–e4 Black"
	c := i18n.Builtin()
	for _, tc := range []struct {
		lang string
		n    Notation
		want string
	}{
		{"en", NotationLetters, line},
		{"de", NotationLetters, "1. ⊘e4 d4 ⊘Sf3 Dxd8+ 2… exd8=D# O-O e2–e4 Black"},
		{"de", NotationEnglish, line},
		{"ru", NotationFigurines, "1. ⊘e4 d4 ⊘♘f3 ♕xd8+ 2… exd8=♕# O-O e2–e4 Black"},
	} {
		if got := WriteLine(WithNotation(c.Named(tc.lang), tc.n), line); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}
