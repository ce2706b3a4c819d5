package views

import (
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
