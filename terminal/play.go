// Package terminal plays Ban Chess on a terminal or a pipe: `banchess play`.
//
// Run reads one command, ban or move per line and answers in plain text. On a
// terminal it prompts with "> " and may use colour; on a pipe it echoes each
// line after the prompt instead, so its output reads as a transcript, and it
// never writes colour or cursor codes. Like the web and the API, it plays
// through package games, which keeps its games in memory here.
package terminal

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/banchess/banchess/analysis"
	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/games"
	"github.com/banchess/banchess/i18n"
	"github.com/banchess/banchess/players"
	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/store"
)

// options say how a session talks to its reader, decided once at the start.
type options struct {
	colour      bool             // write ANSI colour (out is a terminal, NO_COLOR unset)
	interactive bool             // in is a terminal: prompt before reading, do not echo
	edit        bool             // in and out are terminals: edit lines (history, arrows), ask at Ctrl-C
	now         func() time.Time // the clock for the PGN Date tag
	lang        string           // the environment's language (LC_ALL, LC_MESSAGES, LANG), as a BCP 47 tag
}

// Run plays games reading commands from in and writing to out until in ends
// or the player quits. args are the flags after "play". It returns the exit
// status: 0 at the end of input or on quit, 2 for bad flags or a start
// position that cannot be read, 1 when reading or writing fails, 130 when ctx
// is cancelled (an interrupt).
func Run(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	svc := newServices(engine.NewPool(1, 0, 32))
	return run(ctx, svc, args, in, out, errOut, detect(isTerminal(in), isTerminal(out), os.Getenv))
}

// detect decides the options from whether in and out are terminals and from
// the environment: colour only on a terminal, when NO_COLOR is unset or
// empty (https://no-color.org) and TERM is not "dumb".
func detect(inTerminal, outTerminal bool, getenv func(string) string) options {
	return options{
		colour:      outTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb",
		interactive: inTerminal,
		edit:        inTerminal && outTerminal,
		now:         time.Now,
		lang:        posixLanguage(getenv),
	}
}

// posixLanguage is the language the environment asks for, as POSIX says
// (LC_ALL, then LC_MESSAGES, then LANG: "de_DE.UTF-8" is "de-DE"); ""
// for none or the C locale.
func posixLanguage(getenv func(string) string) string {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		v, _, _ = strings.Cut(v, ".")
		v, _, _ = strings.Cut(v, "@")
		if v == "C" || v == "POSIX" {
			return ""
		}
		return strings.ReplaceAll(v, "_", "-")
	}
	return ""
}

// isTerminal reports whether v is an *os.File open on a character device.
// Anything else, such as a bytes.Buffer in a test, is not a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// config is what the flags ask for.
type config struct {
	fen, pgnFile, variant string
	unicode               bool
	bot                   string // the computer's side: "", "white" or "black"
	level                 int    // the computer's level, 1–8
	lang                  string // --lang: the language to speak ("": the environment's)
}

// errReported marks an error the flag package has already written, with the
// usage, so that run does not write it again.
var errReported = errors.New("reported")

