// Package tune fits the engine's evaluation weights by Texel's method: it
// plays node-bound self-play games from seeded random openings (Generate),
// keeps their quiet positions with each game's result, and fits the
// weights that best predict the results from the static evaluation
// (Fit), writing them back as engine/eval_weights.go. banchess tune runs
// both (docs/engine.md).
package tune

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/engine/match"
	"github.com/banchess/banchess/rules"
)

// GenConfig is what Generate plays.
type GenConfig struct {
	Games        int    // games to play
	Nodes        int64  // nodes a ply
	OpeningPlies int    // random actions that make each opening
	Seed         uint64 // game i starts from the opening of Seed+i
	Workers      int    // games played at once
	Skip         int    // plies after the opening not recorded
}

// maxPlies ends a self-play game as a draw.
const maxPlies = 400

// Generate plays cfg.Games self-play games and writes, for each quiet
// position of a game (a move ply, the mover not in check and its move not
// a capture or promotion), a line "FEN;result", the result for White: 1,
// 0.5 or 0. It returns the number of positions written.
func Generate(ctx context.Context, w io.Writer, cfg GenConfig) (int, error) {
	bw := bufio.NewWriter(w)
	var mu sync.Mutex
	var firstErr error
	total := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(cfg.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := engine.NewSearcher(16)
			for i := range next {
				lines, err := selfPlay(ctx, s, cfg, cfg.Seed+uint64(i))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("tune: game %d: %w", i, err)
				}
				for _, l := range lines {
					bw.WriteString(l + "\n")
				}
				total += len(lines)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := bw.Flush(); err != nil && firstErr == nil {
		firstErr = fmt.Errorf("tune: writing positions: %w", err)
	}
	return total, firstErr
}

// selfPlay plays one game from the opening of seed and returns its quiet
// positions' lines.
func selfPlay(ctx context.Context, s *engine.Searcher, cfg GenConfig, seed uint64) ([]string, error) {
	g, err := match.Opening(cfg.OpeningPlies, seed)
	if err != nil {
		return nil, fmt.Errorf("opening: %w", err)
	}
	s.Clear()
	start := g.Ply()
	var fens []string
	for !g.Outcome().Over() && g.Ply()-start < maxPlies {
		st, err := engine.FromGame(g)
		if err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
		res, err := s.Search(ctx, st, engine.Limits{Nodes: cfg.Nodes})
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		a := res.Best
		if a.Phase == rules.PhaseMove && g.Ply()-start >= cfg.Skip && res.Mate == 0 {
			fen := g.FEN()
			pos, err := engine.ParseFEN(fen)
			if err != nil {
				return nil, fmt.Errorf("FEN %q: %w", fen, err)
			}
			if !pos.InCheck() && !pos.Occupied(int(a.To)) && a.Promotion == 0 {
				fens = append(fens, fen)
			}
		}
		if err := g.Play(a); err != nil {
			return nil, fmt.Errorf("play %s: %w", a, err)
		}
	}
	result := "0.5"
	switch g.Outcome().Winner {
	case rules.White:
		result = "1"
	case rules.Black:
		result = "0"
	}
	lines := make([]string, len(fens))
	for i, f := range fens {
		lines[i] = f + ";" + result
	}
	return lines, nil
}
