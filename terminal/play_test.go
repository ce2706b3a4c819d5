package terminal

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/engine"
	"github.com/banchess/banchess/rules"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// plain are the options of a session on a pipe, with a fixed clock.
func plain() options {
	return options{now: func() time.Time { return time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC) }}
}

// service is a fresh service over memory, as Run makes.
func service() services {
	return newServices(engine.NewPool(1, 0, 1))
}

// play runs a session on input, as `banchess play args…` on a pipe, and
// returns what it wrote to standard output and error and its exit status.
func play(t *testing.T, input string, args ...string) (out, errOut string, code int) {
	t.Helper()
	return playWith(t, plain(), input, args...)
}

func playWith(t *testing.T, opts options, input string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), service(), args, strings.NewReader(input), &out, &errOut, opts)
	return out.String(), errOut.String(), code
}

// lines joins input lines, each ended by a newline.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// banMate is a whole game to checkmate by a ban: after 3. Qh5+ Black's only
// escape is g7-g6, and White bans it.
var banMate = []string{"d2d4", "e4", "e7e5", "f6", "a2a3", "Qh5+", "g7g6"}

func TestBanMateLineIsMateByBan(t *testing.T) {
	g, err := rules.Replay(rules.BanChess{}, "", []string{"b:d2d4", "m:e2e4", "b:e7e5", "m:f7f6", "b:a2a3", "m:d1h5", "b:g7g6"})
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Outcome{Status: rules.Checkmate, Reason: rules.ByBan, Winner: rules.White}
	if got := g.Outcome(); got != want {
		t.Fatalf("outcome %v, want %v", got, want)
	}
}

// TestGolden compares whole sessions with transcripts in testdata; run
// `go test ./terminal -update` to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		input string
	}{
		{"banmate", nil, lines(append(append([]string{}, banMate...), "history", "pgn", "fen")...)},
		{"promotion", []string{"--fen", "k7/4P3/1K6/8/8/8/8/8 w - - 0 1 1"}, lines("b6c6", "e8", "e7e8", "e8=Q#", "history")},
		{"unicode-flip", []string{"--unicode", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"}, lines("flip", "flip")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := play(t, tt.input, tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			path := filepath.Join("testdata", tt.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("transcript differs from %s:\n%s", path, out)
			}
		})
	}
}

func TestBanMateGame(t *testing.T) {
	out, _, code := play(t, lines(append(append([]string{}, banMate...), "g6", "b:a7a6", "moves", "resign", "draw", "fen")...))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"Black bans d2d4 (d4).",
		"White plays e4.",
		"White bans e7e5 (e5).",
		"Black plays f6.",
		"White plays Qh5+.",
		"Ply 7 · White bans a Black move · Black is in check",
		"White bans g7g6 (g6).",
		"a  b  c  d  e  f  g  h\nGame over: White won by checkmate after a ban (1-0).", // told once, under the board
		"✗ the game is over: White won by checkmate after a ban; type undo, new or load\n> b:a7a6\n✗ the game is over",
		"No legal actions: the game is over (White won by checkmate after a ban).",
		"> resign\n✗ the game is over",
		"> draw\n✗ the game is over",
		"rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 8:g7g6#\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(strings.ToLower(out), "game over:"); n != 1 {
		t.Errorf("the end is told %d times, want once", n)
	}
}