// parseFlags reads the flags of "play", --variant naming one of variants
// (the default first). The error is flag.ErrHelp for -h.
func parseFlags(args []string, errOut io.Writer, variants []rules.Variant) (config, error) {
	var c config
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&c.fen, "fen", "", "start from this `FEN` (standard or extended)")
	fs.StringVar(&c.pgnFile, "pgn", "", "start from the game in this PGN `file`")
	fs.StringVar(&c.variant, "variant", "", "the `variant`: "+variantChoices(variants))
	fs.BoolVar(&c.unicode, "unicode", false, "draw the pieces as Unicode figurines")
	fs.StringVar(&c.bot, "bot", "", "the computer plays this `side` (white or black): its bans and moves")
	fs.IntVar(&c.level, "level", 4, "the computer's `level`, 1 (weakest) to 8 (strongest, a second a ply)")
	fs.StringVar(&c.lang, "lang", "", "the `language` to speak: "+languageChoices()+" (default: the environment's LANG)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: banchess play [--fen FEN | --pgn FILE] [--variant "+variantIDs(variants, "|")+"] [--unicode] [--bot white|black] [--level 1-8]")
		fmt.Fprintln(errOut, "Plays Ban Chess in the terminal, one command, ban or move a line; type help once started.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("%w: %w", errReported, err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q (a FEN with spaces must be quoted)", rules.Clip(fs.Arg(0)))
	}
	if c.fen != "" && c.pgnFile != "" {
		return c, errors.New("give --fen or --pgn, not both")
	}
	if c.bot != "" && c.bot != "white" && c.bot != "black" {
		return c, fmt.Errorf("--bot %q: give white or black", rules.Clip(c.bot))
	}
	if c.lang != "" && i18n.Builtin().Named(c.lang) == nil {
		return c, fmt.Errorf("--lang %q: give %s", rules.Clip(c.lang), languageChoices())
	}
	if c.level < 1 || c.level > engine.Levels {
		return c, fmt.Errorf("--level %d: give 1 to %d", c.level, engine.Levels)
	}
	return c, nil
}

// languageChoices lists the languages' codes: "en, de, es, fr, he or ru".
func languageChoices() string {
	var codes []string
	for _, l := range i18n.Builtin().Languages() {
		codes = append(codes, l.Code)
	}
	return strings.Join(codes[:len(codes)-1], ", ") + " or " + codes[len(codes)-1]
}

// variantIDs joins the IDs of variants with sep: "ban|classic|en".
func variantIDs(variants []rules.Variant, sep string) string {
	ids := make([]string, len(variants))
	for i, v := range variants {
		ids[i] = v.ID()
	}
	return strings.Join(ids, sep)
}

// variantChoices describes variants for --variant: "ban (default), classic
// or en (EN-Chess)", each ID with its name where that is not the ID.
func variantChoices(variants []rules.Variant) string {
	var b strings.Builder
	for i, v := range variants {
		switch {
		case i == 0:
		case i == len(variants)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(v.ID())
		switch {
		case i == 0:
			b.WriteString(" (default)")
		case !strings.EqualFold(v.ID(), v.Name()):
			b.WriteString(" (" + v.Name() + ")")
		}
	}
	return b.String()
}

// startGame builds the first game from the flags with svc's loader, with
// a note to show the player when the start needs explaining.
func startGame(svc *games.Loader, c config) (*rules.Game, string, error) {
	if _, err := svc.Variant(c.variant); err != nil {
		return nil, "", fmt.Errorf("--variant: %s", reason(err))
	}
	switch {
	case c.fen != "":
		g, err := svc.FromFEN(c.fen, c.variant)
		if err != nil {
			return nil, "", fmt.Errorf("--fen: %s", reason(err))
		}
		return g, "", nil
	case c.pgnFile != "":
		data, err := os.ReadFile(c.pgnFile)
		if err != nil {
			return nil, "", fmt.Errorf("--pgn: %w", err)
		}
		g, err := svc.FromPGN(string(data), c.variant)
		if err != nil {
			return nil, "", fmt.Errorf("--pgn %s: %s", c.pgnFile, reason(err))
		}
		return g, chessGameNote(g), nil
	}
	g, err := svc.NewGame(c.variant)
	return g, "", err
}

// services are what the terminal plays through, as the web does: games,
// the players who hold their seats and the engine's analysis, kept in
// memory.
type services struct {
	games    *games.Service
	players  *players.Service
	analysis *analysis.Service
}

// newServices returns services over a fresh memory store, the engine
// analysing with e.
func newServices(e analysis.Analyser, opts ...games.Option) services {
	mem := store.NewMemory()
	pl := players.New(mem)
	svc := games.New(mem, pl, opts...)
	return services{games: svc, players: pl, analysis: analysis.New(svc, svc.Loader(), nil, e)}
}

// run is Run on svc with the options given, so tests can choose them.
func run(ctx context.Context, svc services, args []string, in io.Reader, out, errOut io.Writer, opts options) int {
	c, err := parseFlags(args, errOut, svc.games.Loader().Variants())
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintln(errOut, "banchess play:", err)
		}
		return 2
	}
	g, note, err := startGame(svc.games.Loader(), c)
	if err != nil {
		fmt.Fprintln(errOut, "banchess play:", err)
		return 2
	}
	var ed *editor
	if f, ok := in.(*os.File); ok && opts.edit {
		if ed, err = newEditor(f, out); err != nil {
			fmt.Fprintln(errOut, "banchess play: the terminal:", err)
			return 1
		}
		defer ed.close()
		out = ed
	}
	w := &errWriter{w: out}
	s := newSession(svc, w, opts, c)
	if err := s.game.open(ctx, g); err != nil {
		if ctx.Err() != nil {
			return 130 // interrupted before the start
		}
		fmt.Fprintln(errOut, "banchess play:", reason(err))
		return 1
	}
	s.welcome(ctx, note)
	s.computer.play(ctx)
	return loop(ctx, s, in, w, errOut, opts.interactive, ed)
}

