package editor

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

// variant is the variant an ID names, as the editor reads it from a query.
func variant(id string) rules.Variant { return variantOf(id, rules.Variants()) }

func TestFENRoundTrip(t *testing.T) {
	for _, tc := range []struct{ fen, variant, want string }{
		{rules.StartFEN, "", rules.StartFEN + " 1"},
		{rules.StartFEN + " 1", "ban", rules.StartFEN + " 1"},
		{"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 4:e8d8", "ban", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 4:e8d8"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 40", "classic", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "ban", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1 1"},
	} {
		s, err := FromFEN(tc.fen, variant(tc.variant))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.FEN(); got != tc.want {
			t.Errorf("FromFEN(%q).FEN() = %q, want %q", tc.fen, got, tc.want)
		}
		again, err := FromQuery(s.Query(), rules.Variants())
		if err != nil || again != s {
			t.Errorf("the query %v reads back as %+v (%v), want %+v", s.Query(), again, err, s)
		}
	}
}

func TestEditing(t *testing.T) {
	s := Start(rules.BanChess{})
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
		if _, err := FromFEN(fen, variant("")); err == nil {
			t.Errorf("FromFEN(%q) read", fen)
		} else if strings.Contains(err.Error(), "%!") {
			t.Errorf("FromFEN(%q): %v", fen, err)
		}
	}
}

// TestVariants: the editor edits the variants on chess's board, the
// default unless the query names one, and asks the variant whether a ban
// or the move comes next.
func TestVariants(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"", "ban"}, {"ban", "ban"}, {"Classic", "classic"}, {"en", "ban"}, {"chess960", "ban"},
	} {
		if got := variant(tc.id).ID(); got != tc.want {
			t.Errorf("v=%s: %s, want %s", tc.id, got, tc.want)
		}
	}
	own := []rules.Variant{rules.ENChess{}, rules.Classic{}}
	if v := variantOf("", own); v.ID() != "classic" {
		t.Errorf("a default the editor cannot edit: %s", v.ID())
	}
	for _, tc := range []struct {
		fen, variant, act, ban string
	}{
		{rules.StartFEN + " 2:e2e4", "ban", "move", "e2e4"},
		{rules.StartFEN + " 6", "ban", "move", ""},
		{rules.StartFEN + " b:ban", "ban", "ban", ""},
		{rules.StartFEN + " 2:e2e4", "classic", "ban", ""}, // Classic has no bans: the FEN does not read
		{rules.StartFEN, "classic", "ban", ""},
	} {
		s, err := FromFEN(tc.fen, variant(tc.variant))
		if err != nil || s.Act != tc.act || s.Ban != tc.ban {
			t.Errorf("FromFEN(%q, %s): act %q ban %q (%v), want %q %q", tc.fen, tc.variant, s.Act, s.Ban, err, tc.act, tc.ban)
		}
	}
	q := Start(rules.Classic{}).Query()
	if q.Get("v") != "classic" || q.Has("act") || q.Has("ban") {
		t.Errorf("a Classic query: %v", q)
	}
	q.Set("v", "ban")
	q.Set("act", "move")
	q.Set("ban", "zz")
	if s, err := FromQuery(q, rules.Variants()); err == nil || s.Ban != "zz" || strings.Contains(s.FEN(), "zz") {
		t.Errorf("a ban of no squares: %v, %q", err, s.FEN())
	}
}

// TestReadReasons: what the editor cannot read says why as a reason (and
// the rank and text it is about), for the pages to say in a language.
func TestReadReasons(t *testing.T) {
	for _, tc := range []struct {
		query  url.Values
		reason ReadReason
		rank   int
		text   string
	}{
		{url.Values{"fen": {" "}}, ReadEmpty, 0, ""},
		{url.Values{"board": {"x"}}, ReadRanks, 0, ""},
		{url.Values{"fen": {"8/8/8/8/8/8/8/44p w - - 0 1"}}, ReadWide, 1, ""},
		{url.Values{"board": {"8/8/8/8/8/8/8/7z"}}, ReadLetter, 1, "z"},
		{url.Values{"board": {"8/8/8/8/8/8/8/8"}, "act": {"move"}, "ban": {"zz"}}, ReadBan, 0, "zz"},
	} {
		_, err := FromQuery(tc.query, rules.Variants())
		var re *ReadError
		if !errors.As(err, &re) || re.Reason != tc.reason || re.Rank != tc.rank || re.Text != tc.text || re.Error() == "" {
			t.Errorf("%v: %#v, want %s at rank %d, %q", tc.query, err, tc.reason, tc.rank, tc.text)
		}
	}
}
