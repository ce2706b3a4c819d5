package botclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Process is a running UCI engine: what is written to In reaches its
// standard input, its standard output is read from Out, and Stop ends it.
type Process struct {
	In   io.WriteCloser
	Out  io.Reader
	Stop func() error
}

// Starter starts an engine process for one game.
type Starter func(ctx context.Context) (Process, error)

// Exec starts the engine that command line names ("banchess uci",
// "stockfish"), split at spaces.
func Exec(command string) Starter {
	return func(ctx context.Context) (Process, error) {
		args := strings.Fields(command)
		if len(args) == 0 {
			return Process{}, errors.New("no engine: give its command, such as \"banchess uci\"")
		}
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		in, err := cmd.StdinPipe()
		if err != nil {
			return Process{}, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return Process{}, err
		}
		if err := cmd.Start(); err != nil {
			return Process{}, fmt.Errorf("starting the engine %q: %w", command, err)
		}
		return Process{In: in, Out: out, Stop: func() error {
			in.Close() // an engine reading "quit" or its input's end stops
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				return err
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				return <-done
			}
		}}, nil
	}
}

// engine speaks UCI to a process.
type engine struct {
	p     Process
	lines chan string // the engine's lines, closed when its output ends
}

// startEngine starts an engine with start, and readies it for a game of
// the UCI variant, with the options given ("Threads" → "2").
func startEngine(ctx context.Context, start Starter, variant string, options map[string]string) (*engine, error) {
	p, err := start(ctx)
	if err != nil {
		return nil, err
	}
	e := &engine{p: p, lines: make(chan string, 64)}
	go func() {
		defer close(e.lines)
		sc := bufio.NewScanner(p.Out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
	}()
	steps := func() error {
		if err := e.send("uci"); err != nil {
			return err
		}
		if _, err := e.await(ctx, "uciok", 10*time.Second); err != nil {
			return err
		}
		if variant != "chess" {
			if err := e.send("setoption name UCI_Variant value %s", variant); err != nil {
				return err
			}
		}
		for name, value := range options {
			if err := e.send("setoption name %s value %s", name, value); err != nil {
				return err
			}
		}
		if err := e.send("ucinewgame"); err != nil {
			return err
		}
		if err := e.send("isready"); err != nil {
			return err
		}
		_, err := e.await(ctx, "readyok", 10*time.Second)
		return err
	}
	if err := steps(); err != nil {
		e.stop()
		return nil, fmt.Errorf("readying the engine: %w", err)
	}
	return e, nil
}

// send writes a line to the engine.
func (e *engine) send(format string, args ...any) error {
	_, err := fmt.Fprintf(e.p.In, format+"\n", args...)
	return err
}

// await reads the engine's lines until one starting with word, and
// answers it; within wait.
func (e *engine) await(ctx context.Context, word string, wait time.Duration) (string, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return "", fmt.Errorf("the engine stopped before %q", word)
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == word {
				return line, nil
			}
		case <-timer.C:
			return "", fmt.Errorf("no %q from the engine within %s", word, wait)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// search asks the engine for the next ply of the position (UCI's
// "position …" arguments) with go's arguments, and answers it.
func (e *engine) search(ctx context.Context, position, goArgs string, wait time.Duration) (string, error) {
	if err := e.send("position %s", position); err != nil {
		return "", err
	}
	if err := e.send("go %s", goArgs); err != nil {
		return "", err
	}
	line, err := e.await(ctx, "bestmove", wait)
	if err != nil {
		return "", err
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[1] == "(none)" || f[1] == "0000" {
		return "", fmt.Errorf("the engine found no ply: %q", line)
	}
	return f[1], nil
}

// stop ends the engine: "quit" (given a second to be read, by an
// engine that may be busy), then its process's Stop.
func (e *engine) stop() {
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		e.send("quit")
	}()
	select {
	case <-sent:
	case <-time.After(time.Second):
	}
	if e.p.Stop != nil {
		e.p.Stop()
	}
}
