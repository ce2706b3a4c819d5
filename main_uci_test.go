package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/banchess/banchess/rules"
)

// command returns the banchess command with args, run by a child process
// of the test binary (see runArgsEnv).
func command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runArgsEnv+"="+strings.Join(args, "\n"))
	return cmd
}

// uciEngine is "banchess uci" in a child process, driven line by line: a
// small UCI client.
type uciEngine struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startUCI(t *testing.T) *uciEngine {
	t.Helper()
	cmd := command("uci")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &uciEngine{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return e
}

func (e *uciEngine) send(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(e.in, l+"\n"); err != nil {
			e.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// until reads lines up to the first that starts with prefix, within 30 s,
// and returns them, that one last.
func (e *uciEngine) until(prefix string) []string {
	e.t.Helper()
	var got []string
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("the engine ended before %q; it said %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-timeout:
			e.t.Fatalf("no %q within 30 s; the engine said %q", prefix, got)
		}
	}
}

// bestmove reads up to bestmove and returns its action and the info lines.
func (e *uciEngine) bestmove() (string, []string) {
	e.t.Helper()
	lines := e.until("bestmove ")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) < 2 {
		e.t.Fatalf("bestmove line %q", lines[len(lines)-1])
	}
	return f[1], lines[:len(lines)-1]
}

// play plays the UCI actions on g, each a ban or a move as g waits for.
func play(t *testing.T, g *rules.Game, actions ...string) {
	t.Helper()
	for _, a := range actions {
		text := "m:" + a
		if g.Turn().Phase == rules.PhaseBan {
			text = "b:" + a[:4]
		}
		if err := g.PlayText(text); err != nil {
			t.Fatalf("%s at %s: %v", a, g.FEN(), err)
		}
	}
}

// checkInfo checks that every info line with a pv names a line of legal
// actions, bans and moves alternating, from g.
func checkInfo(t *testing.T, g *rules.Game, info []string) {
	t.Helper()
	n := 0
	for _, l := range info {
		_, pv, ok := strings.Cut(l, " pv ")
		if !strings.HasPrefix(l, "info depth ") || !ok {
			continue
		}
		for _, w := range []string{" score ", " nodes ", " nps "} {
			if !strings.Contains(l, w) {
				t.Errorf("info line without%s: %q", w, l)
			}
		}
		cp, err := rules.Replay(g.Variant(), g.StartFEN(), g.BCN())
		if err != nil {
			t.Fatal(err)
		}
		play(t, cp, strings.Fields(pv)...)
		n++
	}
	if n == 0 {
		t.Errorf("no info line with a pv in %q", info)
	}
}

// TestUCITranscript drives banchess uci as a GUI would: identification,
// the variant, a ban then a move as the position requires, a mate by the
// ban, bad input answered without harm, stop, EN-Chess (its x squares,
// swaps and a mate its Aurors make), quit.
func TestUCITranscript(t *testing.T) {
	e := startUCI(t)
	e.send("uci")
	hello := strings.Join(e.until("uciok"), "\n")
	for _, want := range []string{"id name banchess", "option name UCI_Variant type combo default banchess var banchess var chess var enchess", "option name Threads", "option name Hash", "option name Skill Level", "option name MultiPV"} {
		if !strings.Contains(hello, want) {
			t.Errorf("the answer to uci has no %q:\n%s", want, hello)
		}
	}
	// A small hash: each ucinewgame clears it, which under the race
	// detector, beside the other packages' tests, took most of a 30 s wait.
	e.send("setoption name Hash value 1", "setoption name UCI_Variant value banchess", "isready")
	e.until("readyok")

	// After Black's ban of e2–e4 and White's d4, White bans one of Black's moves.
	e.send("position startpos moves e2e4 d2d4", "go movetime 200")
	ban, info := e.bestmove()
	g := rules.New(rules.BanChess{})
	play(t, g, "e2e4", "d2d4")
	checkInfo(t, g, info)
	if g.Turn().Phase != rules.PhaseBan || g.Turn().ToMove != rules.Black {
		t.Fatalf("the test's position is not White's ban of Black's move: %s", g.FEN())
	}
	play(t, g, ban) // a legal ban of one of Black's moves

	// One ply later, Black moves.
	e.send("position startpos moves e2e4 d2d4 "+ban, "go movetime 200")
	move, info := e.bestmove()
	checkInfo(t, g, info)
	play(t, g, move)
	if last, _ := g.LastAction(); last.Phase != rules.PhaseMove || g.ToMove() != rules.White {
		t.Errorf("after %s the engine answered %s, not a move of Black's", ban, move)
	}

	// Rd8+ leaves Black one move, Kh7: White's ban of it mates.
	e.send("position fen 3R3k/6p1/8/8/8/8/8/K7 b - - 1 1 3", "go depth 4")
	mate, info := e.bestmove()
	if mate != "h8h7" || !strings.Contains(strings.Join(info, "\n"), "score mate 1 ") {
		t.Errorf("mate by the ban: bestmove %s after %q; want h8h7 with score mate 1", mate, info)
	}

	// Bad input is answered with info string and changes nothing.
	for _, bad := range []string{
		"position fen 8/8/8 w - - 0 1",
		"position startpos moves e2e4 e2e4",
		"position startpos moves e2",
		"position sideways",
		"setoption name UCI_Variant value crazyhouse",
		"setoption name Threads value many",
		"setoption name Colour value blue",
		"setoption",
		"fly",
	} {
		e.send(bad)
		if l := e.until("info string"); !strings.HasPrefix(l[len(l)-1], "info string ") {
			t.Errorf("%q: %q", bad, l)
		}
	}
	e.send("go depth 2 wtime oops searchmoves e1e1 h8h7")
	e.until("info string") // oops
	e.until("info string") // e1e1
	if best, _ := e.bestmove(); best != "h8h7" {
		t.Errorf("after bad input the position changed: bestmove %s, want h8h7", best)
	}

	// go infinite answers only once stopped; then quit ends the process.
	e.send("position startpos", "go infinite", "isready")
	e.until("readyok")
	for quiet := time.After(300 * time.Millisecond); ; {
		var l string
		select {
		case l = <-e.lines:
		case <-quiet:
		}
		if l == "" {
			break
		}
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("go infinite answered %q before stop", l)
		}
	}
	e.send("stop")
	if best, _ := e.bestmove(); len(best) != 4 {
		t.Errorf("bestmove after stop: %q, want a ban", best)
	}

	// EN-Chess: every ply a move, x squares in coordinates (Black's Auror
	// swapped with its king: x9e8), and the engine's answer a legal move.
	e.send("setoption name UCI_Variant value enchess", "ucinewgame", "position startpos moves e2e4 x9e8 d2d4", "go depth 3")
	en, err := rules.VariantByID("en")
	if err != nil {
		t.Fatal(err)
	}
	g = rules.New(en)
	play(t, g, "e2e4", "x9e8", "d2d4")
	move, info = e.bestmove()
	checkInfo(t, g, info)
	play(t, g, move)
	if g.ToMove() != rules.White {
		t.Errorf("EN-Chess: after d4 the engine answered %s, not a move of Black's", move)
	}
	// The Auror and the queen come together: the queen checks h8 through
	// g7, and no second piece can come between.
	const auror = "6rk/6pp/8/8/8/8/8/Q1A3K1 w - - 0 1 --"
	e.send("position fen "+auror, "go depth 3")
	mate, info = e.bestmove()
	if g, err = rules.FromFEN(auror, en); err != nil {
		t.Fatal(err)
	}
	play(t, g, mate)
	if g.Outcome().Status != rules.Checkmate || !strings.Contains(strings.Join(info, "\n"), "score mate 1 ") {
		t.Errorf("EN-Chess mate: bestmove %s (%s) after %q; want a mate with score mate 1", mate, g.Outcome(), info)
	}
	e.send("quit")
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after quit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the engine did not end after quit")
	}
}

// TestUnknownCommand: an unknown command prints the usage to stderr and
// exits 2, serving nothing.
func TestUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"foo"}, {"uci", "--hash", "64"}} {
		cmd := command(args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("banchess %s: %v, want exit status 2", strings.Join(args, " "), err)
		}
		if !strings.Contains(stderr.String(), "usage: banchess") || stdout.Len() > 0 {
			t.Errorf("banchess %s: stderr %q, stdout %q; want the usage on stderr only", strings.Join(args, " "), stderr.String(), stdout.String())
		}
	}
}
