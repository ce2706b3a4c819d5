package terminal

import (
	"strings"

	"github.com/banchess/banchess/rules"
)

// paste collects the lines of a FEN or PGN pasted after a bare "load". A
// FEN is one line and is complete at once; a PGN ends at an empty line
// after its moves (the empty line between its tags and its moves does not
// end it).
type paste struct {
	active bool // from the bare load to the end of the paste
	lines  []string
}

// start begins a paste, after a bare load.
func (p *paste) start() { p.active, p.lines = true, nil }

// add takes one line of the paste. When that completes it, add ends the
// paste and returns its text (empty when nothing was pasted) and true.
func (p *paste) add(line string) (text string, done bool) {
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed != "" && len(p.lines) == 0 && rules.LooksLikeFEN(trimmed):
		p.lines = []string{trimmed}
	case trimmed != "":
		p.lines = append(p.lines, line)
		return "", false
	case onlyTags(p.lines):
		return "", false
	}
	return p.end(), true
}

// end ends the paste, complete or not, and returns its text (empty when
// nothing was pasted, or none is under way).
func (p *paste) end() string {
	text := strings.Join(p.lines, "\n")
	p.active, p.lines = false, nil
	return text
}

// onlyTags reports whether lines are PGN tag pairs only, at least one.
func onlyTags(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "[") {
			return false
		}
	}
	return len(lines) > 0
}
