package match

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Command runs "banchess match": it parses args, plays the match and
// prints each game and the final score to out.
func Command(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("banchess match", flag.ContinueOnError)
	fs.SetOutput(out)
	const players = "a level 1–8; stockfish (its simple ban rule); stockfish-aware; uci (this binary's banchess uci); or uci:<path> (a UCI engine with Fairy-Stockfish's Ban Chess convention)"
	a := fs.String("a", "8", "first player: "+players)
	b := fs.String("b", "stockfish", "second player: "+players)
	threadsA := fs.Int("threads-a", 1, "threads of the first player, when it is the engine")
	threadsB := fs.Int("threads-b", 1, "threads of the second player, when it is the engine")
	games := fs.Int("games", 40, "games to play (each opening twice, colours swapped)")
	plies := fs.Int("opening", 4, "random plies that make each opening")
	seed := fs.Uint64("seed", 1, "seed of the openings")
	perPly := fs.Duration("per-ply", 200*time.Millisecond, "time per ply of level 8, Stockfish and UCI engines (without -clock)")
	nodes := fs.Int64("nodes", 0, "nodes a ply of UCI engines (go nodes) instead of -per-ply: node-bound, such matches replay the same way on any machine")
	clock := fs.String("clock", "", "a clock for each side, minutes+seconds of increment (such as 1+0); the engines keep their time, and the match reports the time they took a ply")
	sfPath := fs.String("stockfish", "/usr/games/stockfish", "Stockfish binary")
	sprt := fs.String("sprt", "", "elo0,elo1: stop once a sequential test accepts either that the first player is elo0 stronger or elo1 stronger (logistic Elo, as fishtest's SPRT[elo0, elo1]); -games is then the most to play, and it decides from the 40th game on")
	alpha := fs.Float64("alpha", 0.05, "the SPRT's chance of accepting elo1 when elo0 holds")
	beta := fs.Float64("beta", 0.05, "the SPRT's chance of accepting elo0 when elo1 holds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m := &Match{Games: *games, OpeningPlies: *plies, Seed: *seed, Log: out}
	if *sprt != "" {
		t, err := parseSPRT(*sprt, *alpha, *beta)
		if err != nil {
			return err
		}
		m.SPRT = &t
	}
	if *clock != "" {
		var err error
		if m.Clock.Initial, m.Clock.Increment, err = parseClock(*clock); err != nil {
			return err
		}
	}
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	player := func(spec string, threads int) (Player, error) {
		switch {
		case spec == "stockfish" || spec == "stockfish-aware":
			sf, err := NewStockfish(*sfPath, *perPly, spec == "stockfish-aware")
			if err != nil {
				return nil, err
			}
			closers = append(closers, sf)
			return sf, nil
		case spec == "uci" || strings.HasPrefix(spec, "uci:"):
			path, args := strings.TrimPrefix(spec, "uci:"), []string(nil)
			if spec == "uci" {
				self, err := os.Executable()
				if err != nil {
					return nil, err
				}
				path, args = self, []string{"uci"}
			}
			label := fmt.Sprintf("%s (%d threads)", spec, threads)
			u, err := NewUCI(label, path, args, *perPly, "Threads="+strconv.Itoa(threads))
			if err != nil {
				return nil, err
			}
			u.Nodes = *nodes
			closers = append(closers, u)
			return u, nil
		}
		n, err := strconv.Atoi(spec)
		if err != nil {
			return nil, fmt.Errorf("player %q: give %s", spec, players)
		}
		return NewEngine(n, *perPly, threads)
	}
	var err error
	if m.A, err = player(*a, *threadsA); err != nil {
		return err
	}
	if m.B, err = player(*b, *threadsB); err != nil {
		return err
	}
	start := time.Now()
	res, err := m.Run(ctx)
	if err != nil {
		return err
	}
	sc := res.Score
	fmt.Fprintf(out, "%s vs %s: %s over %d games in %v; Elo %s\n", m.A.Name(), m.B.Name(), sc, sc.Games(), time.Since(start).Round(time.Second), sc.Elo())
	if m.SPRT != nil {
		fmt.Fprintf(out, "SPRT: %s, %s\n", res.Verdict, m.SPRT.Status(sc))
	}
	if res.Won.Games > 0 {
		fmt.Fprintln(out, res.Won)
	}
	if res.Times != nil {
		fmt.Fprintln(out, res.Times)
	}
	for _, p := range []Player{m.A, m.B} {
		if u, ok := p.(*UCI); ok && len(u.Outside) > 0 {
			fmt.Fprintf(out, "%s outside its search, %v\n", u.Name(), u.Outside)
		}
	}
	return nil
}

// parseClock reads "minutes+seconds", such as "1+0" or "0.5+1".
func parseClock(s string) (initial, increment time.Duration, err error) {
	m, inc, ok := strings.Cut(s, "+")
	mins, err1 := strconv.ParseFloat(m, 64)
	secs, err2 := strconv.ParseFloat(inc, 64)
	if !ok || err1 != nil || err2 != nil || mins <= 0 || secs < 0 {
		return 0, 0, fmt.Errorf("-clock %q: give minutes+seconds, such as 1+0", s)
	}
	return time.Duration(mins * float64(time.Minute)), time.Duration(secs * float64(time.Second)), nil
}

// parseSPRT reads "elo0,elo1".
func parseSPRT(s string, alpha, beta float64) (SPRT, error) {
	lo, hi, ok := strings.Cut(s, ",")
	elo0, err0 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
	elo1, err1 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
	if !ok || err0 != nil || err1 != nil {
		return SPRT{}, fmt.Errorf("-sprt %q: give elo0,elo1, such as 0,10", s)
	}
	t := SPRT{Elo0: elo0, Elo1: elo1, Alpha: alpha, Beta: beta}
	if err := t.Valid(); err != nil {
		return SPRT{}, fmt.Errorf("-sprt %q: %w", s, err)
	}
	return t, nil
}
