package views

import (
	"bytes"
	"context"
	"strings"
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
		{rules.Outcome{}, ""},
	} {
		if got := Banner(tc.o); got != tc.want {
			t.Errorf("Banner(%v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}

func TestHistoryRowsPutBansBeforeTheirMoves(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3"})
	if err != nil {
		t.Fatal(err)
	}
	rows := historyRows(g, -1)
	if len(rows) != 2 || rows[0].Number != 1 || rows[1].Number != 2 {
		t.Fatalf("rows %+v", rows)
	}
	var got []string
	for _, r := range rows {
		for _, it := range append(r.White, r.Black...) {
			got = append(got, it.Text)
		}
	}
	if want := "e2–e4 d4 e7–e5 d5 g1–f3"; strings.Join(got, " ") != want {
		t.Errorf("history %q, want %q", strings.Join(got, " "), want)
	}
	// A game starting with Black to move opens with "…" for White.
	g, err = rules.FromFEN("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayText("b:e8d8"); err != nil {
		t.Fatal(err)
	}
	rows = historyRows(g, -1)
	if len(rows) != 1 || rows[0].Number != 7 || len(rows[0].White) != 0 || len(rows[0].Black) != 1 {
		t.Errorf("rows %+v", rows)
	}
}

func TestBoardOrientation(t *testing.T) {
	g := rules.New(rules.BanChess{})
	for _, tc := range []struct {
		o           Options
		first, last string
	}{
		{NoSelection(), "a8", "h1"},
		{Options{Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"},
		{Options{Auto: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "h1", "a8"}, // Black bans first
		{Options{Auto: true, Flip: true, Sel: rules.NoSquare, PromoTo: rules.NoSquare}, "a8", "h1"},
	} {
		sq := NewGame(g, tc.o).Board.Squares
		if sq[0].Name != tc.first || sq[63].Name != tc.last {
			t.Errorf("%+v: board runs %s…%s, want %s…%s", tc.o, sq[0].Name, sq[63].Name, tc.first, tc.last)
		}
	}
}

func TestSelectionAndPromotion(t *testing.T) {
	g, err := rules.FromFEN("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 2:e1d1", rules.BanChess{})
	if err != nil {
		t.Fatal(err)
	}
	e7, _ := rules.ParseSquare("e7")
	e8, _ := rules.ParseSquare("e8")
	m := NewGame(g, Options{Sel: e7, PromoTo: e8})
	if m.Promotion == nil || len(m.Promotion.Choices) != 4 || m.Promotion.Choices[0].Piece != "wQ" {
		t.Fatalf("promotion %+v", m.Promotion)
	}
	// A selection with no legal action is dropped.
	a8, _ := rules.ParseSquare("a8")
	if m := NewGame(g, Options{Sel: a8, PromoTo: rules.NoSquare}); m.Opts.Sel != rules.NoSquare {
		t.Errorf("kept selection of a square with no move")
	}
	var buf bytes.Buffer
	if err := Page(m).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-promotion="q"`, `data-square="e8"`, `id="status"`, `id="history"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestHotEscapes checks the Go-written square and history link escape what
// they write.
func TestHotEscapes(t *testing.T) {
	evil := `"><script>alert(1)</script>&`
	var buf bytes.Buffer
	sq := Square{Name: evil, Label: evil, Dests: evil, Piece: evil, RankAt: evil, FileAt: evil}
	for _, ro := range []bool{false, true} {
		for _, dest := range []bool{false, true} {
			sq.Dest = dest
			if err := square(sq, ro, evil).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := historyItem(HistoryItem{Index: 3, Text: evil, Title: evil, Ban: true}, evil).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "<script>") || strings.Contains(out, `"><script`) || !strings.Contains(out, "&#34;&gt;&lt;script") {
		t.Errorf("unescaped value in\n%s", out)
	}
}
