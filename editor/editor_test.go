package editor

import (
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

func TestFENRoundTrip(t *testing.T) {
	for _, tc := range []struct{ fen, variant, want string }{
		{rules.StartFEN, "", rules.StartFEN + " 1"},
		{rules.StartFEN + " 1", "ban", rules.StartFEN + " 1"},
		{"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 4:e8d8", "ban", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 4:e8d8"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 40", "classic", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "ban", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1 1"},
	} {
		s, err := FromFEN(tc.fen, tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.FEN(); got != tc.want {
			t.Errorf("FromFEN(%q).FEN() = %q, want %q", tc.fen, got, tc.want)
		}
		again, err := FromQuery(s.Query())
		if err != nil || again != s {
			t.Errorf("the query %v reads back as %+v (%v), want %+v", s.Query(), again, err, s)
		}
	}
}

func TestEditing(t *testing.T) {
	s := Start()
	s.Clear()
	if s.Placement() != "8/8/8/8/8/8/8/8" {
		t.Fatalf("cleared: %s", s.Placement())
	}
	for _, step := range []struct{ pick, sq string }{{"wK", "e1"}, {"bK", "e8"}, {"wQ", "e7"}, {"bP", "a2"}, {Erase, "a2"}} {
		s.Pick = step.pick
		sq, _ := rules.ParseSquare(step.sq)
		s.Place(sq)
	}
	if got := s.Placement(); got != "4k3/4Q3/8/8/8/8/8/4K3" {
		t.Errorf("placed: %s", got)
	}
	e7, _ := rules.ParseSquare("e7")
	e8, _ := rules.ParseSquare("e8")
	a1, _ := rules.ParseSquare("a1")
	s.Move(e7, e8) // the queen takes the king
	s.Move(a1, e8) // an empty square moves nothing
	if got := s.Placement(); got != "4Q3/8/8/8/8/8/8/4K3" {
		t.Errorf("moved: %s", got)
	}
	s.Reset()
	if s.FEN() != rules.StartFEN+" 1" {
		t.Errorf("reset: %s", s.FEN())
	}
}

func TestRefusals(t *testing.T) {
	for _, fen := range []string{"", "8/8/8 w - - 0 1", "9/8/8/8/8/8/8/8 w - - 0 1", "4x3/8/8/8/8/8/8/8 w - - 0 1", "ppppppppp/8/8/8/8/8/8/8 w - - 0 1"} {
		if _, err := FromFEN(fen, ""); err == nil {
			t.Errorf("FromFEN(%q) read", fen)
		} else if strings.Contains(err.Error(), "%!") {
			t.Errorf("FromFEN(%q): %v", fen, err)
		}
	}
}
