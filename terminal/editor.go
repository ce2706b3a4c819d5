package terminal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// keyCtrlC is the byte a terminal in raw mode sends for Ctrl-C.
const keyCtrlC = 3

// interruptMark stands for a Ctrl-C in the line the editor returns: x/term
// would end the line at Ctrl-C as at Ctrl-D (io.EOF) and then keep the key
// unread, ending every later line too, so keyWatch turns Ctrl-C into this
// private-use character and Enter before the editor sees it.
const interruptMark = "\ue000"

// maxHistory bounds the lines the editor recalls.
const maxHistory = 500

// line is one line of input, or a Ctrl-C typed on the line editor.
type line struct {
	text      string
	interrupt bool
}

// editor reads lines on a terminal in raw mode with golang.org/x/term:
// editing with the arrow keys, and the lines typed before recalled with
// up and down. Everything the session writes goes through it, so that
// answers and the prompt do not tangle.
type editor struct {
	t       *term.Terminal
	restore func() error
}

// newEditor puts the terminal in (an *os.File) in raw mode and edits lines
// on it, writing to out; close restores the terminal.
func newEditor(in *os.File, out io.Writer) (*editor, error) {
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, err
	}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{&keyWatch{r: in}, out}, "> ")
	t.History = &history{}
	return &editor{t: t, restore: func() error { return term.Restore(int(in.Fd()), state) }}, nil
}

// Write writes answers above the line being edited.
func (e *editor) Write(p []byte) (int, error) { return e.t.Write(p) }

func (e *editor) close() error { return e.restore() }

// ask sets the prompt for the next line: "> " for a command, or a question.
func (e *editor) ask(prompt string) { e.t.SetPrompt(prompt) }

// lines sends the lines read until the input ends (then the read error, nil
// for a Ctrl-D on an empty line, and closes lines) or ctx is cancelled
// (then ctx's error).
func (e *editor) lines(ctx context.Context) (<-chan line, <-chan error) {
	out := make(chan line)
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		for {
			text, err := e.t.ReadLine()
			l := line{text: text, interrupt: strings.HasSuffix(text, interruptMark)}
			if errors.Is(err, term.ErrPasteIndicator) {
				err = nil
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				errc <- err
				return
			}
			select {
			case out <- l:
			case <-ctx.Done():
				errc <- ctx.Err()
				return
			}
		}
	}()
	return out, errc
}

// keyWatch passes the terminal's bytes on, each Ctrl-C turned into
// interruptMark and Enter.
type keyWatch struct {
	r       io.Reader
	pending []byte
}

func (k *keyWatch) Read(p []byte) (int, error) {
	if len(k.pending) == 0 {
		n, err := k.r.Read(p)
		if bytes.IndexByte(p[:n], keyCtrlC) < 0 {
			return n, err
		}
		k.pending = bytes.ReplaceAll(p[:n], []byte{keyCtrlC}, []byte(interruptMark+"\r"))
		if n == 0 {
			return 0, err
		}
	}
	n := copy(p, k.pending)
	k.pending = k.pending[n:]
	return n, nil
}

// history keeps the lines typed, most recent first, leaving out empty
// lines, repeats of the last one and interrupted ones.
type history struct{ lines []string }

func (h *history) Add(s string) {
	if strings.TrimSpace(s) == "" || strings.Contains(s, interruptMark) || len(h.lines) > 0 && h.lines[0] == s {
		return
	}
	h.lines = append([]string{s}, h.lines[:min(len(h.lines), maxHistory-1)]...)
}

func (h *history) Len() int { return len(h.lines) }

func (h *history) At(i int) string { return h.lines[i] }
