package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestFENForms(t *testing.T) {
	tests := []struct {
		in      string
		variant Variant
		want    string // FEN written back
		ply     int
		ban     string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nil, StartFEN + " 1", 1, ""},
		{StartFEN + " 1", nil, StartFEN + " 1", 1, ""},
		{StartFEN + " 2:e2e4", nil, StartFEN + " 2:e2e4", 2, "e2e4"},
		{StartFEN + " 2:e2e4+", nil, StartFEN + " 2:e2e4", 2, "e2e4"}, // indicator ignored on input
		{"  " + StartFEN + "   b:ban  ", nil, StartFEN + " 1", 1, ""},
		{StartFEN + " b:e2e4", nil, StartFEN + " 2:e2e4", 2, "e2e4"},
		{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 w:ban", nil, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 3", 3, ""},
		{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 b:e7e5", nil, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1 4:e7e5", 4, "e7e5"},
		// Six fields with Black to move: ply 4(n-1)+3, never Black banning its own moves.
		{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3", nil, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3 11", 11, ""},
		{"8/8/4k3/8/8/3K4/8/7R w - - 90 80 1", nil, "8/8/4k3/8/8/3K4/8/7R w - - 90 80 1", 1, ""},
		{StartFEN + " 5", Classic{}, StartFEN, 1, ""},
		{"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1", Classic{}, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1", 2, ""},
	}
	for _, tt := range tests {
		g, err := FromFEN(tt.in, tt.variant)
		if err != nil {
			t.Errorf("FromFEN(%q): %v", tt.in, err)
			continue
		}
		ban, banned := g.Ban()
		if g.FEN() != tt.want || g.Ply() != tt.ply || (banned && ban.String() != tt.ban) || banned != (tt.ban != "") {
			t.Errorf("FromFEN(%q): FEN %q ply %d ban %v %v; want %q ply %d ban %q", tt.in, g.FEN(), g.Ply(), ban, banned, tt.want, tt.ply, tt.ban)
		}
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct {
		fen, field, msg string
	}{
		{"", "position", "6 fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "side to move", "the FEN stops after 1 of its 6 fields; still to come: the side to move (w or b)"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "halfmove clock", "stops after 4 of its 6 fields; still to come: the halfmove clock (0), the fullmove number (1)"},
		{"rnbqkbnr/pppppppp/8/8", "placement", "has 4 ranks"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement", "7 ranks"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "placement", "more than 8 squares"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement", "covers 7 squares"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", `"9"`},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", `"x" on rank 7`},
		// A character that is not ASCII is quoted whole, not by its first byte.
		{"rnbqkbnr/pppppppp/８/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", `"８" on rank 6`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQé - 0 1", "castling", `"é" is not a castling right`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "placement", "White has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "placement", "White has 2 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w Qkq - 0 1", "placement", "pawns cannot be on the first or last rank"},
		{"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "9 pawns"},
		{StartFEN[:44] + " x KQkq - 0 1", "side to move", `"x" must be w or b`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling", `"x" is not a castling right`},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling", "needs a white rook on h1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "placement", "White has 0 kings"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1", "castling", "needs the white king on e1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling", "repeated"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant", "must be on rank 6"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant", "needs a black pawn on e5"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant", "must be - or a square"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock", "whole number"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number", "from 1"},
		{"4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "position", "White is in check but it is Black's turn"},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "position", ""}, // fine (control row, see below)
		{StartFEN + " 3", "ply", "ply 3 is where White bans one of Black's moves, so Black is to move there, but the FEN's second field says White (w); with White to move at move 1, the ply is 1 (before the ban) or 2 (after it)"},
		{StartFEN + " 0", "ply", "not a ply"},
		{StartFEN + " x", "ply", "not a ply"},
		{StartFEN + " 1:e2e4", "ban", "ban ply"},
		{StartFEN + " 2:e2e5", "ban", "e2e5 matches no legal move of White"},
		{StartFEN + " 2:e7e5", "ban", "e7e5 matches no legal move of White"},
		{StartFEN + " 2:e2", "ban", "not a square pair"},
		{StartFEN + " w:ban", "ply", "says White bans next"},
		{StartFEN + " 1 extra", "position", "not 8"},
	}
	for _, tt := range tests {
		_, err := FromFEN(tt.fen, BanChess{})
		if tt.msg == "" {
			if err != nil {
				t.Errorf("FromFEN(%q): %v", tt.fen, err)
			}
			continue
		}
		var fe *FENError
		if !errors.As(err, &fe) || fe.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("FromFEN(%q):\n got %v\nwant field %q with %q", tt.fen, err, tt.field, tt.msg)
		}
	}
	if _, err := FromFEN(StartFEN+" 2:e2e4", Classic{}); err == nil || !strings.Contains(err.Error(), "Classic games have no bans") {
		t.Errorf("Classic with a ban: %v", err)
	}
}

// TestFENRoundTrip loads the FEN after every ply of every reference game and
// checks the loaded game has the same FEN, legal actions and outcome
// (threefold repetition excepted: FEN does not carry the history).
func TestFENRoundTrip(t *testing.T) {
	games := raceSample(loadRefGames(t))
	if testing.Short() {
		games = games[:20]
	}
	for _, ref := range games {
		if ref.Start == illegalRefStart {
			continue
		}
		g := mustFEN(t, ref.Start, BanChess{})
		for i, p := range ref.Plies {
			mustPlay(t, g, p.Play)
			if g.Outcome().Reason == ThreefoldRepetition {
				continue
			}
			back, err := FromFEN(g.FEN(), BanChess{})
			if err != nil {
				t.Fatalf("seed %d ply %d: FEN %s does not load: %v", ref.Seed, i+1, g.FEN(), err)
			}
			if back.FEN() != g.FEN() || back.Outcome() != g.Outcome() || !equalActions(back.Legal(), g.Legal()) {
				t.Fatalf("seed %d ply %d: %s reloads as %s (%v vs %v)", ref.Seed, i+1, g.FEN(), back.FEN(), back.Outcome(), g.Outcome())
			}
		}
	}
}

func equalActions(a, b []Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLooksLikeFEN: a FEN is told from a PGN by its shape — a placement
// first — so that one cut short is refused for its own fault, not read
// as a PGN's first move.
func TestLooksLikeFEN(t *testing.T) {
	for text, want := range map[string]bool{
		StartFEN:        true,
		StartFEN + " 1": true,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR": true,
		"rnbqkbnr/pppppppp/8/8":                       true,
		"rnbqkbnr/ppp?pppp/8/8/8/8/PPPPPPPP/RNBQKBNR": false,
		"1. e4 e5 1/2-1/2":                            false,
		"1/2-1/2":                                     false,
		`[Event "x"] 1. e4`:                           false,
		"1. {banning: e2e4} d4":                       false,
		"e4 e5":                                       false,
		"":                                            false,
	} {
		if got := LooksLikeFEN(text); got != want {
			t.Errorf("LooksLikeFEN(%q) = %v, want %v", text, got, want)
		}
	}
}
