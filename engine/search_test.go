package engine

import (
	"context"
	"testing"

	"github.com/banchess/banchess/rules"
)

func stateOf(t testing.TB, fen string, v rules.Variant) *State {
	t.Helper()
	g, err := rules.FromFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromGame(g)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSearchSmoke(t *testing.T) {
	for _, fen := range []string{
		rules.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	} {
		s := stateOf(t, fen, rules.BanChess{})
		res, err := NewSearcher(16).Search(context.Background(), s, Limits{Depth: 5})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: best %s pv %v score %d mate %d depth %d nodes %d in %v (%.0f nodes/s)", fen, res.Best, res.PV, res.Score, res.Mate, res.Depth, res.Nodes, res.Time, float64(res.Nodes)/res.Time.Seconds())
	}
}
