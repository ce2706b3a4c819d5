package rulestest_test

import (
	"testing"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/rules/rulestest"
)

// TestNoFifty: the hundredth halfmove draws Ban Chess but not NoFifty,
// which otherwise plays and writes as Ban Chess does.
func TestNoFifty(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80 1"
	plies := []string{"b:a1a8", "m:a1a2"}
	ban, err := rules.Replay(rules.BanChess{}, fen, plies)
	if err != nil {
		t.Fatal(err)
	}
	if o := ban.Outcome(); o != (rules.Outcome{Status: rules.Draw, Reason: rules.FiftyMoveRule}) {
		t.Errorf("Ban Chess: %v", o)
	}
	g, err := rules.Replay(rulestest.NoFifty{}, fen, append(plies, "b:e8d8", "m:e8e7"))
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Over() {
		t.Errorf("NoFifty: %v", o)
	}
	if got, want := g.FEN(), "8/4k3/8/8/8/8/R7/4K3 w - - 101 81 5"; got != want {
		t.Errorf("NoFifty: FEN %s, want %s", got, want)
	}
	if v, err := rules.LookupVariant(rulestest.Variants(), "nofifty"); err != nil || v != (rulestest.NoFifty{}) {
		t.Errorf("LookupVariant: %v, %v", v, err)
	}
}
