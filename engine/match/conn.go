package match

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// conn is a UCI engine in a child process: a small UCI client.
type conn struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// dial starts the engine path with args and waits for its uciok.
func dial(path string, args ...string) (*conn, error) {
	cmd := exec.Command(path, args...)
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
	c := &conn{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	c.out.Buffer(nil, 1<<20)
	c.send("uci")
	if _, err := c.wait("uciok"); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// setup sends options (each "name value") and waits until the engine is
// ready.
func (c *conn) setup(options ...string) error {
	for _, o := range options {
		name, value, _ := strings.Cut(o, "=")
		c.send("setoption name " + name + " value " + value)
	}
	c.send("isready")
	_, err := c.wait("readyok")
	return err
}

// Close stops the engine.
func (c *conn) Close() error {
	c.send("quit")
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		return <-done
	}
}

func (c *conn) send(line string) { fmt.Fprintln(c.in, line) }

// wait reads lines until one starts with prefix and returns it.
func (c *conn) wait(prefix string) (string, error) {
	for c.out.Scan() {
		if line := c.out.Text(); strings.HasPrefix(line, prefix) {
			return line, nil
		}
	}
	if err := c.out.Err(); err != nil {
		return "", err
	}
	return "", io.ErrUnexpectedEOF
}
