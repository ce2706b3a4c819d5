package views

import (
	"strconv"

	"github.com/a-h/templ"
)

// Chat is a game's chat panel: the viewer's room, its latest lines, and
// the form that says a line when the viewer may.
type Chat struct {
	// Room is "player" or "spectator"; Title names it ("Players' chat").
	Room, Title string
	Lines       []ChatLine
	// Last is the seq of the game's last line in either room, which the
	// page's stream follows from.
	Last int64
	// Write says the viewer may write now; else Why says why not.
	Write bool
	Why   string
	// Off says the viewer turned chat off: the panel shows no room.
	Off bool
	// PostURL is where the form posts a line.
	PostURL templ.SafeURL
	// Error says why the last line was refused (a page without
	// JavaScript), and Text is what it said, to edit.
	Error, Text string
	// Report starts the address that reports a line of the room (its seq
	// follows), "" where the viewer cannot report; Me is the viewer's
	// name, whose own lines have no report link.
	Report, Me string
}

// ChatLine is a line as the chat panel shows it: plain text, links
// included, never made a link.
type ChatLine struct {
	Seq  int64
	Name string // "Anonymous" for a player without a name
	Text string
	// ReportURL is where the viewer reports the line, "" where they
	// cannot.
	ReportURL string
}

// LastText writes Last for the page's stream.
func (c Chat) LastText() string { return strconv.FormatInt(c.Last, 10) }

// AccountChat is the account page's chat setting.
type AccountChat struct {
	Off bool
}
