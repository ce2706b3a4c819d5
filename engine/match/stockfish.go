package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/banchess/banchess/rules"
)

// Stockfish plays Ban Chess by a simple rule through UCI: as banner it bans
// the pair of its best move for the mover; as mover it plays its best move
// among those the ban leaves (go searchmoves).
type Stockfish struct {
	PerPly time.Duration
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
}

// NewStockfish starts the engine at path with one thread.
func NewStockfish(path string, perPly time.Duration) (*Stockfish, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	s := &Stockfish{PerPly: perPly, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	s.send("uci")
	if _, err := s.wait("uciok"); err != nil {
		return nil, err
	}
	s.send("setoption name Threads value 1")
	s.send("setoption name Hash value 32")
	s.send("isready")
	if _, err := s.wait("readyok"); err != nil {
		return nil, err
	}
	return s, nil
}

// Close stops the engine.
func (s *Stockfish) Close() error {
	s.send("quit")
	s.in.Close()
	return s.cmd.Wait()
}

// Name implements Player.
func (s *Stockfish) Name() string { return "stockfish-rule" }

func (s *Stockfish) send(line string) { fmt.Fprintln(s.in, line) }

// wait reads lines until one starts with prefix and returns it.
func (s *Stockfish) wait(prefix string) (string, error) {
	for s.out.Scan() {
		if line := s.out.Text(); strings.HasPrefix(line, prefix) {
			return line, nil
		}
	}
	if err := s.out.Err(); err != nil {
		return "", err
	}
	return "", io.ErrUnexpectedEOF
}

// Act implements Player.
func (s *Stockfish) Act(_ context.Context, g *rules.Game) (rules.Action, error) {
	pos := g.Position()
	cmd := fmt.Sprintf("go movetime %d", s.PerPly.Milliseconds())
	if g.Turn().Phase == rules.PhaseMove {
		var moves []string
		for _, a := range g.Legal() {
			moves = append(moves, a.Coords())
		}
		cmd += " searchmoves " + strings.Join(moves, " ")
	}
	s.send("position fen " + pos.FEN())
	s.send(cmd)
	line, err := s.wait("bestmove")
	if err != nil {
		return rules.Action{}, err
	}
	f := strings.Fields(line)
	if len(f) < 2 || len(f[1]) < 4 {
		return rules.Action{}, fmt.Errorf("stockfish said %q", line)
	}
	if g.Turn().Phase == rules.PhaseBan {
		return rules.ParseAction("b:" + f[1][:4])
	}
	return rules.ParseAction("m:" + f[1])
}
