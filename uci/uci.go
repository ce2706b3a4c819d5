// Package uci serves the engine over the Universal Chess Interface on a
// pair of streams (banchess uci: stdin and stdout), so that GUIs, bots and
// testers can use it. Ban Chess follows Fairy-Stockfish's convention: the
// variant is chosen with UCI_Variant, and the actions of "position … moves"
// alternate ban, move, ban, move… from the position's ply, a ban written
// as the banned move's from–to squares; "go" answers a ban or a move,
// whichever the position is waiting for.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

// Option defaults and bounds.
const (
	defaultHash     = 32 // MiB
	maxHash         = 4096
	maxThreads      = 64
	maxMultiPV      = 64
	defaultOverhead = 30 * time.Millisecond
	maxOverhead     = 5000 // ms
	maxLine         = 1 << 20
)

// uciName is v's UCI_Variant name.
func uciName(v rules.Variant) string { return v.UCIName() }

// playable returns the UCI_Variant names of the variants the engine plays.
func playable() []string {
	var names []string
	for _, v := range rules.Variants() {
		if engine.Supports(v) {
			names = append(names, uciName(v))
		}
	}
	return names
}

// session is one UCI conversation: the options set, the position, and the
// search running, if any.
type session struct {
	out      *writer
	variant  rules.Variant
	game     *rules.Game
	searcher *engine.Searcher
	hashMB   int
	threads  int
	level    int
	multiPV  int
	overhead time.Duration
	running  *running
	// last is the command before this one and when it was read: a go
	// right after a position counts its time from the position's.
	last   string
	lastAt time.Time
}

// running is a search under way: stop cancels it; done closes once its
// bestmove is written. A bounded search ends by its limits (depth, nodes
// or time); the others run until stopped.
type running struct {
	cancel  context.CancelFunc
	done    chan struct{}
	bounded bool
}

// writer writes whole lines, from the reading loop and the search alike.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) line(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.w, format+"\n", args...)
}

// Run reads UCI commands from in and answers on out until "quit", the end
// of in (after a bounded search under way answers), or ctx's end. Bad
// input is answered "info string …" and changes nothing; it never ends
// the session.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s := &session{
		out:      &writer{w: out},
		variant:  rules.Variants()[0], // the default
		searcher: engine.NewSearcher(defaultHash),
		hashMB:   defaultHash,
		threads:  1,
		level:    engine.Levels,
		multiPV:  1,
		overhead: defaultOverhead,
	}
	s.game = rules.New(s.variant)
	defer s.stop()
	lines := make(chan input)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(in, lines) }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			s.finish() // the end of input ends a bounded search's wait, not the search
			return err
		case in := <-lines:
			if quit := s.command(ctx, in); quit {
				return nil
			}
		}
	}
}

// input is a line read, and when: a GUI's clock runs from when it sent
// the position.
type input struct {
	text string
	at   time.Time
}

// errLineTooLong stands for a line longer than maxLine, which is skipped.
const errLineTooLong = "\x00too long"

// readLines sends each line of in to lines, a line too long as
// errLineTooLong, and returns at the end of in (nil) or on an error.
func readLines(in io.Reader, lines chan<- input) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		var b []byte
		tooLong := false
		for {
			chunk, more, err := r.ReadLine()
			if err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if len(b)+len(chunk) > maxLine {
				tooLong = true
			} else {
				b = append(b, chunk...)
			}
			if !more {
				break
			}
		}
		if tooLong {
			lines <- input{errLineTooLong, time.Now()}
			continue
		}
		lines <- input{string(b), time.Now()}
	}
}

// command runs one line and reports whether it was "quit". A command that
// changes what is searched waits for the search under way to end first
// (the GUI should have waited), stopping one without limits.
func (s *session) command(ctx context.Context, in input) (quit bool) {
	if in.text == errLineTooLong {
		s.info("a line longer than %d bytes was skipped", maxLine)
		return false
	}
	f := strings.Fields(in.text)
	if len(f) == 0 {
		return false
	}
	from := in.at
	if s.last == "position" {
		from = s.lastAt
	}
	s.last, s.lastAt = f[0], in.at
	switch cmd, args := f[0], f[1:]; cmd {
	case "uci":
		s.identify()
	case "isready":
		s.out.line("readyok")
	case "ucinewgame":
		s.finish()
		s.searcher.Clear()
		s.game = rules.New(s.variant)
	case "setoption":
		s.finish()
		if err := s.setOption(args); err != nil {
			s.info("setoption: %v", err)
		}
	case "position":
		s.finish()
		if err := s.position(args); err != nil {
			s.info("position: %v (the position is unchanged)", err)
		}
	case "go":
		s.finish()
		s.start(ctx, args, from)
	case "stop":
		s.stop()
	case "quit":
		return true
	case "debug", "register", "ponderhit":
		// Nothing to do: no debug output, registration or pondering.
	default:
		s.info("unknown command %q: the commands are uci, isready, ucinewgame, setoption, position, go, stop and quit", rules.Clip(cmd))
	}
	return false
}

