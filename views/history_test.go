package views

import (
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
)

func TestHistoryRowsPutBansBeforeTheirMoves(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:e2e4", "m:d2d4", "b:e7e5", "m:d7d5", "b:g1f3"})
	if err != nil {
		t.Fatal(err)
	}
	rows := historyRows(nil, NotationLetters, g, -1)
	if len(rows) != 2 || rows[0].Number != 1 || rows[1].Number != 2 {
		t.Fatalf("rows %+v", rows)
	}
	var got []string
	for _, r := range rows {
		for _, it := range append(r.White, r.Black...) {
			got = append(got, it.Text)
		}
	}
	if want := "e4 d4 e5 d5 Nf3"; strings.Join(got, " ") != want {
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
	rows = historyRows(nil, NotationLetters, g, -1)
	if len(rows) != 1 || rows[0].Number != 7 || len(rows[0].White) != 0 || len(rows[0].Black) != 1 {
		t.Errorf("rows %+v", rows)
	}
}

// TestHistoryViewSaysWhetherTheGameGoesOn: a history view of a game that
// goes on says so; one of a finished game does not claim it goes on.
func TestHistoryViewSaysWhetherTheGameGoesOn(t *testing.T) {
	mate := []string{"b:d2d4", "m:e2e4", "b:d7d5", "m:e7e5", "b:g1f3", "m:f1c4", "b:a7a6", "m:b8c6",
		"b:d2d4", "m:d1h5", "b:a7a6", "m:g8f6", "b:a2a3", "m:c4f7", "b:e8e7"}
	for _, tt := range []struct {
		plies  []string
		goesOn bool
	}{{mate[:4], true}, {mate, false}} {
		g, err := rules.Replay(rules.BanChess{}, "", tt.plies)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewHistoryView(g, 2, Info{ID: "x"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if says := strings.Contains(m.Hint, "goes on"); says != tt.goesOn {
			t.Errorf("after %d plies (over: %v) the history view's hint is %q", len(tt.plies), g.Outcome().Over(), m.Hint)
		}
	}
}
