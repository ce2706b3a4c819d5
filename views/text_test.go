package views

import (
	"testing"

	"github.com/banchess/banchess/rules"
)

func TestBanner(t *testing.T) {
	for _, tc := range []struct {
		o    rules.Outcome
		want string
	}{
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: rules.White}, "Checkmate by ban — White wins, 1-0"},
		{rules.Outcome{Status: rules.Checkmate, Reason: rules.ByMove, Winner: rules.Black}, "Checkmate — Black wins, 0-1"},
		{rules.Outcome{Status: rules.Stalemate, Reason: rules.ByBan}, "Stalemate by ban — draw, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.ThreefoldRepetition}, "Draw by threefold repetition, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.FiftyMoveRule}, "Draw by the fifty-move rule, 1/2-1/2"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.InsufficientMaterial}, "Draw by insufficient material, 1/2-1/2"},
		{rules.Outcome{Status: rules.Resigned, Reason: rules.Resignation, Winner: rules.White}, "Black resigns — White wins, 1-0"},
		{rules.Outcome{Status: rules.TimeForfeit, Reason: rules.Timeout, Winner: rules.White}, "Black ran out of time — White wins, 1-0"},
		{rules.Outcome{Status: rules.Draw, Reason: rules.Timeout}, "Draw: time ran out, but the other side cannot mate, 1/2-1/2"},
		{rules.Outcome{}, ""},
	} {
		if got := Banner(nil, tc.o); got != tc.want {
			t.Errorf("Banner(%v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}

func TestTitleAndSound(t *testing.T) {
	mate := []string{
		"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:g1f3", "m:f1c4", "b:a7a6", "m:b8c6",
		"b:d2d4", "m:d1h5", "b:a7a6", "m:g8f6", "b:a2a3", "m:c4f7", "b:e8e7",
	}
	for _, tc := range []struct {
		line         []string
		title, sound string
	}{
		{nil, "Black to ban · Ban Chess", ""},
		{[]string{"b:e2e4"}, "White to move · Ban Chess", "ban"},
		{[]string{"b:e2e4", "m:d2d4"}, "White to ban · Ban Chess", "move"},
		{[]string{"b:a2a3", "m:e2e4", "b:a7a6", "m:d7d5", "b:a2a3", "m:e4d5"}, "White to ban · Ban Chess", "capture"},
		{[]string{"b:a2a3", "m:e2e4", "b:a7a6", "m:f7f6", "b:a2a3", "m:d1h5"}, "White to ban · Ban Chess", "check"},
		{mate, "Checkmate · 1-0", "end"},
	} {
		g, err := rules.Replay(rules.BanChess{}, "", tc.line)
		if err != nil {
			t.Fatal(err)
		}
		m := NewGame(g, Info{}, NoSelection())
		if m.Title != tc.title || m.Sound != tc.sound {
			t.Errorf("%v: title %q sound %q, want %q %q", tc.line, m.Title, m.Sound, tc.title, tc.sound)
		}
	}
}
