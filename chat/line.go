package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/banchess/banchess/errs"
)

// Clean makes text a line: its spaces trimmed, every control character
// and line break a space (a line is one line of plain text), and the
// marks that reorder text (bidirectional overrides, which make a line
// read otherwise than it is written) dropped. It refuses an empty line,
// one over MaxRunes and one that is not UTF-8.
func Clean(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", errs.Errorf(errs.Invalid, "The line is not text.").WithDetail(errs.ChatEmpty)
	}
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return ' '
		case unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, text))
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return "", errs.Errorf(errs.Invalid, "Write something first.").WithDetail(errs.ChatEmpty)
	case n > MaxRunes:
		return "", errs.Errorf(errs.Invalid, "A line is at most %d characters; this one has %d.", MaxRunes, n).WithDetail(errs.ChatTooLong)
	}
	return text, nil
}

func noChat() *errs.Error {
	return errs.Errorf(errs.Invalid, "This game has no chat: only games between two players do.").WithDetail(errs.NoChat)
}

func chatOff() *errs.Error {
	return errs.Errorf(errs.Invalid, "You turned chat off: turn it on on your account page to read and write.").WithDetail(errs.ChatOff)
}

func wrongRoom(yours Room) *errs.Error {
	if yours == PlayerRoom {
		return errs.Errorf(errs.Invalid, "You play this game: your room is the players'.").WithDetail(errs.ChatRoom)
	}
	return errs.Errorf(errs.Invalid, "You watch this game: your room is the spectators'.").WithDetail(errs.ChatRoom)
}

// truncate cuts s to n bytes at most, on a rune boundary.
func truncate(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
