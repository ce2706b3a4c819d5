package rules

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// uncachedPGN writes g's PGN with notes from nothing, as if no PGN had
// been written before, leaving g's movetext cache as it was.
func uncachedPGN(g *Game, notes PGNNotes) string {
	saved := g.movetext
	g.movetext = nil
	defer func() { g.movetext = saved }()
	return g.Record().AnnotatedPGN(notes)
}

// TestMovetextCache: a PGN written from the movetext cache (the plies
// before the last, kept from the PGN written before) is the PGN written
// from nothing, whatever happened to the game in between — plies played
// and undone, variations added, extended, promoted or deleted, a
// resignation declared and withdrawn, PGN written with notes added —
// from a new game and from annotated imports with comments and
// variations.
func TestMovetextCache(t *testing.T) {
	starts := map[string]func() (*Game, error){
		"new": func() (*Game, error) { return New(BanChess{}), nil },
	}
	for _, name := range []string{"ban-club-game.pgn", "evergreen.pgn", "ban-black-first.pgn"} {
		b, err := os.ReadFile(filepath.Join("testdata", "annotated", name))
		if err != nil {
			t.Fatal(err)
		}
		starts[name] = func() (*Game, error) { return FromPGN(string(b), PGNOptions{ChessAsClassic: true}) }
	}
	notes := PGNNotes{
		NAGs:    func(n int) []NAG { return []NAG{NAG(n%3 + 1)} },
		Comment: func(n int) string { return "[%clk 0:0" + strconv.Itoa(n%10) + ":00]" },
	}
	lim := VariationLimits{MaxPlies: 60, MaxVariations: 6, MaxDepth: 3}
	for name, start := range starts {
		for seed := range uint64(8) {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				g, err := start()
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(seed, 29))
				for step := range 160 {
					op := "play"
					switch r := rng.IntN(100); {
					case g.Outcome().Over() && r < 50, r < 8:
						op = "undo"
						err = g.Undo()
					case r < 14 && len(g.plies) > 1:
						op = "add a variation"
						after := rng.IntN(len(g.plies))
						at, e := g.Variations().GameAt(nil, after)
						if e != nil {
							t.Fatal(e)
						}
						_, err = g.Variations().Add(nil, after, someActions(at, rng.IntN(4)), lim)
					case r < 17:
						op = "promote or delete"
						if paths := linesOf(g); len(paths) > 1 {
							p := paths[1+rng.IntN(len(paths)-1)]
							if rng.IntN(2) == 0 {
								err = g.Variations().PromoteToMainLine(p, lim)
							} else {
								err = g.Variations().Delete(p)
							}
						}
					case r < 19:
						op = "resign"
						err = g.Resign(White)
					case r < 25:
						op = "write with notes"
						if got, want := g.Record().AnnotatedPGN(notes), uncachedPGN(g, notes); got != want {
							t.Fatalf("step %d: with notes:\n%s\nwant\n%s", step, got, want)
						}
					default:
						if !g.Outcome().Over() {
							legal := g.Legal()
							err = g.Play(legal[rng.IntN(len(legal))])
						}
					}
					_ = err // refusals (nothing to undo, limits) change nothing: the PGNs must agree all the same
					written := g
					if step%2 == 1 { // as a cache answers: kept on the game, written by a clone
						g.KeepMovetext()
						written = g.Clone()
						if n := len(g.plies); n > 1 && (written.movetext == nil || written.movetext.plies != n-1) {
							t.Fatalf("step %d, after %s: the clone of a game that kept its movetext keeps %+v, want its %d plies but the last", step, op, written.movetext, n)
						}
					}
					if got, want := written.Record().PGN(), uncachedPGN(g, PGNNotes{}); got != want {
						t.Fatalf("step %d, after %s:\n%s\nwant\n%s", step, op, got, want)
					}
				}
			})
		}
	}
}

// BenchmarkPGNAfterEachPly: a game's PGN written after each of its plies,
// as the API answers a ply, per ply over 300-ply games; the uncached
// figure writes every PGN from nothing.
func BenchmarkPGNAfterEachPly(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var actions []Action
	g := New(BanChess{})
	for len(actions) < 300 {
		if g.Outcome().Over() {
			g, actions = New(BanChess{}), actions[:0]
		}
		legal := g.Legal()
		a := legal[rng.IntN(len(legal))]
		if err := g.Play(a); err != nil {
			b.Fatal(err)
		}
		actions = append(actions, a)
	}
	for _, cached := range []bool{true, false} {
		b.Run("cached="+strconv.FormatBool(cached), func(b *testing.B) {
			for b.Loop() {
				g := New(BanChess{})
				for _, a := range actions {
					if err := g.Play(a); err != nil {
						b.Fatal(err)
					}
					if cached {
						g.Record().PGN()
					} else {
						uncachedPGN(g, PGNNotes{})
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(actions)), "ns/ply")
		})
	}
}
