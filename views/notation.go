package views

import (
	"strings"

	"github.com/banchess/banchess/i18n"
)

// Notation is how moves are written for people (a viewer's setting):
// with the piece letters of the viewer's language (the default; English
// letters in English), with English letters whatever the language, or
// with figurines (♘f3). PGN and the API always write English SAN.
type Notation string

// The notations.
const (
	NotationLetters   Notation = ""
	NotationEnglish   Notation = "en"
	NotationFigurines Notation = "fig"
)

// Valid returns n if it is a notation, else the default.
func (n Notation) Valid() Notation {
	switch n {
	case NotationEnglish, NotationFigurines:
		return n
	}
	return NotationLetters
}

// notationChoice is a notation the settings offer, with its label's
// message id.
type notationChoice struct {
	ID   Notation
	Name string
}

// notationChoices are the settings' choices, in order.
func notationChoices() []notationChoice {
	return []notationChoice{
		{NotationLetters, "notation.letters.name"},
		{NotationEnglish, "notation.english"},
		{NotationFigurines, "notation.figurines"},
	}
}

// figurines are the pieces K, Q, R, B, N as Unicode chess symbols.
var figurines = [5]string{"♔", "♕", "♖", "♗", "♘"}

// moveText writes san (English SAN, as the rules write it: "Nf3",
// "exd8=Q+", "O-O") in notation n for l: its piece letters, the king's,
// queen's, rook's, bishop's and knight's, become the language's (the
// message notation.letters) or figurines. A catalog whose letters are
// not five words leaves the English ones.
func moveText(l *i18n.Language, n Notation, san string) string {
	var pieces [5]string
	switch n.Valid() {
	case NotationEnglish:
		return san
	case NotationFigurines:
		pieces = figurines
	default:
		f := strings.Fields(l.T("notation.letters"))
		if len(f) != len(pieces) || strings.Join(f, " ") == "K Q R B N" {
			return san
		}
		copy(pieces[:], f)
	}
	var b strings.Builder
	for i := 0; i < len(san); i++ {
		c := san[i]
		if k := strings.IndexByte("KQRBN", c); k >= 0 && (i == 0 || san[i-1] == '=') {
			b.WriteString(pieces[k])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
