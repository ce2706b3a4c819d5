package rules

import (
	"errors"
	"testing"
)

// TestFENReasons: a FEN that breaks a rule of positions names the rule
// (and its square), for front ends that say it in their own words; a
// field not written as FEN writes it names none.
func TestFENReasons(t *testing.T) {
	for _, tc := range []struct {
		fen    string
		reason FENReason
		where  string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", FENKings, ""},
		{"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FENPawns, ""},
		{"rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FENPieces, ""},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w Qkq - 0 1", FENPawnRank, "h1"},
		{"4k3/8/8/8/8/8/8/r3K3 b - - 0 1", FENCheck, ""},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", FENCastling, ""},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", FENEnPassant, "e6"},
		{StartFEN + " 2:e2e5", FENBan, "e2e5"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "", ""},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "", ""},
	} {
		_, err := FromFEN(tc.fen, BanChess{})
		var fe *FENError
		if !errors.As(err, &fe) || fe.Reason != tc.reason || fe.Where != tc.where {
			t.Errorf("FromFEN(%q): %#v, want reason %q where %q", tc.fen, err, tc.reason, tc.where)
		}
	}
}
