package terminal

import (
	"fmt"
	"io"
	"strings"

	"github.com/banchess/banchess/i18n"
)

// ANSI styles, written only when the printer's colour is on.
const (
	red   = "\x1b[31;1m"
	bold  = "\x1b[1m"
	reset = "\x1b[0m"
)

// printer writes the session's side of the conversation: answers,
// refusals and prompts.
type printer struct {
	w      io.Writer
	colour bool           // write ANSI styles (options.colour)
	lang   *i18n.Language // the language it speaks
}

// tell writes message id of the printer's language, its placeholders
// filled from args' name-value pairs, as a line of answer.
func (p *printer) tell(id string, args ...any) {
	fmt.Fprintln(p.w, p.lang.T(id, args...))
}

// say writes one line of answer.
func (p *printer) say(format string, args ...any) {
	fmt.Fprintf(p.w, format+"\n", args...)
}

// refuse writes why an input was refused; nothing has changed.
func (p *printer) refuse(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(p.w, p.paint(red, "✗ "+msg))
}

// print writes text as it is, such as a board with its line ends.
func (p *printer) print(text string) { fmt.Fprint(p.w, text) }

// paint wraps text in an ANSI style when colour is on, and returns it
// unchanged otherwise.
func (p *printer) paint(style, text string) string {
	if !p.colour {
		return text
	}
	return style + text + reset
}

// wrapped writes words indented, in lines of at most 72 columns.
func (p *printer) wrapped(words []string) {
	var b strings.Builder
	col := 0
	for _, w := range words {
		if col > 0 && col+1+len(w) > 72 {
			b.WriteByte('\n')
			col = 0
		}
		if col == 0 {
			b.WriteString(" ")
			col = 1
		}
		b.WriteString(" " + w)
		col += 1 + len(w)
	}
	p.say("%s", b.String())
}

// prompt asks for the next line on a terminal.
func (p *printer) prompt() { fmt.Fprint(p.w, "> ") }

// echo repeats a line read from a pipe after the prompt, so that the output
// reads as the conversation it was.
func (p *printer) echo(line string) { fmt.Fprintf(p.w, "> %s\n", line) }
