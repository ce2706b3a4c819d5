package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// classics are public-domain games in testdata/classics: tags, comments,
// variations (nested too) and NAGs, as real PGN files have them.
var classics = []struct {
	file            string
	moves           int
	comments        int
	variations      int
	lastSAN, result string
}{
	{"opera.pgn", 33, 3, 1, "Rd8#", "1-0"},
	{"immortal.pgn", 45, 0, 0, "Be7#", "1-0"},
	{"reykjavik-1972-1.pgn", 111, 1, 2, "Kd6", "1-0"},
}

func readClassic(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "classics", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClassicsKeepTheGame: a chess PGN without bans reads as a Classic
// game of all its moves, with its tags and comments, which its PGN writes
// back as they were; its variations are counted and dropped.
func TestClassicsKeepTheGame(t *testing.T) {
	for _, c := range classics {
		t.Run(c.file, func(t *testing.T) {
			text := readClassic(t, c.file)
			g, err := FromPGN(text, PGNOptions{ChessAsClassic: true})
			if err != nil {
				t.Fatal(err)
			}
			hist := g.Record().History()
			if g.Variant() != Variant(Classic{}) || len(hist) != c.moves || !g.Record().FromChessGame() {
				t.Fatalf("%s game of %d plies (from chess %v), want Classic of %d", g.Variant().Name(), len(hist), g.Record().FromChessGame(), c.moves)
			}
			if hist[len(hist)-1].SAN != c.lastSAN || g.Outcome().Result() != c.result {
				t.Errorf("ends %s %s, want %s %s", hist[len(hist)-1].SAN, g.Outcome().Result(), c.lastSAN, c.result)
			}
			if n, size := len(g.Snapshot().Comments), g.Variations().Size(); n != c.comments || size.Variations != c.variations {
				t.Errorf("%d comments, %d variations; want %d, %d", n, size.Variations, c.comments, c.variations)
			}
			// Every tag is written back as it was, in its order.
			out := g.Record().PGN()
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[Result") && !strings.Contains(out, line+"\n") {
					t.Errorf("the PGN lost the tag %s", line)
				}
			}
			// Read back, it is the same game with the same tags and comments.
			again, err := FromPGN(out, PGNOptions{ChessAsClassic: true})
			if err != nil {
				t.Fatalf("the written PGN does not read: %v\n%s", err, out)
			}
			if again.Record().PGN() != out || len(again.Record().History()) != c.moves {
				t.Errorf("round trip differs:\n%s\nthen\n%s", out, again.Record().PGN())
			}
			s, err := Restore(g.Snapshot())
			if err != nil || s.Record().PGN() != out {
				t.Errorf("restored from its snapshot: %v\n%s", err, s.Record().PGN())
			}
		})
	}
}

func TestClassicComments(t *testing.T) {
	g, err := FromPGN(readClassic(t, "opera.pgn"), PGNOptions{ChessAsClassic: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Record().Comment(0); c != "Played in a box at the opera during a performance." {
		t.Errorf("the game's comment %q", c)
	}
	if c := g.Record().History()[3].Comment; c != "Philidor's Defence." {
		t.Errorf("after 2... d6: %q", c)
	}
	if !strings.Contains(g.Record().PGN(), "d6\n{Philidor's Defence.} 3. d4") {
		t.Errorf("the PGN moved a comment:\n%s", g.Record().PGN())
	}
	short, err := FromPGN("1. e4 {best by test} e5 *", PGNOptions{ChessAsClassic: true})
	if err != nil || !strings.Contains(short.Record().PGN(), "1. e4 {best by test} 1... e5 *") {
		t.Errorf("the move after a comment is not numbered: %v\n%s", err, short.Record().PGN())
	}
	if err := g.Undo(); err != nil || g.Record().Comment(33) != "" {
		t.Errorf("undo keeps the comment of the ply it took back: %v %q", err, g.Record().Comment(33))
	}
}
