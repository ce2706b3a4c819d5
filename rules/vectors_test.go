package rules

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/vectors"
)

// refGame is one reference game of testdata/ban-chess-games.jsonl.gz
// (generated with ban-chess.ts 4.0.1, corrected to docs/rules.md; its format
// is in docs/rules.md §7).
type refGame struct {
	Seed  int    `json:"seed"`
	Start string `json:"start"`
	Plies []struct {
		Legal []string `json:"legal"`
		Play  string   `json:"play"`
		SAN   string   `json:"san"`
		FEN   string   `json:"fen"`
	} `json:"plies"`
	Final struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		Winner string `json:"winner"`
	} `json:"final"`
	ActionLog []string `json:"actionLog"`
}

func loadRefGames(tb testing.TB) []refGame {
	tb.Helper()
	games, err := refGames()
	if err != nil {
		tb.Fatal(err)
	}
	if len(games) != 240 {
		tb.Fatalf("read %d reference games, want 240", len(games))
	}
	return games
}

// refGames reads the reference games once for the package's tests, which
// only read them: decoding them took 2.5 s a test under the race detector.
var refGames = sync.OnceValues(func() ([]refGame, error) { return vectors.Read[refGame]("../" + vectors.File) })

// raceSample is games, or under the race detector every sixth of them:
// a test that replays them all is one goroutine's work, ten times slower
// there, where the detector finds nothing a sample does not (CI replays
// them all without it: .ci/run).
func raceSample(games []refGame) []refGame {
	if !race.Enabled {
		return games
	}
	var out []refGame
	for i, g := range games {
		if i%6 == 0 || g.Start == illegalRefStart {
			out = append(out, g)
		}
	}
	return out
}

// played returns the reference game played to its end.
func (ref refGame) played(t *testing.T) *Game {
	t.Helper()
	g := mustFEN(t, ref.Start, BanChess{})
	for _, p := range ref.Plies {
		mustPlay(t, g, p.Play)
	}
	return g
}

// illegalRefStart is the one reference start position docs/rules.md §7
// rejects.
const illegalRefStart = "8/8/4k3/8/8/3K4/4R3/8 w - - 90 80 1"

func bcnStrings(actions []Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}

// TestReferenceGames replays every reference game: before each ply the legal
// actions, after it the FEN and SAN, and at the end the outcome and log.
func TestReferenceGames(t *testing.T) {
	plies, skipped := 0, 0
	for _, ref := range loadRefGames(t) {
		g, err := FromFEN(ref.Start, BanChess{})
		if ref.Start == illegalRefStart {
			// Black stands in check from the rook with White to move:
			// docs/rules.md §2.2 makes this FEN an error, though the reference
			// library played on (offering Rxe6, the capture of the king).
			var fe *FENError
			if !errors.As(err, &fe) || fe.Field != "position" {
				t.Fatalf("seed %d: start %q: error %v, want a position error", ref.Seed, ref.Start, err)
			}
			skipped += len(ref.Plies)
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: start %q: %v", ref.Seed, ref.Start, err)
		}
		for i, p := range ref.Plies {
			if got := bcnStrings(g.Legal()); !slices.Equal(got, p.Legal) {
				t.Fatalf("seed %d ply %d (%s): legal actions\n got %v\nwant %v", ref.Seed, i+1, g.FEN(), got, p.Legal)
			}
			if err := g.PlayText(p.Play); err != nil {
				t.Fatalf("seed %d ply %d: play %s: %v", ref.Seed, i+1, p.Play, err)
			}
			if got := g.FEN(); got != p.FEN {
				t.Fatalf("seed %d ply %d after %s: FEN\n got %s\nwant %s", ref.Seed, i+1, p.Play, got, p.FEN)
			}
			if p.SAN != "" {
				if got := g.Record().Log()[len(g.Record().Log())-1]; got != p.SAN {
					t.Fatalf("seed %d ply %d: SAN %q, want %q", ref.Seed, i+1, got, p.SAN)
				}
			}
			plies++
		}
		o := g.Outcome()
		if o.Status.String() != ref.Final.Status || o.Reason.String() != ref.Final.Reason || o.Winner.String() != ref.Final.Winner {
			t.Fatalf("seed %d: outcome %s/%s/%s, want %s/%s/%s", ref.Seed, o.Status, o.Reason, o.Winner, ref.Final.Status, ref.Final.Reason, ref.Final.Winner)
		}
		if o.Over() && len(g.Legal()) != 0 {
			t.Fatalf("seed %d: finished game still offers actions", ref.Seed)
		}
		if ref.ActionLog != nil && !slices.Equal(g.Record().Log(), ref.ActionLog) {
			t.Fatalf("seed %d: log\n got %v\nwant %v", ref.Seed, g.Record().Log(), ref.ActionLog)
		}
		for i, h := range g.Record().History() {
			if h.FEN() != ref.Plies[i].FEN {
				t.Fatalf("seed %d: history ply %d: FEN %s, want %s", ref.Seed, i+1, h.FEN(), ref.Plies[i].FEN)
			}
		}
	}
	if plies+skipped != 48320 || plies < 47900 {
		t.Errorf("replayed %d plies and skipped %d, want 48320 in all", plies, skipped)
	}
	t.Logf("replayed %d plies; skipped %d from the illegal start", plies, skipped)
}
