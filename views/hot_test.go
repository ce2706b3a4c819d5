package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

// TestHotEscapes checks the Go-written square and history link escape what
// they write that is not theirs (a square's name and label come from
// tables; the asset version and the ply's URL are given).
func TestHotEscapes(t *testing.T) {
	evil := `"><script>alert(1)</script>&`
	var buf bytes.Buffer
	sq := Square{at: rules.SquareAt(4, 1), piece: rules.NewPiece(rules.White, rules.Pawn), marks: rankAt | fileAt}
	for _, ro := range []bool{false, true} {
		for _, m := range []marks{0, dest} {
			sq.marks = sq.marks&^dest | m
			if err := square(sq, ro, false, evil, evil, m != 0).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := historyItem(HistoryItem{Index: 3, Text: evil, Title: evil, Ban: true}, historyLinks{evil, evil}).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "<script>") || strings.Contains(out, `"><script`) || !strings.Contains(out, "&#34;&gt;&lt;script") {
		t.Errorf("unescaped value in\n%s", out)
	}
}

func TestMiniBoardDrawsEverySquare(t *testing.T) {
	var buf bytes.Buffer
	if err := MiniBoard("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "<i "); n != 64 {
		t.Errorf("%d squares, want 64", n)
	}
	if strings.Count(out, "♙") != 8 || strings.Count(out, "♟") != 8 || !strings.HasPrefix(out, `<span class="mini-board"`) {
		t.Errorf("unexpected board %s", out)
	}
	buf.Reset()
	if err := MiniBoard("9/x/<script>").Render(context.Background(), &buf); err != nil || strings.Contains(buf.String(), "<script") {
		t.Errorf("bad placement rendered %q (%v)", buf.String(), err)
	}
}
