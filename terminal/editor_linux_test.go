package terminal

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the controller end, where the test
// types and reads, and the terminal end, which the session gets.
func openPTY(t *testing.T) (controller, tty *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(controller.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); controller.Close() })
	return controller, tty
}

// screen collects what the session writes to the terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until text shows n times on the screen.
func (s *screen) waitFor(t *testing.T, text string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(s.String(), text) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%q never showed %d times; the screen:\n%s", text, n, s.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLineEditorInAPseudoTerminal drives the line editor as a player does:
// arrow-up recalls the last line, Backspace edits it, and Ctrl-C asks
// before leaving an unfinished game; the terminal is restored after.
func TestLineEditorInAPseudoTerminal(t *testing.T) {
	controller, tty := openPTY(t)
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	scr := &screen{}
	go func() { _, _ = controller.WriteTo(scr) }()
	type result struct {
		code   int
		errOut string
	}
	done := make(chan result, 1)
	go func() {
		var errOut bytes.Buffer
		opts := plain()
		opts.interactive, opts.edit = true, true
		code := run(context.Background(), service(), nil, tty, tty, &errOut, opts)
		done <- result{code, errOut.String()}
	}()
	typeKeys := func(keys string) {
		t.Helper()
		if _, err := controller.WriteString(keys); err != nil {
			t.Fatal(err)
		}
	}
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	scr.waitFor(t, "> ", 1)
	typeKeys("fen\r")
	scr.waitFor(t, startFEN, 1)
	typeKeys("\x1b[A\r") // arrow up: the last line again
	scr.waitFor(t, startFEN, 2)

	typeKeys("e2e5\x7f4\r") // Backspace mends the line: the ban e2e4
	scr.waitFor(t, "Black bans e2e4", 1)

	typeKeys("\x03") // Ctrl-C in the middle of a game asks first
	scr.waitFor(t, "Quit this unfinished game?", 1)
	typeKeys("n\r")
	scr.waitFor(t, "The game goes on.", 1)
	typeKeys("\x03")
	scr.waitFor(t, "Quit this unfinished game?", 2)
	typeKeys("y\r")
	select {
	case r := <-done:
		if r.code != 130 || r.errOut != "" {
			t.Errorf("quit with status %d, errors %q; want 130", r.code, r.errOut)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the session did not end after Ctrl-C and y; the screen:\n%s", scr.String())
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag {
		t.Errorf("the terminal was left in raw mode: lflag %#x, was %#x", after.Lflag, before.Lflag)
	}
}

// TestCtrlCQuitsAFinishedGameAtOnce: with the game over, nothing is lost,
// so Ctrl-C leaves without a question.
func TestCtrlCQuitsAFinishedGameAtOnce(t *testing.T) {
	controller, tty := openPTY(t)
	scr := &screen{}
	go func() { _, _ = controller.WriteTo(scr) }()
	done := make(chan int, 1)
	go func() {
		opts := plain()
		opts.interactive, opts.edit = true, true
		done <- run(context.Background(), service(), nil, tty, tty, &bytes.Buffer{}, opts)
	}()
	scr.waitFor(t, "> ", 1)
	controller.WriteString("resign\r")
	scr.waitFor(t, "Game over", 1)
	controller.WriteString("\x03")
	select {
	case code := <-done:
		if code != 130 || strings.Contains(scr.String(), "Quit this unfinished game?") {
			t.Errorf("status %d; the screen:\n%s", code, scr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Ctrl-C did not quit a finished game; the screen:\n%s", scr.String())
	}
}
