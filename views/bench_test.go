package views

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/banchess/banchess/rules"
)

// benchGame returns a game of n random legal plies (fewer if it ends).
func benchGame(b *testing.B, n int) *rules.Game {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := rules.New(rules.BanChess{})
	for range n {
		legal := g.Legal()
		if len(legal) == 0 {
			break
		}
		if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkFragment measures what an htmx ply answers at ply 80: the model
// (NewGame) and the #game fragment rendered from it, separately and together.
func BenchmarkFragment(b *testing.B) {
	g := benchGame(b, 80)
	o := NoSelection()
	info := Info{PGN: g.Record().PGN()}
	var buf bytes.Buffer
	b.Run("model", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = NewGame(g, info, o)
		}
	})
	b.Run("render", func(b *testing.B) {
		m := NewGame(g, info, o)
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := Fragment(m).Render(context.Background(), &buf); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(buf.Len()))
	})
	b.Run("both", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := Fragment(NewGame(g, info, o)).Render(context.Background(), &buf); err != nil {
				b.Fatal(err)
			}
		}
	})
}
