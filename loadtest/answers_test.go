package loadtest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/banchess/banchess/internal/race"
)

// answerSizes plays games random legal plies through the htmx endpoint in
// process, each game to its end, and returns the size of every ply's
// answer, as sent and gzipped, and those of the plies from 290 to 310.
func answerSizes(tb testing.TB, games int) (sent, zipped, late []int) {
	srv := inProcess(openStore(tb, "memory"))
	ss, err := newSessions(srv, htmlKind, 1, 0, 3)
	if err != nil {
		tb.Fatal(err)
	}
	s := ss[0]
	s.rng = rand.New(rand.NewPCG(11, 0))
	for range games {
		if err := s.newGame(); err != nil {
			tb.Fatal(err)
		}
		for !s.game.Outcome().Over() {
			legal := s.game.Legal()
			a := legal[s.rng.IntN(len(legal))]
			if err := s.htmlPly(a); err != nil {
				tb.Fatal(err)
			}
			if err := s.game.Play(a); err != nil {
				tb.Fatal(err)
			}
			sent = append(sent, s.buf.Len())
			zipped = append(zipped, gzipLen(s.buf.Bytes()))
			if p := s.game.Ply() - 1; p >= 290 && p <= 310 {
				late = append(late, s.buf.Len())
			}
		}
	}
	return sent, zipped, late
}

// median returns the middle of sizes (the upper one of the two middles).
func median(sizes []int) int {
	s := slices.Clone(sizes)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestAnswerSizes checks issue 11's targets for an htmx ply's answer, as
// sent (uncompressed): at most 3 KB at the median over whole games, and at
// most 4 KB around ply 300.
func TestAnswerSizes(t *testing.T) {
	if race.Enabled {
		t.Skip("sizes of one session's answers: CI measures them without the race detector")
	}
	sent, zipped, late := answerSizes(t, 6)
	if len(late) == 0 {
		t.Fatal("no game reached ply 290: play more or longer games")
	}
	t.Logf("%d plies: median %d B (gzipped %d B), largest %d B; plies 290–310: median %d B, largest %d B",
		len(sent), median(sent), median(zipped), slices.Max(sent), median(late), slices.Max(late))
	if m := median(sent); m > 3<<10 {
		t.Errorf("median answer %d B, want at most 3 KB", m)
	}
	if m := slices.Max(late); m > 4<<10 {
		t.Errorf("largest answer around ply 300: %d B, want at most 4 KB", m)
	}
}
