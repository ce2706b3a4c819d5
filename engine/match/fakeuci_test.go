package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/banchess/banchess/rules"
	"github.com/banchess/banchess/uci"
)

// The test binary doubles as a fake Stockfish: run with fakeUCI set in its
// environment, it speaks UCI on its standard input and output instead of
// running the tests (the helper-process pattern of os/exec's tests).
const (
	fakeUCI      = "BANCHESS_FAKE_UCI"       // "1": be the fake engine; "mute": exit at once; "banchess": be banchess uci
	fakeUCILog   = "BANCHESS_FAKE_UCI_LOG"   // a file to append each line received to
	fakeUCIReply = "BANCHESS_FAKE_UCI_REPLY" // the bestmove lines to answer each go with, in turn, split by |
)

func TestMain(m *testing.M) {
	switch os.Getenv(fakeUCI) {
	case "":
		os.Exit(m.Run())
	case "mute":
		os.Exit(0)
	case "banchess":
		if err := uci.Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "banchess uci:", err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		var replies []string
		if r := os.Getenv(fakeUCIReply); r != "" {
			replies = strings.Split(r, "|")
		}
		if err := serveFakeUCI(os.Stdin, os.Stdout, os.Getenv(fakeUCILog), replies); err != nil {
			fmt.Fprintln(os.Stderr, "fake UCI:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// serveFakeUCI answers UCI commands on in until quit. Each go is answered
// with the next of replies; once they are used up (or with none), with the
// first of searchmoves, else the position's first legal chess move, so a
// game against it runs its course.
func serveFakeUCI(in io.Reader, out io.Writer, logPath string, replies []string) error {
	var log io.Writer = io.Discard
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		log = f
	}
	var fen string
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		line := lines.Text()
		fmt.Fprintln(log, line)
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "uci":
			fmt.Fprint(out, "id name fakefish\nid author banchess tests\nuciok\n")
		case "isready":
			fmt.Fprintln(out, "readyok")
		case "position":
			fen, _ = strings.CutPrefix(rest, "fen ")
		case "go":
			var best string
			if len(replies) > 0 {
				best, replies = replies[0], replies[1:]
			} else {
				move, err := fakeBest(fen, rest)
				if err != nil {
					return err
				}
				best = "bestmove " + move + " ponder a1a2"
			}
			fmt.Fprintf(out, "info depth 1 score cp 12\n%s\n", best)
		case "quit":
			return nil
		}
	}
	return lines.Err()
}

// fakeBest is the fake's choice at fen for the arguments of go.
func fakeBest(fen, goArgs string) (string, error) {
	if _, moves, ok := strings.Cut(goArgs, "searchmoves "); ok {
		return strings.Fields(moves)[0], nil
	}
	g, err := rules.FromFEN(fen, rules.Classic{})
	if err != nil {
		return "", err
	}
	legal := g.Legal()
	if len(legal) == 0 {
		return "(none)", nil
	}
	return legal[0].Coords(), nil
}