// info writes "info string …", how the session answers bad input.
func (s *session) info(format string, args ...any) {
	s.out.line("info string "+format, args...)
}

// identify answers "uci": the engine's name and options, then uciok.
func (s *session) identify() {
	s.out.line("id name banchess")
	s.out.line("id author the banchess authors")
	s.out.line("option name UCI_Variant type combo default banchess var %s", strings.Join(playable(), " var "))
	s.out.line("option name Threads type spin default 1 min 1 max %d", maxThreads)
	s.out.line("option name Hash type spin default %d min 1 max %d", defaultHash, maxHash)
	s.out.line("option name Skill Level type spin default %d min 1 max %d", engine.Levels, engine.Levels)
	s.out.line("option name MultiPV type spin default 1 min 1 max %d", maxMultiPV)
	s.out.line("option name Move Overhead type spin default %d min 0 max %d", defaultOverhead.Milliseconds(), maxOverhead)
	s.out.line("uciok")
}

// setOption runs "setoption name <name> [value <value>]"; names are read
// in any case.
func (s *session) setOption(args []string) error {
	if len(args) < 2 || args[0] != "name" {
		return errors.New(`write "setoption name <name> value <value>"`)
	}
	name, value := strings.Join(args[1:], " "), ""
	if i := indexOf(args, "value"); i >= 0 {
		name, value = strings.Join(args[1:i], " "), strings.Join(args[i+1:], " ")
	}
	spin := func(min, max int) (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < min || n > max {
			return 0, fmt.Errorf("%s: %q is not a number from %d to %d", name, rules.Clip(value), min, max)
		}
		return n, nil
	}
	var err error
	switch strings.ToLower(name) {
	case "uci_variant":
		choose := strings.Join(playable(), " or ")
		for _, v := range rules.Variants() {
			switch {
			case !strings.EqualFold(value, uciName(v)):
			case !engine.Supports(v):
				return fmt.Errorf("UCI_Variant: the engine does not play %s; choose %s", v.Name(), choose)
			default:
				s.variant = v
				s.game = rules.New(v)
				return nil
			}
		}
		return fmt.Errorf("UCI_Variant: %q is not a variant: choose %s", rules.Clip(value), choose)
	case "threads":
		s.threads, err = spin(1, maxThreads)
	case "hash":
		var mb int
		if mb, err = spin(1, maxHash); err == nil && mb != s.hashMB {
			s.hashMB, s.searcher = mb, engine.NewSearcher(mb)
		}
	case "skill level":
		s.level, err = spin(1, engine.Levels)
	case "multipv":
		s.multiPV, err = spin(1, maxMultiPV)
	case "move overhead":
		var ms int
		ms, err = spin(0, maxOverhead)
		if err == nil {
			s.overhead = time.Duration(ms) * time.Millisecond
		}
	default:
		return fmt.Errorf("no option %q: the options are UCI_Variant, Threads, Hash, Skill Level, MultiPV and Move Overhead", rules.Clip(name))
	}
	return err
}

func indexOf(f []string, word string) int {
	for i, w := range f {
		if w == word {
			return i
		}
	}
	return -1
}

// position runs "position startpos|fen <FEN> [moves …]". The FEN may carry
// Ban Chess's seventh field (the ply and the ban in force); without it the
// position is at the ban before the side to move's move. Each action of
// moves is a ban or a move, as the ply it comes at wants: a ban is the
// banned move's squares (a promotion letter is ignored).
func (s *session) position(args []string) error {
	if len(args) == 0 {
		return errors.New(`say "startpos" or "fen <FEN>"`)
	}
	var g *rules.Game
	rest := args[1:]
	switch args[0] {
	case "startpos":
		g = rules.New(s.variant)
	case "fen":
		end := indexOf(args, "moves")
		if end < 0 {
			end = len(args)
		}
		fen := strings.Join(args[1:end], " ")
		var err error
		if g, err = rules.FromFEN(fen, s.variant); err != nil {
			return fmt.Errorf("FEN %q: %w", rules.Clip(fen), err)
		}
		rest = args[end:]
	default:
		return fmt.Errorf(`%q: say "startpos" or "fen <FEN>"`, rules.Clip(args[0]))
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf(`%q after the position: say "moves" before the actions`, rules.Clip(rest[0]))
		}
		for i, tok := range rest[1:] {
			a, err := actionOf(g, tok)
			if err == nil {
				err = g.Play(a)
			}
			if err != nil {
				return fmt.Errorf("action %d (%s): %w", i+1, rules.Clip(tok), err)
			}
		}
	}
	s.game = g
	return nil
}

// actionOf reads tok, in UCI coordinates, as the ban or move g waits for.
func actionOf(g *rules.Game, tok string) (rules.Action, error) {
	if len(tok) != 4 && len(tok) != 5 {
		return rules.Action{}, errors.New("not a move in coordinates, such as e2e4 or e7e8q")
	}
	if g.Turn().Phase == rules.PhaseBan {
		return rules.ParseAction("b:" + tok[:4])
	}
	return rules.ParseAction("m:" + tok)
}
