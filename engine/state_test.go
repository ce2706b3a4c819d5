package engine

import (
	"slices"
	"sync"
	"testing"

	"github.com/banchess/banchess/internal/race"
	"github.com/banchess/banchess/internal/vectors"
	"github.com/banchess/banchess/rules"
)

// refGame is a reference game of rules/testdata/ban-chess-games.jsonl.gz
// (format: docs/rules.md §7); the engine needs its start and
// the actions played.
type refGame struct {
	Start string `json:"start"`
	Plies []struct {
		Play string `json:"play"`
	} `json:"plies"`
}

func loadRefGames(tb testing.TB) []refGame {
	tb.Helper()
	games, err := refGames()
	if err != nil {
		tb.Fatal(err)
	}
	return games
}

// refGames reads the reference games once for the package's tests, which
// only read them: decoding them took 2.5 s a test under the race detector.
var refGames = sync.OnceValues(func() ([]refGame, error) { return vectors.Read[refGame]("../" + vectors.File) })

func actionStrings(as []rules.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	slices.Sort(out)
	return out
}

// TestLegalMatchesRules compares the engine's legal actions with the rules
// package's on every position of the reference games, the ban in force
// applied, and its position with the one rules keeps.
func TestLegalMatchesRules(t *testing.T) {
	games := loadRefGames(t)
	if len(games) != 240 {
		t.Fatalf("read %d reference games, want 240", len(games))
	}
	positions := 0
	specialBans := map[string]int{} // bans in force of special moves, by kind
	// One goroutine's work: under the race detector a sample of the games
	// (CI compares them all without it).
	every := 1
	if race.Enabled {
		every = 12
	}
	for gi, ref := range games {
		if gi%every != 0 {
			continue
		}
		g, err := rules.FromFEN(ref.Start, rules.BanChess{})
		if err != nil {
			continue // the one start docs/rules.md §7 rejects
		}
		s, err := FromGame(g)
		if err != nil {
			t.Fatalf("game %d: %v", gi, err)
		}
		for pi, ply := range ref.Plies {
			want := actionStrings(g.Legal())
			if got := actionStrings(s.Legal()); !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d (%s): engine %v, rules %v", gi, pi, g.FEN(), got, want)
			}
			if got, want := s.pos.FEN(), fen6(g); got != want {
				t.Fatalf("game %d ply %d: engine position %s, rules %s", gi, pi, got, want)
			}
			positions++
			if s.ban != noBan {
				for _, m := range s.pos.Legal(nil) {
					if m.Pair() == s.ban {
						specialBans[specialKind(m)]++
					}
				}
			}
			a, err := rules.ParseAction(ply.Play)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(a); err != nil {
				t.Fatalf("game %d ply %d: %v", gi, pi, err)
			}
			if err := s.play(a); err != nil {
				t.Fatalf("game %d ply %d: %v", gi, pi, err)
			}
		}
		if !g.Outcome().Over() {
			continue
		}
		// rules ends games the engine's generator does not know of (draws);
		// a game ended by mate or stalemate leaves no playable move.
		if st := g.Outcome().Status; (st == rules.Checkmate || st == rules.Stalemate) && len(s.Legal()) != 0 {
			t.Errorf("game %d ends in %s, the engine still lists %v", gi, g.Outcome(), actionStrings(s.Legal()))
		}
	}
	if every > 1 {
		return
	}
	for _, kind := range []string{"promotion", "en passant", "castling"} {
		if specialBans[kind] == 0 {
			t.Errorf("no ban of a %s among the reference positions", kind)
		}
	}
	t.Logf("bans of special moves compared: %v", specialBans)
	if positions < 47900 {
		t.Errorf("compared %d positions, want nearly all of the reference games' 48,320", positions)
	}
}

// fen6 returns the six standard fields of g's current FEN.
func fen6(g *rules.Game) string {
	p := g.Position()
	return p.FEN()
}

// specialKind names what is special about a move: "promotion" (counted
// once per pair), "en passant", "castling", or "".
func specialKind(m Move) string {
	switch {
	case m.IsPromotion() && m.Promotion() == Queen:
		return "promotion"
	case m.flag() == flagEP:
		return "en passant"
	case m.flag() == flagCastleK || m.flag() == flagCastleQ:
		return "castling"
	}
	return ""
}
