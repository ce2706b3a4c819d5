package match

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/banchess/banchess/engine"
)

// Command runs "banchess match": it parses args, plays the match and
// prints each game and the final score to out.
func Command(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("banchess match", flag.ContinueOnError)
	fs.SetOutput(out)
	a := fs.String("a", "8", "first player: a level 1–8, or stockfish")
	b := fs.String("b", "stockfish", "second player: a level 1–8, or stockfish")
	games := fs.Int("games", 40, "games to play (each opening twice, colours swapped)")
	plies := fs.Int("opening", 4, "random plies that make each opening")
	seed := fs.Uint64("seed", 1, "seed of the openings")
	perPly := fs.Duration("per-ply", 200*time.Millisecond, "time per ply of level 8 and of Stockfish")
	sfPath := fs.String("stockfish", "/usr/games/stockfish", "Stockfish binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	player := func(spec string) (Player, error) {
		if spec == "stockfish" {
			sf, err := NewStockfish(*sfPath, *perPly)
			if err != nil {
				return nil, err
			}
			closers = append(closers, sf)
			return sf, nil
		}
		n, err := strconv.Atoi(spec)
		if err != nil {
			return nil, fmt.Errorf("player %q: give a level 1–8 or stockfish", spec)
		}
		lim, err := engine.Level(n, *perPly)
		if err != nil {
			return nil, err
		}
		return NewEngine("level "+spec, lim), nil
	}
	pa, err := player(*a)
	if err != nil {
		return err
	}
	pb, err := player(*b)
	if err != nil {
		return err
	}
	start := time.Now()
	sc, err := Run(ctx, pa, pb, *games, *plies, *seed, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s vs %s: %s over %d games in %v\n", pa.Name(), pb.Name(), sc, sc.Games(), time.Since(start).Round(time.Second))
	return nil
}