func TestClassicGame(t *testing.T) {
	out, _, _ := play(t, lines("f3", "e5", "g4", "Qh4#", "e4", "history"), "--variant", "classic")
	for _, want := range []string{
		"Classic in the terminal.",
		"Ply 1 · White moves",
		"Black plays Qh4#.",
		"Game over: Black won by checkmate (0-1).",
		"> e4\n✗ the game is over: Black won by checkmate; type undo, new or load",
		"  1. f3                   e5\n  2. g4                   Qh4#\n0-1 (Black won by checkmate)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}

func TestFlags(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("1. {banning: d2d4} e4 {banning: e7e5} f6 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chess := filepath.Join(t.TempDir(), "chess.pgn")
	if err := os.WriteFile(chess, []byte("1. e4 e5 2. Nf3 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pgn")
	if err := os.WriteFile(bad, []byte("1. e4 e5 2. Ke3 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tagged := filepath.Join(t.TempDir(), "tagged.pgn") // more tags than a game keeps
	if err := os.WriteFile(tagged, []byte(strings.Repeat("[Tag \"value\"]\n", 33)+"1. e4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		out     string // in standard output
		errOut  string // in standard error
		noError bool   // standard error must be empty
	}{
		{name: "none", code: 0, out: "Ply 1 · Black bans a White move", noError: true},
		{name: "help", args: []string{"-h"}, code: 0, errOut: "usage: banchess play"},
		{name: "unknown flag", args: []string{"--colour"}, code: 2, errOut: "flag provided but not defined: -colour"},
		{name: "stray argument", args: []string{"e4"}, code: 2, errOut: `unexpected argument "e4"`},
		{name: "fen", args: []string{"--fen", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 9"}, code: 0, out: "Ply 35 · White bans a Black move", noError: true},
		{name: "extended fen", args: []string{"-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2:e2e4"}, code: 0, out: "Ply 2 · White moves · e2e4 is banned"},
		{name: "bad fen", args: []string{"--fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, code: 2, errOut: "--fen: FEN placement"},
		{name: "fen and pgn", args: []string{"--fen", rules.StartFEN, "--pgn", pgn}, code: 2, errOut: "not both"},
		{name: "pgn", args: []string{"--pgn", pgn}, code: 0, out: "Ply 5 · Black bans a White move", noError: true},
		{name: "chess pgn", args: []string{"--pgn", chess}, code: 0, out: "That PGN has no bans"},
		{name: "missing pgn", args: []string{"--pgn", filepath.Join(t.TempDir(), "none.pgn")}, code: 2, errOut: "--pgn: open"},
		{name: "bad pgn", args: []string{"--pgn", bad}, code: 2, errOut: "PGN move 2, White: Ke3"},
		{name: "pgn of 33 tags", args: []string{"--pgn", tagged}, code: 2, errOut: "more than 32 tags"},
		{name: "long stray argument", args: []string{strings.Repeat("é", 3555)}, code: 2, errOut: `unexpected argument "` + strings.Repeat("é", 40) + `…"`},
		{name: "classic", args: []string{"--variant", "classic"}, code: 0, out: "Ply 1 · White moves"},
		{name: "bad variant", args: []string{"--variant", "atomic"}, code: 2, errOut: `--variant: "atomic" is not a variant: use "ban", "classic" or "en"` + "\n"},
		{name: "unicode", args: []string{"--unicode"}, code: 0, out: " 8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8"},
		{name: "EN-Chess: x9 above rank 8", args: []string{"--variant", "en"}, code: 0, out: "              a  x9\n 8  r  n  b  q  k  b  n  r  8\n"},
		{name: "EN-Chess: x0 below rank 1", args: []string{"--variant", "en", "--unicode"}, code: 0, out: " 1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1\n              A  x0\n"},
		{name: "EN-Chess from a FEN", args: []string{"--variant", "en", "--fen", "3P3k/8/8/8/8/8/8/K7 w - - 0 1 -n"}, code: 0, out: "              n  x9\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := play(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			if !strings.Contains(errOut, tt.errOut) {
				t.Errorf("stderr lacks %q:\n%s", tt.errOut, errOut)
			}
			if tt.noError && errOut != "" {
				t.Errorf("stderr %q, want none", errOut)
			}
			if tt.code == 2 && out != "" {
				t.Errorf("stdout %q after a start error, want none", out)
			}
			if n := strings.Count(errOut, "flag provided but not defined"); n > 1 {
				t.Errorf("the flag error is written %d times", n)
			}
		})
	}
}

func TestNoEscapeCodesOffTerminal(t *testing.T) {
	input := lines(append(append([]string{"e5", "zz"}, banMate...), "board", "help")...)
	for _, args := range [][]string{nil, {"--unicode"}} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), args, strings.NewReader(input), &out, &errOut); code != 0 {
			t.Fatalf("Run exit %d: %s", code, errOut.String())
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Errorf("Run on a buffer wrote an escape code:\n%q", out.String())
		}
		if !strings.Contains(out.String(), "White won by checkmate after a ban") {
			t.Errorf("the game did not end:\n%s", out.String())
		}
	}
}

func TestDetect(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name                string
		inTerm, outTerm     bool
		getenv              func(string) string
		colour, interactive bool
	}{
		{"pipe to pipe", false, false, env(), false, false},
		{"terminal", true, true, env(), true, true},
		{"terminal, NO_COLOR", true, true, env("NO_COLOR", "1"), false, true},
		{"terminal, empty NO_COLOR", true, true, env("NO_COLOR", ""), true, true},
		{"dumb terminal", true, true, env("TERM", "dumb"), false, true},
		{"pipe in, terminal out", false, true, env(), true, false},
		{"terminal in, pipe out, no NO_COLOR", true, false, env(), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := detect(tt.inTerm, tt.outTerm, tt.getenv)
			if o.colour != tt.colour || o.interactive != tt.interactive {
				t.Errorf("colour %v interactive %v, want %v %v", o.colour, o.interactive, tt.colour, tt.interactive)
			}
		})
	}
	if isTerminal(&bytes.Buffer{}) || isTerminal(strings.NewReader("")) {
		t.Error("a buffer counts as a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file counts as a terminal")
	}
}

func TestColourOnlyWhenAsked(t *testing.T) {
	input := lines("d2d4", "e4", "e7e5", "f6", "a2a3", "Qh5", "xyzzy")
	coloured := plain()
	coloured.colour = true
	out, _, _ := playWith(t, coloured, input)
	for _, want := range []string{red + "[" + reset, red + "Black is in check" + reset, red + "k" + reset, red + "✗ xyzzy"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
	out, _, _ = playWith(t, plain(), input)
	if strings.Contains(out, "\x1b") {
		t.Errorf("plain output has an escape code")
	}
}

func TestInteractivePromptsWithoutEcho(t *testing.T) {
	opts := plain()
	opts.interactive = true
	out, _, code := playWith(t, opts, lines("fen"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "> fen") {
		t.Error("an interactive session echoed its input")
	}
	if !strings.Contains(out, "> "+rules.StartFEN+" 1\n> \n") {
		t.Errorf("want a prompt before each line and a new line at the end:\n%s", out)
	}
}

func TestPipeEchoesInput(t *testing.T) {
	out, _, _ := play(t, "fen\r\n\n   \n# a comment\nquit\nfen\n")
	want := "> fen\n" + rules.StartFEN + " 1\n> \n>    \n> # a comment\n> quit\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("output ends\n%q\nwant\n%q", out[max(0, len(out)-len(want)):], want)
	}
}

func TestEndsAndExitStatus(t *testing.T) {
	for _, input := range []string{"", "quit\n", "exit\n", "QUIT\nfen\n", "fen"} {
		if _, _, code := play(t, input); code != 0 {
			t.Errorf("input %q: exit %d, want 0", input, code)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestReadAndWriteErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), service(), nil, failingReader{}, &out, &errOut, plain()); code != 1 {
		t.Errorf("read error: exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "reading: disk on fire") {
		t.Errorf("stderr %q", errOut.String())
	}
	errOut.Reset()
	if code := run(context.Background(), service(), nil, strings.NewReader("board\n"), failingWriter{}, &errOut, plain()); code != 1 {
		t.Errorf("write error: exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "writing: broken pipe") {
		t.Errorf("stderr %q", errOut.String())
	}
	if code := run(context.Background(), service(), nil, strings.NewReader(strings.Repeat("x", maxLine+1)), &out, &errOut, plain()); code != 1 {
		t.Errorf("an over-long line: exit %d, want 1", code)
	}
}

func TestCancelStopsAWaitingSession(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	var out, errOut bytes.Buffer
	go func() { done <- run(ctx, service(), nil, pr, &out, &errOut, plain()) }()
	if _, err := pw.Write([]byte("fen\n")); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session did not stop when its context was cancelled")
	}
}

// TestImportsOnlyTheCore checks that the package imports the standard
// library, rules, the engine (the computer player's pool), the games
// service with its in-memory store, the catalogs of messages (i18n) and
// the rules' things said in them (ruletext), and golang.org/x/term for the line editor: nothing of the web side and no
// other module. Like every
// front end, it reaches rules and the store through games.
func TestImportsOnlyTheCore(t *testing.T) {
	allowed := []string{
		"github.com/banchess/banchess/analysis",
		"github.com/banchess/banchess/engine",
		"github.com/banchess/banchess/errs",
		"github.com/banchess/banchess/games",
		"github.com/banchess/banchess/i18n",
		"github.com/banchess/banchess/players",
		"github.com/banchess/banchess/rules",
		"github.com/banchess/banchess/ruletext",
		"github.com/banchess/banchess/store",
		"golang.org/x/term",
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if !slices.Contains(allowed, path) && strings.Contains(first, ".") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

func TestStalemateByBan(t *testing.T) {
	// Black to move: the king on a8 has a7 only, and White bans it.
	out, _, code := play(t, lines("a8a7", "Ka7", "undo", "moves"), "--fen", "k7/8/8/1Q6/8/8/8/7K b - - 0 1")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"Ply 3 · White bans a Black move",
		"Game over: Drawn by stalemate after a ban (1/2-1/2).",
		"> Ka7\n✗ the game is over: drawn by stalemate after a ban; type undo, new or load",
		"> moves\nWhite bans Black's only move, by its squares:\n  a8a7\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}

// TestLanguage (issue 43): the terminal speaks the language --lang names,
// else the environment's (LC_ALL, LC_MESSAGES, LANG, as POSIX orders
// them); an unknown --lang is refused.
func TestLanguage(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, ""},
		{map[string]string{"LANG": "de_DE.UTF-8"}, "de-DE"},
		{map[string]string{"LANG": "C.UTF-8"}, ""},
		{map[string]string{"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR"}, "fr-FR"},
		{map[string]string{"LANG": "de_DE", "LC_MESSAGES": "fr_FR", "LC_ALL": "ru_RU.UTF-8@euro"}, "ru-RU"},
		{map[string]string{"LC_ALL": "POSIX", "LANG": "de_DE"}, ""},
	} {
		if got := posixLanguage(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
	svc := newServices(nil)
	var out, errOut bytes.Buffer
	code := run(context.Background(), svc, []string{"--lang", "ru"}, strings.NewReader("e2e4\nmoves\nhelp\n"), &out, &errOut, options{now: time.Now, lang: "de-DE"})
	for _, want := range []string{"Ban Chess в терминале.", "Чёрные запрещают e2e4 (e4).", "У белых 19 допустимых ходов (e2e4 запрещён):", "Полуход 2 · ходят белые · e2e4 запрещён", "  undo                 отменить последний запрет или ход"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--lang ru: the transcript lacks %q:\n%s", want, out.String())
		}
	}
	if code != 0 {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
	out.Reset()
	run(context.Background(), svc, nil, strings.NewReader("draw\n"), &out, &errOut, options{now: time.Now, lang: "de-DE"})
	if !strings.Contains(out.String(), "Partie beendet: Remis durch Einigung (1/2-1/2).") {
		t.Errorf("LANG=de_DE: the transcript:\n%s", out.String())
	}
	errOut.Reset()
	if code := run(context.Background(), svc, []string{"--lang", "xx"}, strings.NewReader(""), &out, &errOut, options{now: time.Now}); code != 2 || !strings.Contains(errOut.String(), `--lang "xx": give en, de, es, fr, he or ru`) {
		t.Errorf("--lang xx: exit %d, %q", code, errOut.String())
	}
}
