package rules

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// refActions returns the reference games that docs/rules.md accepts, with
// their actions parsed.
func refActions(b *testing.B) (starts []string, games [][]Action, plies int) {
	b.Helper()
	for _, ref := range loadRefGames(b) {
		if ref.Start == illegalRefStart {
			continue
		}
		var acts []Action
		for _, p := range ref.Plies {
			a, err := ParseAction(p.Play)
			if err != nil {
				b.Fatal(err)
			}
			acts = append(acts, a)
		}
		starts, games, plies = append(starts, ref.Start), append(games, acts), plies+len(acts)
	}
	return starts, games, plies
}

// benchmarkReplay replays every reference game per iteration and reports the
// time per ply; withFEN adds writing the FEN after each ply.
func benchmarkReplay(b *testing.B, withFEN bool) {
	starts, games, plies := refActions(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, acts := range games {
			g, err := FromFEN(starts[i], BanChess{})
			if err != nil {
				b.Fatal(err)
			}
			for _, a := range acts {
				if len(g.Legal()) == 0 {
					b.Fatal("no legal action")
				}
				if err := g.Play(a); err != nil {
					b.Fatal(err)
				}
				if withFEN {
					_ = g.FEN()
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*plies)/1000, "µs/ply")
}

// BenchmarkReplayLegal: play + legal actions, per ply, over the reference games.
func BenchmarkReplayLegal(b *testing.B) { benchmarkReplay(b, false) }

// BenchmarkReplayLegalFEN: play + legal actions + FEN, per ply.
func BenchmarkReplayLegalFEN(b *testing.B) { benchmarkReplay(b, true) }

// BenchmarkPlyAt measures one ply (play + legal actions + FEN, averaged over
// a ban and a move) when the game already has 10 or 300 plies.
func BenchmarkPlyAt(b *testing.B) {
	starts, games, _ := refActions(b)
	long := -1
	for i, acts := range games {
		if len(acts) >= 320 && starts[i] == StartFEN+" 1" {
			long = i
			break
		}
	}
	if long < 0 {
		b.Fatal("no reference game of 320 plies from the initial position")
	}
	// ply300-fen starts from the FEN of ply 300, without the history: the
	// same position as ply300, so the two differ only by the history held.
	for _, name := range []string{"ply10", "ply300", "ply300-fen"} {
		at, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "ply"), "-fen"))
		b.Run(name, func(b *testing.B) {
			const pool = 64
			acts := games[long]
			gs := make([]*Game, pool)
			for i := range gs {
				var err error
				gs[i], err = Replay(BanChess{}, starts[long], bcnStrings(acts[:at]))
				if err == nil && strings.HasSuffix(name, "-fen") {
					gs[i], err = FromFEN(gs[i].FEN(), BanChess{})
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			next := acts[at : at+2]
			used := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if used == pool {
					b.StopTimer()
					for _, g := range gs {
						g.Undo()
						g.Undo()
					}
					used = 0
					b.StartTimer()
				}
				g := gs[used]
				for _, a := range next {
					_ = g.Legal()
					if err := g.Play(a); err != nil {
						b.Fatal(err)
					}
					_ = g.FEN()
				}
				used++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N)/1000, "µs/ply")
		})
	}
}

// BenchmarkGameMemory reports the heap one game holds at ply 100.
func BenchmarkGameMemory(b *testing.B) {
	starts, games, _ := refActions(b)
	acts := bcnStrings(games[0][:99]) // ply 100 is next
	const n = 1000
	keep := make([]*Game, n)
	var before, after runtime.MemStats
	for b.Loop() {
		clear(keep)
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range keep {
			keep[i], _ = Replay(BanChess{}, starts[0], acts)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	if keep[0].Ply() != 100 {
		b.Fatalf("at ply %d, want 100", keep[0].Ply())
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/game")
	runtime.KeepAlive(keep)
}
