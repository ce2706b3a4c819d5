package rules

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	x40 := strings.Repeat("x", 40)
	é40 := strings.Repeat("é", 40)
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"e4", "e4"},
		{x40, x40},
		{x40 + "y", x40 + "…"},
		{é40, é40},             // 80 bytes, 40 characters
		{é40 + "é", é40 + "…"}, // never split
		{"\xff" + x40, "\xff" + x40[:39] + "…"}, // a stray byte is one character
	} {
		if got := Clip(c.in); got != c.want {
			t.Errorf("Clip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := ClipTo("abcdef", 3); got != "abc…" {
		t.Errorf("ClipTo(abcdef, 3) = %q", got)
	}
}

// TestLongInputQuoted: every message that quotes what a user sent quotes at
// most MaxQuote characters of it, cut between characters.
func TestLongInputQuoted(t *testing.T) {
	long := strings.Repeat("é", 3555) // 7,110 bytes
	placement := StartFEN[:strings.IndexByte(StartFEN, ' ')]
	errs := map[string]func() error{
		"VariantByID": func() error { _, err := VariantByID(long); return err },
		"ParseColor":  func() error { _, err := ParseColor(long); return err },
		"ParseSquare": func() error { _, err := ParseSquare(long); return err },
		"ParsePair":   func() error { _, err := ParsePair(long); return err },
		"ParseAction": func() error { _, err := ParseAction("m:" + long); return err },
		"ParseAction prefix": func() error {
			_, err := ParseAction(long)
			return err
		},
		"FEN placement": func() error { _, err := FromFEN(long+" w - - 0 1", BanChess{}); return err },
		"FEN rank": func() error {
			_, err := FromFEN("8/8/8/8/8/8/8/"+strings.Repeat("1", 3555)+" w - - 0 1", BanChess{})
			return err
		},
		"FEN side":       func() error { _, err := FromFEN(placement+" "+long+" KQkq - 0 1", BanChess{}); return err },
		"FEN castling":   func() error { _, err := FromFEN(placement+" w "+long+" - 0 1", BanChess{}); return err },
		"FEN en passant": func() error { _, err := FromFEN(placement+" w KQkq "+long+" 0 1", BanChess{}); return err },
		"FEN halfmove":   func() error { _, err := FromFEN(placement+" w KQkq - "+long+" 1", BanChess{}); return err },
		"FEN fullmove":   func() error { _, err := FromFEN(placement+" w KQkq - 0 "+long, BanChess{}); return err },
		"FEN ply":        func() error { _, err := FromFEN(StartFEN+" "+long, BanChess{}); return err },
		"FEN classic":    func() error { _, err := FromFEN(StartFEN+" "+long, Classic{}); return err },
		"Replay":         func() error { _, err := Replay(BanChess{}, "", []string{long}); return err },
		"PGN move":       func() error { _, err := FromPGN("1. e4 "+long+" *", PGNOptions{}); return err },
		"PGN SAN":        func() error { _, err := FromPGN("1. N"+strings.Repeat("x", 3555)+"f6 *", PGNOptions{}); return err },
		"PGN tag":        func() error { _, err := FromPGN("[Event \""+long, PGNOptions{}); return err },
		"PGN comment":    func() error { _, err := FromPGN("1. e4 {"+long, PGNOptions{}); return err },
		"PGN variation":  func() error { _, err := FromPGN("1. e4 ("+long, PGNOptions{}); return err },
		"ParseMove": func() error {
			_, err := New(Classic{}).Notation().ParseMove("N" + strings.Repeat("x", 3555) + "f6")
			return err
		},
	}
	for name, f := range errs {
		err := f()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, strings.Repeat("é", MaxQuote+1)) || strings.Contains(msg, strings.Repeat("x", MaxQuote+1)) ||
			strings.Contains(msg, strings.Repeat("1", MaxQuote+1)) || len(msg) > 300 || !utf8.ValidString(msg) {
			t.Errorf("%s: the message quotes too much (%d bytes): %.200s", name, len(msg), msg)
		}
	}
}
