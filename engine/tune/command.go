package tune

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Command runs "banchess tune gen|fit [flags]": gen plays self-play games
// and writes their quiet positions, fit fits the evaluation's weights to
// positions and writes them as Go.
func Command(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("give gen or fit")
	}
	switch args[0] {
	case "gen":
		return genCommand(ctx, args[1:], out)
	case "fit":
		return fitCommand(args[1:], out)
	}
	return fmt.Errorf("%q: give gen or fit", args[0])
}

func genCommand(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("banchess tune gen", flag.ContinueOnError)
	fs.SetOutput(out)
	var cfg GenConfig
	fs.IntVar(&cfg.Games, "games", 1000, "self-play games")
	fs.Int64Var(&cfg.Nodes, "nodes", 5000, "nodes a ply")
	fs.IntVar(&cfg.OpeningPlies, "opening", 8, "random plies that make each opening")
	fs.Uint64Var(&cfg.Seed, "seed", 1000, "game i starts from the opening of seed+i")
	fs.IntVar(&cfg.Workers, "workers", 1, "games played at once")
	fs.IntVar(&cfg.Skip, "skip", 4, "plies after the opening not recorded")
	path := fs.String("out", "positions.txt", "file the positions are appended to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.OpenFile(*path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	n, err := Generate(ctx, f, cfg)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("tune: %w", cerr)
	}
	fmt.Fprintf(out, "%d positions from %d games written to %s\n", n, cfg.Games, *path)
	return err
}

func fitCommand(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("banchess tune fit", flag.ContinueOnError)
	fs.SetOutput(out)
	in := fs.String("in", "positions.txt", "files of positions, comma-separated (gzipped when named .gz)")
	var cfg FitConfig
	fs.IntVar(&cfg.Iterations, "iterations", 500, "Adam's iterations")
	fs.Float64Var(&cfg.Rate, "rate", 1, "Adam's step, centipawns")
	fs.Float64Var(&cfg.L2, "l2", 1e-7, "penalty on the squared distance from the current weights, loss per centipawn²")
	start := fs.String("start", "hand", "weights to start from and stay near: hand (the hand-set ones, tune.HandSet) or current (engine/eval_weights.go's)")
	k := fs.Float64("k", 0, "the sigmoid's scale (0: fitted to the current weights)")
	path := fs.String("out", "engine/eval_weights.go", "Go file the weights are written to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var d Data
	for _, name := range strings.Split(*in, ",") {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			if r, err = gzip.NewReader(f); err != nil {
				f.Close()
				return fmt.Errorf("tune: %s: %w", name, err)
			}
		}
		err = d.Read(r)
		f.Close()
		if err != nil {
			return err
		}
	}
	w := HandSet()
	if *start == "current" {
		w = Current()
	}
	if *k == 0 {
		*k = d.FitK(w)
	}
	fmt.Fprintf(out, "%d positions; k %.3f; loss of the starting weights %.6f (held out %.6f)\n",
		d.Len(), *k, d.Loss(w, *k, false), d.heldOutLoss(w, *k))
	cfg.Log = out
	w = d.Fit(w, *k, cfg)
	f, err := os.Create(*path)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	cmd := "banchess tune fit " + strings.Join(args, " ")
	err = WriteGo(f, w, cmd)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("tune: %w", cerr)
	}
	return err
}