// loop feeds the session one line at a time until the input ends, the
// player quits, ctx is cancelled or out fails. With a line editor (ed) a
// Ctrl-C asks before leaving an unfinished game.
func loop(ctx context.Context, s *session, in io.Reader, w *errWriter, errOut io.Writer, interactive bool, ed *editor) int {
	var lines <-chan line
	var readErr <-chan error
	if ed != nil {
		lines, readErr = ed.lines(ctx)
	} else {
		lines, readErr = readLines(ctx, in)
	}
	confirming := false
	for {
		if w.err != nil {
			fmt.Fprintln(errOut, "banchess play: writing:", w.err)
			return 1
		}
		if interactive && ed == nil {
			s.out.prompt()
		}
		var l line
		var ok bool
		select {
		case <-ctx.Done():
			fmt.Fprintln(w)
			return 130
		case l, ok = <-lines:
		}
		switch {
		case ok && l.interrupt && (confirming || s.game.over(ctx)):
			return 130
		case ok && l.interrupt:
			s.out.tell("term.quitAsk")
			ed.ask("quit? (y/n) ")
			confirming = true
			continue
		case ok && confirming:
			confirming = false
			ed.ask("> ")
			if answer := strings.ToLower(strings.TrimSpace(l.text)); answer == "y" || answer == "yes" {
				return 130
			}
			s.out.tell("term.goesOn")
			continue
		}
		line := l.text
		if !ok {
			if ctx.Err() != nil { // the reader stopped for the cancellation, not at the input's end
				fmt.Fprintln(w)
				return 130
			}
			if err := <-readErr; err != nil {
				fmt.Fprintln(errOut, "banchess play: reading:", err)
				return 1
			}
			s.endOfInput(ctx)
			return 0
		}
		if !interactive {
			s.out.echo(line)
		}
		if quit := s.handle(ctx, line); quit {
			if w.err != nil {
				return 1
			}
			return 0
		}
	}
}

// maxLine bounds one input line: room for a long PGN pasted on one line.
const maxLine = 1 << 20

// readLines sends the lines of in, without their line ends, until in ends
// (then it sends the read error, nil at a clean end, and closes lines) or
// ctx is cancelled (then it sends ctx's error). Reading happens in its own
// goroutine so that a blocked read on a terminal does not hold up
// cancellation.
func readLines(ctx context.Context, in io.Reader) (<-chan line, <-chan error) {
	lines := make(chan line)
	errc := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for sc.Scan() {
			select {
			case lines <- line{text: strings.TrimSuffix(sc.Text(), "\r")}:
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			}
		}
		errc <- sc.Err()
	}()
	return lines, errc
}

// errWriter remembers the first write error, so the loop can stop on a
// closed pipe instead of playing on silently.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
