package views

import (
	"regexp"
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

// sanWord matches a move in SAN that names a piece: "Nf3", "Qxd8+",
// "exd8=Q#".
var sanWord = regexp.MustCompile(`^(?:[KQRBN][a-h]?[0-9]?x?[a-hx][0-9]|[a-h](?:x[a-h])?[0-9]=[KQRBN])[+#]?$`)

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

// WithNotation is l writing the moves of its messages (i18n.Move) and
// lines (WriteLine) in notation n: the language's letters, English ones
// or figurines, as the move list does.
func WithNotation(l *i18n.Language, n Notation) *i18n.Language {
	if n.Valid() == NotationEnglish {
		return l.WithMoves(nil)
	}
	return l.WithMoves(func(san string) string { return moveText(l, n, san) })
}

// WriteLine is line (plies as PlyLine writes them, in English SAN: "1.
// ⊘e4 d4 2. ⊘Nf3 c4") with its moves written as l writes moves
// (WithNotation); move numbers and squares stay.
func WriteLine(l *i18n.Language, line string) string {
	words := strings.Split(line, " ")
	for i, w := range words {
		san, ban := strings.CutPrefix(w, "⊘")
		if !sanWord.MatchString(san) {
			continue // a number, a square, a word
		}
		w = l.WriteMove(san)
		if ban {
			w = "⊘" + w
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}
