package views

import (
	"context"
	"testing"

	"github.com/banchess/banchess/i18n"
)

// TestMoveText writes moves in each notation and language: the piece
// letters change, nothing else (files, captures, checks, castling).
func TestMoveText(t *testing.T) {
	cat := i18n.Builtin()
	for _, tt := range []struct {
		lang string
		n    Notation
		san  string
		want string
	}{
		{"en", NotationLetters, "Nf3", "Nf3"},
		{"de", NotationLetters, "Nf3", "Sf3"},
		{"de", NotationLetters, "exd8=Q+", "exd8=D+"},
		{"es", NotationLetters, "Qxe7#", "Dxe7#"},
		{"fr", NotationLetters, "Bb5", "Fb5"},
		{"ru", NotationLetters, "Kg1", "Крg1"},
		{"ru", NotationLetters, "Nbd2", "Кbd2"},
		{"he", NotationLetters, "Rd1", "צd1"},
		{"de", NotationLetters, "O-O-O", "O-O-O"},
		{"de", NotationLetters, "e4", "e4"},
		{"de", NotationLetters, "bxa8=N", "bxa8=S"},
		{"de", NotationEnglish, "Nf3", "Nf3"},
		{"de", NotationFigurines, "Nf3", "♘f3"},
		{"en", NotationFigurines, "exd8=Q+", "exd8=♕+"},
		{"fr", Notation("bogus"), "Bb5", "Fb5"},
	} {
		l := cat.Named(tt.lang)
		if got := moveText(l, tt.n, tt.san); got != tt.want {
			t.Errorf("%s, %q: %s written %q, want %q", tt.lang, tt.n, tt.san, got, tt.want)
		}
	}
}

// TestSquareLabelsKeptPerLanguage: a request's language is its catalog's
// language with the reader's notation (WithNotation), a new value each
// request; the board's 64 square labels are still the ones made once for
// the catalog's language, not made again for each page (they were, and
// a page took fifty times as long).
func TestSquareLabelsKeptPerLanguage(t *testing.T) {
	for _, base := range append(i18n.Builtin().Languages(), i18n.Builtin().Named(i18n.Pseudo)) {
		for _, n := range []Notation{NotationLetters, NotationEnglish, NotationFigurines} {
			l := WithNotation(base, n)
			if l == base {
				t.Fatalf("%s %q: WithNotation gave the catalog's language itself; the test needs a request's copy", base.Code, n)
			}
			got, want := labelsOf(i18n.With(context.Background(), l)), squareLabels[base]
			if want == nil || got != want {
				t.Errorf("%s %q: the square labels were made again for the page", base.Code, n)
			}
		}
	}
}
