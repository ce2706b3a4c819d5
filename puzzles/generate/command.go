package generate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/banchess/banchess/puzzles"
)

// Store is where played games are kept, read in a fixed order (by id).
type Store interface {
	EachGame(ctx context.Context, fn func(id, variant, startFEN string, actions []string) error) error
}

// OpenStore opens the store a --db value names; the caller closes it.
type OpenStore func(ctx context.Context, dsn string) (Store, io.Closer, error)

// Command runs "banchess puzzles generate": it parses args, generates the
// puzzles, writes them to --out and the figures to log.
func Command(ctx context.Context, args []string, stdout, log io.Writer, open OpenStore) error {
	fs := flag.NewFlagSet("banchess puzzles generate", flag.ContinueOnError)
	fs.SetOutput(log)
	count := fs.Int("count", 50, "puzzles to make")
	seed := fs.Uint64("seed", 1, "seed of the self-play games: the same seed (and count, and --db) makes the same puzzles")
	db := fs.String("db", "", "also examine the games of this store first, in the order of their ids: an SQLite file or a PostgreSQL URL, as the server's --db")
	out := fs.String("out", "-", "where to write the puzzles (JSON lines); - for standard output")
	workers := fs.Int("workers", runtime.NumCPU(), "games examined at once; the output does not depend on it")
	quiet := fs.Bool("quiet", false, "no progress lines")
	source := fs.String("source", SourceSelfPlay, "where the self-play games start: selfplay (the initial position) or endgames (random legal endgame-like positions made for the rare themes)")
	minimums := fs.String("min", "", "minimums by theme, as mateIn1=150,promotion=150: the run goes on past --count until each is met, keeping only puzzles an unmet minimum wants once --count is met")
	long := fs.Bool("long", false, "seek long puzzles too: mates in four (within 8 plies) and material lines of 4 solver actions, with a deeper screen (LongLimits)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *count <= 0 || *workers <= 0 {
		return errors.New("--count and --workers must be at least 1")
	}
	if !slices.Contains(Sources(), *source) {
		return fmt.Errorf("--source %q: choose one of %v", *source, Sources())
	}
	mins, err := parseMin(*minimums)
	if err != nil {
		return err
	}
	if (mins[puzzles.Long] > 0 || mins[puzzles.MateIn4] > 0) && !*long {
		// Without --long no puzzle is long: the run would never meet it.
		return errors.New("--min long or mateIn4: only a run with --long finds them")
	}
	opt := Options{Count: *count, Seed: *seed, Workers: *workers, Limits: DefaultLimits, Source: *source, Min: mins}
	if *long {
		opt.Limits = LongLimits
	}
	if !*quiet {
		opt.Progress = log
	}
	if *db != "" {
		if open == nil {
			return errors.New("--db: no store can be opened here")
		}
		played, err := readStore(ctx, open, *db)
		if err != nil {
			return err
		}
		opt.Played = played
		fmt.Fprintf(log, "%d Ban Chess games from the store\n", len(played))
	}
	// Each puzzle is written when kept: a run cut short leaves the first
	// puzzles, which are what a run asking for that many makes.
	w, closeOut, err := output(*out, stdout)
	if err != nil {
		return err
	}
	opt.Found = func(p puzzles.Puzzle) error {
		if err := puzzles.Write(w, []puzzles.Puzzle{p}); err != nil {
			return fmt.Errorf("writing the puzzles: %w", err)
		}
		return nil
	}
	ps, stats, err := Run(ctx, opt)
	if cerr := closeOut(); err == nil && cerr != nil {
		err = fmt.Errorf("writing the puzzles: %w", cerr)
	}
	if len(ps) > 0 || err == nil {
		stats.Report(log, len(ps))
	}
	return err
}

// parseMin reads --min: theme=n pairs separated by commas.
func parseMin(text string) (map[puzzles.Theme]int, error) {
	mins := map[puzzles.Theme]int{}
	if text == "" {
		return mins, nil
	}
	for _, part := range strings.Split(text, ",") {
		name, n, ok := strings.Cut(part, "=")
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 0 {
			return nil, fmt.Errorf("--min %q: want theme=number", part)
		}
		t := puzzles.Theme(name)
		if !slices.Contains(puzzles.AllThemes(), t) {
			return nil, fmt.Errorf("--min: %q is not a theme (%v)", name, puzzles.AllThemes())
		}
		mins[t] = v
	}
	return mins, nil
}

// output opens where the puzzles go: a file (created anew) or, for "-",
// stdout.
func output(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--out: %w", err)
	}
	return f, f.Close, nil
}

// readStore reads the Ban Chess games of the store dsn names.
func readStore(ctx context.Context, open OpenStore, dsn string) ([]Played, error) {
	s, closer, err := open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	var played []Played
	err = s.EachGame(ctx, func(id, variant, start string, actions []string) error {
		if variant == puzzles.Variant().ID() && len(actions) > 0 {
			played = append(played, Played{Name: "stored " + id, Start: start, Actions: actions})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the store's games: %w", err)
	}
	return played, nil
}
